import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import { adapterContext, fetchRequester, adapterTestServer } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { hostQueryPackAdapter as adapter } from '../../src/kinds/hostquery/pack.js';
import { hostQuerySavedQueryAdapter } from '../../src/kinds/hostquery/saved-query.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import type { HostQueryState } from '@svcform/emulator/areas/hostquery/common.js';
import type { Resource } from '../../src/manifest/types.js';
import { withoutIgnored } from '../../src/engine/diff.js';
import { computePlan } from '../../src/engine/plan.js';
import { applyPlan } from '../../src/engine/apply.js';
import { adapterFor } from '../../src/kinds/registry.js';
import { RunScope } from '../../src/kinds/run-scope.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

const KIND = 'HostQueryPack';

/** The two sides as the engine compares them: fields the listing did not report left out of both. */
function assertConverged(obj: LiveObject, res: Resource, message?: string): void {
  const unreported = adapter.unreported?.(obj) ?? [];
  assert.deepEqual(withoutIgnored(adapter.normalizeLive(obj, RUN), unreported), withoutIgnored(adapter.normalizeDesired(res, RUN), unreported), message);
}

describe('HostQueryPack adapter', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  adapterTestServer(
    (e, c) => {
      emu = e;
      ctx = c;
    },
    { spaces: ['soc'] },
  );

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
      assertConverged(obj, res, res.name);
      // Read whole (as export does), the pack holds the manifest's shards too.
      assert.deepEqual(adapter.normalizeLive(await adapter.complete!(ctx, obj), RUN), adapter.normalizeDesired(res, RUN), res.name);
    }
  });

  it('takes a pack without queries, as the pack route does (ObjectQueries: a record, none required)', async () => {
    const yaml = ['apiVersion: svcform/v1', 'kind: HostQueryPack', 'metadata: {name: filled-later}', 'spec:', '  description: Queries come later.', '  queries: {}', ''].join('\n');
    const validated = await cli(['validate', repo({ 'pack.yaml': yaml })]);
    assert.equal(validated.code, 0, validated.out + validated.err);
    const res = resource('HostQueryPack', 'filled-later', { description: 'Queries come later.', queries: {} });
    await adapter.create(ctx, res);
    const [found] = (await adapter.list(ctx, 'default')).filter((o) => o.name === 'filled-later');
    assert.deepEqual(adapter.normalizeLive(found, RUN), adapter.normalizeDesired(res, RUN));
  });

  it('a query platform the agents do not report is a warning at its line, not an error: the route takes any text (Security_Osquery_API_Platform)', () => {
    const res = resource('HostQueryPack', 'cross-platform', { queries: { users: { query: 'SELECT * FROM users;', platform: 'linux,macos' }, procs: { query: 'SELECT * FROM processes;', platform: 'linux,darwin' } } });
    assert.deepEqual(adapter.check?.(res), [
      { path: ['spec', 'queries', 'users', 'platform'], severity: 'warning', message: 'platform "macos" (did you mean darwin?) is none of linux, darwin, windows, the platforms agents report; the server stores it as written, and the query may run on no host' },
    ]);
  });

  it('an ecs_mapping entry with both field and value, neither, or another key is a warning at its line, not an error: the routes take a partial of field and value (Security_Osquery_API_ECSMappingItem)', async () => {
    const yaml = [
      'apiVersion: svcform/v1',
      'kind: HostQueryPack',
      'metadata: {name: crontab-watch}',
      'spec:',
      '  queries:',
      '    crontab:',
      '      query: SELECT command, path FROM crontab;',
      '      ecs_mapping:',
      '        file.path: {field: path, value: /etc/crontab}',
      '        process.command_line: {}',
      '        event.kind: {vaule: state}',
      '        host.os.type: {value: linux}',
      '',
    ].join('\n');
    const validated = await cli(['validate', repo({ 'pack.yaml': yaml })]);
    assert.equal(validated.code, 0, validated.out + validated.err);
    assert.match(validated.err, /pack\.yaml:9:9: warning: HostQueryPack\/crontab-watch: ecs_mapping "file\.path" gives both field and value: give one; the server stores it as written/);
    assert.match(validated.err, /pack\.yaml:10:9: warning: .*ecs_mapping "process\.command_line" maps nothing: give field \(a result column\) or value \(a static value\)/);
    assert.match(validated.err, /pack\.yaml:11:9: warning: .*ecs_mapping "event\.kind": "vaule" is neither field \(a result column\) nor value \(a static value\)/);
    assert.match(validated.out, /valid \(0 errors, 4 warnings\)/);
    // The emulator takes them as the route does, and the plan after apply is empty.
    const queries = { crontab: { query: 'SELECT command, path FROM crontab;', ecs_mapping: { 'file.path': { field: 'path', value: '/etc/crontab' }, 'process.command_line': {}, 'event.kind': { vaule: 'state' } } } };
    const res = resource('HostQueryPack', 'crontab-watch', { queries });
    await adapter.create(ctx, res);
    assertConverged(await live('crontab-watch'), res);
  });

  it('fills defaults on the desired side and compares policy_ids as a set', () => {
    const n = adapter.normalizeDesired(manifests[0], RUN);
    assert.equal(n.enabled, false);
    assert.deepEqual(n.policy_ids, []);
    assert.deepEqual(n.shards, {});
    assert.deepEqual(n.queries.uptime, { query: 'SELECT * FROM uptime;', interval: 60, snapshot: false, removed: false });
    assert.deepEqual(adapter.normalizeDesired(manifests[1], RUN).policy_ids, ['servers-dev', 'servers-prod']);
    assert.deepEqual(adapter.setFields, ['/policy_ids']);
  });

  it('names agent policies (policy_ids and shard keys) and saved queries as references', () => {
    const res = resource(KIND, 'refs', {
      policy_ids: ['p1'],
      shards: { p2: 10, '*': 5 },
      queries: { a: { query: 'SELECT 1;', interval: 60, saved_query_id: 'sq-a' }, b: { query: 'SELECT 2;', interval: 60 } },
    });
    // policy_ids refused when missing, shards and saved queries accepted (create_pack_route.ts, utils.ts getInitialPolicies, findMatchingShards).
    assert.deepEqual(adapter.references(res.spec).map(({ kind, name, path, whenMissing }) => ({ kind, name, path, whenMissing })), [
      { kind: 'AgentPolicy', name: 'p1', path: ['spec', 'policy_ids', 0], whenMissing: 'refused' },
      { kind: 'AgentPolicy', name: 'p2', path: ['spec', 'shards', 'p2'], whenMissing: 'accepted' },
      { kind: 'HostQuerySavedQuery', name: 'sq-a', path: ['spec', 'queries', 'a', 'saved_query_id'], whenMissing: 'accepted' },
    ]);
  });

  it('a pack referencing a saved query converges although saved_query_id is never returned', async () => {
    const saved = resource('HostQuerySavedQuery', 'open-sockets', { query: 'SELECT * FROM process_open_sockets;', interval: 120 });
    await hostQuerySavedQueryAdapter.create(ctx, saved);
    const res = resource(KIND, 'from-saved', { enabled: true, queries: { sockets: { query: 'SELECT * FROM process_open_sockets;', interval: 120, saved_query_id: 'open-sockets' } } });
    await adapter.create(ctx, res);
    const obj = await live('from-saved');
    assert.equal(obj.body.queries.find((q: any) => q.id === 'sockets').saved_query_id, undefined);
    assertConverged(obj, res);
    await adapter.update(ctx, res, obj, { rotateSecrets: false });
    assertConverged(await live('from-saved'), res);
  });

  it('marks the prebuilt pack read-only', async () => {
    const prebuilt = (await adapter.list(ctx, 'default')).filter((o) => o.readOnly);
    assert.equal(prebuilt.length, 1);
    assert.equal(prebuilt[0].body.read_only, true);
  });

  it('shows a query interval and the enabled flag changed through the API as differences', async () => {
    const res = manifests[1];
    const obj = await live(res.name);
    const whole = (await call(emu, 'GET', `/api/hostquery/packs/${obj.serverId}`)).body.data;
    const changedQueries = { ...whole.queries, processes: { ...whole.queries.processes, interval: 900 } };
    const { description, enabled, policy_ids, shards } = whole;
    const put = await call(emu, 'PUT', `/api/hostquery/packs/${obj.serverId}`, { description, enabled, policy_ids, shards, queries: changedQueries });
    assert.equal(put.status, 200, put.text);
    const drifted = await live(res.name);
    assert.equal(adapter.normalizeLive(drifted, RUN).queries.processes.interval, 900);
    assert.notDeepEqual(adapter.normalizeLive(drifted, RUN), adapter.normalizeDesired(res, RUN));

    const minimal = await live('minimal');
    const minimalWhole = (await call(emu, 'GET', `/api/hostquery/packs/${minimal.serverId}`)).body.data;
    await call(emu, 'PUT', `/api/hostquery/packs/${minimal.serverId}`, { enabled: true, queries: minimalWhole.queries });
    assert.notDeepEqual(adapter.normalizeLive(await live('minimal'), RUN), adapter.normalizeDesired(manifests[0], RUN));
  });

  it('update converges, resetting what the manifest leaves out', async () => {
    for (const res of manifests.slice(0, 2)) {
      await adapter.update(ctx, res, await live(res.name, res.space), { rotateSecrets: false });
      assertConverged(await live(res.name, res.space), res, res.name);
    }
    const smaller = resource(KIND, 'linux-baseline', { enabled: true, policy_ids: ['servers-prod'], queries: { listening: { query: 'SELECT * FROM listening_ports;', interval: 600 } } });
    await adapter.update(ctx, smaller, await live('linux-baseline'), { rotateSecrets: false });
    const after = await adapter.complete!(ctx, await live('linux-baseline'));
    assert.deepEqual(after.body.queries.map((q: any) => q.id), ['listening']);
    assert.deepEqual(after.body.shards, {});
    assert.deepEqual(adapter.normalizeLive(after, RUN), adapter.normalizeDesired(smaller, RUN));
  });

  it('toSpec leaves out server-managed fields and defaults and round-trips', async () => {
    for (const obj of (await adapter.list(ctx, 'default')).concat(await adapter.list(ctx, 'soc'))) {
      const { spec } = adapter.toSpec(obj, RUN);
      for (const managed of ['name', 'saved_object_id', 'created_at', 'read_only', 'version']) assert.equal(spec[managed], undefined);
      const rebuilt = resource(KIND, obj.name, spec, { space: obj.space });
      assert.deepEqual(adapter.normalizeDesired(rebuilt, RUN), adapter.normalizeLive(obj, RUN), obj.name);
    }
    // The listing has no shards; export completes each pack first (complete), and then has them.
    assert.deepEqual(adapter.toSpec(await live('soc-pack', 'soc'), RUN).spec, { queries: { os: { query: 'SELECT * FROM os_version;', interval: 86400 } } });
    assert.deepEqual(adapter.toSpec(await adapter.complete!(ctx, await live('soc-pack', 'soc')), RUN).spec, { shards: { '*': 50 }, queries: { os: { query: 'SELECT * FROM os_version;', interval: 86400 } } });
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
    const ctx: AdapterContext = { api: fetchRequester(emu.url), log: () => {}, run: new RunScope() };
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
    const all = await adapter.list({ api: counting, log: () => {}, run: new RunScope() }, 'default');
    assert.equal(counting.count, Math.ceil((total + 1) / 1000));
    const routes = (await call(emu, 'GET', '/__emulator/requests')).body.requests.map((r: any) => r.route);
    assert.deepEqual(routes, ['/api/hostquery/packs', '/api/hostquery/packs']);
    assert.equal(all.length, total + 1);
    assert.equal(new Set(all.map((o) => o.serverId)).size, total + 1);
  });
});

