import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

const RULES = '/api/detection_engine/rules';
const POWERSHELL = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01';
const TEMP_DIR = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b02';
const FAILED_LOGINS = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b03';
const NEW_SERVICE = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b04';

const SET = `apiVersion: svcform/v1
kind: PrebuiltRules
metadata:
  name: endpoint
spec:
  install:
    rule_ids: ['${POWERSHELL}', '${TEMP_DIR}', '${FAILED_LOGINS}']
  enable:
    tags: ['Tactic: Execution']
  customize:
    '${POWERSHELL}':
      severity: high
      index: [logs-endpoint.events.process-*, winlogbeat-*, logs-windows.sysmon_operational-*]
`;

describe('PrebuiltRules: install a set, enable by tag, customise without forking', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((running) => (emu = running));

  const run = (args: string[]) => cli([...args, '--url', emu.url]);
  const rule = async (id: string) => (await call(emu, 'GET', `${RULES}?rule_id=${id}`)).body;
  const planJson = async (dir: string) => {
    const planned = await run(['plan', dir, '--json']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    return JSON.parse(planned.out);
  };

  it('installs 3 rules, enables the 2 tagged "Tactic: Execution", customises index and severity; plan is then empty', async () => {
    const dir = repo({ 'prebuilt.yaml': SET });
    const planned = await run(['plan', dir]);
    assert.match(planned.out, /\+ create PrebuiltRules\/endpoint \(space default\)/, planned.out);
    const applied = await run(['apply', dir]);
    assert.equal(applied.code, 0, applied.out + applied.err);

    const ps = await rule(POWERSHELL);
    assert.deepEqual([ps.enabled, ps.severity, ps.rule_source.is_customized], [true, 'high', true]);
    assert.deepEqual(ps.rule_source.customized_fields, [{ field_name: 'data_source' }, { field_name: 'severity' }]);
    assert.equal(ps.immutable, true, 'still the prebuilt rule, not a fork');
    assert.deepEqual([(await rule(TEMP_DIR)).enabled, (await rule(FAILED_LOGINS)).enabled], [true, false]);
    assert.equal((await rule(TEMP_DIR)).rule_source.is_customized, false, 'enabling is not a customisation');
    assert.equal((await call(emu, 'GET', `${RULES}?rule_id=${NEW_SERVICE}`)).status, 404);

    const again = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(again.code, 0, again.out + again.err);
  });

  it('customises with values the patch route takes as they are (RuleTagArray, IndexPatternArray: plain strings, no minimum), and plans empty after', async () => {
    const loose = SET.replace("      severity: high\n      index: [logs-endpoint.events.process-*, winlogbeat-*, logs-windows.sysmon_operational-*]\n", "      tags: ['', 'Tactic: Execution']\n      index: []\n      building_block_type: default\n");
    assert.notEqual(loose, SET);
    const dir = repo({ 'prebuilt.yaml': loose });
    const applied = await run(['apply', dir]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual((await rule(POWERSHELL)).tags, ['', 'Tactic: Execution']);
    const again = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(again.code, 0, again.out + again.err);
  });

  it('a new package release: plan notes the upgrade, shows no drift; after the upgrade (MERGED, as the app does) the customisation survives', async () => {
    const dir = repo({ 'prebuilt.yaml': SET });
    assert.equal((await run(['apply', dir])).code, 0);
    await call(emu, 'PUT', '/__emulator/prebuilt-package', { release: 2 });

    const planned = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(planned.code, 0, `an upgrade is not drift:\n${planned.out}${planned.err}`);
    assert.match(planned.out, /note: PrebuiltRules\/endpoint \(space default\): upgrade available for "Encoded PowerShell command line" \(5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01\): version 3 -> 4; rule_source.is_customized: true \(data_source, severity\)/);
    assert.match(planned.out, /upgrade available for "Process started from a temporary directory" .*version 5 -> 6; rule_source.is_customized: false/);
    const json = await planJson(dir);
    assert.equal(json.notices.length, 2);

    const current = await rule(POWERSHELL);
    const upgraded = await call(emu, 'POST', '/internal/detection_engine/prebuilt_rules/upgrade/_perform', { mode: 'SPECIFIC_RULES', pick_version: 'MERGED', rules: [{ rule_id: POWERSHELL, revision: current.revision, version: 4 }] }, { headers: { 'elastic-api-version': '1' } });
    assert.equal(upgraded.body.summary.succeeded, 1, JSON.stringify(upgraded.body));
    const after = await rule(POWERSHELL);
    assert.deepEqual([after.version, after.severity, after.enabled], [4, 'high', true]);
    // The upgrade rewrote meta, so only the set's mark is missing; the customisation is intact.
    const plan = await planJson(dir);
    assert.deepEqual(plan.changes[0].fields.map((f: any) => f.pointer), ['/install/not_marked'], JSON.stringify(plan.changes[0].fields));
    assert.equal((await run(['apply', dir])).code, 0);
    const clean = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(clean.code, 0, clean.out + clean.err);
    assert.doesNotMatch(clean.out, /Encoded PowerShell/, 'no upgrade left for that rule');
    assert.equal((await rule(POWERSHELL)).severity, 'high');
  });

  it('an upgrade that overwrites a customised field (the deprecated PUT /prepackaged takes the target) shows as drift of that field and apply puts the customisation back', async () => {
    const dir = repo({ 'prebuilt.yaml': SET });
    assert.equal((await run(['apply', dir])).code, 0);
    await call(emu, 'PUT', '/__emulator/prebuilt-package', { release: 2 });
    await call(emu, 'PUT', `${RULES}/prepackaged`);
    const plan = await planJson(dir);
    assert.deepEqual(plan.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`), ['update PrebuiltRules/endpoint']);
    const pointers = plan.changes[0].fields.map((f: any) => f.pointer);
    assert.ok(pointers.includes(`/customize/${POWERSHELL}`), `the lost customisation shows: ${JSON.stringify(pointers)}`);
    assert.equal((await run(['apply', dir])).code, 0);
    const ps = await rule(POWERSHELL);
    assert.deepEqual([ps.version, ps.severity, ps.rule_source.is_customized], [4, 'high', true]);
    assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);
  });

  it('refuses a fork through kind: Rule, and a rule_id the package does not ship', async () => {
    await call(emu, 'PUT', `${RULES}/prepackaged`);
    const fork = repo({ 'fork.yaml': `apiVersion: svcform/v1\nkind: Rule\nmetadata: {name: '${POWERSHELL}'}\nspec: {type: query, name: x, description: x, severity: low, risk_score: 1, query: 'a:b'}\n` });
    const planned = await run(['plan', fork]);
    assert.equal(planned.code, 1);
    assert.match(planned.out + planned.err, /prebuilt rule; svcform never writes it/);
    const unknown = repo({ 'p.yaml': SET.replace(FAILED_LOGINS, 'not-a-prebuilt-rule') });
    const applied = await run(['apply', unknown]);
    assert.equal(applied.code, 1);
    assert.match(applied.out + applied.err, /does not ship: not-a-prebuilt-rule/);
  });

  it('deleting a set never deletes its rules: it only removes their mark', async () => {
    const dir = repo({ 'prebuilt.yaml': SET, 'svcform.yaml': 'manage:\n  - kind: PrebuiltRules\n' });
    assert.equal((await run(['apply', dir])).code, 0);
    const empty = repo({ 'svcform.yaml': 'manage:\n  - kind: PrebuiltRules\n', 'other.yaml': '' });
    const applied = await run(['apply', empty, '--config', `${empty}/svcform.yaml`, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /delete PrebuiltRules\/endpoint/);
    const ps = await rule(POWERSHELL);
    assert.equal(ps.immutable, true);
    assert.equal(ps.meta?.svcform_prebuilt, undefined);
  });

  it('two sets installing in one apply never overlap their install calls: the prebuilt_rules area runs one at a time (no 429 from the server)', async () => {
    await call(emu, 'PUT', '/__emulator/prebuilt-package', { operation_ms: 150 });
    const one = `apiVersion: svcform/v1\nkind: PrebuiltRules\nmetadata: {name: one}\nspec: {install: {rule_ids: ['${POWERSHELL}']}}\n`;
    const two = `apiVersion: svcform/v1\nkind: PrebuiltRules\nmetadata: {name: two}\nspec: {install: {rule_ids: ['${TEMP_DIR}']}}\n`;
    emu.log.clear();
    const applied = await run(['apply', repo({ 'one.yaml': one, 'two.yaml': two })]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const installs = emu.log.all().filter((r) => r.route === '/internal/detection_engine/prebuilt_rules/installation/_perform');
    assert.deepEqual(installs.map((r) => r.status), [200, 200]);
  });

  it('a field customised in the app that the set does not declare is drift; apply reverts the rule and keeps the declared customisations', async () => {
    const dir = repo({ 'prebuilt.yaml': SET });
    assert.equal((await run(['apply', dir])).code, 0);
    await call(emu, 'PATCH', RULES, { rule_id: POWERSHELL, description: 'Changed in the app' });
    const plan = await planJson(dir);
    assert.deepEqual(plan.changes[0].fields.map((f: any) => f.pointer), [`/customize/${POWERSHELL}/description`]);
    assert.equal((await run(['apply', dir])).code, 0);
    const ps = await rule(POWERSHELL);
    assert.notEqual(ps.description, 'Changed in the app');
    assert.deepEqual(ps.rule_source.customized_fields, [{ field_name: 'data_source' }, { field_name: 'severity' }]);
    assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);
  });
});
