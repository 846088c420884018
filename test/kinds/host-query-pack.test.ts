import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../helpers/emulator.js';
import { fetchRequester } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { hostQueryPackAdapter as adapter } from '../../src/kinds/host-query-pack.js';
import { hostQuerySavedQueryAdapter } from '../../src/kinds/host-query-saved-query.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import type { HostQueryState } from '../../src/emulator/areas/hostquery/common.js';

const KIND = 'HostQueryPack';

describe('HostQueryPack adapter', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  before(async () => {
    emu = await emulator({ spaces: ['soc'] });
    ctx = { api: fetchRequester(emu.url), log: () => {} };
  });
  after(() => emu.stop());

  async function live(name: string, space = 'default'): Promise<LiveObject> {
    const found = (await adapter.list(ctx, space)).filter((o) => o.name === name);
    assert.equal(found.length, 1, `one live pack named ${name}`);
    return found[0];
  }

  const manifests = [
    resource(KIND, 'minimal', { queries: { uptime: { query: 'SELECT * FROM uptime;', interval: 60 } } }),
    resource(KIND, 'linux-baseline', {
      description: 'Baseline inventory for Linux servers',
      enabled: true,
      policy_ids: ['servers-prod', 'servers-dev'],
      shards: { 'servers-prod': 25, 'servers-dev': 100 },
      queries: {
        processes: {
          query: 'SELECT pid, name FROM processes;',
          interval: 300,
          platform: 'linux,darwin',
          version: '5.10.2',
          timeout: 60,
          ecs_mapping: { 'process.pid': { field: 'pid' }, 'event.kind': { value: 'state' } },
        },
        listening: { query: 'SELECT * FROM listening_ports;', interval: 600, snapshot: true },
        diff_users: { query: 'SELECT * FROM users;', interval: 3600, removed: true, snapshot: false },
      },
    }),
    resource(KIND, 'soc-pack', { enabled: false, shards: { '*': 50 }, queries: { os: { query: 'SELECT * FROM os_version;', interval: 86400 } } }, { space: 'soc' }),
  ];

  it('creates manifests that omit defaults and lists them equal to the desired state', async () => {
    for (const res of manifests) {
      await adapter.create(ctx, res);
      const obj = await live(res.name, res.space);
      assert.equal(obj.readOnly, undefined);
      assert.match(obj.serverId ?? '', /^[0-9a-f-]{36}$/);
      assert.deepEqual(adapter.normalizeLive(obj), adapter.normalizeDesired(res), res.name);
    }
  });

  it('fills defaults on the desired side and compares policy_ids as a set', () => {
    const n = adapter.normalizeDesired(manifests[0]);
    assert.equal(n.enabled, false);
    assert.deepEqual(n.policy_ids, []);
    assert.deepEqual(n.shards, {});
    assert.deepEqual(n.queries.uptime, { query: 'SELECT * FROM uptime;', interval: 60, snapshot: false, removed: false });
    assert.deepEqual(adapter.normalizeDesired(manifests[1]).policy_ids, ['servers-dev', 'servers-prod']);
    assert.deepEqual(adapter.setFields, ['/policy_ids']);
  });

  it('names agent policies (policy_ids and shard keys) and saved queries as references', () => {
    const res = resource(KIND, 'refs', {
      policy_ids: ['p1'],
      shards: { p2: 10, '*': 5 },
      queries: { a: { query: 'SELECT 1;', interval: 60, saved_query_id: 'sq-a' }, b: { query: 'SELECT 2;', interval: 60 } },
    });
    assert.deepEqual(adapter.references(res.spec), [
      { kind: 'AgentPolicy', name: 'p1', path: ['spec', 'policy_ids', 0] },
      { kind: 'AgentPolicy', name: 'p2', path: ['spec', 'shards', 'p2'] },
      { kind: 'HostQuerySavedQuery', name: 'sq-a', path: ['spec', 'queries', 'a', 'saved_query_id'] },
    ]);
  });

  it('a pack referencing a saved query converges although saved_query_id is never returned', async () => {
    const saved = resource('HostQuerySavedQuery', 'open-sockets', { query: 'SELECT * FROM process_open_sockets;', interval: 120 });
    await hostQuerySavedQueryAdapter.create(ctx, saved);
    const res = resource(KIND, 'from-saved', { enabled: true, queries: { sockets: { query: 'SELECT * FROM process_open_sockets;', interval: 120, saved_query_id: 'open-sockets' } } });
    await adapter.create(ctx, res);
    const obj = await live('from-saved');
    assert.equal(obj.body.queries.sockets.saved_query_id, undefined);
    assert.deepEqual(adapter.normalizeLive(obj), adapter.normalizeDesired(res));
    await adapter.update(ctx, res, obj, { rotateSecrets: false });
    assert.deepEqual(adapter.normalizeLive(await live('from-saved')), adapter.normalizeDesired(res));
  });

  it('marks the prebuilt pack read-only', async () => {
    const prebuilt = (await adapter.list(ctx, 'default')).filter((o) => o.readOnly);
    assert.equal(prebuilt.length, 1);
    assert.equal(prebuilt[0].body.read_only, true);
  });

  it('shows a query interval and the enabled flag changed through the API as differences', async () => {
    const res = manifests[1];
    const obj = await live(res.name);
    const changedQueries = { ...obj.body.queries, processes: { ...obj.body.queries.processes, interval: 900 } };
    const put = await call(emu, 'PUT', `/api/hostquery/packs/${obj.serverId}`, { ...obj.body, queries: changedQueries, read_only: undefined, saved_object_id: undefined });
    assert.equal(put.status, 200, put.text);
    const drifted = await live(res.name);
    assert.equal(adapter.normalizeLive(drifted).queries.processes.interval, 900);
    assert.notDeepEqual(adapter.normalizeLive(drifted), adapter.normalizeDesired(res));

    const minimal = await live('minimal');
    await call(emu, 'PUT', `/api/hostquery/packs/${minimal.serverId}`, { enabled: true, queries: minimal.body.queries });
    assert.notDeepEqual(adapter.normalizeLive(await live('minimal')), adapter.normalizeDesired(manifests[0]));
  });

  it('update converges, resetting what the manifest leaves out', async () => {
    for (const res of manifests.slice(0, 2)) {
      await adapter.update(ctx, res, await live(res.name, res.space), { rotateSecrets: false });
      assert.deepEqual(adapter.normalizeLive(await live(res.name, res.space)), adapter.normalizeDesired(res), res.name);
    }
    const smaller = resource(KIND, 'linux-baseline', { enabled: true, policy_ids: ['servers-prod'], queries: { listening: { query: 'SELECT * FROM listening_ports;', interval: 600 } } });
    await adapter.update(ctx, smaller, await live('linux-baseline'), { rotateSecrets: false });
    const after = await live('linux-baseline');
    assert.deepEqual(Object.keys(after.body.queries), ['listening']);
    assert.deepEqual(after.body.shards, {});
    assert.deepEqual(adapter.normalizeLive(after), adapter.normalizeDesired(smaller));
  });

  it('toSpec leaves out server-managed fields and defaults and round-trips', async () => {
    for (const obj of (await adapter.list(ctx, 'default')).concat(await adapter.list(ctx, 'soc'))) {
      const { spec } = adapter.toSpec(obj);
      for (const managed of ['name', 'saved_object_id', 'created_at', 'read_only', 'version']) assert.equal(spec[managed], undefined);
      const rebuilt = resource(KIND, obj.name, spec, { space: obj.space });
      assert.deepEqual(adapter.normalizeDesired(rebuilt), adapter.normalizeLive(obj), obj.name);
    }
    assert.deepEqual(adapter.toSpec(await live('soc-pack', 'soc')).spec, { shards: { '*': 50 }, queries: { os: { query: 'SELECT * FROM os_version;', interval: 86400 } } });
  });

  it('delete removes the pack', async () => {
    await adapter.delete(ctx, await live('minimal'));
    assert.equal((await adapter.list(ctx, 'default')).some((o) => o.name === 'minimal'), false);
  });

  it('returns two live packs of one name both, for the engine to report', async () => {
    const state = emu.store.area<HostQueryState>('default', 'hostquery', () => assert.fail('state exists'));
    const original = Object.values(state.packs).find((p) => p.name === 'from-saved');
    assert.ok(original);
    // The API refuses duplicate names, so the clash is planted the way an older server could leave it.
    const twinId = '00000000-0000-4000-8000-000000000001';
    state.packs[twinId] = { ...structuredClone(original), saved_object_id: twinId, seq: state.seq + 1 };
    const twins = (await adapter.list(ctx, 'default')).filter((o) => o.name === 'from-saved');
    assert.deepEqual(twins.map((o) => o.serverId).sort(), [original.saved_object_id, twinId].sort());
  });
});

describe('HostQueryPack adapter listing', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('lists 1,050 packs (plus the prebuilt one) in 2 find requests and no GET per pack', async () => {
    const ctx: AdapterContext = { api: fetchRequester(emu.url), log: () => {} };
    const total = 1050;
    for (let start = 0; start < total; start += 75) {
      await Promise.all(
        Array.from({ length: Math.min(75, total - start) }, (_, i) =>
          adapter.create(ctx, resource(KIND, `pack-${start + i}`, { queries: { q: { query: 'SELECT 1;', interval: 60 } } })),
        ),
      );
    }
    const counting = fetchRequester(emu.url);
    await call(emu, 'DELETE', '/__emulator/requests');
    const all = await adapter.list({ api: counting, log: () => {} }, 'default');
    assert.equal(counting.count, Math.ceil((total + 1) / 1000));
    const routes = (await call(emu, 'GET', '/__emulator/requests')).body.requests.map((r: any) => r.route);
    assert.deepEqual(routes, ['/api/hostquery/packs', '/api/hostquery/packs']);
    assert.equal(all.length, total + 1);
    assert.equal(new Set(all.map((o) => o.serverId)).size, total + 1);
  });
});
