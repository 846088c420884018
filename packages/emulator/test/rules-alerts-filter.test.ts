import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * A rule action's alerts_filter. The detection route's schema leaves it open
 * (OAS Security_Detections_API_RuleActionAlertsFilter: additionalProperties), but the rules client
 * checks it before it stores the rule (alerting application/rule/schemas/action_schemas.ts
 * actionAlertsFilterSchema and alerts_filter_query's schema, @kbn/config-schema objects), and
 * stores with the query the search it builds (rules_client/lib/add_generated_action_values.ts).
 * The shapes of the Terraform provider's acceptance configurations (security_detection_rule
 * testdata AlertsFilter: `filters` always sent, `hours` required with the timeframe) agree.
 */

const RULES = '/api/detection_engine/rules';
const rule = (alertsFilter: unknown, ruleId = 'af') => ({
  rule_id: ruleId, type: 'query', name: 'Filtered', description: 'd', severity: 'low', risk_score: 21, query: 'host.name: *', language: 'kuery',
  actions: [{ id: 'chat', action_type_id: '.chat', group: 'default', params: { message: 'm' }, frequency: { summary: true, notifyWhen: 'onActiveAlert', throttle: null }, alerts_filter: alertsFilter }],
});
const timeframe = { days: [1, 2, 3, 4, 5], hours: { start: '08:00', end: '17:00' }, timezone: 'UTC' };

describe('emulator: a rule action\'s alerts_filter, as the rules client checks and stores it', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    await call(emu, 'POST', '/api/actions/connector/chat', { name: 'Chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
  });
  after(() => emu.stop());

  it('stores the query with its generated `dsl` (JSON text) and answers it on every read (add_generated_action_values.ts)', async () => {
    const created = await call(emu, 'POST', RULES, rule({ query: { kql: 'event.action: "logon"', filters: [] }, timeframe }));
    assert.equal(created.status, 200, created.text);
    const filter = created.body.actions[0].alerts_filter;
    assert.equal(typeof filter.query.dsl, 'string');
    assert.doesNotThrow(() => JSON.parse(filter.query.dsl));
    assert.deepEqual({ ...filter, query: { ...filter.query, dsl: undefined } }, { query: { kql: 'event.action: "logon"', filters: [], dsl: undefined }, timeframe });
    const read = await call(emu, 'GET', `${RULES}?rule_id=af`);
    assert.equal(read.body.actions[0].alerts_filter.query.dsl, filter.query.dsl);
    // A write that carries the dsl read back gets it made again, not taken as it was sent.
    const put = await call(emu, 'PUT', RULES, { ...rule({ query: { kql: 'event.action: "logoff"', filters: [], dsl: filter.query.dsl } }) });
    assert.equal(put.status, 200, put.text);
    assert.notEqual(put.body.actions[0].alerts_filter.query.dsl, filter.query.dsl);
  });

  it('keeps the filters of the query as sent (the emulator had stripped every key of each filter, and a plan showed them as a change)', async () => {
    const filters = [{ meta: { alias: null, disabled: false, negate: false, key: 'host.name', params: { query: 'web-1' }, type: 'phrase' }, query: { match_phrase: { 'host.name': 'web-1' } } }];
    const created = await call(emu, 'POST', RULES, rule({ query: { kql: '', filters } }, 'af-filters'));
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(created.body.actions[0].alerts_filter.query.filters, filters);
  });

  it('refuses a key the schema does not define, at any level, with the rules client\'s message (@kbn/config-schema objects)', async () => {
    const cases: Array<[unknown, string]> = [
      [{ query: { kql: 'a: 1', filters: [], filters_json: '[]' } }, '[actions.0.alertsFilter.query.filters_json]: definition for this key is missing'],
      [{ query: { kql: 'a: 1', filters: [] }, timeframe: { ...timeframe, hours_start: '08:00' } }, '[actions.0.alertsFilter.timeframe.hours_start]: definition for this key is missing'],
      [{ when: 'always' }, '[actions.0.alertsFilter.when]: definition for this key is missing'],
    ];
    for (const [filter, message] of cases) {
      const res = await call(emu, 'POST', RULES, rule(filter, 'af-keys'));
      assert.equal(res.status, 400, JSON.stringify(filter));
      assert.deepEqual(res.body, { message: `Error validating create data - ${message}`, status_code: 400 });
    }
  });

  it('requires kql and filters in a query, and days, hours (start and end) and timezone in a timeframe; days are 1 to 7 (actionAlertsFilterSchema)', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ query: { filters: [] } }, /\[actions\.0\.alertsFilter\.query\.kql\]: expected value of type \[string\] but got \[undefined\]$/],
      [{ query: { kql: 'a: 1' } }, /\[actions\.0\.alertsFilter\.query\.filters\]: expected value of type \[array\] but got \[undefined\]$/],
      [{ timeframe: { days: [1], timezone: 'UTC' } }, /\[actions\.0\.alertsFilter\.timeframe\.hours\]: expected a plain object value, but found \[undefined\] instead\.$/],
      [{ timeframe: { ...timeframe, hours: { start: '08:00' } } }, /\[actions\.0\.alertsFilter\.timeframe\.hours\.end\]: expected value of type \[string\] but got \[undefined\]$/],
      [{ timeframe: { ...timeframe, days: [1, 8] } }, /\[actions\.0\.alertsFilter\.timeframe\.days\.1\]: types that failed validation/],
      [{ timeframe: { days: [], hours: timeframe.hours } }, /\[actions\.0\.alertsFilter\.timeframe\.timezone\]: expected value of type \[string\] but got \[undefined\]$/],
    ];
    for (const [filter, message] of cases) {
      const res = await call(emu, 'POST', RULES, rule(filter, 'af-required'));
      assert.equal(res.status, 400, JSON.stringify(filter));
      assert.match(res.body.message, message);
    }
    // An empty list of days (every day) is a list of days.
    assert.equal((await call(emu, 'POST', RULES, rule({ timeframe: { ...timeframe, days: [] } }, 'af-every-day'))).status, 200);
  });

  it('says update where a PUT is refused, and refuses KQL that does not parse after the connectors are checked (add_generated_action_values.ts: "Invalid KQL")', async () => {
    const put = await call(emu, 'PUT', RULES, rule({ query: { kql: 'a: 1' } }));
    assert.equal(put.status, 400);
    assert.match(put.body.message, /^Error validating update data - \[actions\.0\.alertsFilter\.query\.filters\]/);
    const kql = await call(emu, 'POST', RULES, rule({ query: { kql: 'a: (1', filters: [] } }, 'af-kql'));
    assert.equal(kql.status, 400);
    assert.match(kql.body.message, /^Invalid KQL: /);
    const both = rule({ query: { kql: 'a: (1', filters: [] } }, 'af-kql');
    both.actions[0].id = 'no-such-connector';
    assert.match((await call(emu, 'POST', RULES, both)).body.message, /Invalid connectors: no-such-connector/);
  });
});
