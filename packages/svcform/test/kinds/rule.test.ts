import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '@svcform/emulator/testing.js';
import { fetchRequester } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { ruleAdapter, SHARE_TEXTS_FROM } from '../../src/kinds/rule/rule.js';
import { deepEqual } from '../../src/kinds/normalize.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { ApiRequest } from '../../src/client/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { contextFor } from '../../src/engine/context.js';
import { computePlan } from '../../src/engine/plan.js';
import { applyPlan } from '../../src/engine/apply.js';
import { RunScope } from '../../src/kinds/run-scope.js';
import { SHARED_TEXTS } from '../../src/kinds/shared-texts.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

const RULES = '/api/detection_engine/rules';

/** Five realistic rules of each of five types, written as people write them: defaults left out. */
function manifests(): Array<[string, Record<string, any>]> {
  const out: Array<[string, Record<string, any>]> = [];
  const common = (i: number, extra: Record<string, any>) => ({
    name: `Detection ${i}`,
    description: `Finds suspicious activity number ${i}.`,
    severity: ['low', 'medium', 'high', 'critical'][i % 4],
    risk_score: 20 + i,
    tags: ['managed-by:svcform', `team:${i % 2 ? 'red' : 'blue'}`, 'Tactic: Execution'],
    ...extra,
  });
  for (let i = 0; i < 5; i++) {
    out.push([`q-${i}`, common(i, {
      type: 'query',
      index: ['winlogbeat-*', 'logs-endpoint.events.process-*'],
      query: `process.name:"cmd${i}.exe" and event.type:start`,
      ...(i % 2 ? { enabled: true, author: ['SOC'], references: ['https://attack.mitre.org/techniques/T1059/'] } : {}),
      ...(i === 1 ? { actions: [{ id: 'soc-chat', group: 'default', params: { message: '{{context.rule.name}}' } }] } : {}),
      ...(i === 2 ? { required_fields: [{ name: 'process.name', type: 'keyword' }], note: '## Triage\nCheck the parent.', false_positives: ['Admin scripts'] } : {}),
      ...(i === 3 ? { throttle: '1h', actions: [{ id: 'soc-chat', group: 'default', params: { message: 'x' } }], interval: '10m', from: 'now-11m' } : {}),
      ...(i === 4 ? { threat: [{ framework: 'MITRE ATT&CK', tactic: { id: 'TA0002', name: 'Execution', reference: 'https://attack.mitre.org/tactics/TA0002/' }, technique: [{ id: 'T1059', name: 'Command and Scripting Interpreter', reference: 'https://attack.mitre.org/techniques/T1059/' }] }] } : {}),
    })]);
    out.push([`eql-${i}`, common(i, {
      type: 'eql',
      language: 'eql',
      index: ['logs-endpoint.events.*'],
      query: `process where process.name == "rundll${i}.exe"`,
      ...(i % 2 ? { timestamp_field: '@timestamp', max_signals: 50 } : {}),
    })]);
    out.push([`thr-${i}`, common(i, {
      type: 'threshold',
      index: ['logs-system.auth-*'],
      query: 'event.category:authentication and event.outcome:failure',
      threshold: i % 2 ? { field: 'source.ip', value: 10 + i } : { field: ['source.ip', 'user.name'], value: 5, cardinality: [{ field: 'host.name', value: 3 }] },
      ...(i === 0 ? { alert_suppression: { duration: { value: 30, unit: 'm' } } } : {}),
    })]);
    out.push([`nt-${i}`, common(i, {
      type: 'new_terms',
      index: ['logs-*'],
      query: 'event.category:process',
      new_terms_fields: ['host.name', 'process.executable'],
      history_window_start: 'now-14d',
      ...(i % 2 ? { language: 'lucene', query: 'event.category:process' } : {}),
    })]);
    out.push([`ml-${i}`, common(i, {
      type: 'machine_learning',
      machine_learning_job_id: i % 2 ? `auth_rare_user_${i}` : [`auth_rare_source_${i}`, 'auth_high_count'],
      anomaly_threshold: 50 + i,
      ...(i === 2 ? { meta: { owner: 'ml-team' }, version: 3 } : {}),
    })]);
  }
  return out;
}

