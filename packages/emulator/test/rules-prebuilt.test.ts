import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const RULES = '/api/detection_engine/rules';
const INTERNAL = '/internal/detection_engine/prebuilt_rules';
const V1 = { 'elastic-api-version': '1' };
const POWERSHELL = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01';
const TEMP_DIR = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b02';

describe('emulator: prebuilt rules (legacy /prepackaged routes and /internal/detection_engine/prebuilt_rules)', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((running) => (emu = running));

  const internal = (path: string, body?: unknown) => call(emu, 'POST', `${INTERNAL}${path}`, body, { headers: V1 });
  const rule = async (ruleId: string) => (await call(emu, 'GET', `${RULES}?rule_id=${ruleId}`)).body;
  const release = (n: number, extra: Record<string, unknown> = {}) => call(emu, 'PUT', '/__emulator/prebuilt-package', { release: n, ...extra });

  it('refuses internal routes without elastic-api-version (core versioned router: internal routes have no default version)', async () => {
    const res = await call(emu, 'POST', `${INTERNAL}/installation/_perform`, { mode: 'ALL_RULES' });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /elastic-api-version/);
  });

  it('installs only the named rules at the package version (perform_rule_installation_route.ts: SPECIFIC_RULES, ALREADY_INSTALLED)', async () => {
    const first = await internal('/installation/_perform', { mode: 'SPECIFIC_RULES', rules: [{ rule_id: POWERSHELL, version: 3 }] });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.summary, { total: 1, succeeded: 1, skipped: 0, failed: 0 });
    assert.equal(first.body.results.created[0].rule_source.type, 'external');
    const again = await internal('/installation/_perform', { mode: 'SPECIFIC_RULES', rules: [{ rule_id: POWERSHELL, version: 3 }, { rule_id: TEMP_DIR, version: 4 }] });
    assert.deepEqual(again.body.results.skipped, [{ rule_id: POWERSHELL, reason: 'ALREADY_INSTALLED' }]);
    assert.equal(again.body.summary.failed, 1, 'a version the package does not ship is an error');
    const review = await internal('/installation/_review');
    assert.equal(review.body.stats.num_rules_to_install, 2);
    const bad = await internal('/installation/_perform', { mode: 'SOME_RULES' });
    assert.equal(bad.status, 400);
  });

  it('answers 429 to a second _perform while one runs (routeLimitedConcurrencyTag(PREBUILT_RULES_OPERATION_CONCURRENCY = 1))', async () => {
    await release(1, { operation_ms: 150 });
    const [a, b] = await Promise.all([internal('/installation/_perform', { mode: 'ALL_RULES' }), internal('/installation/_perform', { mode: 'ALL_RULES' })]);
    assert.deepEqual([a.status, b.status].sort(), [200, 429]);
    const refused = a.status === 429 ? a : b;
    assert.deepEqual(refused.body, { statusCode: 429, error: 'Too Many Requests', message: 'Too Many Requests' });
    assert.equal((await internal('/installation/_perform', { mode: 'ALL_RULES' })).status, 200, 'the slot is free again');
  });

  it('computes is_customized against the base version, with diffable field names (calculate_is_customized.ts)', async () => {
    await internal('/installation/_perform', { mode: 'ALL_RULES' });
    const patched = await call(emu, 'PATCH', RULES, { rule_id: POWERSHELL, severity: 'high', index: ['logs-endpoint.events.process-*', 'winlogbeat-*', 'logs-windows.sysmon-*'] });
    assert.deepEqual(patched.body.rule_source, { type: 'external', is_customized: true, customized_fields: [{ field_name: 'data_source' }, { field_name: 'severity' }], has_base_version: true });
    const reverted = await call(emu, 'PATCH', RULES, { rule_id: POWERSHELL, severity: 'medium', index: ['winlogbeat-*', 'logs-endpoint.events.process-*'] });
    assert.equal(reverted.body.rule_source.is_customized, false, 'back to the base values (index order does not count)');
    const enabled = await call(emu, 'PATCH', RULES, { rule_id: TEMP_DIR, enabled: true });
    assert.equal(enabled.body.rule_source.is_customized, false, 'enabling is not a customisation');
  });

  it('ships release 2 through the control route: upgrades reviewed, nothing changed until performed', async () => {
    await internal('/installation/_perform', { mode: 'ALL_RULES' });
    assert.equal((await release(2)).status, 200);
    const status = await call(emu, 'GET', `${INTERNAL}/status`, undefined, { headers: V1 });
    assert.deepEqual(status.body.stats, { num_prebuilt_rules_installed: 3, num_prebuilt_rules_to_install: 1, num_prebuilt_rules_to_upgrade: 2, num_prebuilt_rules_total_in_package: 4, num_prebuilt_rules_deprecated: 0 });
    const review = await internal('/upgrade/_review', {});
    assert.deepEqual(review.body.rules.map((r: any) => [r.rule_id, r.current_rule.version, r.version]), [[POWERSHELL, 3, 4], [TEMP_DIR, 5, 6]]);
    assert.equal((await rule(POWERSHELL)).version, 3);
    assert.equal((await call(emu, 'GET', `${RULES}/prepackaged/_status`)).body.rules_not_updated, 2);
  });

  it('MERGED upgrade keeps customised fields and takes the vendor changes elsewhere; a field both changed is a conflict (perform_rule_upgrade_route.ts pick_version)', async () => {
    await internal('/installation/_perform', { mode: 'ALL_RULES' });
    await call(emu, 'PATCH', RULES, { rule_id: POWERSHELL, severity: 'high', enabled: true });
    await call(emu, 'PATCH', RULES, { rule_id: TEMP_DIR, severity: 'critical' });
    await release(2);
    const current = await rule(POWERSHELL);
    const res = await internal('/upgrade/_perform', { mode: 'SPECIFIC_RULES', pick_version: 'MERGED', rules: [{ rule_id: POWERSHELL, revision: current.revision, version: 4 }, { rule_id: TEMP_DIR, revision: (await rule(TEMP_DIR)).revision, version: 6 }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.results.skipped, [{ rule_id: TEMP_DIR, reason: 'CONFLICT' }]);
    const after = await rule(POWERSHELL);
    assert.deepEqual([after.version, after.severity, after.enabled], [4, 'high', true]);
    assert.match(after.query, /pwsh\.exe/, 'the vendor query arrived');
    assert.deepEqual(after.rule_source.customized_fields, [{ field_name: 'severity' }]);
    const stale = await internal('/upgrade/_perform', { mode: 'SPECIFIC_RULES', rules: [{ rule_id: TEMP_DIR, revision: 0, version: 6 }] });
    assert.match(stale.body.errors[0].message, /Revision mismatch/);
  });

  it('the legacy PUT /prepackaged upgrades to the target and erases customisations (legacy_create_prepackaged_rules.ts @deprecated)', async () => {
    await call(emu, 'PUT', `${RULES}/prepackaged`);
    await call(emu, 'PATCH', RULES, { rule_id: POWERSHELL, severity: 'high', enabled: true });
    await release(2);
    const res = await call(emu, 'PUT', `${RULES}/prepackaged`);
    assert.deepEqual(res.body, { rules_installed: 1, rules_updated: 2, timelines_installed: 0, timelines_updated: 0 });
    const after = await rule(POWERSHELL);
    assert.deepEqual([after.version, after.severity, after.enabled, after.rule_source.is_customized], [4, 'medium', true, false]);
  });
});
