import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, type CliRun } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';
import { findingLines, runBuiltCli } from '../helpers/spawn-cli.js';

/** Issue 33 part 2: one manifest, many spaces (metadata.spaces, metadata.spaceOverrides). */

const SPACES = ['soc-eu', 'soc-us', 'soc-ap'];
const spaceYaml = (id: string, region: string) => ['apiVersion: svcform/v1', 'kind: Space', `metadata: {name: ${id}, labels: {tier: soc, region: ${region}}}`, `spec: {name: SOC ${id}}`, ''].join('\n');
const spacesYaml = SPACES.map((s, i) => spaceYaml(s, ['eu', 'us', 'ap'][i])).join('---\n');
const connectorYaml = (spaces: string) => ['apiVersion: svcform/v1', 'kind: Connector', 'metadata:', '  name: soc-log', `  spaces: ${spaces}`, 'spec: {name: SOC log, connector_type_id: .server-log}', ''].join('\n');
/** A rule whose action names the connector of its own space. */
const ruleYaml = (spaces: string, overrides: string[] = []) =>
  [
    'apiVersion: svcform/v1',
    'kind: Rule',
    'metadata:',
    '  name: ssh-brute-force',
    `  spaces: ${spaces}`,
    ...overrides,
    'spec:',
    '  type: query',
    '  name: SSH brute force',
    '  description: Many failed SSH logins',
    '  severity: medium',
    '  risk_score: 47',
    "  query: 'event.category:authentication and event.outcome:failure'",
    '  actions:',
    '    - id: soc-log',
    '      group: default',
    '      params: {message: fired}',
    '',
  ].join('\n');
const shown = (r: CliRun) => `exit ${r.code}\n--- out\n${r.out}\n--- err\n${r.err}`;