describe('Rule adapter', () => {
  let emu: RunningEmulator;
  let api: ReturnType<typeof fetchRequester>;
  let ctx: AdapterContext;
  const sent: ApiRequest[] = [];
  const all = manifests();
  const res = (name: string, spec: Record<string, any>, options: Parameters<typeof resource>[3] = {}) => resource('Rule', name, spec, options);
  const specOf = (name: string) => all.find(([n]) => n === name)![1];
  const live = async (space = 'default') => ruleAdapter.list(ctx, space);
  const liveOne = async (name: string, space = 'default') => (await live(space)).find((l) => l.name === name)!;
  const same = (r: ReturnType<typeof res>, l: LiveObject) => deepEqual(ruleAdapter.normalizeDesired(r, RUN), ruleAdapter.normalizeLive(l, RUN));

  before(async () => {
    emu = await emulator({ spaces: ['many', 'pkg'] });
    api = fetchRequester(emu.url);
    // As the engine runs adapters: every request carries the adapter's area.
    ctx = contextFor({ api: { request: (req) => { sent.push(req); return api.request(req); } }, log: () => {}, run: new RunScope() }, ruleAdapter);
    await call(emu, 'POST', '/api/actions/connector/soc-chat', { name: 'Chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
    for (const [name, spec] of all) await ruleAdapter.create(ctx, res(name, spec));
  });
  after(() => emu.stop());

  it('creates 25 rules of 5 types that converge with zero diff', async () => {
    const found = await live();
    assert.equal(found.length, 25);
    for (const [name, spec] of all) {
      const obj = found.find((l) => l.name === name);
      assert.ok(obj, name);
      assert.deepEqual(ruleAdapter.normalizeLive(obj, RUN), ruleAdapter.normalizeDesired(res(name, spec), RUN), name);
    }
  });

  it('creates with POST and the rule_id from metadata.name, idempotent', () => {
    const post = sent.find((r) => r.method === 'POST' && (r.body as any)?.rule_id === 'q-0')!;
    assert.equal(post.path, RULES);
    assert.equal(post.idempotent, true);
    assert.equal(post.area, 'detection_engine');
  });

  it('lists with the rule_id as name, the object id as serverId and the tags', async () => {
    const obj = await liveOne('q-0');
    assert.equal(obj.serverId, obj.body.id);
    assert.deepEqual(obj.tags, ['managed-by:svcform', 'team:blue', 'Tactic: Execution']);
    assert.equal(obj.readOnly, undefined);
  });

  it('holds the manifests\' copies of the long texts a listed rule shares with them, where many rules are expected (shared-texts.ts)', async () => {
    const note = ['## Triage', ...Array.from({ length: 40 }, (_, i) => `- step ${i}: check the parent process`)].join('\n');
    const spec = { ...specOf('q-0'), note };
    await ruleAdapter.update(ctx, res('q-0', spec), await liveOne('q-0'), { rotateSecrets: false });
    const run = new RunScope();
    const texts = run.get(SHARED_TEXTS);
    texts.offer(spec);
    const reading = contextFor({ api, log: () => {}, run }, ruleAdapter);
    await ruleAdapter.list(reading, 'default', { expected: SHARE_TEXTS_FROM - 1 });
    assert.equal(texts.shared, 0, 'fewer rules expected: not worth the lookups');
    const listed = await ruleAdapter.list(reading, 'default', { expected: SHARE_TEXTS_FROM });
    assert.equal(texts.shared, 1);
    assert.equal(listed.find((l) => l.name === 'q-0')!.body.note, note);
    assert.ok(same(res('q-0', spec), listed.find((l) => l.name === 'q-0')!));
    await ruleAdapter.update(ctx, res('q-0', specOf('q-0')), await liveOne('q-0'), { rotateSecrets: false });
  });

  it('shows a severity changed through the API as a difference', async () => {
    await call(emu, 'PATCH', RULES, { rule_id: 'q-0', severity: 'critical' });
    const obj = await liveOne('q-0');
    assert.equal(same(res('q-0', specOf('q-0')), obj), false);
    assert.equal(ruleAdapter.normalizeLive(obj, RUN).severity, 'critical');
  });

  it('updates with a full PUT and converges', async () => {
    const r = res('q-0', specOf('q-0'));
    await ruleAdapter.update(ctx, r, await liveOne('q-0'), { rotateSecrets: false });
    const put = sent.at(-1)!;
    assert.equal(put.method, 'PUT');
    assert.equal((put.body as any).rule_id, 'q-0');
    assert.equal((put.body as any).enabled, false, 'enabled is always sent');
    assert.ok(same(r, await liveOne('q-0')));
  });

  it('enables through the manifest with PUT (service-api.md: "update rule (full replace; the way to toggle enabled on 9.4.3)")', async () => {
    const spec = { ...specOf('eql-0'), enabled: true };
    const obj = await liveOne('eql-0');
    assert.equal(same(res('eql-0', spec), obj), false);
    await ruleAdapter.update(ctx, res('eql-0', spec), obj, { rotateSecrets: false });
    assert.equal(sent.at(-1)!.method, 'PUT');
    const after = await liveOne('eql-0');
    assert.equal(after.body.enabled, true);
    assert.ok(same(res('eql-0', spec), after));
  });

  it('compares tags, authors, references, false positives and index as sets', async () => {
    const spec = specOf('q-1');
    const reordered = { ...spec, tags: [...spec.tags].reverse(), index: [...spec.index].reverse() };
    assert.ok(same(res('q-1', reordered), await liveOne('q-1')));
    assert.deepEqual(ruleAdapter.setFields, ['/tags', '/author', '/references', '/false_positives', '/index']);
  });

  it('keeps ignored fields that the manifest leaves out on a PUT (metadata.ignore, carried by the engine)', async () => {
    await call(emu, 'PATCH', RULES, { rule_id: 'nt-0', enabled: true, tags: ['set-in-the-ui'] });
    const changed: Record<string, any> = { ...specOf('nt-0'), description: 'Changed in Git' };
    const { tags: _tags, ...spec } = changed;
    const r = res('nt-0', spec, { ignore: ['/spec/enabled', '/spec/tags'] });
    const plan = await computePlan({ resources: [r], manage: [], adapterFor: () => ruleAdapter, ctx });
    assert.deepEqual(plan.changes.map((c) => [c.action, c.fields.map((f) => f.pointer)]), [['update', ['/description']]]);
    const report = await applyPlan(plan.changes, { ctx, adapterFor: () => ruleAdapter, concurrency: 1 });
    assert.equal(report.done, 1);
    const after = (await liveOne('nt-0')).body;
    assert.equal(after.description, 'Changed in Git');
    assert.equal(after.enabled, true);
    assert.deepEqual(after.tags, ['set-in-the-ui']);
  });

  it('exports specs without server defaults that round-trip', async () => {
    for (const obj of await live()) {
      const { spec } = ruleAdapter.toSpec(obj, RUN);
      assert.deepEqual(ruleAdapter.normalizeDesired(res(obj.name, spec), RUN), ruleAdapter.normalizeLive(obj, RUN), obj.name);
    }
    const q1 = ruleAdapter.toSpec(await liveOne('q-1'), RUN).spec;
    for (const k of ['from', 'to', 'interval', 'max_signals', 'version', 'language', 'risk_score_mapping', 'setup', 'exceptions_list', 'output_index', 'id', 'rule_id', 'revision']) assert.equal(q1[k], undefined, k);
    assert.equal(q1.actions[0].frequency, undefined, 'the default frequency is left out');
    assert.deepEqual(Object.keys(q1).slice(0, 5), ['type', 'name', 'description', 'severity', 'risk_score']);
    const q3 = ruleAdapter.toSpec(await liveOne('q-3'), RUN).spec;
    assert.equal(q3.interval, '10m');
    assert.equal(q3.actions[0].frequency, undefined, 'a frequency derived from throttle is a default too');
    assert.equal(ruleAdapter.toSpec(await liveOne('eql-0'), RUN).spec.language, 'eql');
  });

  it('treats a default-valued field the server leaves out as its default (wire-facts 2.4: "[] versus null")', async () => {
    const obj = await liveOne('eql-1');
    const { author: _a, false_positives: _f, setup: _s, ...trimmed } = obj.body;
    assert.ok(same(res('eql-1', specOf('eql-1')), { ...obj, body: trimmed }));
  });

  it('deletes', async () => {
    await ruleAdapter.delete(ctx, await liveOne('ml-4'));
    assert.equal((await live()).some((l) => l.name === 'ml-4'), false);
  });

  it('lists 2,500 rules with exactly 3 _find requests', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => JSON.stringify({ rule_id: `bulk-${i}`, type: 'query', name: `Bulk ${i}`, description: 'd', severity: 'low', risk_score: 1 }));
    const imported = await postFile(emu, `/s/many${RULES}/_import`, lines.join('\n'));
    assert.equal(imported.body.success_count, 2500);
    const before = sent.length;
    const found = await live('many');
    const requests = sent.slice(before);
    assert.equal(found.length, 2500);
    assert.equal(new Set(found.map((l) => l.name)).size, 2500, 'no rule seen twice across pages');
    assert.equal(requests.length, 3);
    assert.ok(requests.every((r) => r.path === `${RULES}/_find` && r.query?.per_page === 1000));
  });

  it('marks prebuilt rules read-only', async () => {
    await call(emu, 'PUT', `/s/pkg${RULES}/prepackaged`);
    const found = await live('pkg');
    assert.equal(found.length, 3);
    assert.ok(found.every((l) => l.readOnly === 'prebuilt rule'));
  });

  it('neither sends nor compares fields, which the server discards, and warns about it (rule_schemas.gen.ts has no fields; service-api.md lists it)', async () => {
    const r = res('with-fields', { ...specOf('q-0'), fields: ['host.name'] });
    assert.deepEqual(ruleAdapter.check!(r).map((i) => [i.path.join('.'), i.severity]), [['spec.fields', 'warning']]);
    await ruleAdapter.create(ctx, r);
    assert.equal((sent.at(-1)!.body as any).fields, undefined);
    assert.equal(same(r, await liveOne('with-fields')), true, 'no perpetual diff');
  });

  it('names connectors and saved queries it depends on', () => {
    const refs = ruleAdapter.references(res('r', {
      ...specOf('q-1'),
      actions: [{ id: 'soc-chat', group: 'default', params: {} }, { id: 'soc-mail', group: 'default', params: {} }],
      response_actions: [{ action_type_id: '.hostquery', params: { saved_query_id: 'proc-list' } }, { action_type_id: '.endpoint', params: { command: 'isolate' } }],
    }).spec);
    // Connectors are refused when missing (alerting validate_actions), saved queries accepted (wire-facts §16 #8).
    assert.deepEqual(refs.map(({ kind, name, path, whenMissing }) => ({ kind, name, path, whenMissing })), [
      { kind: 'Connector', name: 'soc-chat', path: ['spec', 'actions', 0, 'id'], whenMissing: 'refused' },
      { kind: 'Connector', name: 'soc-mail', path: ['spec', 'actions', 1, 'id'], whenMissing: 'refused' },
      { kind: 'HostQuerySavedQuery', name: 'proc-list', path: ['spec', 'response_actions', 0, 'params', 'saved_query_id'], whenMissing: 'accepted' },
    ]);
  });
});
