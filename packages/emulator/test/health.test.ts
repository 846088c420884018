import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

// Not part of the API (service-api.md has no health route): a control route of our own, for
// `docker run ... svcform emulator` health checks and scripts that wait for the server to start.
describe('emulator control route GET /__emulator/health', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ apiKey: 'secret-key', spaces: ['soc'] });
  });
  after(() => emu.stop());

  it('answers 200 {status: ok} without credentials, while the API itself requires them', async () => {
    const health = await call(emu, 'GET', '/__emulator/health');
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok', spaces: 2 });
    assert.equal((await call(emu, 'GET', '/api/spaces/space')).status, 401);
  });

  it('is not API traffic: injected faults do not touch it and the request log does not record it', async () => {
    // The other control routes take the API's key (the health route alone is open).
    const key = { headers: { authorization: 'ApiKey secret-key' } };
    await call(emu, 'DELETE', '/__emulator/requests', undefined, key);
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ path: '.*', status: 503 }] }, key);
    try {
      assert.equal((await call(emu, 'GET', '/__emulator/health')).status, 200);
      assert.deepEqual((await call(emu, 'GET', '/__emulator/requests', undefined, key)).body.requests, []);
    } finally {
      await call(emu, 'DELETE', '/__emulator/faults', undefined, key);
    }
  });

  it('only GET: another method is an unknown control route', async () => {
    assert.equal((await call(emu, 'POST', '/__emulator/health', {})).status, 404);
  });
});
