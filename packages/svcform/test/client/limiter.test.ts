import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { SvcClient } from '../../src/client/client.js';
import { Limiter, Semaphore } from '../../src/client/limiter.js';
import { delay, recordingServer, sendJson, type RecordingServer } from './servers.js';

describe('Semaphore and Limiter', () => {
  it('grants slots in arrival order and never more than the limit', async () => {
    const semaphore = new Semaphore(2);
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        await semaphore.acquire();
        order.push(i);
        running += 1;
        peak = Math.max(peak, running);
        await delay(5);
        running -= 1;
        semaphore.release();
      }),
    );
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(peak, 2);
    assert.equal(semaphore.inFlight, 0);
    assert.equal(semaphore.queued, 0);
  });

  it('rejects limits that are not positive integers and extra releases', () => {
    assert.throws(() => new Semaphore(0), RangeError);
    assert.throws(() => new Semaphore(1.5), RangeError);
    assert.throws(() => new Semaphore(1).release(), /released more often/);
  });

  it('lets other areas through while one area waits on its tighter limit', async () => {
    const limiter = new Limiter(4, { fleet: 1 });
    const releaseFleet = await limiter.acquire('fleet');
    let secondFleet = false;
    const waiting = limiter.acquire('fleet').then((release) => {
      secondFleet = true;
      return release;
    });
    const releaseRules = await limiter.acquire('detection_engine');
    assert.equal(limiter.inFlight, 2);
    await delay(5);
    assert.equal(secondFleet, false);
    releaseFleet();
    releaseFleet(); // a second call is ignored
    const releaseSecond = await waiting;
    assert.equal(secondFleet, true);
    releaseSecond();
    releaseRules();
    assert.equal(limiter.inFlight, 0);
  });
});

describe('client concurrency bound', () => {
  let server: RecordingServer;
  let emu: RunningEmulator;
  before(async () => {
    server = await recordingServer(async (_req, res) => {
      await delay(25);
      sendJson(res, 200, { ok: true });
    });
    emu = await emulator();
  });
  after(async () => {
    await server.close();
    await emu.stop();
  });

  it('keeps at most `concurrency` requests in flight however many are issued', async () => {
    const client = new SvcClient({ url: server.url, concurrency: 4 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => client.request({ method: 'GET', path: `/api/x/${i}` })));
    assert.equal(results.length, 30);
    assert.equal(server.maxInFlight, 4);
    assert.equal(client.stats.requests, 30);
    await client.close();
  });

  it('keeps a tighter per-area limit while other areas use the rest', async () => {
    let fleetInFlight = 0;
    let fleetPeak = 0;
    const mixed = await recordingServer(async (req, res) => {
      const isFleet = req.url.startsWith('/api/fleet/');
      if (isFleet) fleetPeak = Math.max(fleetPeak, ++fleetInFlight);
      await delay(25);
      if (isFleet) fleetInFlight -= 1;
      sendJson(res, 200, {});
    });
    const client = new SvcClient({ url: mixed.url, concurrency: 6, areas: { fleet: { concurrency: 2 } } });
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => client.request({ method: 'GET', path: `/api/fleet/agent_policies/${i}` })),
      ...Array.from({ length: 12 }, (_, i) => client.request({ method: 'GET', path: `/api/lists/${i}` })),
    ]);
    assert.equal(fleetPeak, 2);
    assert.equal(mixed.maxInFlight, 6);
    assert.deepEqual(client.stats.byArea, { fleet: 12, lists: 12 });
    await client.close();
    await mixed.close();
  });

  it('serialises slow emulator answers into waves of `concurrency` (delayMs fault)', async () => {
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'GET', path: '^/api/spaces/space$', delayMs: 100 }] });
    const client = new SvcClient({ url: emu.url, concurrency: 3 });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 9 }, () => client.request({ method: 'GET', path: '/api/spaces/space' })));
    const elapsed = Date.now() - started;
    assert.ok(results.every((r) => r.status === 200));
    // Three waves of three: without the bound all nine would overlap and finish in about 100 ms.
    assert.ok(elapsed >= 290, `finished in ${elapsed} ms`);
    await client.close();
  });
});