describe('one manifest, many spaces', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  beforeEach(() => call(emu, 'POST', '/__emulator/reset'));
  after(() => emu.stop());
  const run = (args: string[]) => cli([...args, '--url', emu.url]);
  const ruleIn = async (space: string) => (await call(emu, 'GET', `/s/${space}/api/detection_engine/rules?rule_id=ssh-brute-force`)).body;
  const writes = () => emu.log.all().filter((r) => r.method !== 'GET');

  it('creates a fanned-out rule in three spaces, each with the connector of its space, and re-plans empty', async () => {
    const dir = repo({ 'spaces.yaml': spacesYaml, 'connector.yaml': connectorYaml('[soc-eu, soc-us, soc-ap]'), 'rule.yaml': ruleYaml('[soc-eu, soc-us, soc-ap]') });
    const planned = await run(['plan', dir, '--json']);
    assert.equal(planned.code, 0, shown(planned));
    const plan = JSON.parse(planned.out);
    const rules = plan.changes.filter((c: any) => c.kind === 'Rule');
    assert.deepEqual(rules.map((c: any) => `${c.action} ${c.space}`).sort(), ['create soc-ap', 'create soc-eu', 'create soc-us']);
    // The JSON plan names the one manifest all three come from.
    for (const c of rules) assert.deepEqual(c.fan_out, { manifest: c.source, spaces: SPACES });
    assert.match(rules[0].source, /rule\.yaml:1:1$/);
    // Each rule waits for the connector of its own space, not another space's.
    for (const c of rules) assert.deepEqual(c.depends_on.filter((d: string) => d.startsWith('Connector/')), [`Connector/${c.space}/soc-log`]);

    const applied = await run(['apply', dir, '--auto-approve']);
    assert.equal(applied.code, 0, shown(applied));
    for (const space of SPACES) {
      const rule = await ruleIn(space);
      assert.equal(rule.name, 'SSH brute force', space);
      assert.equal(rule.actions[0].id, 'soc-log', space);
    }
    const again = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(again.code, 0, shown(again));
    assert.match(again.out, /0 to create, 0 to update, 0 to delete/);

    // A change made by hand in one space is drift of that space's object only.
    assert.equal((await call(emu, 'PATCH', '/s/soc-us/api/detection_engine/rules', { rule_id: 'ssh-brute-force', severity: 'low' })).status, 200);
    const drift = await run(['drift', dir, '--json']);
    assert.equal(drift.code, 2, shown(drift));
    assert.deepEqual(JSON.parse(drift.out).changes.map((c: any) => `${c.action} ${c.kind} ${c.space} ${c.fields.map((f: any) => `${f.path}=${f.after}`).join(',')}`), ['update Rule soc-us spec.severity=medium']);
  });

  it('groups the changes of one manifest under it in the text plan', async () => {
    const dir = repo({ 'spaces.yaml': spacesYaml, 'connector.yaml': connectorYaml('[soc-eu, soc-us, soc-ap]') });
    const planned = await run(['plan', dir]);
    assert.equal(planned.code, 0, shown(planned));
    const lines = planned.out.split('\n');
    const header = lines.findIndex((l) => /^Connector\/soc-log: one manifest in spaces soc-eu, soc-us, soc-ap \(.*connector\.yaml:1:1\)$/.test(l));
    assert.ok(header >= 0, planned.out);
    const members = lines.slice(header + 1).filter((l) => /^  \+ create Connector\/soc-log \(space /.test(l));
    assert.equal(members.length, 3, planned.out);
    assert.equal(lines.filter((l) => l.startsWith('Connector/soc-log:')).length, 1, 'one header for the manifest');
    const markdown = await run(['plan', dir, '--format', 'markdown']);
    assert.equal(markdown.out.split('\n').filter((l) => l.includes('`Connector/soc-log` in space') && l.endsWith('(one manifest for `soc-eu`, `soc-us`, `soc-ap`)')).length, 3, markdown.out);
  });

  it('a per-space override changes one field in one space only, and is placed at the override in messages', async () => {
    const overrides = ['  spaceOverrides:', '    soc-eu:', '      spec: {severity: critical, risk_score: 99}'];
    const dir = repo({ 'spaces.yaml': spacesYaml, 'connector.yaml': connectorYaml('[soc-eu, soc-us, soc-ap]'), 'rule.yaml': ruleYaml('[soc-eu, soc-us, soc-ap]', overrides) });
    const applied = await run(['apply', dir, '--auto-approve']);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal((await ruleIn('soc-eu')).severity, 'critical');
    assert.equal((await ruleIn('soc-eu')).risk_score, 99);
    for (const space of ['soc-us', 'soc-ap']) {
      assert.equal((await ruleIn(space)).severity, 'medium', space);
      assert.equal((await ruleIn(space)).risk_score, 47, space);
    }
    assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);

    // Changing the override plans one update, in that space.
    writeFileSync(join(dir, 'rule.yaml'), ruleYaml('[soc-eu, soc-us, soc-ap]', ['  spaceOverrides:', '    soc-eu:', '      spec: {severity: high, risk_score: 99}']));
    const planned = await run(['plan', dir, '--json']);
    const changes = JSON.parse(planned.out).changes;
    assert.deepEqual(changes.map((c: any) => `${c.action} ${c.kind} ${c.space} ${c.fields.map((f: any) => `${f.path}=${f.after}`).join(',')}`), ['update Rule soc-eu spec.severity=high']);

    // A bad value from an override is reported at the override, once.
    writeFileSync(join(dir, 'rule.yaml'), ruleYaml('[soc-eu, soc-us, soc-ap]', ['  spaceOverrides:', '    soc-us:', '      spec: {severity: extreme}']));
    const bad = await run(['validate', dir]);
    assert.equal(bad.code, 1, shown(bad));
    const errors = bad.err.split('\n').filter((l) => l.includes('severity'));
    assert.equal(errors.length, 1, bad.err);
    assert.match(errors[0], /rule\.yaml:8:\d+: Rule\/ssh-brute-force: /);
  });

  it('dropping one space from the list plans exactly one delete, of the object the manage scope owns there', async () => {
    const dir = repo({ 'svcform.yaml': 'manage:\n  - kind: Rule\n', 'm/spaces.yaml': spacesYaml, 'm/connector.yaml': connectorYaml('[soc-eu, soc-us, soc-ap]'), 'm/rule.yaml': ruleYaml('[soc-eu, soc-us, soc-ap]') });
    const config = ['--config', join(dir, 'svcform.yaml')];
    assert.equal((await run(['apply', join(dir, 'm'), ...config, '--auto-approve'])).code, 0);
    writeFileSync(join(dir, 'm', 'rule.yaml'), ruleYaml('[soc-eu, soc-us]'));
    const planned = await run(['plan', join(dir, 'm'), ...config, '--json']);
    assert.equal(planned.code, 0, shown(planned));
    const plan = JSON.parse(planned.out);
    assert.deepEqual(plan.changes.map((c: any) => `${c.action} ${c.kind}/${c.name} ${c.space}`), ['delete Rule/ssh-brute-force soc-ap']);
    const applied = await run(['apply', join(dir, 'm'), ...config, '--auto-approve']);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal((await call(emu, 'GET', '/s/soc-ap/api/detection_engine/rules?rule_id=ssh-brute-force')).status, 404);
    assert.equal((await ruleIn('soc-eu')).name, 'SSH brute force');
  });

  it('a label selector chooses among the declared Space manifests', async () => {
    const dir = repo({ 'spaces.yaml': spacesYaml, 'connector.yaml': connectorYaml('{labels: {region: eu}}') });
    const planned = await run(['plan', dir, '--json']);
    assert.equal(planned.code, 0, shown(planned));
    const connectors = JSON.parse(planned.out).changes.filter((c: any) => c.kind === 'Connector');
    assert.deepEqual(connectors.map((c: any) => c.space), ['soc-eu']);
    const all = await run(['plan', repo({ 'spaces.yaml': spacesYaml, 'connector.yaml': connectorYaml('{labels: {tier: soc}}') }), '--json']);
    assert.deepEqual(JSON.parse(all.out).changes.filter((c: any) => c.kind === 'Connector').map((c: any) => c.space).sort(), ['soc-ap', 'soc-eu', 'soc-us']);
  });

  it('copies are kept clean per space in the cache: a second run skips their checks and says and plans the same', async () => {
    const connector = ['apiVersion: svcform/v1', 'kind: Connector', 'metadata:', '  name: soc-log', '  spaces: [soc-eu, soc-us]', '  spaceOverrides:', '    soc-us: {spec: {name: US log}}', 'spec: {name: SOC log, connector_type_id: .nope}', ''].join('\n');
    const dir = repo({ 'svcform.yaml': 'space: default\n', 'spaces.yaml': spacesYaml, 'c.yaml': connector });
    const counts = (err: string) => /^manifest files: (\d+) parsed, (\d+) read from the cache; (\d+) documents' checks skipped/m.exec(err)?.slice(1).map(Number);
    const first = await runBuiltCli(['validate', '.', '--verbose'], dir);
    const second = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.equal(first.code, 0, first.err);
    // The unknown connector type is said once, though both copies have it.
    assert.equal(findingLines(first.err).length, 1, first.err);
    assert.match(findingLines(first.err)[0], /c\.yaml:8:\d+: warning: Connector\/soc-log: /);
    assert.deepEqual(counts(second.err), [0, 2, 5], 'three Spaces and two copies known');
    assert.deepEqual(findingLines(second.err), findingLines(first.err));
    const planned = await runBuiltCli(['plan', '.', '--url', emu.url, '--json'], dir);
    const names = JSON.parse(planned.out).changes.filter((c: any) => c.kind === 'Connector').map((c: any) => `${c.space} ${c.after.name}`);
    assert.deepEqual(names.sort(), ['soc-eu SOC log', 'soc-us US log']);
  });

  describe('refuses, naming file, line and field, and writes nothing', () => {
    const refused = async (files: Record<string, string>, expected: RegExp, command = 'plan') => {
      emu.log.clear();
      const r = await run([command, repo(files)]);
      assert.equal(r.code, 1, shown(r));
      assert.match(r.err, expected, shown(r));
      assert.deepEqual(writes(), [], 'nothing is written');
    };
    const rule = (metadata: string[]) => ruleYaml('[soc-eu]').replace('  spaces: [soc-eu]\n', metadata.map((l) => `${l}\n`).join(''));

    it('both space and spaces', () => refused({ 'spaces.yaml': spacesYaml, 'c.yaml': connectorYaml('[soc-eu]'), 'r.yaml': rule(['  space: soc-eu', '  spaces: [soc-eu, soc-us]']) }, /r\.yaml:6:\d+: Rule\/ssh-brute-force: metadata\.spaces: give metadata\.space \(one space\) or metadata\.spaces \(several\), not both/));
    it('an empty list', () => refused({ 'r.yaml': rule(['  spaces: []']) }, /r\.yaml:5:\d+: Rule\/ssh-brute-force: metadata\.spaces: names no space/));
    it('an override for a space not in the list', () =>
      refused({ 'spaces.yaml': spacesYaml, 'c.yaml': connectorYaml('[soc-eu, soc-us]'), 'r.yaml': rule(['  spaces: [soc-eu, soc-us]', '  spaceOverrides:', '    soc-ap: {spec: {severity: high}}']) }, /r\.yaml:7:\d+: Rule\/ssh-brute-force: metadata\.spaceOverrides\.soc-ap: overrides space "?soc-ap"?, which metadata\.spaces does not name \(it names soc-eu, soc-us\)/));
    it('a selector that matches no declared Space', () => refused({ 'spaces.yaml': spacesYaml, 'c.yaml': connectorYaml('{labels: {region: mars}}') }, /c\.yaml:5:\d+: Connector\/soc-log: metadata\.spaces\.labels: matches no Space manifest of this run \(declared: soc-eu, soc-us, soc-ap\)/));
    it('an object of no space', () => refused({ 'spaces.yaml': spacesYaml, 's.yaml': ['apiVersion: svcform/v1', 'kind: Space', 'metadata: {name: x, spaces: [soc-eu]}', 'spec: {name: X}', ''].join('\n') }, /s\.yaml:3:\d+: Space\/x: metadata\.spaces: this Space belongs to no space/));
    it('a space neither declared nor on the server (as metadata.space is refused), at the list item', () =>
      refused({ 'spaces.yaml': spacesYaml, 'c.yaml': connectorYaml('[soc-eu, nowhere]') }, /c\.yaml:5:\d+: Connector\/soc-log: metadata\.spaces\[1\]: space "nowhere" does not exist on .*, and no Space manifest declares it/));
    it('validate reports the same errors offline', () => refused({ 'r.yaml': rule(['  spaces: []']) }, /r\.yaml:5:\d+: Rule\/ssh-brute-force: metadata\.spaces: names no space/, 'validate'));
  });
});
