import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { ApiError, SvcClient } from '../../src/client/client.js';
import { recordingServer, sendJson, type RecordingServer } from './servers.js';

async function emulatorPaths(emu: RunningEmulator): Promise<string[]> {
  const log = await call(emu, 'GET', '/__emulator/requests');
  return log.body.requests.map((r: { path: string }) => r.path);
}

describe('client requests against the emulator', () => {
  let emu: RunningEmulator;
  let client: SvcClient;
  before(async () => {
    emu = await emulator({ spaces: ['soc'] });
    client = new SvcClient({ url: emu.url, retryBaseMs: 1 });
  });
  after(async () => {
    await client.close();
    await emu.stop();
  });

  it('puts /s/{space} before /api for a non-default space and nothing for default (wire-facts 0.1)', async () => {
    await call(emu, 'DELETE', '/__emulator/requests');
    const soc = await client.request({ method: 'GET', path: '/api/spaces/space/soc', space: 'soc' });
    assert.equal(soc.status, 200);
    assert.equal(soc.body.id, 'soc');
    await client.request({ method: 'GET', path: '/api/spaces/space/default', space: 'default' });
    await client.request({ method: 'GET', path: '/api/spaces/space/default' });
    assert.deepEqual(await emulatorPaths(emu), ['/s/soc/api/spaces/space/soc', '/api/spaces/space/default', '/api/spaces/space/default']);
  });

  it('sends kbn-xsrf on writes: the emulator answers 405 for the missing route, not its 400 xsrf error (wire-facts 0.2)', async () => {
    const res = await client.request({ method: 'POST', path: '/api/status', body: { id: 'x' }, accept: [405] });
    assert.equal(res.status, 405);
  });

  it('resolves statuses listed in accept and throws ApiError with the platform message otherwise', async () => {
    const missing = await client.request({ method: 'GET', path: '/api/spaces/space/nope', accept: [404] });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'Not Found');
    const err = await client.request({ method: 'GET', path: '/api/spaces/space/nope' }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 404);
    assert.equal(err.path, '/api/spaces/space/nope');
    assert.equal(err.serverMessage, 'Saved object [space/nope] not found');
    assert.equal(err.message, 'GET /api/spaces/space/nope -> 404 Not Found: Saved object [space/nope] not found');
  });

  it('counts requests overall and per area', async () => {
    const counting = new SvcClient({ url: emu.url });
    await counting.request({ method: 'GET', path: '/api/spaces/space' });
    await counting.request({ method: 'GET', path: '/api/spaces/space/soc', area: 'custom' });
    assert.deepEqual(counting.stats, { requests: 2, retries: 0, byArea: { spaces: 1, custom: 1 } });
    await counting.close();
  });
});

