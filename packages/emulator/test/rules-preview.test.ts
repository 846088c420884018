import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * Rule preview. Sources, under K-DE = x-pack/solutions/security/plugins/security_solution:
 * server/lib/detection_engine/rule_preview/api/preview_rules/route.ts (the run loop: the last run
 * at timeframeEnd, one interval apart; "Invalid invocation count"; the reply {previewId, logs,
 * isAborted}), common/api/detection_engine/rule_preview/rule_preview_request_body.ts (each rule
 * type's create props merged with RulePreviewParams), the OAS operation RulePreview and the
 * schemas Security_Detections_API_RulePreviewParams / _RulePreviewLogs; service-api.md
 * "Detection engine" ("preview rule (invocation_count, timeframe_end; reply previewId, logs)").
 */

const PREVIEW = '/api/detection_engine/rules/preview';
const rule = (extra: Record<string, unknown>) => ({ name: 'Preview', description: 'd', severity: 'high', risk_score: 73, ...extra });
const END = '2024-05-01T12:00:00.000Z';

describe('emulator: POST /api/detection_engine/rules/preview', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  beforeEach(async () => {
    await call(emu, 'DELETE', '/__emulator/documents');
  });
  const api = (method: string, path: string, body?: unknown) => call(emu, method, path, body);
  const load = (index: string, documents: unknown[]) => api('POST', '/__emulator/documents', { index, documents });
  const alertsOf = async (previewId: string, space = 'default') => (await api('GET', `/__emulator/preview-alerts?previewId=${previewId}&space=${space}`)).body.hits;

  describe('request body', () => {
    it('needs the document\'s timeframe_end and invocation_count (service-api.md Detection engine), with the zod 400', async () => {
      const res = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', query: 'any where true', invocation_count: 1 }));
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: '[request body]: timeframe_end: Invalid input: expected string, received undefined' });
    });

    it('refuses a timeframe end that is not an ISO datetime (RulePreviewParams: z.string().datetime())', async () => {
      const res = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', query: 'any where true', invocation_count: 1, timeframe_end: 'yesterday' }));
      assert.equal(res.status, 400);
      assert.equal(res.body.message, '[request body]: timeframe_end: Invalid ISO datetime');
    });

    it('checks the rule as the create route does: type-specific fields, then the request checks as a security 400 (validateCreateRuleProps)', async () => {
      const noQuery = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', invocation_count: 1, timeframe_end: END }));
      assert.equal(noQuery.status, 400);
      assert.equal(noQuery.body.message, '[request body]: query: Invalid input: expected string, received undefined');
      const timeline = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', query: 'any where true', timeline_id: 't', invocation_count: 1, timeframe_end: END }));
      assert.equal(timeline.status, 400);
      // routes/utils.ts buildSiemResponse: the problems list is the message.
      assert.deepEqual(timeline.body, { message: ['when "timeline_id" exists, "timeline_title" must also exist'], status_code: 400 });
    });

    it('answers a count below 1 with 200 and the error log, no previewId (route.ts "Invalid invocation count")', async () => {
      const res = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', query: 'any where true', invocation_count: 0, timeframe_end: END }));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { logs: [{ errors: ['Invalid invocation count'], warnings: [], duration: 0 }] });
    });

    it('takes the server\'s invocationCount/timeframeEnd with the real route rules.preview-params (OAS RulePreviewParams)', async () => {
      await api('PUT', '/__emulator/real-routes', { routes: ['rules.preview-params'] });
      try {
        const documented = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', query: 'any where true', invocation_count: 1, timeframe_end: END }));
        assert.equal(documented.status, 400);
        assert.match(documented.body.message, /invocationCount: Invalid input: expected number, received undefined/);
        const real = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', query: 'any where true', invocationCount: 1, timeframeEnd: END }));
        assert.equal(real.status, 200);
        assert.equal(real.body.logs.length, 1);
      } finally {
        await api('PUT', '/__emulator/real-routes', { routes: [] });
      }
    });
  });

  describe('runs', () => {
    it('runs invocation_count times an interval apart, the last at timeframe_end, and alerts on an event once (route.ts run loop)', async () => {
      // Runs at 10:00, 11:00 and 12:00, each searching its last 65 minutes.
      await load('logs-endpoint', [
        { _id: 'before', '@timestamp': '2024-05-01T07:00:00Z', event: { category: 'process' }, process: { name: 'cmd.exe' } },
        { _id: 'first', '@timestamp': '2024-05-01T09:00:00Z', event: { category: 'process' }, process: { name: 'cmd.exe' } },
        { _id: 'overlap', '@timestamp': '2024-05-01T09:58:00Z', event: { category: 'process' }, process: { name: 'cmd.exe' } },
        { _id: 'last', '@timestamp': '2024-05-01T11:30:00Z', event: { category: 'process' }, process: { name: 'cmd.exe' } },
        { _id: 'other', '@timestamp': '2024-05-01T11:30:00Z', event: { category: 'process' }, process: { name: 'powershell.exe' } },
      ]);
      await load('audit-other', [{ _id: 'elsewhere', '@timestamp': '2024-05-01T11:00:00Z', event: { category: 'process' }, process: { name: 'cmd.exe' } }]);
      const res = await api('POST', PREVIEW, rule({
        type: 'eql', language: 'eql', query: 'process where process.name == "cmd.exe"', index: ['logs-*'], interval: '1h', from: 'now-65m',
        invocation_count: 3, timeframe_end: END,
      }));
      assert.equal(res.status, 200);
      assert.equal(typeof res.body.previewId, 'string');
      assert.equal(res.body.isAborted, false);
      assert.deepEqual(res.body.logs.map((l: any) => [l.startedAt, l.errors, l.warnings]), [
        ['2024-05-01T10:00:00.000Z', [], []],
        ['2024-05-01T11:00:00.000Z', [], []],
        ['2024-05-01T12:00:00.000Z', [], []],
      ]);
      const hits = await alertsOf(res.body.previewId);
      assert.equal(hits.total.value, 3);
      assert.deepEqual(hits.hits.map((h: any) => h._source['kibana.alert.ancestors'][0].id), ['first', 'overlap', 'last']);
      const first = hits.hits[0];
      assert.equal(first._index, '.internal.preview.alerts-security.alerts-default-000001');
      assert.equal(first._source['kibana.alert.rule.uuid'], res.body.previewId);
      assert.equal(first._source['kibana.alert.original_time'], '2024-05-01T09:00:00Z');
      assert.equal(first._source['@timestamp'], '2024-05-01T10:00:00.000Z');
      assert.deepEqual(first._source.process, { name: 'cmd.exe' });
    });

    it('raises one alert per eql sequence, with every event as an ancestor and a group id', async () => {
      await load('logs-seq', [
        { _id: 'a1', '@timestamp': '2024-05-01T11:50:00Z', event: { category: 'process' }, host: { name: 'h1' }, process: { name: 'a' } },
        { _id: 'a2', '@timestamp': '2024-05-01T11:51:00Z', event: { category: 'process' }, host: { name: 'h2' }, process: { name: 'a' } },
        { _id: 'b2', '@timestamp': '2024-05-01T11:52:00Z', event: { category: 'network' }, host: { name: 'h2' } },
        { _id: 'b1', '@timestamp': '2024-05-01T11:53:00Z', event: { category: 'network' }, host: { name: 'h1' } },
      ]);
      const res = await api('POST', PREVIEW, rule({
        type: 'eql', language: 'eql', query: 'sequence by host.name with maxspan=5m [process where process.name == "a"] [network where true]',
        index: ['logs-seq'], from: 'now-15m', invocation_count: 1, timeframe_end: END,
      }));
      const hits = await alertsOf(res.body.previewId);
      assert.deepEqual(hits.hits.map((h: any) => h._source['kibana.alert.ancestors'].map((a: any) => a.id)), [['a1', 'b1'], ['a2', 'b2']]);
      assert.equal(typeof hits.hits[0]._source['kibana.alert.group.id'], 'string');
    });

    it('reads eql categories from event_category_override (EqlOptionalFields in rule_schemas.gen.ts)', async () => {
      await load('logs-kind', [{ _id: 'k', '@timestamp': '2024-05-01T11:58:00Z', kind: 'process', event: { category: 'file' } }]);
      const res = await api('POST', PREVIEW, rule({
        type: 'eql', language: 'eql', query: 'process where true', index: ['logs-kind'], event_category_override: 'kind', invocation_count: 1, timeframe_end: END,
      }));
      assert.equal((await alertsOf(res.body.previewId)).total.value, 1);
    });

    it('groups threshold rules by threshold.field with count and cardinality (rule_types/threshold)', async () => {
      await load('logs-auth', [
        { '@timestamp': '2024-05-01T11:55:00Z', host: { name: 'h1' }, user: { name: 'u1' } },
        { '@timestamp': '2024-05-01T11:56:00Z', host: { name: 'h1' }, user: { name: 'u2' } },
        { '@timestamp': '2024-05-01T11:55:00Z', host: { name: 'h2' }, user: { name: 'u1' } },
        { '@timestamp': '2024-05-01T11:56:00Z', host: { name: 'h2' }, user: { name: 'u1' } },
        { '@timestamp': '2024-05-01T11:57:00Z', host: { name: 'h3' }, user: { name: 'u1' } },
        { '@timestamp': '2024-05-01T11:57:00Z', user: { name: 'u3' } },
      ]);
      const res = await api('POST', PREVIEW, rule({
        type: 'threshold', language: 'kuery', query: '*', index: ['logs-auth'],
        threshold: { field: ['host.name'], value: 2, cardinality: [{ field: 'user.name', value: 2 }] },
        invocation_count: 1, timeframe_end: END,
      }));
      assert.deepEqual(res.body.logs[0].errors, []);
      const hits = await alertsOf(res.body.previewId);
      assert.equal(hits.total.value, 1);
      assert.deepEqual(hits.hits[0]._source['kibana.alert.threshold_result'], {
        terms: [{ field: 'host.name', value: 'h1' }],
        count: 2,
        from: '2024-05-01T11:55:00.000Z',
        cardinality: [{ field: 'user.name', value: 2 }],
      });
    });

    it('runs kuery and lucene query rules over the documents of their index patterns, one alert per matching event', async () => {
      await load('logs-endpoint', [
        { '@timestamp': '2024-05-01T11:55:00Z', event: { category: 'process' }, process: { name: 'powershell.exe', args: ['-enc', 'x'] } },
        { '@timestamp': '2024-05-01T11:56:00Z', event: { category: 'process' }, process: { name: 'cmd.exe', args: ['/c', 'dir'] } },
        { '@timestamp': '2024-05-01T11:57:00Z', event: { category: 'network' }, process: { name: 'powershell.exe' } },
      ]);
      await load('other', [{ '@timestamp': '2024-05-01T11:55:00Z', event: { category: 'process' }, process: { name: 'powershell.exe' } }]);
      const kuery = await api('POST', PREVIEW, rule({
        type: 'query', language: 'kuery', query: 'event.category:process and process.name:powershell*', index: ['logs-*'],
        invocation_count: 1, timeframe_end: END,
      }));
      assert.deepEqual(kuery.body.logs[0].errors, []);
      assert.equal((await alertsOf(kuery.body.previewId)).total.value, 1, 'only the process event of logs-endpoint');
      const lucene = await api('POST', PREVIEW, rule({
        type: 'query', language: 'lucene', query: 'process.name:(powershell.exe OR cmd.exe) AND NOT event.category:network', index: ['logs-*'],
        invocation_count: 1, timeframe_end: END,
      }));
      assert.deepEqual(lucene.body.logs[0].errors, []);
      assert.equal((await alertsOf(lucene.body.previewId)).total.value, 2);
    });

    it('groups a threshold rule with a kuery filter only over the events the filter keeps', async () => {
      await load('logs-auth', [
        { '@timestamp': '2024-05-01T11:55:00Z', event: { outcome: 'failure' }, source: { ip: '192.0.2.1' } },
        { '@timestamp': '2024-05-01T11:56:00Z', event: { outcome: 'failure' }, source: { ip: '192.0.2.1' } },
        { '@timestamp': '2024-05-01T11:57:00Z', event: { outcome: 'success' }, source: { ip: '192.0.2.1' } },
        { '@timestamp': '2024-05-01T11:57:00Z', event: { outcome: 'success' }, source: { ip: '192.0.2.2' } },
        { '@timestamp': '2024-05-01T11:58:00Z', event: { outcome: 'success' }, source: { ip: '192.0.2.2' } },
      ]);
      const res = await api('POST', PREVIEW, rule({
        type: 'threshold', language: 'kuery', query: 'event.outcome:failure', index: ['logs-auth'],
        threshold: { field: ['source.ip'], value: 2 }, invocation_count: 1, timeframe_end: END,
      }));
      assert.deepEqual(res.body.logs[0].errors, []);
      const hits = await alertsOf(res.body.previewId);
      assert.equal(hits.total.value, 1, '192.0.2.2 has two events, but no failures');
      assert.deepEqual(hits.hits[0]._source['kibana.alert.threshold_result'].terms, [{ field: 'source.ip', value: '192.0.2.1' }]);
    });

    it('reads the documents of the qlang FROM patterns and raises one alert per row', async () => {
      await load('logs-web', [
        { '@timestamp': '2024-05-01T11:55:00Z', source: { ip: '10.0.0.1' } },
        { '@timestamp': '2024-05-01T11:56:00Z', source: { ip: '10.0.0.1' } },
        { '@timestamp': '2024-05-01T11:57:00Z', source: { ip: '10.0.0.2' } },
      ]);
      const res = await api('POST', PREVIEW, rule({
        type: 'qlang', language: 'qlang', query: 'FROM logs-web | STATS hits = COUNT(*) BY source.ip | WHERE hits >= 2',
        invocation_count: 1, timeframe_end: END,
      }));
      const hits = await alertsOf(res.body.previewId);
      assert.equal(hits.total.value, 1);
      assert.equal(hits.hits[0]._source.hits, 2);
      assert.equal(hits.hits[0]._source['source.ip'], '10.0.0.1');
    });

    it('runs qlang INLINE STATS (one alert per event its group\'s count keeps); a function svcform does not know is the run\'s error, not a guess', async () => {
      await load('logs-inline', [
        { '@timestamp': '2024-05-01T11:55:00Z', source: { ip: '10.0.0.1' } },
        { '@timestamp': '2024-05-01T11:56:00Z', source: { ip: '10.0.0.1' } },
        { '@timestamp': '2024-05-01T11:57:00Z', source: { ip: '10.0.0.2' } },
      ]);
      const res = await api('POST', PREVIEW, rule({
        type: 'qlang', language: 'qlang', query: 'FROM logs-inline | INLINE STATS hits = COUNT(*) BY source.ip | WHERE hits >= 2',
        invocation_count: 1, timeframe_end: END,
      }));
      assert.deepEqual(res.body.logs[0].errors, []);
      const hits = await alertsOf(res.body.previewId);
      assert.equal(hits.total.value, 2);
      // The two events of 10.0.0.1 stay as rows (each its own alert); 10.0.0.2's group has one.
      assert.deepEqual(hits.hits.map((h: any) => h._source.source.ip ?? h._source['source.ip']), ['10.0.0.1', '10.0.0.1']);
      const unknown = await api('POST', PREVIEW, rule({ type: 'qlang', language: 'qlang', query: 'FROM logs-inline | EVAL x = FROBULATE(source.ip)', invocation_count: 1, timeframe_end: END }));
      assert.match(unknown.body.logs[0].errors[0], /cannot evaluate offline: unknown function FROBULATE/);
    });

    it('deduplicates non-aggregating qlang rows across runs by the event _id, even without METADATA (docs "ES|QL rules", alert deduplication: injected since 9.4); aggregating rows never', async () => {
      // Runs at 11:00 and 12:00 with from now-65m: the event at 10:58 is in both windows.
      await load('logs-dup', [{ _id: 'dup', '@timestamp': '2024-05-01T10:58:00Z', process: { name: 'x' } }]);
      const preview = async (query: string) => {
        const res = await api('POST', PREVIEW, rule({ type: 'qlang', language: 'qlang', query, interval: '1h', from: 'now-65m', invocation_count: 2, timeframe_end: END }));
        return (await alertsOf(res.body.previewId)).total.value;
      };
      assert.equal(await preview('FROM logs-dup | WHERE process.name == "x"'), 1);
      assert.equal(await preview('FROM logs-dup METADATA _id | WHERE process.name == "x"'), 1);
      assert.equal(await preview('FROM logs-dup METADATA _id | WHERE process.name == "x" | DROP _id'), 2);
      assert.equal(await preview('FROM logs-dup | STATS c = COUNT(*) BY process.name'), 2);
    });

    it('logs a malformed query as the run\'s error and stops', async () => {
      const res = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', query: 'process where (a == 1', invocation_count: 3, timeframe_end: END }));
      assert.equal(res.status, 200);
      assert.equal(res.body.logs.length, 1);
      assert.match(res.body.logs[0].errors[0], /the eql query is malformed at offset 21: expected "\)"/);
    });

    it('logs rule types it cannot run instead of inventing a result', async () => {
      const res = await api('POST', PREVIEW, rule({
        type: 'new_terms', query: '*', language: 'kuery', new_terms_fields: ['host.name'], history_window_start: 'now-7d', invocation_count: 1, timeframe_end: END,
      }));
      assert.deepEqual(res.body.logs[0].errors, ['the emulator does not run new_terms rules in previews']);
    });

    it('caps alerts per run at max_signals with the server\'s warning', async () => {
      await load('logs-many', [5, 6, 7].map((i) => ({ '@timestamp': `2024-05-01T11:5${i}:00Z`, event: { category: 'process' } })));
      const res = await api('POST', PREVIEW, rule({ type: 'eql', language: 'eql', query: 'process where true', index: ['logs-many'], max_signals: 2, invocation_count: 1, timeframe_end: END }));
      assert.deepEqual(res.body.logs[0].warnings, ['This rule reached the maximum alert limit for the rule execution. Some alerts were not created.']);
      assert.equal((await alertsOf(res.body.previewId)).total.value, 2);
    });
  });

  describe('control routes', () => {
    it('loads, counts and clears documents per index; refuses a bad index name', async () => {
      assert.equal((await load('logs-a', [{ a: 1 }, { a: 2 }])).body.count, 2);
      await load('logs-b', [{ b: 1 }]);
      assert.deepEqual((await api('GET', '/__emulator/documents')).body, { indices: { 'logs-a': 2, 'logs-b': 1 } });
      await api('DELETE', '/__emulator/documents?index=logs-a');
      assert.deepEqual((await api('GET', '/__emulator/documents')).body, { indices: { 'logs-b': 1 } });
      const bad = await load('Logs', [{}]);
      assert.equal(bad.status, 400);
      assert.equal((await load('logs-c', [1])).status, 400);
    });

    it('keeps preview alerts per space, in that space\'s preview index (route.ts: `${DEFAULT_PREVIEW_INDEX}-${spaceId}`)', async () => {
      await api('POST', '/__emulator/spaces', { id: 'soc' });
      await load('logs-space', [{ '@timestamp': '2024-05-01T11:58:00Z', event: { category: 'process' } }]);
      const res = await api('POST', `/s/soc${PREVIEW}`, rule({ type: 'eql', language: 'eql', query: 'process where true', index: ['logs-space'], invocation_count: 1, timeframe_end: END }));
      const soc = await alertsOf(res.body.previewId, 'soc');
      assert.equal(soc.total.value, 1);
      assert.equal(soc.hits[0]._index, '.internal.preview.alerts-security.alerts-soc-000001');
      assert.deepEqual(soc.hits[0]._source['kibana.space_ids'], ['soc']);
      assert.equal((await alertsOf(res.body.previewId)).total.value, 0);
      assert.equal((await api('GET', `/__emulator/preview-alerts?previewId=${res.body.previewId}&space=nope`)).status, 404);
    });

    it('reads preview alerts by preview id; an unknown id has none', async () => {
      const hits = await alertsOf('no-such-preview');
      assert.deepEqual(hits, { total: { value: 0, relation: 'eq' }, hits: [] });
      assert.equal((await api('GET', '/__emulator/preview-alerts')).status, 400);
    });
  });
});