describe('HostQueryPack adapter and the find reply in stored form (wire-facts §15 fact 3)', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  before(async () => {
    emu = await emulator();
    ctx = adapterContext(emu.url);
  });
  after(() => emu.stop());

  const query = { query: 'SELECT * FROM users;', interval: 600, platform: 'linux', ecs_mapping: { 'user.name': { field: 'username' } } };
  const asMap = { name: 'p', description: 'd', enabled: true, policy_ids: [], shards: { '*': 50 }, queries: { users: query } };
  const asStored = { ...asMap, shards: [{ key: '*', value: 50 }], queries: [{ id: 'users', ...query, ecs_mapping: [{ key: 'user.name', value: { field: 'username' } }] }] };
  const liveOf = (body: Record<string, any>): LiveObject => ({ kind: KIND, space: 'default', name: 'p', serverId: 'x', body });

  it('reads queries, ecs_mapping and shards in either shape, map or stored array, to the same normalized pack', () => {
    assert.deepEqual(adapter.normalizeLive(liveOf(asStored), RUN), adapter.normalizeLive(liveOf(asMap), RUN));
    assert.deepEqual(adapter.normalizeLive(liveOf(asStored), RUN).queries.users.ecs_mapping, { 'user.name': { field: 'username' } });
  });

  it('names shards as unreported only when the listing left them out', () => {
    const { shards: _shards, ...withoutShards } = asStored;
    assert.deepEqual(adapter.unreported!(liveOf(withoutShards)), ['/spec/shards']);
    assert.deepEqual(adapter.unreported!(liveOf(asStored)), []);
    assert.deepEqual(adapter.unreported!(liveOf(asMap)), []);
  });

  async function plan(resources: Resource[]) {
    return computePlan({ resources, manage: [], adapterFor, ctx });
  }

  it('plan after apply is empty, with queries, ecs_mapping and shards, and without a GET per pack', async () => {
    const res = resource(KIND, 'stored-form', { description: 'd', enabled: true, shards: { '*': 50 }, queries: { users: query, uptime: { query: 'SELECT * FROM uptime;', interval: 60, snapshot: false } } });
    const first = await plan([res]);
    assert.deepEqual(first.changes.map((c) => c.action), ['create']);
    assert.equal((await applyPlan(first.changes, { ctx, adapterFor, concurrency: 1 })).done, 1);
    await call(emu, 'DELETE', '/__emulator/requests');
    const second = await plan([res]);
    assert.deepEqual(second.changes, []);
    assert.equal(second.summary.unchanged, 1);
    const routes = (await call(emu, 'GET', '/__emulator/requests')).body.requests.map((r: any) => r.route);
    assert.deepEqual(routes, ['/api/hostquery/packs']);
  });

  it('a pack whose queries have no interval plans empty after apply and exports without one (wire-facts §16 #4)', async () => {
    const res = resource(KIND, 'no-interval', { queries: { uptime: { query: 'SELECT * FROM uptime;' }, os: { query: 'SELECT * FROM os_version;', platform: 'linux' } } });
    const first = await plan([res]);
    assert.deepEqual(first.errors, []);
    assert.equal((await applyPlan(first.changes, { ctx, adapterFor, concurrency: 1 })).done, 1);
    const second = await plan([res]);
    assert.deepEqual(second.changes, []);
    const obj = (await adapter.list(ctx, 'default')).find((o) => o.name === 'no-interval')!;
    assert.deepEqual(adapter.toSpec(await adapter.complete!(ctx, obj), RUN).spec, res.spec);
    // Setting an interval afterwards is a change on that query alone.
    const withInterval = resource(KIND, 'no-interval', { queries: { ...res.spec.queries, uptime: { query: 'SELECT * FROM uptime;', interval: 60 } } });
    assert.deepEqual((await plan([withInterval])).changes.map((c) => c.fields.map((f) => f.pointer)), [['/queries/uptime/interval']]);
  });

  it('an update writes the manifest\'s shards although the plan could not compare them', async () => {
    const changed = resource(KIND, 'stored-form', { description: 'changed', enabled: true, shards: { '*': 20 }, queries: { users: query } });
    const p = await plan([changed]);
    assert.deepEqual(p.changes.map((c) => [c.action, c.fields.map((f) => f.pointer).sort()]), [['update', ['/description', '/queries/uptime']]]);
    await applyPlan(p.changes, { ctx, adapterFor, concurrency: 1 });
    const obj = (await adapter.list(ctx, 'default')).find((o) => o.name === 'stored-form')!;
    assert.deepEqual((await adapter.complete!(ctx, obj)).body.shards, { '*': 20 });
    assert.deepEqual((await plan([changed])).changes, []);
  });
});
