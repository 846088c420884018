import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Faults, type FaultRule } from '../src/faults.js';
import type { RunningEmulator } from '../src/server.js';
import { call, emulator } from '../src/testing.js';

/**
 * Seeded fault draws depend on the request, not on arrival order (issue 31: with one shared random
 * stream, two applies at once met different faults on every run and a campaign seed did not replay).
 */

type Req = { method: string; path: string; query?: string; body?: string; contentType?: string };

const RULES: FaultRule[] = [
  { method: 'POST', path: '^/api/', status: 500, rate: 0.3 },
  { path: '^/api/', status: 503, rate: 0.2 },
];

/** Which requests of `requests`, sent in that order, meet a fault (by their index in `labels`). */
function faulted(seed: number, requests: Req[], labels: Req[]): string[] {
  const faults = new Faults();
  faults.set(RULES, { seed });
  const hit: string[] = [];
  for (const r of requests) {
    const action = faults.decide(r.method, r.path, { query: r.query, body: r.body === undefined ? undefined : Buffer.from(r.body), contentType: r.contentType });
    if (action) hit.push(`${labels.indexOf(r)}:${action.kind === 'status' ? action.status : action.kind}`);
  }
  return hit.sort();
}

/** A fixed shuffle, so the test is the same on every run. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('seeded fault rules', () => {
  const requests: Req[] = [
    ...Array.from({ length: 40 }, (_, i) => ({ method: 'POST', path: '/api/maintenance_window', body: JSON.stringify({ title: `window ${i}` }) })),
    ...Array.from({ length: 40 }, (_, i) => ({ method: 'GET', path: '/api/detection_engine/rules/_find', query: `?page=${i + 1}` })),
    ...Array.from({ length: 20 }, (_, i) => ({ method: 'PUT', path: `/api/actions/connector/c-${i}`, body: '{}' })),
  ];

  it('fault the same requests whatever order they arrive in', () => {
    const inOrder = faulted(11, requests, requests);
    assert.ok(inOrder.length > 10 && inOrder.length < 80, `a fraction of requests faulted (${inOrder.length})`);
    for (const order of [1, 2, 3]) assert.deepEqual(faulted(11, shuffled(requests, order), requests), inOrder);
  });

  it('fault other requests under another seed', () => {
    assert.notDeepEqual(faulted(12, requests, requests), faulted(11, requests, requests));
  });

  it('draw anew for each repeat of one request, so a retry can get through', () => {
    const faults = new Faults();
    faults.set([{ path: '^/api/', status: 503, rate: 0.5 }], { seed: 3 });
    const outcomes = Array.from({ length: 32 }, () => faults.decide('POST', '/api/maintenance_window', { body: Buffer.from('{"title":"same"}') })?.kind ?? 'served');
    assert.ok(outcomes.includes('served') && outcomes.includes('status'), outcomes.join(','));
  });

  it('take a body that differs only in its multipart boundary as the same request', () => {
    const part = (boundary: string): Req => ({
      method: 'POST',
      path: '/api/lists/items/_import',
      query: '?list_id=blocked-ips',
      contentType: `multipart/form-data; boundary=${boundary}`,
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="list.txt"\r\n\r\n10.0.0.1\r\n--${boundary}--\r\n`,
    });
    for (let seed = 1; seed <= 30; seed++) {
      const a = part('----svcformaaaa');
      const b = part('----svcformbbbb');
      assert.deepEqual(faulted(seed, [a], [a]), faulted(seed, [b], [b]), `seed ${seed}`);
    }
  });
});

describe('seeded fault rules and values the server chose', () => {
  it('take requests that differ only in server ids and _version tokens as the same request', () => {
    // Which object gets which id, and which write which token, depends on the order the server
    // made them in: a replay under other timing must still meet the same faults.
    const put = (id: string, version: string): Req => ({ method: 'PUT', path: `/api/fleet/package_policies/${id}`, body: JSON.stringify({ name: 'system-linux', version, description: 'x' }) });
    for (let seed = 1; seed <= 30; seed++) {
      const a = put('5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01', 'WzEsMV0=');
      const b = put('0e1d2c3b-4a59-4867-8f9e-a0b1c2d3e4f5', 'WzQyLDFd');
      assert.deepEqual(faulted(seed, [a], [a]), faulted(seed, [b], [b]), `seed ${seed}`);
    }
  });

  it('still tell apart requests whose own content differs', () => {
    const put = (name: string): Req => ({ method: 'PUT', path: '/api/exception_lists', body: JSON.stringify({ list_id: name, _version: 'WzEsMV0=' }) });
    const lists = Array.from({ length: 30 }, (_, i) => put(`list-${i}`));
    const hits = faulted(4, lists, lists);
    assert.ok(hits.length > 0 && hits.length < 30, hits.join(','));
  });
});

describe('PUT /__emulator/faults with a seed', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  /** Sends 30 distinct reads at once in the given order; answers which were faulted. */
  async function round(order: number[]): Promise<number[]> {
    await call(emu, 'PUT', '/__emulator/faults', { seed: 5, faults: [{ method: 'GET', path: '^/api/spaces/space/', status: 503, rate: 0.4 }] });
    const answers = await Promise.all(order.map(async (i) => ({ i, status: (await call(emu, 'GET', `/api/spaces/space/default?n=${i}`)).status })));
    return answers.filter((a) => a.status === 503).map((a) => a.i).sort((a, b) => a - b);
  }

  it('faults the same requests when they are sent in another order', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => i);
    const first = await round(ids);
    assert.ok(first.length > 0 && first.length < 30, `some were faulted (${first.length})`);
    assert.deepEqual(await round([...ids].reverse()), first);
    assert.deepEqual(await round(shuffled(ids, 9)), first);
    await call(emu, 'DELETE', '/__emulator/faults');
  });

  it('refuses a seed that is not an integer', async () => {
    const res = await call(emu, 'PUT', '/__emulator/faults', { seed: 'x', faults: [] });
    assert.equal(res.status, 400);
    assert.match(res.body.error, /seed must be an integer/);
  });
});
