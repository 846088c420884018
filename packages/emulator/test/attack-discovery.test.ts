import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const BASE = '/api/attack_discovery/schedules';
const params = { alerts_index_pattern: '.alerts-security.alerts-default', api_config: { connectorId: 'llm', actionTypeId: '.gen-ai', name: 'Model' }, size: 100 };

describe('emulator: attack-discovery schedules (service-api.md Attack discovery; OAS AttackDiscoveryApiSchedule*)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('creates a schedule disabled unless told otherwise, with a generated id and audit fields (AttackDiscoveryApiSchedule required fields)', async () => {
    const res = await call(emu, 'POST', BASE, { name: 'Daily', params, schedule: { interval: '24h' } });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.enabled, false);
    assert.deepEqual(res.body.actions, []);
    for (const key of ['created_by', 'updated_by', 'created_at', 'updated_at']) assert.ok(res.body[key], key);
  });

  it('requires name, params and schedule on create; strips unknown keys (generated zod schemas are not strict)', async () => {
    const missing = await call(emu, 'POST', BASE, { name: 'x', schedule: { interval: '1h' } });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /^\[request body\]: params: Invalid input: expected object, received undefined/);
    const extra = await call(emu, 'POST', BASE, { name: 'Extra', params, schedule: { interval: '1h' }, owner: 'me' });
    assert.equal(extra.status, 200, extra.text);
    assert.equal(extra.body.owner, undefined);
  });

  it('refuses an invalid interval and actions naming unknown connectors (alerting validation)', async () => {
    const interval = await call(emu, 'POST', BASE, { name: 'x', params, schedule: { interval: 'daily' } });
    assert.equal(interval.status, 400);
    assert.deepEqual(Object.keys(interval.body).sort(), ['message', 'status_code']);
    const action = await call(emu, 'POST', BASE, { name: 'x', params, schedule: { interval: '1h' }, actions: [{ id: 'nope', action_type_id: '.webhook', group: 'default', params: {} }] });
    assert.equal(action.status, 400);
    assert.match(action.body.message, /Invalid connectors: nope/);
  });

  it('checks an action\'s alerts_filter as the rules client does and stores its query with a generated dsl (alerting actionAlertsFilterSchema, add_generated_action_values.ts)', async () => {
    await call(emu, 'POST', '/api/actions/connector/chat', { name: 'Chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
    const action = (alertsFilter: unknown) => ({ id: 'chat', action_type_id: '.chat', group: 'default', params: { message: 'm' }, frequency: { summary: true, notify_when: 'onActiveAlert', throttle: null }, alerts_filter: alertsFilter });
    const made = await call(emu, 'POST', BASE, { name: 'Filtered', params, schedule: { interval: '1h' }, actions: [action({ query: { kql: 'a: 1', filters: [] } })] });
    assert.equal(made.status, 200, made.text);
    assert.equal(typeof made.body.actions[0].alerts_filter.query.dsl, 'string');
    const unknown = await call(emu, 'PUT', `${BASE}/${made.body.id}`, { name: 'Filtered', params, schedule: { interval: '1h' }, actions: [action({ query: { kql: 'a: 1', filters: [], filters_json: '[]' } })] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.message, 'Error validating update data - [actions.0.alertsFilter.query.filters_json]: definition for this key is missing');
  });

  it('update is a full replace that needs actions and never changes enabled; _enable/_disable do (UpdateProps has no enabled)', async () => {
    const made = (await call(emu, 'POST', BASE, { name: 'Toggle', params, schedule: { interval: '1h' } })).body;
    const noActions = await call(emu, 'PUT', `${BASE}/${made.id}`, { name: 'Toggle', params, schedule: { interval: '2h' } });
    assert.equal(noActions.status, 400, 'actions is required on update');
    const put = await call(emu, 'PUT', `${BASE}/${made.id}`, { name: 'Toggle', params, schedule: { interval: '2h' }, actions: [], enabled: true });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.enabled, false, 'enabled in an update body is stripped');
    assert.equal(put.body.schedule.interval, '2h');
    assert.deepEqual((await call(emu, 'POST', `${BASE}/${made.id}/_enable`)).body, { id: made.id });
    assert.equal((await call(emu, 'GET', `${BASE}/${made.id}`)).body.enabled, true);
    await call(emu, 'POST', `${BASE}/${made.id}/_disable`);
    assert.equal((await call(emu, 'GET', `${BASE}/${made.id}`)).body.enabled, false);
  });

  it('finds with page 1 and per_page 10 by default and reports total (FindAttackDiscoverySchedules)', async () => {
    for (let i = 0; i < 12; i++) await call(emu, 'POST', BASE, { name: `Bulk ${i}`, params, schedule: { interval: '1h' } });
    const first = (await call(emu, 'GET', `${BASE}/_find`)).body;
    assert.equal(first.page, 1);
    assert.equal(first.per_page, 10);
    assert.equal(first.data.length, 10);
    assert.ok(first.total >= 12);
  });

  it('answers 404 in the security shape for an unknown id and deletes with {id}', async () => {
    const missing = await call(emu, 'GET', `${BASE}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.status_code, 404);
    const made = (await call(emu, 'POST', BASE, { name: 'Gone', params, schedule: { interval: '1h' } })).body;
    assert.deepEqual((await call(emu, 'DELETE', `${BASE}/${made.id}`)).body, { id: made.id });
    assert.equal((await call(emu, 'POST', `${BASE}/${made.id}/_enable`)).status, 404);
  });
});
