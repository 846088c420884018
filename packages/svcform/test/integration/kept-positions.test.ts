import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBuiltCli } from '../helpers/spawn-cli.js';
import { blockRuleYaml, repo } from '../helpers/repo.js';
import { emulator } from '@svcform/emulator/testing.js';

/**
 * The plan's own warnings point into the manifests (a rule's timeline_id naming a template the
 * server does not hold). A document read from the cache has no places but its start, so each such
 * place cost a parse of its file at every plan: 2,051 real rules given such a reference made a
 * repeated plan 1.2 s against 0.6 s (issue 29: a warning on every rule must not make a plan
 * slower). Places are now read only when shown (a text plan shows one per group of like
 * warnings), and those asked are kept for the next run (manifest/kept-positions.ts).
 */

const TEMPLATE = '0a5c5b6e-7a1f-4c1f-8731-6ce5ed9e5717';

/** A rule whose timeline_id sits a few lines below its start, as in the converted production rules. */
function ruleNamingTemplate(name: string): string {
  return blockRuleYaml(name, ['A rule whose alerts open a team template.'], ['event.kind:alert']).replace('  index:\n', `  timeline_id: ${TEMPLATE}\n  timeline_title: Team template\n  index:\n`);
}

const reparsedInAll = (err: string) => Number(/^after the plan: (\d+) files parsed again for positions in all$/m.exec(err)?.[1]);
const warningLines = (out: string) => out.split('\n').filter((l) => l.startsWith('warning: '));

describe('places of the plan\'s warnings in cached manifests (kept-positions.ts)', () => {
  it('a text plan reads one place per group; the places a JSON plan reads are kept, and the next plans parse no file', async () => {
    const files: Record<string, string> = { 'svcform.yaml': 'space: default\n' };
    for (const n of ['one', 'two', 'three']) files[`rules/${n}.yaml`] = ruleNamingTemplate(`rule-${n}`);
    const dir = repo(files, 'svcform-kept-positions-');
    const emu = await emulator();
    try {
      const plan = (...more: string[]) => runBuiltCli(['plan', '.', '--url', emu.url, '--verbose', ...more], dir);
      // validate keeps the documents and asks no place: every plan below reads them from the cache.
      assert.equal((await runBuiltCli(['validate', '.'], dir)).code, 0);
      const text = await plan();
      assert.equal(text.code, 0, text.err);
      const shown = warningLines(text.out);
      assert.equal(shown.length, 1, text.out);
      assert.match(shown[0], new RegExp(`^warning: rules/one\\.yaml:15:3: Rule/rule-one \\(space default\\) and 2 more .*spec\\.timeline_id names TimelineTemplate "${TEMPLATE}"`));
      assert.equal(reparsedInAll(text.err), 1, 'the group shows the first place only');

      const json = await plan('--json');
      assert.equal(json.code, 0, json.err);
      const sources = (JSON.parse(json.out) as { warnings: { source?: string }[] }).warnings.map((w) => w.source).sort();
      assert.deepEqual(sources, ['rules/one.yaml:15:3', 'rules/three.yaml:15:3', 'rules/two.yaml:15:3']);
      assert.equal(reparsedInAll(json.err), 2, 'the place of rules/one.yaml was kept by the text plan');

      const again = await plan('--json');
      assert.equal(again.out, json.out);
      assert.equal(reparsedInAll(again.err), 0, 'every place is kept: no file parsed again');
      const textAgain = await plan();
      assert.deepEqual(warningLines(textAgain.out), shown);
      assert.equal(reparsedInAll(textAgain.err), 0);
      // --no-cache reads and keeps nothing: the same places from the files themselves.
      const uncached = await plan('--json', '--no-cache');
      assert.equal(uncached.code, 0, uncached.err);
      assert.equal(uncached.out, json.out);
    } finally {
      await emu.stop();
    }
  });

  it('a changed file gets the places of its new bytes', async () => {
    const dir = repo({ 'svcform.yaml': 'space: default\n', 'rules/one.yaml': ruleNamingTemplate('rule-one') }, 'svcform-kept-positions-');
    const emu = await emulator();
    try {
      const plan = () => runBuiltCli(['plan', '.', '--url', emu.url, '--json'], dir);
      assert.equal((await runBuiltCli(['validate', '.'], dir)).code, 0);
      const before = JSON.parse((await plan()).out) as { warnings: { source?: string }[] };
      assert.equal(before.warnings[0].source, 'rules/one.yaml:15:3');
      // Two lines more above the reference: the kept place belongs to the old bytes.
      writeFileSync(join(dir, 'rules', 'one.yaml'), ruleNamingTemplate('rule-one').replace('  type: query\n', '  type: query\n  tags:\n    - team\n'));
      assert.equal((await runBuiltCli(['validate', '.'], dir)).code, 0);
      const after = JSON.parse((await plan()).out) as { warnings: { source?: string }[] };
      assert.equal(after.warnings[0].source, 'rules/one.yaml:17:3');
    } finally {
      await emu.stop();
    }
  });
});
