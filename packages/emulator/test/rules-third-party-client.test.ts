import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * What an independent client sends (wire-facts §15, last paragraph: the detection-rules
 * repository's Python client, lib/kibana): a multipart boundary with capital letters, `_find`
 * filters with unquoted multi-word values and on `params.ruleSource.type`, and the version read
 * from GET /api/status.
 */

const RULES = '/api/detection_engine/rules';
const base = (ruleId: string, extra: Record<string, unknown> = {}) => ({ rule_id: ruleId, type: 'query', name: `Rule ${ruleId}`, description: 'd', severity: 'low', risk_score: 21, ...extra });

/** A multipart body built by hand, as the Python client builds it, with its own boundary. */
function multipart(boundary: string, fileName: string, content: string): Buffer {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    'utf8',
  );
}

describe('emulator: a third-party client of the rules API', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  const api = (method: string, path: string, body?: unknown) => call(emu, method, path, body);

  it('imports with a boundary in capital letters, which is case-sensitive (RFC 2046 5.1.1; wire-facts §15: "----JustAnotherBoundary")', async () => {
    const boundary = '----JustAnotherBoundary';
    const body = multipart(boundary, 'rules.ndjson', JSON.stringify(base('py-import')) + '\n');
    const res = await call(emu, 'POST', `${RULES}/_import`, undefined, { raw: new Uint8Array(body), contentType: `multipart/form-data; boundary=${boundary}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.success_count, 1);
    assert.equal((await api('GET', `${RULES}?rule_id=py-import`)).status, 200);
  });

  it('imports a file whose exception lists and items come ahead of the rules, and counts them honestly (wire-facts §15: "A real rules _import file may carry exception lists and items"; import_rule_exceptions.ts: exceptions_success_count is lists plus items imported)', async () => {
    const lines = [
      { list_id: 'py-exceptions', type: 'detection', namespace_type: 'single', name: 'Exceptions', description: 'd' },
      { item_id: 'py-item', list_id: 'py-exceptions', type: 'simple', namespace_type: 'single', name: 'Item', description: 'd', entries: [{ field: 'host.name', operator: 'included', type: 'match', value: 'a' }] },
      base('py-after-lists'),
    ];
    const boundary = '----JustAnotherBoundary';
    const body = multipart(boundary, 'rules.ndjson', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const res = await call(emu, 'POST', `${RULES}/_import`, undefined, { raw: new Uint8Array(body), contentType: `multipart/form-data; boundary=${boundary}` });
    assert.equal(res.status, 200);
    assert.equal(res.body.rules_count, 1);
    assert.equal(res.body.success_count, 1);
    assert.equal(res.body.exceptions_success, true);
    assert.equal(res.body.exceptions_success_count, 2, 'one list and one item');
    assert.deepEqual(res.body.exceptions_errors, []);
  });

  describe('_find filters', () => {
    before(async () => {
      for (const [id, name] of [['mem', 'Memory Threat Detected'], ['thr', 'Threat Intel Match'], ['mal', 'Malware Prevented'], ['memo', 'Memorandum sent']]) {
        assert.equal((await api('POST', RULES, base(`f-${id}`, { name }))).status, 200);
      }
    });
    const ids = async (filter: string) => {
      const res = await api('GET', `${RULES}/_find?per_page=100&sort_field=name&sort_order=asc&filter=${encodeURIComponent(filter)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((r: any) => r.rule_id).filter((id: string) => id.startsWith('f-'));
    };

    it('read an unquoted value with spaces as one match on the name text: any of its words (kbn-es-query kuery grammar UnquotedLiteral; wire-facts §15)', async () => {
      assert.deepEqual(await ids('alert.attributes.name:Memory Threat'), ['f-mem', 'f-thr']);
      assert.deepEqual(await ids('alert.attributes.name:"Memory Threat"'), ['f-mem'], 'a quoted value stays a phrase');
      assert.deepEqual(await ids('alert.attributes.name:Memory Threat and alert.attributes.enabled:false'), ['f-mem', 'f-thr'], 'a spaced "and" ends the value');
      assert.deepEqual(await ids('alert.attributes.name:(Malware Prevented or Memorandum)'), ['f-mal', 'f-memo']);
    });

    it('filter on the rule source type, as export-rules does (wire-facts §15: `alert.attributes.params.ruleSource.type: "internal"`)', async () => {
      assert.deepEqual(await ids('alert.attributes.params.ruleSource.type: "internal"'), ['f-mal', 'f-memo', 'f-mem', 'f-thr']);
      assert.deepEqual(await ids('alert.attributes.params.ruleSource.type: "external"'), []);
    });
  });

  it('answers GET /api/status with the version number the client reads (wire-facts §15: `{version: {number}}`; OpenAPI Kibana_HTTP_APIs_core_status_response)', async () => {
    const res = await api('GET', '/api/status');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['metrics', 'name', 'status', 'uuid', 'version']);
    assert.equal(res.body.version.number, '9.4.3');
    assert.equal(res.body.version.build_flavor, 'traditional');
    assert.deepEqual(Object.keys(res.body.version).sort(), ['build_date', 'build_flavor', 'build_hash', 'build_number', 'build_snapshot', 'number']);
    assert.equal(res.body.status.overall.level, 'available');
    assert.deepEqual(Object.keys(res.body.status).sort(), ['core', 'overall', 'plugins']);
  });
});
