import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { blockRuleYaml } from '../helpers/repo.js';
import { planFromArgs } from '../../src/cli/planning.js';
import type { Io } from '../../src/cli/context.js';
import { SHARED_TEXTS } from '../../src/kinds/shared-texts.js';

/**
 * A plan offers the long texts of its manifests to the run once they are loaded, for listings to
 * hold in place of their own copies (src/kinds/shared-texts.ts; the rule adapter's test shows a
 * listing sharing them): at 20,000 rules a repeated plan held every investigation guide twice.
 */
describe('a plan offers its manifests\' long texts to the run', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));

  it('a text of the manifests is found by value in the run the plan read through', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-shared-texts-'));
    const description = Array.from({ length: 8 }, (_, i) => `Line ${i} of a description long enough to be worth sharing.`);
    writeFileSync(join(dir, 'rule.yaml'), blockRuleYaml('shared-rule', description, ['process.name: "tool.exe"']));
    const io: Io = { out: () => {}, err: () => {}, env: { PATH: process.env.PATH, SVCFORM_CACHE_DIR: join(dir, '.cache') }, outTty: false, errTty: false };
    // The description as the block scalar reads, built apart from the manifest's string.
    const text = `${description.join('\n')}\n`;
    const planned = await planFromArgs([dir], { url: emu.url }, io);
    try {
      assert.equal(planned.plan.summary.create, 1);
      const texts = planned.target.ctx.run.get(SHARED_TEXTS);
      texts.share({ description: text });
      assert.equal(texts.shared, 1);
    } finally {
      await planned.target.close();
    }
  });
});
