import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import type { RulesState } from '../src/areas/rules/state.js';

const RULES = '/api/detection_engine/rules';
const q = (s: string) => encodeURIComponent(s);
const base = (ruleId: string, extra: Record<string, unknown> = {}) => ({ rule_id: ruleId, type: 'query', name: `Rule ${ruleId}`, description: 'd', severity: 'low', risk_score: 21, ...extra });
const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('emulator: detection rules (/api/detection_engine)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other', 'bulk', 'big', 'pkg'] });
    await call(emu, 'POST', '/api/actions/connector/chat', { name: 'Chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
  });
  after(() => emu.stop());

  const api = (method: string, path: string, body?: unknown) => call(emu, method, path, body);
  const create = async (body: Record<string, unknown>, space = '') => {
    const res = await api('POST', `${space}${RULES}`, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  describe('create', () => {
    it('requires type, name, description, severity and risk_score (service-api.md Detection engine: "Rule create body, required"; messages of rule_request_schema.test.ts)', async () => {
      const res = await api('POST', RULES, {});
      assert.equal(res.status, 400);
      assert.equal(res.body.message, '[request body]: type: Invalid input', 'the discriminator comes first');
      assert.equal(res.body.statusCode, 400, 'route-schema failures are platform-shaped (wire-facts 0.3)');
      const typed = await api('POST', RULES, { type: 'query' });
      assert.equal(
        typed.body.message,
        '[request body]: name: Invalid input: expected string, received undefined, description: Invalid input: expected string, received undefined, ' +
          'risk_score: Invalid input: expected number, received undefined, severity: Invalid option: expected one of "low"|"medium"|"high"|"critical"',
      );
    });

    it('checks the type and severity enums (service-api.md Detection engine: type, severity values)', async () => {
      assert.equal((await api('POST', RULES, base('bad-type', { type: 'sigma' }))).status, 400);
      const sev = await api('POST', RULES, base('bad-sev', { severity: 'urgent' }));
      assert.equal(sev.status, 400);
      assert.match(sev.body.message, /severity: Invalid option: expected one of "low"\|"medium"\|"high"\|"critical"/);
    });

    it('takes risk_score from 0 to 100 only (service-api.md Limits: "risk_score ... 0 to 100")', async () => {
      assert.equal((await api('POST', RULES, base('risk-0', { risk_score: 0 }))).status, 200);
      assert.equal((await api('POST', RULES, base('risk-100', { risk_score: 100 }))).status, 200);
      assert.equal((await api('POST', RULES, base('risk-101', { risk_score: 101 }))).status, 400);
      assert.equal((await api('POST', RULES, base('risk-neg', { risk_score: -1 }))).status, 400);
    });

    it('requires each type\'s own fields (service-api.md Detection engine: "Type-specific required fields")', async () => {
      const cases: Array<[string, string[]]> = [
        ['eql', ['query', 'language']],
        ['qlang', ['query', 'language']],
        ['saved_query', ['saved_id']],
        ['threshold', ['threshold']],
        ['threat_match', ['threat_index', 'threat_query', 'threat_mapping']],
        // machine_learning_job_id is a union (string or array): zod prints its options' issues without the path.
        ['machine_learning', ['anomaly_threshold', 'Invalid input: expected string, received undefined, Invalid input: expected array']],
        ['new_terms', ['new_terms_fields', 'history_window_start']],
      ];
      for (const [type, fields] of cases) {
        const res = await api('POST', RULES, base(`missing-${type}`, { type }));
        assert.equal(res.status, 400, type);
        for (const f of fields) assert.ok(res.body.message.includes(f.includes(' ') ? f : `${f}: Invalid input`), `${type} ${f}: ${res.body.message}`);
      }
    });

    it('takes the languages of the rule type only (service-api.md Detection engine: "language ... by rule type")', async () => {
      assert.equal((await api('POST', RULES, base('eql-kuery', { type: 'eql', query: 'any where true', language: 'kuery' }))).status, 400);
      assert.equal((await api('POST', RULES, base('q-lucene', { language: 'lucene', query: 'a:b' }))).status, 200);
    });

    it('strips fields the rule type does not take and keys nobody knows (K-DE/model/rule_schema/rule_request_schema.test.ts "strips any unknown values")', async () => {
      const res = await api('POST', RULES, base('query-with-threshold', { threshold: { field: 'a', value: 2 }, madeUp: 'hi', fields: ['a'] }));
      assert.equal(res.status, 200);
      for (const k of ['threshold', 'madeUp', 'fields']) assert.equal(res.body[k], undefined, k);
    });

    it('answers 400 when data_view_id comes with index (service-api.md Detection engine: "data_view_id cannot be combined with index")', async () => {
      const res = await api('POST', RULES, base('dv-and-index', { data_view_id: 'logs-dv', index: ['logs-*'] }));
      assert.equal(res.status, 400);
      assert.equal(res.body.status_code, 400);
      assert.equal((await api('POST', RULES, base('dv-only', { data_view_id: 'logs-dv' }))).status, 200);
    });

    it('answers 409 rule_id: "x" already exists for a duplicate rule_id (wire-facts 2.1)', async () => {
      await create(base('twice'));
      const res = await api('POST', RULES, base('twice'));
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, { message: 'rule_id: "twice" already exists', status_code: 409 });
    });

    it('replies with id and rule_id, generating rule_id when absent (service-api.md: "Rule reply carries id ... and rule_id"; wire-facts 2.3)', async () => {
      const { rule_id: _drop, ...noRuleId } = base('x');
      const rule = await create(noRuleId);
      assert.match(rule.id, /^[0-9a-f-]{36}$/);
      assert.match(rule.rule_id, /^[0-9a-f-]{36}$/);
      assert.notEqual(rule.id, rule.rule_id);
    });

    it('fills RULE_DEFAULTS, enabled false and max_signals 100 (wire-facts 2.3; service-api.md: "max_signals default 100")', async () => {
      const rule = await create(base('defaults'));
      const expected = { enabled: false, max_signals: 100, interval: '5m', from: 'now-6m', to: 'now', version: 1, risk_score_mapping: [], severity_mapping: [], exceptions_list: [], false_positives: [], actions: [], related_integrations: [], required_fields: [], setup: '', references: [], threat: [], tags: [], author: [], output_index: '' };
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(rule[k], v, k);
      assert.equal(rule.language, 'kuery');
      assert.equal(rule.query, '');
    });

    it('fills the per-type defaults and normalisations (wire-facts 2.3: "Defaults per rule type")', async () => {
      for (const [type, extra] of [
        ['saved_query', { saved_id: 's1' }],
        ['new_terms', { query: 'a:b', new_terms_fields: ['host.name'], history_window_start: 'now-7d' }],
      ] as const) {
        assert.equal((await create(base(`lang-${type}`, { type, ...extra }))).language, 'kuery', type);
      }
      const threshold = await create(base('thr', { type: 'threshold', query: 'a:b', threshold: { field: 'source.ip', value: 5 } }));
      assert.deepEqual(threshold.threshold, { field: ['source.ip'], value: 5 });
      assert.equal(threshold.language, 'kuery');
      const tm = await create(base('tm', { type: 'threat_match', query: '*:*', threat_index: ['ti-*'], threat_query: '*:*', threat_mapping: [{ entries: [{ field: 'source.ip', type: 'mapping', value: 'threat.indicator.ip' }] }] }));
      assert.equal(tm.threat_indicator_path, 'threat.indicator');
      assert.equal(tm.language, 'kuery');
      const ml = await create(base('ml', { type: 'machine_learning', machine_learning_job_id: 'auth_rare_user', anomaly_threshold: 50 }));
      assert.deepEqual(ml.machine_learning_job_id, ['auth_rare_user']);
      assert.equal(ml.language, undefined);
    });

    it('adds the server-managed fields, execution_summary only once enabled (wire-facts 2.3 "Response-only fields")', async () => {
      const off = await create(base('managed-off'));
      assert.equal(off.immutable, false);
      assert.deepEqual(off.rule_source, { type: 'internal' });
      assert.equal(off.revision, 0);
      assert.equal(off.created_by, 'elastic');
      assert.equal(off.updated_at, off.created_at);
      assert.equal(off.execution_summary, undefined);
      const on = await create(base('managed-on', { enabled: true }));
      assert.deepEqual(Object.keys(on.execution_summary.last_execution).sort(), ['date', 'message', 'metrics', 'status', 'status_order']);
      assert.equal(on.execution_summary.last_execution.status, 'succeeded');
    });

    it('fills actions[] uuid and frequency (wire-facts 2.3 "Actions come back with server-added uuid")', async () => {
      const rule = await create(base('acts', { actions: [{ id: 'chat', group: 'default', action_type_id: '.chat', params: { message: 'm' } }] }));
      const [a] = rule.actions;
      assert.equal(a.action_type_id, '.chat');
      assert.match(a.uuid, /^[0-9a-f-]{36}$/);
      assert.deepEqual(a.frequency, { summary: true, notifyWhen: 'onActiveAlert', throttle: null });
      const throttled = await create(base('acts-throttle', { throttle: '1h', actions: [{ id: 'chat', group: 'default', action_type_id: '.chat', params: {} }] }));
      assert.deepEqual(throttled.actions[0].frequency, { summary: true, notifyWhen: 'onThrottleInterval', throttle: '1h' });
    });

    it('answers 400 to an action naming an unknown connector (wire-facts 2.3: actions name connectors of the space)', async () => {
      const res = await api('POST', RULES, base('bad-action', { actions: [{ id: 'nowhere', group: 'default', action_type_id: '.chat', params: {} }] }));
      assert.equal(res.status, 400);
      assert.match(res.body.message, /nowhere/);
    });

    it('computes required_fields[].ecs (wire-facts 2.3: "each entry gets server-computed ecs")', async () => {
      const rule = await create(base('reqf', { required_fields: [{ name: 'source.ip', type: 'ip' }, { name: 'custom.x', type: 'keyword' }] }));
      assert.deepEqual(rule.required_fields, [{ name: 'source.ip', type: 'ip', ecs: true }, { name: 'custom.x', type: 'keyword', ecs: false }]);
    });
  });

  describe('read, update, patch, delete', () => {
    it('reads by rule_id or id and answers 400 without either (wire-facts 2.1: "one of the two is required")', async () => {
      const rule = await create(base('readable'));
      assert.equal((await api('GET', `${RULES}?rule_id=readable`)).body.id, rule.id);
      assert.equal((await api('GET', `${RULES}?id=${rule.id}`)).body.rule_id, 'readable');
      const none = await api('GET', RULES);
      assert.equal(none.status, 400);
      assert.equal(none.body.status_code, 400);
    });

    it('answers 404 rule_id: "x" not found in the security shape (wire-facts 2.1)', async () => {
      const res = await api('GET', `${RULES}?rule_id=ghost`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { message: 'rule_id: "ghost" not found', status_code: 404 });
    });

    it('PUT replaces the rule, re-applies defaults and keeps enabled and version when omitted (wire-facts 2.2 "PUT semantics")', async () => {
      const before = await create(base('put-me', { enabled: true, version: 4, tags: ['a'], interval: '1m' }));
      const res = await api('PUT', RULES, { ...base('put-me', { severity: 'high' }) });
      assert.equal(res.status, 200);
      const after = res.body;
      assert.equal(after.severity, 'high');
      assert.deepEqual(after.tags, [], 'omitted tags reset to the default');
      assert.equal(after.interval, '5m');
      assert.equal(after.enabled, true);
      assert.equal(after.version, 4);
      for (const k of ['id', 'rule_id', 'created_at', 'created_by', 'immutable']) assert.deepEqual(after[k], before[k], k);
      assert.equal(after.revision, 1);
      assert.equal((await api('PUT', RULES, base('nobody'))).status, 404);
      const { rule_id: _r, ...anonymous } = base('x');
      assert.equal((await api('PUT', RULES, anonymous)).status, 400);
    });

    it('PATCH keeps what the patch leaves out, and its schema refuses null (wire-facts 2.2 "patch ?? existing"; RulePatchProps fields are optional, not nullable)', async () => {
      await create(base('patch-me', { tags: ['keep'], note: 'guide' }));
      const res = await api('PATCH', RULES, { rule_id: 'patch-me', severity: 'critical' });
      assert.equal(res.status, 200);
      assert.equal(res.body.severity, 'critical');
      assert.deepEqual(res.body.tags, ['keep']);
      assert.equal(res.body.note, 'guide');
      assert.equal(res.body.revision, 1);
      const nulled = await api('PATCH', RULES, { rule_id: 'patch-me', note: null });
      assert.equal(nulled.status, 400);
      assert.match(nulled.body.message, /note: Invalid input: expected string, received null/);
    });

    it('PATCH never changes the type: another type is a 400 (wire-facts 2.2; mergers/apply_rule_patch.ts patchTypeSpecificParams)', async () => {
      await create(base('patch-type'));
      const res = await api('PATCH', RULES, { rule_id: 'patch-type', type: 'eql' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { message: 'type: Invalid input: expected "query"', status_code: 400 });
      assert.equal((await api('GET', `${RULES}?rule_id=patch-type`)).body.type, 'query');
    });

    it('PATCH without type reads the body as an EQL patch, dropping other types\' fields: a silent no-op on 9.4.3 (elastic/kibana#287579)', async () => {
      await create(base('patch-thr', { type: 'threshold', query: 'a:b', threshold: { field: ['a'], value: 3 } }));
      const res = await api('PATCH', RULES, { rule_id: 'patch-thr', threshold: { field: ['a'], value: 9 } });
      assert.equal(res.status, 200);
      assert.equal(res.body.threshold.value, 3);
      assert.equal(res.body.revision, 0);
      const typed = await api('PATCH', RULES, { rule_id: 'patch-thr', type: 'threshold', threshold: { field: ['a'], value: 9 } });
      assert.equal(typed.body.threshold.value, 9);
    });

    it('does not bump revision when only enabled changes (wire-facts 2.2: "toggling enabled does not bump it")', async () => {
      await create(base('toggle'));
      const on = await api('PATCH', RULES, { rule_id: 'toggle', enabled: true });
      assert.equal(on.body.enabled, true);
      assert.equal(on.body.revision, 0);
      assert.ok(on.body.execution_summary);
      const put = await api('PUT', RULES, base('toggle', { enabled: false }));
      assert.equal(put.body.revision, 0);
    });

    it('bumps revision when a parameter changes, however deep, and not for the same parameters in another key order (wire-facts 2.2: "+1 on each update that changes rule parameters")', async () => {
      const threat = [{ framework: 'MITRE ATT&CK', tactic: { id: 'TA0002', name: 'Execution', reference: 'https://attack.mitre.org/tactics/TA0002/' }, technique: [] }];
      await create(base('revisions', { threat }));
      const reordered = Object.fromEntries(Object.entries(base('revisions', { threat: [{ technique: [], tactic: { reference: threat[0].tactic.reference, name: 'Execution', id: 'TA0002' }, framework: 'MITRE ATT&CK' }] })).reverse());
      const same = await api('PUT', RULES, reordered);
      assert.equal(same.status, 200);
      assert.equal(same.body.revision, 0);
      const deeper = await api('PUT', RULES, base('revisions', { threat: [{ ...threat[0], tactic: { ...threat[0].tactic, name: 'Execution (renamed)' } }] }));
      assert.equal(deeper.body.revision, 1);
      const fewer = await api('PUT', RULES, base('revisions'));
      assert.equal(fewer.body.revision, 2, 'a parameter that goes away is a change');
    });

    it('DELETE returns the deleted rule (wire-facts 2.1: "200 returns the deleted rule")', async () => {
      const rule = await create(base('delete-me'));
      const res = await api('DELETE', `${RULES}?rule_id=delete-me`);
      assert.equal(res.status, 200);
      assert.equal(res.body.id, rule.id);
      assert.equal((await api('DELETE', `${RULES}?id=${rule.id}`)).status, 404);
    });
  });

  describe('_find', () => {
    before(async () => {
      const rows = [['f-alpha', ['team:a'], true, 10], ['f-beta', ['team:b'], false, 90], ['f-gamma', ['team:a', 'team:b'], false, 50], ['f-delta', ['k: v'], true, 30]] as const;
      for (const [id, tags, enabled, risk] of rows) await create(base(id, { name: `Find ${id.slice(2)} rule`, tags, enabled, risk_score: risk }), '/s/other');
    });
    const find = (query: string) => api('GET', `/s/other${RULES}/_find?${query}`);

    it('answers {page, perPage, total, data} with page 1 and per_page 20 by default (wire-facts 0.4)', async () => {
      const res = await find('');
      assert.deepEqual(Object.keys(res.body).sort(), ['data', 'page', 'perPage', 'total']);
      assert.equal(res.body.page, 1);
      assert.equal(res.body.perPage, 20);
      assert.equal(res.body.total, 4);
      const projected = await find('fields=name&per_page=1');
      assert.deepEqual(Object.keys(projected.body.data[0]).sort(), ['id', 'name', 'rule_id']);
    });

    it('pages with page and per_page (wire-facts 0.4: "page (>=1, default 1), per_page (>=0)")', async () => {
      const p2 = await find('page=2&per_page=3');
      assert.equal(p2.body.data.length, 1);
      assert.equal(p2.body.total, 4);
      assert.equal((await find('per_page=0')).body.data.length, 0);
      assert.equal((await find('page=0')).status, 400);
      assert.equal((await find('per_page=-1')).status, 400);
    });

    it('answers 400 beyond the 10,000 search window (wire-facts 0.4: "page x per_page <= 10 000")', async () => {
      assert.equal((await find('page=10&per_page=1000')).status, 200);
      assert.equal((await find('page=11&per_page=1000')).status, 400);
    });

    it('sorts with sort_field and sort_order, which go together (wire-facts 0.4: "both or neither")', async () => {
      const asc = await find('sort_field=risk_score&sort_order=asc');
      assert.deepEqual(asc.body.data.map((r: any) => r.risk_score), [10, 30, 50, 90]);
      const desc = await find('sort_field=name&sort_order=desc');
      assert.deepEqual(desc.body.data.map((r: any) => r.rule_id), ['f-gamma', 'f-delta', 'f-beta', 'f-alpha']);
      assert.equal((await find('sort_field=name')).status, 400);
      assert.equal((await find('sort_field=colour&sort_order=asc')).status, 400);
    });

    it('filters on tags, names and enabled with the KQL shapes of wire-facts 2.1', async () => {
      const ids = async (filter: string) => (await find(`filter=${q(filter)}&sort_field=name&sort_order=asc`)).body.data.map((r: any) => r.rule_id);
      assert.deepEqual(await ids('alert.attributes.tags:"team:a"'), ['f-alpha', 'f-gamma']);
      assert.deepEqual(await ids('alert.attributes.tags:("team:a" OR "k: v")'), ['f-alpha', 'f-delta', 'f-gamma']);
      assert.deepEqual(await ids('alert.attributes.tags:("team:a" AND "team:b")'), ['f-gamma']);
      assert.deepEqual(await ids('alert.attributes.enabled: false AND alert.attributes.tags:("team:b")'), ['f-beta', 'f-gamma']);
      assert.deepEqual(await ids('alert.attributes.name:"gamma rule"'), ['f-gamma']);
      assert.deepEqual(await ids('NOT alert.attributes.enabled:true'), ['f-beta', 'f-gamma']);
      assert.equal((await find(`filter=${q('alert.attributes.colour:red')}`)).status, 400);
      assert.equal((await find(`filter=${q('alert.attributes.tags:("a"')}`)).status, 400);
    });

    it('stays fast over 10,000 rules (brief: "_find over 10,000 rules stays fast")', async () => {
      const rows = Array.from({ length: 10_000 }, (_, i) => base(`big-${i}`, { tags: [i % 2 ? 'odd' : 'even'] }));
      const imported = await postFile(emu, `/s/big${RULES}/_import`, ndjson(rows));
      assert.equal(imported.body.success_count, 10_000);
      const started = performance.now();
      const res = await api('GET', `/s/big${RULES}/_find?per_page=1000&page=10&filter=${q('alert.attributes.tags:"odd"')}&sort_field=name&sort_order=asc`);
      assert.equal(res.body.total, 5000);
      assert.ok(performance.now() - started < 2000, 'a filtered, sorted page of 10,000 rules answers within 2 s');
    });
  });

  describe('_bulk_action', () => {
    const bulk = (body: unknown, query = '') => api('POST', `/s/bulk${RULES}/_bulk_action${query}`, body);
    const ids: Record<string, string> = {};
    before(async () => {
      for (const id of ['b1', 'b2', 'b3']) ids[id] = (await create(base(id, { tags: ['t1'], index: ['logs-*'] }), '/s/bulk')).id;
      ids.ml = (await create(base('bml', { type: 'machine_learning', machine_learning_job_id: 'j', anomaly_threshold: 50 }), '/s/bulk')).id;
    });

    it('enables and disables by ids with the documented response shape (wire-facts 2.1 "_bulk_action response")', async () => {
      const res = await bulk({ action: 'enable', ids: [ids.b1, ids.b2] });
      assert.equal(res.status, 200);
      assert.equal(res.body.success, true);
      assert.equal(res.body.rules_count, 2);
      assert.deepEqual(Object.keys(res.body.attributes.results).sort(), ['created', 'deleted', 'skipped', 'updated']);
      assert.deepEqual(res.body.attributes.summary, { failed: 0, skipped: 0, succeeded: 2, total: 2 });
      assert.ok(res.body.attributes.results.updated.every((r: any) => r.enabled));
      const off = await bulk({ action: 'disable', ids: [ids.b1] });
      assert.equal(off.body.attributes.results.updated[0].enabled, false);
    });

    it('edits tags, skipping rules an edit does not change (wire-facts 2.1: "skip_reason: RULE_NOT_MODIFIED")', async () => {
      const add = await bulk({ action: 'edit', ids: [ids.b1], edit: [{ type: 'add_tags', value: ['t2'] }] });
      assert.deepEqual(add.body.attributes.results.updated[0].tags, ['t1', 't2']);
      const again = await bulk({ action: 'edit', ids: [ids.b1], edit: [{ type: 'add_tags', value: ['t2'] }] });
      assert.deepEqual(again.body.attributes.results.skipped, [{ id: ids.b1, name: 'Rule b1', skip_reason: 'RULE_NOT_MODIFIED' }]);
      const del = await bulk({ action: 'edit', ids: [ids.b1], edit: [{ type: 'delete_tags', value: ['t1'] }] });
      assert.deepEqual(del.body.attributes.results.updated[0].tags, ['t2']);
      const set = await bulk({ action: 'edit', ids: [ids.b1], edit: [{ type: 'set_tags', value: ['x', 'y'] }] });
      assert.deepEqual(set.body.attributes.results.updated[0].tags, ['x', 'y']);
    });

    it('edits index patterns and schedules (wire-facts 2.1: "add/delete/set ... index patterns; set_schedule {interval, lookback}")', async () => {
      const add = await bulk({ action: 'edit', ids: [ids.b2], edit: [{ type: 'add_index_patterns', value: ['auditbeat-*'] }] });
      assert.deepEqual(add.body.attributes.results.updated[0].index, ['logs-*', 'auditbeat-*']);
      const del = await bulk({ action: 'edit', ids: [ids.b2], edit: [{ type: 'delete_index_patterns', value: ['logs-*'] }] });
      assert.deepEqual(del.body.attributes.results.updated[0].index, ['auditbeat-*']);
      const set = await bulk({ action: 'edit', ids: [ids.b2], edit: [{ type: 'set_index_patterns', value: ['a-*', 'b-*'] }] });
      assert.deepEqual(set.body.attributes.results.updated[0].index, ['a-*', 'b-*']);
      const sched = await bulk({ action: 'edit', ids: [ids.b2], edit: [{ type: 'set_schedule', value: { interval: '10m', lookback: '2m' } }] });
      const rule = sched.body.attributes.results.updated[0];
      assert.equal(rule.interval, '10m');
      assert.equal(rule.from, 'now-720s');
    });

    it('reports rules an edit cannot apply to as errors with HTTP 500 (wire-facts 2.1 "errors?[{message,status_code,...}]")', async () => {
      const res = await bulk({ action: 'edit', ids: [ids.b3, ids.ml], edit: [{ type: 'add_index_patterns', value: ['x-*'] }] });
      assert.equal(res.status, 500);
      assert.equal(res.body.message, 'Bulk edit partially failed');
      assert.equal(res.body.attributes.summary.failed, 1);
      assert.deepEqual(res.body.attributes.errors[0].rules, [{ id: ids.ml, name: 'Rule bml' }]);
    });

    it('reports unknown ids in errors (brief: "unknown ids reported in errors")', async () => {
      const res = await bulk({ action: 'enable', ids: ['no-such-id'] });
      assert.equal(res.status, 500);
      assert.equal(res.body.message, 'Bulk edit failed');
      assert.deepEqual(res.body.attributes.errors, [{ message: 'Rule not found', status_code: 404, rules: [{ id: 'no-such-id' }] }]);
    });

    it('changes nothing on dry_run (wire-facts 2.1: "_bulk_action[?dry_run=true]")', async () => {
      const res = await bulk({ action: 'delete', ids: [ids.b3] }, '?dry_run=true');
      assert.equal(res.body.attributes.summary.succeeded, 1);
      assert.equal((await api('GET', `/s/bulk${RULES}?id=${ids.b3}`)).status, 200);
      assert.equal((await bulk({ action: 'export', ids: [ids.b3] }, '?dry_run=true')).status, 400);
    });

    it('selects by query and refuses ids together with a query (wire-facts 2.1: "query? | ids[]")', async () => {
      const res = await bulk({ action: 'duplicate', query: 'alert.attributes.tags:"t1"', duplicate: { include_exceptions: false, include_expired_exceptions: false } });
      assert.equal(res.status, 200);
      const created = res.body.attributes.results.created;
      assert.ok(created.length >= 1);
      assert.ok(created.every((r: any) => r.name.endsWith('[Duplicate]') && r.enabled === false && r.id !== ids.b3));
      assert.equal((await bulk({ action: 'enable', ids: [ids.b1], query: '' })).status, 400);
      assert.equal((await bulk({ action: 'enable', ids: [] })).status, 400);
    });

    it('deletes, reporting the deleted rules (wire-facts 2.1: "deleted[]")', async () => {
      const res = await bulk({ action: 'delete', ids: [ids.b3] });
      assert.equal(res.body.attributes.results.deleted[0].id, ids.b3);
      assert.equal((await api('GET', `/s/bulk${RULES}?id=${ids.b3}`)).status, 404);
    });
  });

  describe('_export and _import', () => {
    before(async () => {
      await create(base('exp-1', { actions: [{ id: 'chat', group: 'default', action_type_id: '.chat', params: { message: 'x' } }] }));
      await create(base('exp-2'));
    });

    it('exports NDJSON with the summary last (wire-facts 2.1: "answers application/ndjson, last line a summary")', async () => {
      const res = await api('POST', `${RULES}/_export`, { objects: [{ rule_id: 'exp-1' }, { rule_id: 'gone' }] });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^application\/ndjson/);
      const lines = res.text.trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines[0].rule_id, 'exp-1');
      assert.equal(lines[1].type, 'action', 'the connector its action uses, without secrets');
      assert.deepEqual(lines[1].attributes.secrets, {});
      const summary = lines.at(-1);
      assert.equal(summary.exported_rules_count, 1);
      assert.deepEqual(summary.missing_rules, [{ rule_id: 'gone' }]);
    });

    it('leaves the summary out with exclude_export_details=true and exports everything without objects (wire-facts 2.1)', async () => {
      const res = await api('POST', `${RULES}/_export?exclude_export_details=true`);
      const lines = res.text.trim().split('\n').map((l) => JSON.parse(l));
      assert.ok(lines.some((l) => l.rule_id === 'exp-2'));
      assert.ok(lines.every((l) => l.exported_count === undefined));
    });

    it('imports a multipart NDJSON file with the documented response shape (wire-facts 2.1 "_import response")', async () => {
      const res = await postFile(emu, `${RULES}/_import`, ndjson([base('imp-1'), base('imp-2', { enabled: true })]));
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['action_connectors_errors', 'action_connectors_success', 'action_connectors_success_count', 'action_connectors_warnings', 'errors', 'exceptions_errors', 'exceptions_success', 'exceptions_success_count', 'rules_count', 'success', 'success_count']);
      assert.equal(res.body.success_count, 2);
      assert.equal((await api('GET', `${RULES}?rule_id=imp-2`)).body.enabled, true);
    });

    it('reports a 409 per existing rule without overwrite and replaces with overwrite=true (wire-facts 2.1 "_import ... overwrite")', async () => {
      const again = await postFile(emu, `${RULES}/_import`, ndjson([base('imp-1', { severity: 'high' })]));
      assert.equal(again.body.success, false);
      assert.deepEqual(again.body.errors, [{ rule_id: 'imp-1', error: { status_code: 409, message: 'rule_id: "imp-1" already exists' } }]);
      const over = await postFile(emu, `${RULES}/_import?overwrite=true`, ndjson([base('imp-1', { severity: 'high' })]));
      assert.equal(over.body.success, true);
      assert.equal((await api('GET', `${RULES}?rule_id=imp-1`)).body.severity, 'high');
    });

    it('round-trips its own export (wire-facts 0.2: "Import endpoints take multipart/form-data with a file field")', async () => {
      const exported = await api('POST', `${RULES}/_export`, { objects: [{ rule_id: 'exp-1' }] });
      const res = await postFile(emu, `/s/pkg${RULES}/_import`, exported.text);
      assert.equal(res.body.success_count, 1);
      assert.equal(res.body.action_connectors_success_count, 1);
      assert.equal((await api('GET', `/s/pkg${RULES}?rule_id=exp-1`)).body.actions[0].action_type_id, '.chat');
    });

    it('refuses files that are not .ndjson and reports unparsable lines (wire-facts 0.2)', async () => {
      assert.equal((await postFile(emu, `${RULES}/_import`, ndjson([base('imp-x')]), 'rules.json')).status, 400);
      const bad = await postFile(emu, `${RULES}/_import`, '{not json\n');
      assert.equal(bad.body.errors[0].error.status_code, 400);
    });
  });

  describe('prebuilt rules', () => {
    it('reports status and installs three immutable external rules once (service-api.md: "prepackaged rules status (rules_not_installed) and install")', async () => {
      const before = await api('GET', `/s/pkg${RULES}/prepackaged/_status`);
      assert.equal(before.body.rules_not_installed, 3);
      assert.equal(before.body.rules_installed, 0);
      const first = await api('PUT', `/s/pkg${RULES}/prepackaged`);
      assert.equal(first.body.rules_installed, 3);
      assert.equal((await api('PUT', `/s/pkg${RULES}/prepackaged`)).body.rules_installed, 0);
      const after = await api('GET', `/s/pkg${RULES}/prepackaged/_status`);
      assert.equal(after.body.rules_installed, 3);
      assert.equal(after.body.rules_not_installed, 0);
      assert.equal(after.body.rules_not_updated, 0);
      const found = await api('GET', `/s/pkg${RULES}/_find?filter=${q('alert.attributes.params.immutable:true')}`);
      assert.equal(found.body.total, 3);
      for (const r of found.body.data) assert.deepEqual([r.immutable, r.rule_source], [true, { type: 'external', is_customized: false, customized_fields: [], has_base_version: true }]);
    });

    it('marks a prebuilt rule customised on a parameter change, not on enabling (wire-facts 2.3 rule_source)', async () => {
      const found = await api('GET', `/s/pkg${RULES}/_find?filter=${q('alert.attributes.params.immutable:true')}`);
      const [first, second] = found.body.data;
      const enabled = await api('PATCH', `/s/pkg${RULES}`, { id: first.id, enabled: true });
      assert.equal(enabled.body.rule_source.is_customized, false);
      const edited = await api('PATCH', `/s/pkg${RULES}`, { id: second.id, severity: 'critical' });
      assert.equal(edited.body.rule_source.is_customized, true);
    });
  });

  it('adds exception items to the rule\'s default list (service-api.md Endpoints: "POST /api/detection_engine/rules/{id}/exceptions")', async () => {
    const rule = await create(base('with-exceptions'));
    const item = { name: 'Backup job', description: 'Nightly backup host', type: 'simple', entries: [{ field: 'host.name', operator: 'included', type: 'match', value: 'backup-01' }] };
    const res = await api('POST', `${RULES}/${rule.id}/exceptions`, { items: [item] });
    assert.equal(res.status, 200);
    assert.equal(res.body[0].name, 'Backup job');
    const after = (await api('GET', `${RULES}?id=${rule.id}`)).body;
    assert.deepEqual(after.exceptions_list.map((l: any) => [l.type, l.namespace_type, l.list_id]), [['rule_default', 'single', res.body[0].list_id]]);
    const second = await api('POST', `${RULES}/${rule.id}/exceptions`, { items: [{ ...item, name: 'Second' }] });
    assert.equal(second.body[0].list_id, res.body[0].list_id, 'the default list is reused');
    assert.equal((await api('POST', `${RULES}/${rule.id}/exceptions`, { items: [{ name: 'x' }] })).status, 400);
    assert.equal((await api('POST', `${RULES}/no-such-rule/exceptions`, { items: [item] })).status, 404);
  });

  describe('alerts index and privileges', () => {
    it('creates the alerts index idempotently and names the space-aware index (service-api.md: "POST /api/detection_engine/index ... idempotent"; "alerts go to .alerts-security.alerts-<space>")', async () => {
      for (let i = 0; i < 2; i++) assert.deepEqual((await api('POST', '/s/other/api/detection_engine/index')).body, { acknowledged: true });
      assert.deepEqual((await api('GET', '/s/other/api/detection_engine/index')).body, { name: '.alerts-security.alerts-other', index_mapping_outdated: false });
    });

    it('answers 404 to DELETE when only the modern alias exists (service-api.md: "HTTP 404 when only the modern alias exists")', async () => {
      assert.equal((await api('DELETE', '/api/detection_engine/index')).status, 404);
      (emu.store.data.bySpace.default.rules as RulesState).legacySignalsIndex = true;
      assert.deepEqual((await api('DELETE', '/api/detection_engine/index')).body, { acknowledged: true });
    });

    it('reports privileges (service-api.md: "username, has_all_requested, cluster and index privilege maps, is_authenticated, has_encryption_key")', async () => {
      const res = await api('GET', '/api/detection_engine/privileges');
      for (const k of ['username', 'has_all_requested', 'cluster', 'index', 'is_authenticated', 'has_encryption_key']) assert.ok(k in res.body, k);
    });
  });

  it('keeps rules of one space invisible from another (service-api.md cross-cutting rule 1)', async () => {
    await create(base('space-only'), '/s/other');
    assert.equal((await api('GET', `${RULES}?rule_id=space-only`)).status, 404);
    assert.equal((await api('GET', `${RULES}/_find?filter=${q('alert.attributes.params.ruleId:"space-only"')}`)).body.total, 0);
    await create(base('space-only'));
  });
});
