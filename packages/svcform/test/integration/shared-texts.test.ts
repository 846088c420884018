import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { blockRuleYaml } from '../helpers/repo.js';
import { planFromArgs } from '../../src/cli/planning.js';
import type { Io } from '../../src/cli/context.js';
import { SHARED_TEXTS } from '../../src/kinds/shared-texts.js';

/**
 * A plan offers the long texts of its manifests to the run once they are loaded, and the rules'
 * listing, read ahead, holds those strings in place of its own copies (src/kinds/shared-texts.ts):
 * at 20,000 rules a repeated plan held every investigation guide twice, about 200 MB each.
 */
describe('a plan shares the manifests\' long texts with the rules it lists', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));

  it('a rule listed after the manifests loaded holds their description and query', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-shared-texts-'));
    const description = Array.from({ length: 8 }, (_, i) => `Line ${i} of a description long enough to be worth sharing.`);
    const query = Array.from({ length: 12 }, (_, i) => `process.name: "tool-${i}.exe" or`).concat(['process.name: "last.exe"']);
    writeFileSync(join(dir, 'rule.yaml'), blockRuleYaml('shared-rule', description, query));
    const env = { SVCFORM_CACHE_DIR: join(dir, '.cache') };
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve'], env);
    assert.equal(applied.code, 0, applied.out + applied.err);
    // The listing, read ahead at once (the file is in the cache), is answered only after the
    // manifests have loaded, as the pages of a large space are.
    await fetch(`${emu.url}/__emulator/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [{ method: 'GET', path: '^/api/detection_engine/rules/_find$', delayMs: 1000, times: 1 }] }) });
    const io: Io = { out: () => {}, err: () => {}, env: { PATH: process.env.PATH, ...env }, outTty: false, errTty: false };
    const planned = await planFromArgs([dir], { url: emu.url }, io);
    try {
      assert.equal(planned.plan.summary.unchanged, 1, JSON.stringify(planned.plan.changes));
      assert.equal(planned.target.ctx.run.get(SHARED_TEXTS).shared, 2);
    } finally {
      await planned.target.close();
    }
  });
});
