import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { Selection } from '../../src/engine/selection.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { connectorYaml, repo, ruleYaml } from '../helpers/repo.js';

/** Issue "Safe apply", item 3: --select matches kinds case-insensitively, and a pattern that matches nothing is an error. */
describe('Selection (the one matcher)', () => {
  it('matches the kind part in any case, the name part exactly', () => {
    const s = new Selection(['rule/ssh-*']);
    assert.ok(s.matches('Rule', 'ssh-brute-force'));
    assert.ok(!s.matches('Rule', 'SSH-brute-force'));
    assert.ok(s.mayMatchKind('Rule'));
    assert.ok(new Selection(['CONNECTOR/x']).matches('Connector', 'x'));
  });

  it('names the patterns that match none of the given objects', () => {
    const s = new Selection(['rule/a', 'Connector/*', 'Rule/nope']);
    assert.deepEqual(s.unmatched([{ kind: 'Rule', name: 'a' }, { kind: 'Connector', name: 'c' }]), ['Rule/nope']);
    assert.deepEqual(new Selection([]).unmatched([]), []);
  });
});

describe('--select on the commands', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = repo({ 'svcform.yaml': 'manage:\n  - kind: Connector\n    selector: {namePrefix: "soc-"}\n', 'c.yaml': connectorYaml('soc-log'), 'r.yaml': ruleYaml('r1') });
  });
  after(() => emu.stop());

  it('plan: a lowercase kind selects the object', async () => {
    const run = await cli(['plan', dir, '--url', emu.url, '--select', 'rule/r1']);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, /create Rule\/r1 /);
    assert.doesNotMatch(run.out, /Connector\/soc-log/);
  });

  for (const command of ['plan', 'apply', 'drift']) {
    it(`${command}: a pattern that matches nothing is an error naming it, and nothing is applied`, async () => {
      const run = await cli([command, dir, '--url', emu.url, '--select', 'Rule/r1', '--select', 'Rule/typo']);
      assert.equal(run.code, 1, run.out + run.err);
      assert.match(run.out + run.err, /--select "Rule\/typo": matches no manifest and no managed live object/);
      assert.doesNotMatch(run.out + run.err, /"Rule\/r1"/);
    });
  }

  it('export: a pattern that matches no live object is an error naming it, and nothing is written', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'svcform-select-export-')), 'out');
    const run = await cli(['export', '--out', out, '--url', emu.url, '--select', 'connector/nothing-*']);
    assert.equal(run.code, 1, run.out + run.err);
    assert.match(run.err, /--select "connector\/nothing-\*" matches no live object/);
  });

  it('a pattern that matches an unchanged object, or an owned object without a manifest, is fine', async () => {
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    const unchanged = await cli(['plan', dir, '--url', emu.url, '--select', 'Rule/r1', '--detailed-exitcode']);
    assert.equal(unchanged.code, 0, unchanged.out + unchanged.err);
    const ownedOnly = await cli(['plan', repo({ 'svcform.yaml': 'manage:\n  - kind: Connector\n    selector: {namePrefix: "soc-"}\n' }), '--url', emu.url, '--select', 'Connector/soc-log']);
    assert.equal(ownedOnly.code, 0, ownedOnly.out + ownedOnly.err);
    assert.match(ownedOnly.out, /delete Connector\/soc-log /);
    const exported = await cli(['export', '--out', join(mkdtempSync(join(tmpdir(), 'svcform-select-export-')), 'out'), '--url', emu.url, '--select', 'rule/r1']);
    assert.equal(exported.code, 0, exported.out + exported.err);
    assert.match(exported.err, /^Rule\s+default\s+1\s/m);
  });
});
