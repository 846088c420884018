import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { call, emulatorResetPerTest } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import type { FaultRule } from '@svcform/emulator/faults.js';
import { ApiError, SvcClient, TransportError, type ClientOptions, type RetryInfo } from '../../src/client/client.js';

describe('client retries against emulator faults', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((running) => (emu = running));

  async function faults(rules: FaultRule[]): Promise<void> {
    assert.equal((await call(emu, 'PUT', '/__emulator/faults', { faults: rules })).status, 200);
  }
  async function statusesOf(pathPattern: RegExp): Promise<number[]> {
    const log = await call(emu, 'GET', '/__emulator/requests');
    return log.body.requests.filter((r: { path: string }) => pathPattern.test(r.path)).map((r: { status: number }) => r.status);
  }
  function client(options: Partial<ClientOptions> = {}): { client: SvcClient; retries: RetryInfo[] } {
    const retries: RetryInfo[] = [];
    return { client: new SvcClient({ url: emu.url, retryBaseMs: 5, onRetry: (info) => retries.push(info), ...options }), retries };
  }

  it('retries 429 after the Retry-After the server asked for (asserted through onRetry)', async () => {
    await faults([{ path: '^/api/spaces/space$', status: 429, retryAfter: 1, times: 1 }]);
    const { client: c, retries } = client();
    const res = await c.request({ method: 'GET', path: '/api/spaces/space' });
    assert.equal(res.status, 200);
    assert.equal(retries.length, 1);
    assert.deepEqual({ ...retries[0], reason: undefined }, { method: 'GET', path: '/api/spaces/space', attempt: 2, delayMs: 1000, reason: undefined });
    assert.match(retries[0].reason, /^429 Too Many Requests/);
    assert.deepEqual(c.stats, { requests: 1, retries: 1, byArea: { spaces: 1 } });
    await c.close();
  });

  it('retries 503 twice then succeeds, backing off exponentially with jitter', async () => {
    await faults([{ path: '^/api/spaces/space/default$', status: 503, times: 2 }]);
    const { client: c, retries } = client({ retryBaseMs: 40 });
    const res = await c.request({ method: 'GET', path: '/api/spaces/space/default' });
    assert.equal(res.status, 200);
    assert.deepEqual(retries.map((r) => r.attempt), [2, 3]);
    assert.ok(retries[0].delayMs >= 40 && retries[0].delayMs <= 60, `first delay ${retries[0].delayMs}`);
    assert.ok(retries[1].delayMs >= 80 && retries[1].delayMs <= 120, `second delay ${retries[1].delayMs}`);
    assert.deepEqual(await statusesOf(/^\/api\/spaces\/space\/default$/), [503, 503, 200]);
    await c.close();
  });

  it('does not repeat a non-idempotent POST after a gateway error: it may have been carried out (ambiguous)', async () => {
    await faults([{ method: 'POST', path: '^/api/status$', status: 504, times: 1 }]);
    const { client: c, retries } = client();
    const err = await c.request({ method: 'POST', path: '/api/status', body: {}, accept: [405] }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 504);
    assert.equal(err.ambiguous, true);
    assert.deepEqual(retries, []);
    await c.close();
  });

  it('repeats a create of a client-chosen id (idempotent: true) after 502 and 504, and 500 on a GET', async () => {
    await faults([
      { method: 'POST', path: '^/api/status$', status: 502, times: 1 },
      { method: 'POST', path: '^/api/status$', status: 504, times: 1 },
      { method: 'GET', path: '^/api/spaces/space$', status: 500, times: 1 },
    ]);
    const { client: c, retries } = client();
    const res = await c.request({ method: 'POST', path: '/api/status', body: {}, accept: [405], idempotent: true });
    assert.equal(res.status, 405);
    assert.equal((await c.request({ method: 'GET', path: '/api/spaces/space' })).status, 200);
    assert.deepEqual(retries.map((r) => r.reason.slice(0, 3)), ['502', '504', '500']);
    await c.close();
  });

  it('gives up after maxAttempts with the last status in the ApiError', async () => {
    await faults([{ path: '^/api/spaces/space$', status: 503 }]);
    const { client: c, retries } = client({ maxAttempts: 3 });
    const err = await c.request({ method: 'GET', path: '/api/spaces/space' }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 503);
    assert.equal(err.attempts, 3);
    assert.equal(err.message, 'GET /api/spaces/space -> 503 Service Unavailable: injected fault 503 (after 3 attempts)');
    assert.equal(retries.length, 2);
    assert.deepEqual(await statusesOf(/^\/api\/spaces\/space$/), [503, 503, 503]);
    await c.close();
  });

  it('retries a GET whose connection was dropped', async () => {
    await faults([{ method: 'GET', path: '^/api/spaces/space$', drop: true, times: 1 }]);
    const { client: c, retries } = client();
    const res = await c.request({ method: 'GET', path: '/api/spaces/space' });
    assert.equal(res.status, 200);
    assert.equal(retries.length, 1);
    assert.deepEqual(await statusesOf(/^\/api\/spaces\/space$/), [-1, 200]);
    await c.close();
  });

  it('does not retry a non-idempotent POST whose connection was dropped: TransportError after one attempt', async () => {
    await faults([{ method: 'POST', path: '^/api/status$', drop: true, times: 1 }]);
    const { client: c, retries } = client();
    const err = await c.request({ method: 'POST', path: '/api/status', body: { id: 'x' } }).catch((e: unknown) => e);
    assert.ok(err instanceof TransportError, String(err));
    assert.equal(err.attempts, 1);
    assert.equal(err.method, 'POST');
    assert.equal(err.path, '/api/status');
    assert.match(err.message, /^POST \/api\/status failed: .+; not retried: the request is not idempotent/);
    assert.ok(err.cause instanceof Error);
    assert.deepEqual(retries, []);
    assert.deepEqual(await statusesOf(/^\/api\/status$/), [-1]);
    await c.close();
  });

  it('retries a POST marked idempotent after a drop, and a PATCH after the answer was lost', async () => {
    await faults([
      { method: 'POST', path: '^/api/status$', drop: true, times: 1 },
      { method: 'PATCH', path: '^/api/status$', dropAfterServe: true, times: 1 },
    ]);
    const { client: c, retries } = client();
    const post = await c.request({ method: 'POST', path: '/api/status', body: { id: 'x' }, idempotent: true, accept: [405] });
    assert.equal(post.status, 405);
    const patch = await c.request({ method: 'PATCH', path: '/api/status', body: {}, idempotent: true, accept: [405] });
    assert.equal(patch.status, 405);
    assert.equal(retries.length, 2);
    assert.deepEqual(await statusesOf(/^\/api\/status$/), [-1, 405, -1, 405]);
    await c.close();
  });

  it('retries 409 in the fleet area (lock contention, wire-facts 0.5)', async () => {
    await faults([{ path: '^/api/fleet/agent_policies$', status: 409, times: 2 }]);
    const { client: c, retries } = client();
    // 404 is accepted so the test does not depend on the Fleet area being registered.
    const res = await c.request({ method: 'GET', path: '/api/fleet/agent_policies', accept: [404] });
    assert.notEqual(res.status, 409);
    assert.deepEqual(retries.map((r) => r.reason), ['409 Conflict', '409 Conflict']);
    const statuses = await statusesOf(/^\/api\/fleet\/agent_policies$/);
    assert.deepEqual(statuses.slice(0, 2), [409, 409]);
    assert.equal(statuses.length, 3);
    await c.close();
  });

  it('does not retry 409 outside fleet: it is a real conflict', async () => {
    await faults([{ path: '^/api/lists$', status: 409, times: 1 }]);
    const { client: c, retries } = client();
    const err = await c.request({ method: 'POST', path: '/api/lists', body: { id: 'x' } }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 409);
    assert.equal(err.attempts, 1);
    assert.deepEqual(retries, []);
    assert.deepEqual(await statusesOf(/^\/api\/lists$/), [409]);
    await c.close();
  });

  it('times an attempt out and retries it when idempotent', async () => {
    await faults([{ method: 'GET', path: '^/api/spaces/space$', delayMs: 600, times: 1 }]);
    const { client: c, retries } = client({ timeoutMs: 150 });
    const res = await c.request({ method: 'GET', path: '/api/spaces/space' });
    assert.equal(res.status, 200);
    assert.deepEqual(retries.map((r) => r.reason), ['no complete answer within 0.15 s (--timeout)']);
    await c.close();
  });

  it('does not retry a timed-out POST', async () => {
    await faults([{ method: 'POST', path: '^/api/status$', delayMs: 600, times: 1 }]);
    const { client: c, retries } = client({ timeoutMs: 150 });
    const err = await c.request({ method: 'POST', path: '/api/status', body: {} }).catch((e: unknown) => e);
    assert.ok(err instanceof TransportError);
    assert.match(err.message, /^POST \/api\/status failed: no complete answer within 0.15 s \(--timeout\); not retried/);
    assert.equal(err.ambiguous, true);
    assert.deepEqual(retries, []);
    await c.close();
  });

  it('does not hold a concurrency slot while waiting out a backoff', async () => {
    await faults([{ path: '^/api/spaces/space/default$', status: 503, times: 1 }]);
    const { client: c } = client({ concurrency: 1, retryBaseMs: 400 });
    const finished: string[] = [];
    const slow = c.request({ method: 'GET', path: '/api/spaces/space/default' }).then(() => finished.push('retried'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const quick = c.request({ method: 'GET', path: '/api/spaces/space' }).then(() => finished.push('other'));
    await Promise.all([slow, quick]);
    assert.deepEqual(finished, ['other', 'retried']);
    await c.close();
  });
});

describe('client retries of connections never made', () => {
  it('retries a refused connection even for POST (nothing was sent) and reports TransportError', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const retries: RetryInfo[] = [];
    const c = new SvcClient({ url: `http://127.0.0.1:${port}`, maxAttempts: 3, retryBaseMs: 1, onRetry: (r) => retries.push(r) });
    const err = await c.request({ method: 'POST', path: '/api/lists', body: {} }).catch((e: unknown) => e);
    assert.ok(err instanceof TransportError);
    assert.equal(err.attempts, 3);
    assert.match(err.message, /^POST \/api\/lists failed: .*ECONNREFUSED.* \(after 3 attempts\)$/);
    assert.equal(retries.length, 2);
    await c.close();
  });
});
