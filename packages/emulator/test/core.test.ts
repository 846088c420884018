import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

describe('emulator core', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['soc'] });
  });
  after(() => emu.stop());

  it('answers a body over its payload limit with 413 and the platform body, not a reset (hapi server.maxPayload; issue 31)', async () => {
    const body = Buffer.alloc(65 * 1024 * 1024, 0x20);
    const res = await fetch(`${emu.url}/api/detection_engine/rules`, { method: 'POST', headers: { 'content-type': 'application/json', 'kbn-xsrf': 'true' }, body });
    assert.equal(res.status, 413);
    assert.deepEqual(await res.json(), { statusCode: 413, error: 'Request Entity Too Large', message: `Payload content length greater than maximum allowed: ${64 * 1024 * 1024}` });
    // The emulator serves on.
    assert.equal((await fetch(`${emu.url}/__emulator/health`)).status, 200);
  });

  it('requires kbn-xsrf on writes with the platform error body (wire-facts 0.2)', async () => {
    const res = await call(emu, 'POST', '/api/spaces/space', {}, { xsrf: false });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: 'Request must contain a kbn-xsrf header.' });
  });

  it('answers an unknown space with a not-found error naming it (service-api Errors: space-not-found)', async () => {
    const res = await call(emu, 'GET', '/s/nope/api/spaces/space');
    assert.equal(res.status, 404);
    assert.match(res.body.message, /nope/);
  });

  it('serves a configured space under /s/{space}', async () => {
    const res = await call(emu, 'GET', '/s/soc/api/spaces/space/soc');
    assert.equal(res.status, 200);
    assert.equal(res.body.id, 'soc');
  });

  it('adds spaces and injects faults through control routes', async () => {
    await call(emu, 'POST', '/__emulator/spaces', { id: 'ops' });
    assert.equal((await call(emu, 'GET', '/s/ops/api/spaces/space/ops')).status, 200);
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ path: '^/api/spaces/space$', status: 429, retryAfter: 2, times: 1 }] });
    const limited = await call(emu, 'GET', '/api/spaces/space');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '2');
    assert.equal((await call(emu, 'GET', '/api/spaces/space')).status, 200);
    await call(emu, 'DELETE', '/__emulator/faults');
  });

  it('logs requests with their route pattern and counts them', async () => {
    await call(emu, 'DELETE', '/__emulator/requests');
    await call(emu, 'GET', '/api/spaces/space/default');
    const log = await call(emu, 'GET', '/__emulator/requests');
    assert.equal(log.body.requests.length, 1);
    assert.equal(log.body.requests[0].route, '/api/spaces/space/:id');
    const counts = await call(emu, 'GET', '/__emulator/counts');
    assert.equal(counts.body.counts['GET /api/spaces/space/:id'], 1);
  });
});

describe('emulator auth (service-api Authentication 1, 7)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({
      credentials: [
        { type: 'apiKey', secret: 'full-key', user: 'ops' },
        { type: 'apiKey', secret: 'read-key', user: 'viewer', readOnly: true },
        { type: 'basic', secret: 'elastic:changeme', user: 'elastic' },
        { type: 'bearer', secret: 'tok', user: 'robot' },
      ],
    });
  });
  after(() => emu.stop());

  it('rejects missing and wrong credentials with Unauthorized', async () => {
    for (const headers of <Record<string, string>[]>[{}, { authorization: 'ApiKey nope' }, { authorization: 'Basic ' + Buffer.from('elastic:bad').toString('base64') }]) {
      const res = await call(emu, 'GET', '/api/spaces/space', undefined, { headers });
      assert.equal(res.status, 401);
      assert.equal(res.body.error, 'Unauthorized');
    }
  });

  it('reports a read-only key\'s privileges as read-only (service-api.md Authentication 6: feature privileges read and all)', async () => {
    for (const path of ['/api/detection_engine/privileges', '/api/lists/privileges']) {
      const full = (await call(emu, 'GET', path, undefined, { headers: { authorization: 'ApiKey full-key' } })).body;
      const read = (await call(emu, 'GET', path, undefined, { headers: { authorization: 'ApiKey read-key' } })).body;
      const report = (b: any) => (path.includes('lists') ? b.lists : b);
      assert.equal(report(full).has_all_requested, true, path);
      assert.equal(report(read).has_all_requested, false, path);
      const index = (b: any) => Object.values(report(b).index)[0] as Record<string, boolean>;
      assert.equal(index(full).write, true, path);
      assert.equal(index(read).write, false, path);
      assert.equal(index(read).read, true, path);
    }
  });

  it('accepts each of the three methods', async () => {
    for (const authorization of ['ApiKey full-key', 'Basic ' + Buffer.from('elastic:changeme').toString('base64'), 'Bearer tok']) {
      assert.equal((await call(emu, 'GET', '/api/spaces/space', undefined, { headers: { authorization } })).status, 200);
    }
  });
});

describe('emulator --state persistence', () => {
  it('saves spaces and reloads them after a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svcform-state-')), 'state.json');
    const first = await emulator({ stateFile: file });
    await call(first, 'POST', '/__emulator/spaces', { id: 'kept' });
    await first.stop();
    assert.ok(JSON.parse(readFileSync(file, 'utf8')).spaces.includes('kept'));
    const second = await emulator({ stateFile: file });
    assert.equal((await call(second, 'GET', '/s/kept/api/spaces/space/kept')).status, 200);
    await second.stop();
  });
});

describe('control routes take the API credentials (design.md "guarded by the same credentials as the API")', () => {
  it('refuses reset, faults and state without a key, and writes with a read-only key', async () => {
    const emu = await emulator({
      credentials: [
        { type: 'apiKey', secret: 'full', user: 'ops' },
        { type: 'apiKey', secret: 'reader', user: 'viewer', readOnly: true },
      ],
    });
    try {
      for (const [method, path] of [['POST', '/__emulator/reset'], ['PUT', '/__emulator/faults'], ['GET', '/__emulator/state'], ['GET', '/__emulator/requests']] as const) {
        const res = await call(emu, method, path, method === 'PUT' ? { faults: [] } : undefined);
        assert.equal(res.status, 401, `${method} ${path}`);
      }
      assert.equal((await call(emu, 'POST', '/__emulator/reset', undefined, { headers: { authorization: 'ApiKey reader' } })).status, 403);
      assert.equal((await call(emu, 'GET', '/__emulator/requests', undefined, { headers: { authorization: 'ApiKey reader' } })).status, 200);
      assert.equal((await call(emu, 'POST', '/__emulator/reset', undefined, { headers: { authorization: 'ApiKey full' } })).status, 200);
    } finally {
      await emu.stop();
    }
  });
});
