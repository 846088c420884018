import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * A rule action's alerts_filter, learned from the Terraform provider's acceptance configurations
 * (security_detection_rule testdata AlertsFilter), which run against real servers. The rules client
 * checks the filter as a closed object and stores with its query the search it builds from the
 * KQL (`dsl`), which every read returns (alerting add_generated_action_values.ts; the emulator's
 * rules area, alerts-filter.ts). svcform took any object there: a key the server refuses passed
 * validate, and against a real server every rule with a filter query planned an update for the
 * `dsl` it had never sent.
 */

const rule = (filter: string) => `apiVersion: svcform/v1
kind: Rule
metadata:
  name: filtered
spec:
  type: query
  name: Filtered actions
  description: Pages only for critical alerts in working hours.
  severity: high
  risk_score: 73
  query: 'event.action: "logon"'
  actions:
    - id: chat
      group: default
      params:
        message: Critical alert
      frequency: {summary: true, notifyWhen: onActiveAlert, throttle: null}
      alerts_filter:
${filter}
`;

const WORKING_HOURS = `        query:
          kql: 'svc.alert.severity: "critical"'
          filters: []
        timeframe:
          days: [1, 2, 3, 4, 5]
          hours: {start: '08:00', end: '17:00'}
          timezone: Europe/Madrid`;

describe('Rule actions: alerts_filter', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    await call(emu, 'POST', '/api/actions/connector/chat', { name: 'Chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
  });
  after(() => emu.stop());

  it('plans nothing after apply although the server stores and answers a generated dsl; export does not write it', async () => {
    const dir = repo({ 'rule.yaml': rule(WORKING_HOURS) });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const live = await call(emu, 'GET', '/api/detection_engine/rules?rule_id=filtered');
    assert.equal(typeof live.body.actions[0].alerts_filter.query.dsl, 'string');
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    // The alert fields of the filter's KQL are not the rule's event fields: not checked, even
    // where --strict asks for every event field declared.
    const strict = await cli(['validate', dir, '--strict']);
    assert.equal(strict.code, 0, strict.out + strict.err);
    assert.doesNotMatch(strict.out + strict.err + planned.out + planned.err, /alerts_filter/);
    const out = repo({});
    const exported = await cli(['export', '--url', emu.url, '--kind', 'Rule', '--out', out]);
    assert.equal(exported.code, 0, exported.out + exported.err);
    const text = (await import('node:fs')).readFileSync(`${out}/default/rule.yaml`, 'utf8');
    assert.match(text, /kql: 'svc\.alert\.severity: "critical"'/);
    assert.doesNotMatch(text, /dsl/);
  });

  it('refuses at validate what the rules client refuses: an unknown key, a query without filters, a timeframe without hours', async () => {
    const cases: Array<[string, RegExp]> = [
      [WORKING_HOURS.replace('filters: []', 'filters_json: "[]"'), /rule\.yaml:\d+:\d+: .*spec\.actions\[0\]\.alerts_filter\.query\.filters_json is not a known field/],
      [WORKING_HOURS.replace('          filters: []\n', ''), /spec\.actions\[0\]\.alerts_filter\.query\.filters is required/],
      [WORKING_HOURS.replace("          hours: {start: '08:00', end: '17:00'}\n", "          hours_start: '08:00'\n"), /spec\.actions\[0\]\.alerts_filter\.timeframe\.hours is required/],
      [WORKING_HOURS.replace('days: [1, 2, 3, 4, 5]', 'days: [0]'), /spec\.actions\[0\]\.alerts_filter\.timeframe\.days\[0\]/],
    ];
    for (const [filter, message] of cases) {
      const validated = await cli(['validate', repo({ 'rule.yaml': rule(filter) })]);
      assert.equal(validated.code, 1, filter);
      assert.match(validated.err, message);
    }
  });

  it('refuses KQL that does not parse, at its place in the string, as the server does ("Invalid KQL")', async () => {
    const validated = await cli(['validate', repo({ 'rule.yaml': rule(WORKING_HOURS.replace(`'svc.alert.severity: "critical"'`, `'svc.alert.severity: (critical'`)) })]);
    assert.equal(validated.code, 1, validated.out + validated.err);
    assert.match(validated.err, /rule\.yaml:\d+:\d+: .*actions\[0\]\.alerts_filter\.query\.kql: .*\(kuery\)/);
  });
});