describe('client requests on the wire', () => {
  let server: RecordingServer;
  const last = () => server.requests[server.requests.length - 1];
  before(async () => {
    server = await recordingServer(async (req, res) => {
      if (req.url.startsWith('/ndjson')) {
        res.writeHead(200, { 'content-type': 'application/ndjson' });
        res.end('{"a":1}\n{"b":2}\n');
      } else if (req.url.startsWith('/empty')) {
        res.writeHead(204);
        res.end();
      } else if (req.url.startsWith('/security-conflict') || req.url.includes('/api/lists')) {
        sendJson(res, 409, { message: 'list id: "x" already exists', status_code: 409 });
      } else if (req.url.startsWith('/echo-auth')) {
        sendJson(res, 400, { statusCode: 400, error: 'Bad Request', message: `bad header ${req.headers.authorization}` });
      } else if (req.url.startsWith('/html')) {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end(`<html><body>${'gateway '.repeat(100)}</body></html>`);
      } else sendJson(res, 200, { ok: true, echo: req.url });
    });
  });
  after(() => server.close());

  it('keeps a base path and inserts the space prefix before the first /api/ (wire-facts 0.1)', async () => {
    const client = new SvcClient({ url: `${server.url}/proxy/svc/`, maxAttempts: 1 });
    await client.request({ method: 'GET', path: '/api/actions/connectors', space: 'soc' });
    assert.equal(last().url, '/proxy/svc/s/soc/api/actions/connectors');
    await client.request({ method: 'GET', path: '/api/actions/connectors', space: 'default' });
    assert.equal(last().url, '/proxy/svc/api/actions/connectors');
    await client.request({ method: 'GET', path: '/api/actions/connectors', space: 'team a' });
    assert.equal(last().url, '/proxy/svc/s/team%20a/api/actions/connectors');
    await client.close();
  });

  it('sends kbn-xsrf: true on POST, PUT, PATCH and DELETE and not on GET (wire-facts 0.2)', async () => {
    const client = new SvcClient({ url: server.url });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      await client.request({ method, path: '/api/x' });
      assert.equal(last().headers['kbn-xsrf'], 'true', method);
    }
    await client.request({ method: 'GET', path: '/api/x' });
    assert.equal(last().headers['kbn-xsrf'], undefined);
    await client.close();
  });

  it('sends JSON bodies as application/json and the user agent', async () => {
    const client = new SvcClient({ url: server.url, userAgent: 'svcform-test/1' });
    await client.request({ method: 'POST', path: '/api/x', body: { name: 'n', tags: ['a'] } });
    assert.equal(last().headers['content-type'], 'application/json');
    assert.equal(last().headers['user-agent'], 'svcform-test/1');
    assert.deepEqual(JSON.parse(last().body.toString('utf8')), { name: 'n', tags: ['a'] });
    await client.request({ method: 'DELETE', path: '/api/x' });
    assert.equal(last().headers['content-type'], undefined);
    assert.equal(last().body.length, 0);
    await client.close();
  });

  it('repeats array query values, skips undefined and null, and encodes the rest', async () => {
    const client = new SvcClient({ url: server.url });
    await client.request({
      method: 'GET',
      path: '/api/x',
      query: { page: 2, full: true, fields: ['name', 'tags'], gone: undefined, none: null, filter: 'a:b and c+d' },
    });
    const search = new URL(last().url, 'http://x').search;
    assert.equal(search, '?page=2&full=true&fields=name&fields=tags&filter=a%3Ab%20and%20c%2Bd');
    await client.request({ method: 'GET', path: '/api/x?inline=1', query: { more: 2 } });
    assert.equal(last().url, '/api/x?inline=1&more=2');
    await client.close();
  });

  it('percent-encodes characters that may not appear raw in a path and keeps existing escapes', async () => {
    const client = new SvcClient({ url: server.url });
    await client.request({ method: 'GET', path: '/api/x/my rule é/%2F/100%' });
    assert.equal(last().url, '/api/x/my%20rule%20%C3%A9/%2F/100%25');
    await client.close();
  });

  it('sends a multipart body with one file part', async () => {
    const client = new SvcClient({ url: server.url });
    const content = '{"rule_id":"a"}\n{"rule_id":"b"}\n';
    await client.request({
      method: 'POST',
      path: '/api/detection_engine/rules/_import',
      multipart: { field: 'file', filename: 'rules "1".ndjson', content, contentType: 'application/ndjson' },
    });
    const sent = last();
    assert.match(String(sent.headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.equal(sent.headers['kbn-xsrf'], 'true');
    const form = await new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': String(sent.headers['content-type']) },
      body: new Uint8Array(sent.body),
    }).formData();
    const file = form.get('file');
    assert.ok(file && typeof file !== 'string');
    assert.equal(file.name, 'rules "1".ndjson');
    assert.equal(file.type, 'application/ndjson');
    assert.equal(await file.text(), content);
    assert.deepEqual([...form.keys()], ['file']);
    await client.close();
  });

  it('parses JSON answers, keeps text always, and leaves NDJSON and empty answers unparsed', async () => {
    const client = new SvcClient({ url: server.url });
    const json = await client.request({ method: 'GET', path: '/api/x' });
    assert.deepEqual(json.body, { ok: true, echo: '/api/x' });
    assert.equal(json.text, '{"ok":true,"echo":"/api/x"}');
    assert.match(String(json.headers['content-type']), /application\/json/);
    const ndjson = await client.request({ method: 'GET', path: '/ndjson' });
    assert.equal(ndjson.body, undefined);
    assert.equal(ndjson.text, '{"a":1}\n{"b":2}\n');
    const empty = await client.request({ method: 'DELETE', path: '/empty' });
    assert.equal(empty.status, 204);
    assert.equal(empty.body, undefined);
    assert.equal(empty.text, '');
    await client.close();
  });

  it('ApiError names method, path, status and the security-app message, and nothing sent (wire-facts 0.3)', async () => {
    const apiKey = 'c3ZjZm9ybS1rZXktaWQ6dG9wLXNlY3JldA==';
    const client = new SvcClient({ url: server.url, apiKey });
    const err = await client
      .request({ method: 'POST', path: '/api/lists', space: 'soc', body: { id: 'x', secret_marker: 'hunter2-body' } })
      .catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.message, 'POST /s/soc/api/lists -> 409 Conflict: list id: "x" already exists');
    assert.equal(err.status, 409);
    assert.equal(err.method, 'POST');
    assert.equal(err.path, '/s/soc/api/lists');
    assert.deepEqual(err.body, { message: 'list id: "x" already exists', status_code: 409 });
    const everything = `${err.stack} ${JSON.stringify(err)} ${JSON.stringify(Object.values(err))}`;
    assert.ok(!everything.includes(apiKey));
    assert.ok(!everything.includes('hunter2-body'));
    assert.ok(!everything.includes('kbn-xsrf'));
    await client.close();
  });

  it('redacts credentials a server echoes back in its message', async () => {
    const client = new SvcClient({ url: server.url, apiKey: 'key-id:very-secret-part', maxAttempts: 1 });
    const err = await client.request({ method: 'GET', path: '/echo-auth' }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    const encoded = Buffer.from('key-id:very-secret-part').toString('base64');
    assert.ok(!err.message.includes(encoded));
    assert.equal(err.message, 'GET /echo-auth -> 400 Bad Request: bad header ApiKey (redacted)');
    await client.close();
  });

  it('cuts a non-JSON error page short in the message', async () => {
    const client = new SvcClient({ url: server.url, maxAttempts: 1 });
    const err = await client.request({ method: 'GET', path: '/html' }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.match(err.message, /^GET \/html -> 502 Bad Gateway: <html><body>gateway gateway/);
    assert.ok(err.serverMessage.length <= 303);
    await client.close();
  });
});
