import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * Request validation of the rule routes against the server's own schemas. Sources, under
 * K-DE = x-pack/solutions/security/plugins/security_solution/common/api/detection_engine:
 * model/rule_schema/{common_attributes,rule_schemas}.gen.ts, rule_request_schema.test.ts,
 * rule_management/crud/{create,update}_rule/request_schema_validation.ts,
 * rule_management/bulk_actions/bulk_actions_route.gen.ts, import_rules/rule_to_import.ts; the
 * OpenAPI component Security_Detections_API_RuleAction; wire-facts §15.
 */

const RULES = '/api/detection_engine/rules';
const base = (ruleId: string, extra: Record<string, unknown> = {}) => ({ rule_id: ruleId, type: 'query', name: `Rule ${ruleId}`, description: 'd', severity: 'low', risk_score: 21, ...extra });
const chatAction = (extra: Record<string, unknown> = {}) => ({ id: 'chat', group: 'default', action_type_id: '.chat', params: { message: 'm' }, ...extra });
const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('emulator: rule request validation as the real schemas do it', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    await call(emu, 'POST', '/api/actions/connector/chat', { name: 'Chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
  });
  after(() => emu.stop());
  const api = (method: string, path: string, body?: unknown) => call(emu, method, path, body);

  describe('actions[].action_type_id', () => {
    it('is required on create, with the route-validation 400 (wire-facts §15 fact 1: RuleAction.required [action_type_id, id, params])', async () => {
      const { action_type_id: _t, ...untyped } = chatAction();
      const res = await api('POST', RULES, base('no-type', { actions: [untyped] }));
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: '[request body]: actions.0.action_type_id: Invalid input: expected string, received undefined' });
      assert.equal((await api('GET', `${RULES}?rule_id=no-type`)).status, 404);
    });

    it('is required on update and on every imported rule too (RuleUpdateProps; RuleToImport = create props and response fields)', async () => {
      await api('POST', RULES, base('typed', { actions: [chatAction()] }));
      const { action_type_id: _t, ...untyped } = chatAction();
      const put = await api('PUT', RULES, base('typed', { actions: [untyped] }));
      assert.equal(put.status, 400);
      assert.match(put.body.message, /actions\.0\.action_type_id: Invalid input: expected string, received undefined/);
      const imported = await postFile(emu, `${RULES}/_import`, ndjson([base('imp-untyped', { actions: [untyped] }), base('imp-typed', { actions: [chatAction()] })]));
      assert.equal(imported.body.success_count, 1);
      // A line that fails RuleToImport is an Error before its rule_id is read: the answer cannot name it (import_rules_utils.ts).
      assert.deepEqual(imported.body.errors, [{ rule_id: '(unknown id)', error: { status_code: 400, message: 'actions.0.action_type_id: Invalid input: expected string, received undefined' } }]);
    });

    it('is stored as the connector\'s own type whatever the request said (alerting rules_client lib/denormalize_actions.ts)', async () => {
      const res = await api('POST', RULES, base('wrong-type', { actions: [chatAction({ action_type_id: '.webhook' })] }));
      assert.equal(res.status, 200);
      assert.equal(res.body.actions[0].action_type_id, '.chat');
    });

    it('is refused in a bulk edit\'s actions, which are strict NormalizedRuleActions without it (bulk_actions_route.gen.ts)', async () => {
      const { id } = (await api('POST', RULES, base('bulk-acts'))).body;
      const edit = (action: Record<string, unknown>) => api('POST', `${RULES}/_bulk_action`, { action: 'edit', ids: [id], edit: [{ type: 'add_rule_actions', value: { actions: [action] } }] });
      const refused = await edit(chatAction());
      assert.equal(refused.status, 400);
      // Every member of the body union fails, so the answer is their issues, five of them and a count.
      assert.match(refused.body.message, /^\[request body\]: action: Invalid input: expected "delete", .*, and \d+ more$/);
      assert.equal((await api('GET', `${RULES}?id=${id}`)).body.actions.length, 0);
      const { action_type_id: _t, ...normalized } = chatAction();
      const added = await edit(normalized);
      assert.equal(added.status, 200);
      assert.equal(added.body.attributes.results.updated[0].actions[0].action_type_id, '.chat');
    });
  });

  describe('unknown keys and strictness', () => {
    it('strips unknown keys at every level but keeps all of params and meta (rule_request_schema.test.ts "strips any unknown values"; RuleActionParams, RuleMetadata catchall)', async () => {
      const res = await api('POST', RULES, base('stripped', {
        made_up: 1,
        meta: { anything: { goes: true } },
        actions: [chatAction({ extra: 'x', params: { message: 'm', custom: [1] } })],
        threat: [{ framework: 'MITRE ATT&CK', tactic: { id: 'TA0002', name: 'Execution', reference: 'r', extra: 1 } }],
        required_fields: [{ name: 'host.name', type: 'keyword', ecs: false }],
      }));
      assert.equal(res.status, 200);
      assert.equal(res.body.made_up, undefined);
      assert.deepEqual(res.body.meta, { anything: { goes: true } });
      assert.equal(res.body.actions[0].extra, undefined);
      assert.deepEqual(res.body.actions[0].params, { message: 'm', custom: [1] });
      assert.deepEqual(res.body.threat[0].tactic, { id: 'TA0002', name: 'Execution', reference: 'r' });
      assert.deepEqual(res.body.required_fields, [{ name: 'host.name', type: 'keyword', ecs: true }], 'a sent ecs is stripped and computed');
    });

    it('reports five issues and counts the rest (kbn-zod-helpers/v4/stringify_zod_error.ts MAX_ERRORS)', async () => {
      const res = await api('POST', RULES, { type: 'query', tags: [1, 2, 3, 4, 5, 6] });
      assert.equal(res.status, 400);
      // name, description, risk_score and severity are missing, and six tags are not strings: ten issues.
      assert.equal((res.body.message.match(/: Invalid (input|option)/g) ?? []).length, 5);
      assert.match(res.body.message, /tags\.0: Invalid input: expected string, received number, and 5 more$/);
    });

    it('checks from as date math (common_attributes.gen.ts RuleIntervalFrom; create_rule/route.test.ts "disallows invalid from")', async () => {
      const res = await api('POST', RULES, base('bad-from', { from: 'now-3755555555555555.67s' }));
      assert.equal(res.body.message, '[request body]: from: Failed to parse date-math expression');
      assert.equal((await api('POST', RULES, base('good-from', { from: 'now-1h/h' }))).status, 200);
    });

    it('takes an anomaly threshold above 100 and refuses one below 0 (ml_attributes.gen.ts AnomalyThreshold: an integer of at least 0; OAS AnomalyThreshold)', async () => {
      const ml = (id: string, anomaly_threshold: number) => base(id, { type: 'machine_learning', machine_learning_job_id: 'job', anomaly_threshold });
      assert.equal((await api('POST', RULES, ml('ml-high', 150))).status, 200);
      const low = await api('POST', RULES, ml('ml-low', -1));
      assert.equal(low.status, 400);
      assert.match(low.body.message, /anomaly_threshold/);
    });

    it('takes from as anchored date math and a count left out (kbn-datemath parse: a date before ||, a missing count is 1)', async () => {
      for (const [i, from] of ['2024-01-01T00:00:00Z||-1d', '2024-01-01||/d', 'now-d'].entries()) {
        const res = await api('POST', RULES, base(`anchored-${i}`, { from }));
        assert.equal(res.status, 200, `${from}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.from, from);
      }
      const unit = await api('POST', RULES, base('bad-unit', { from: 'now-5mo' }));
      assert.equal(unit.body.message, '[request body]: from: Failed to parse date-math expression', 'letters after the unit belong to it');
    });

    it('takes throttle as no_actions, rule or a duration; only the pattern member could go on, so its issue is the answer (RuleActionThrottle; zod v4 union)', async () => {
      const res = await api('POST', RULES, base('bad-throttle', { throttle: 'sometimes' }));
      assert.equal(res.body.message, '[request body]: throttle: Invalid string: must match pattern /^[1-9]\\d*[smhd]$/');
      const typed = await api('POST', RULES, base('num-throttle', { throttle: 5 }));
      assert.equal(typed.body.message, '[request body]: Invalid option: expected one of "no_actions"|"rule", Invalid input: expected string, received number', 'both members failed on type: their issues, without the path');
      assert.equal((await api('POST', RULES, base('ok-throttle', { throttle: 'no_actions' }))).status, 200);
    });
  });

  describe('interval', () => {
    it('is any text to the route\'s schema, but the rules client checks it as a duration on create and update (alerting createRuleDataSchema, updateRuleDataSchema: schedule.interval validateDurationSchema, lib/parse_duration.ts)', async () => {
      for (const interval of ['5x', '05m', '0s', '1w', '']) {
        const res = await api('POST', RULES, base(`interval-${interval || 'empty'}`, { interval }));
        assert.equal(res.status, 400, interval);
        assert.deepEqual(res.body, { message: `Error validating create data - [schedule.interval]: string is not a valid duration: ${interval}`, status_code: 400 });
      }
      for (const interval of ['90s', '5m', '24h', '1d']) assert.equal((await api('POST', RULES, base(`interval-ok-${interval}`, { interval }))).status, 200, interval);
      const replaced = await api('PUT', RULES, base('interval-ok-5m', { interval: '1 hour' }));
      assert.deepEqual(replaced.body, { message: 'Error validating update data - [schedule.interval]: string is not a valid duration: 1 hour', status_code: 400 });
      const patched = await api('PATCH', RULES, { rule_id: 'interval-ok-5m', interval: '-5m' });
      assert.deepEqual(patched.body, { message: 'Error validating update data - [schedule.interval]: string is not a valid duration: -5m', status_code: 400 });
    });
  });

  describe('the route\'s checks after the schema (request_schema_validation.ts)', () => {
    it('answers a security 400 whose message is the list of problems (routes/utils.ts buildSiemResponse)', async () => {
      const res = await api('POST', RULES, base('timeline', { timeline_id: 'tl-1' }));
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { message: ['when "timeline_id" exists, "timeline_title" must also exist'], status_code: 400 });
    });

    it('refuses an update naming both id and rule_id', async () => {
      const { id } = (await api('POST', RULES, base('both-ids'))).body;
      const res = await api('PUT', RULES, { ...base('both-ids'), id });
      assert.deepEqual(res.body, { message: ['both "id" and "rule_id" cannot exist, choose one or the other'], status_code: 400 });
    });

    it('refuses a threshold cardinality on a field it aggregates on (utils/request_validation/threshold.ts)', async () => {
      const res = await api('POST', RULES, base('thr-card', { type: 'threshold', query: 'a:b', threshold: { field: ['user.name'], value: 2, cardinality: [{ field: 'user.name', value: 2 }] } }));
      assert.deepEqual(res.body.message, ['Cardinality of a field that is being aggregated on is always 1']);
    });
  });

  describe('query of threshold, threat_match and new_terms', () => {
    const thresholdWithoutQuery = base('thr-no-query', { type: 'threshold', threshold: { field: ['source.ip'], value: 5 } });

    it('is optional by default, as service-api.md lists the type-specific required fields ("threshold needs threshold")', async () => {
      assert.equal((await api('POST', RULES, thresholdWithoutQuery)).status, 200);
    });

    it('is required with the real server behaviour switched on (rule_schemas.gen.ts ThresholdRuleRequiredFields query: RuleQuery)', async () => {
      const real = await emulator({ realRoutes: ['rules.query-required'] });
      try {
        const res = await call(real, 'POST', RULES, thresholdWithoutQuery);
        assert.equal(res.status, 400);
        assert.equal(res.body.message, '[request body]: query: Invalid input: expected string, received undefined');
      } finally {
        await real.stop();
      }
    });
  });

  it('computes required_fields[].ecs from the ECS field set, name and type together (rule_management/utils.ts addEcsToRequiredFields; data/ecs-fields.txt)', async () => {
    const fields = [
      { name: 'process.args_count', type: 'long' },
      { name: 'process.entity_id', type: 'keyword' },
      { name: 'host.ip', type: 'ip' },
      { name: 'host.ip', type: 'keyword' },
      { name: 'winlog.event_data.AttributeLDAPDisplayName', type: 'keyword' },
    ];
    const res = await api('POST', RULES, base('ecs', { required_fields: fields }));
    assert.deepEqual(res.body.required_fields.map((f: any) => f.ecs), [true, true, true, false, false]);
  });

  it('reads response action params as their schemas do: endpoint isolate, kill/suspend-process with config (overwrite defaults to true) or runscript; host query params typed (model/rule_response_actions/response_actions.gen.ts; OpenAPI Security_Detections_API_ResponseAction)', async () => {
    const rule = (id: string, action: Record<string, unknown>) => base(id, { response_actions: [action] });
    const refused = [
      { action_type_id: '.endpoint', params: { command: 'rm-rf' } },
      { action_type_id: '.endpoint', params: { command: 'kill-process' } },
      { action_type_id: '.endpoint', params: { command: 'suspend-process', config: { overwrite: false } } },
      { action_type_id: '.hostquery', params: { timeout: 'soon' } },
      { action_type_id: '.hostquery', params: { queries: [{ id: 'q1' }] } },
    ];
    for (const [i, action] of refused.entries()) assert.equal((await api('POST', RULES, rule(`ra-bad-${i}`, action))).status, 400, JSON.stringify(action));
    const kill = await api('POST', RULES, rule('ra-kill', { action_type_id: '.endpoint', params: { command: 'kill-process', comment: 'c', config: { field: 'process.entity_id' } } }));
    assert.equal(kill.status, 200, kill.text);
    assert.deepEqual(kill.body.response_actions[0].params, { command: 'kill-process', comment: 'c', config: { field: 'process.entity_id', overwrite: true } });
    const taken = [
      { action_type_id: '.endpoint', params: { command: 'isolate', comment: 'contain' } },
      { action_type_id: '.endpoint', params: { command: 'runscript', config: { linux: { scriptId: 's1', timeout: 60 } } } },
      { action_type_id: '.hostquery', params: { queries: [{ id: 'q1', query: 'select 1;', ecs_mapping: { 'process.pid': { field: 'pid' } } }], timeout: 120 } },
    ];
    for (const [i, action] of taken.entries()) {
      const res = await api('POST', RULES, rule(`ra-ok-${i}`, action));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.response_actions[0], action);
    }
  });

  it('links an exception list of every type of the rule schema\'s ExceptionListType, endpoint_trusted_devices included (OpenAPI b76003905 Security_Detections_API_ExceptionListType)', async () => {
    for (const type of ['endpoint_trusted_devices', 'endpoint_trusted_apps', 'detection']) {
      const res = await api('POST', RULES, base(`linked-${type}`, { exceptions_list: [{ id: `${type}-id`, list_id: type, type, namespace_type: 'agnostic' }] }));
      assert.equal(res.status, 200, `${type}: ${res.text}`);
    }
    // Not in that enum: the exception-list route's own type list has it, the rule schema does not.
    const yara = await api('POST', RULES, base('linked-yara', { exceptions_list: [{ id: 'y', list_id: 'y', type: 'endpoint_custom_yara_signatures', namespace_type: 'agnostic' }] }));
    assert.equal(yara.status, 400);
  });

  it('stores data_view_id, timeline_id, exceptions_list and a response action\'s saved_query_id naming objects it does not hold, on create, update and patch (wire-facts §16 #8)', async () => {
    const elsewhere = {
      data_view_id: 'dv-elsewhere',
      timeline_id: 'timeline-elsewhere',
      timeline_title: 'Elsewhere',
      exceptions_list: [{ id: 'list-elsewhere-id', list_id: 'list-elsewhere', type: 'detection', namespace_type: 'single' }],
      response_actions: [{ action_type_id: '.hostquery', params: { saved_query_id: 'query-elsewhere' } }],
    };
    const held = (body: any) => [body.data_view_id, body.timeline_id, body.exceptions_list, body.response_actions?.[0]?.params?.saved_query_id];
    const expected = ['dv-elsewhere', 'timeline-elsewhere', elsewhere.exceptions_list, 'query-elsewhere'];
    const created = await api('POST', RULES, base('refs-elsewhere', elsewhere));
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(held(created.body), expected);
    const replaced = await api('PUT', RULES, base('refs-elsewhere', { ...elsewhere, name: 'Replaced' }));
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual(held(replaced.body), expected);
    const patched = await api('PATCH', RULES, { rule_id: 'refs-elsewhere', data_view_id: 'dv-other', timeline_id: 'timeline-other', timeline_title: 'Other' });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.body.data_view_id, patched.body.timeline_id], ['dv-other', 'timeline-other']);
  });
});
