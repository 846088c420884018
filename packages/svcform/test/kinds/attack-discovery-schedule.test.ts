import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';

const BASE = '/api/attack_discovery/schedules';
const MANAGE = 'manage:\n  - kind: AttackDiscoverySchedule\n  - kind: Connector\n    selector: {namePrefix: "soc-"}\n';

const llm = `apiVersion: svcform/v1
kind: Connector
metadata:
  name: soc-llm
spec:
  name: SOC model
  connector_type_id: .gen-ai
  config:
    apiProvider: OpenAI
    apiUrl: https://llm.example.com/v1/chat/completions
  secrets:
    apiKey: test-key
`;

const schedule = (fields: { enabled?: boolean; size?: number; interval?: string } = {}) => `apiVersion: svcform/v1
kind: AttackDiscoverySchedule
metadata:
  name: Daily discovery
spec:
${fields.enabled === undefined ? '' : `  enabled: ${fields.enabled}\n`}  params:
    alerts_index_pattern: .alerts-security.alerts-default
    api_config:
      connectorId: soc-llm
      name: SOC model
    size: ${fields.size ?? 100}
  schedule:
    interval: ${fields.interval ?? '24h'}
`;

describe('AttackDiscoverySchedule kind', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());

  const writes = () => emu.log.all().filter((r) => r.method !== 'GET' && r.path.startsWith(BASE)).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/, '{id}')}`);
  const live = async () => (await call(emu, 'GET', `${BASE}/_find`)).body.data.find((s: any) => s.name === 'Daily discovery');

  it('creates the .gen-ai connector it names first, sends enabled on create, and plans empty', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'a.yaml': schedule({ enabled: true }), 'z.yaml': llm });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const order = emu.log.all().filter((r) => r.method === 'POST' && !r.path.includes('lease')).map((r) => r.path);
    assert.deepEqual(order, ['/api/actions/connector/soc-llm', BASE]);
    const s = await live();
    assert.equal(s.enabled, true);
    assert.equal(s.params.api_config.actionTypeId, '.gen-ai', 'the connector type is filled in');
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('plans empty after apply when an action filters alerts: the dsl the server stores with the filter is the server\'s (alerting add_generated_action_values.ts)', async () => {
    const chat = `apiVersion: svcform/v1
kind: Connector
metadata:
  name: soc-chat
spec:
  name: SOC chat
  connector_type_id: .chat
  secrets:
    webhookUrl: https://chat.example/x
`;
    const withAction = schedule() + `  actions:
    - id: soc-chat
      action_type_id: .chat
      group: default
      params:
        message: New attack discoveries
      frequency: {summary: true, notify_when: onActiveAlert, throttle: null}
      alerts_filter:
        query:
          kql: 'svc.alert.severity: "critical"'
          filters: []
`;
    const dir = repo({ 'svcform.yaml': MANAGE, 'a.yaml': withAction, 'z.yaml': llm, 'c.yaml': chat });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal(typeof (await live()).actions[0].alerts_filter.query.dsl, 'string');
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
  });

  it('moves the enabled state through _enable and _disable only; other fields through a full PUT', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'a.yaml': schedule(), 'z.yaml': llm });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    assert.equal((await live()).enabled, false, 'the default is the server default: disabled');

    writeFiles(dir, { 'a.yaml': schedule({ enabled: true }) });
    emu.log.clear();
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    assert.deepEqual(writes(), [`POST ${BASE}/{id}/_enable`], 'only enabled changed: no PUT');
    assert.equal((await live()).enabled, true);

    writeFiles(dir, { 'a.yaml': schedule({ enabled: false, size: 200 }) });
    emu.log.clear();
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    assert.deepEqual(writes(), [`PUT ${BASE}/{id}`, `POST ${BASE}/{id}/_disable`]);
    const s = await live();
    assert.equal(s.enabled, false);
    assert.equal(s.params.size, 200);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('takes a size that is not a whole number of at least 1 with a warning, as the route takes any number (AttackDiscoveryApiScheduleParams size); applied, it plans empty', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'a.yaml': schedule({ size: 0 }), 'z.yaml': llm });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 0, validated.out + validated.err);
    assert.match(validated.err, /a\.yaml:11:5: warning: AttackDiscoverySchedule\/Daily discovery: size 0 is not a whole number of alerts of at least 1: the server takes it/);
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await live()).params.size, 0);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('refuses to delete the connector a schedule still names', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'a.yaml': schedule(), 'z.yaml': llm });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFiles(dir, { 'z.yaml': '' });
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 1, plan.out + plan.err);
    assert.match(plan.out + plan.err, /Connector\/soc-llm is used by AttackDiscoverySchedule\/Daily discovery/);
  });
});
