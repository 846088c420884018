import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import { adapterContext, fetchRequester, adapterTestServer } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { hostQuerySavedQueryAdapter as adapter } from '../../src/kinds/hostquery/saved-query.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import type { RealRoute } from '@svcform/emulator/context.js';
import { computePlan } from '../../src/engine/plan.js';
import { applyPlan } from '../../src/engine/apply.js';
import { adapterFor } from '../../src/kinds/registry.js';
import { RunScope } from '../../src/kinds/run-scope.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

const KIND = 'HostQuerySavedQuery';

describe('HostQuerySavedQuery adapter', () => {
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
    assert.equal(found.length, 1, `one live saved query named ${name}`);
    return found[0];
  }

  const manifests = [
    resource(KIND, 'minimal', { query: 'SELECT * FROM uptime;', interval: 60 }),
    resource(KIND, 'string-interval', { query: 'SELECT * FROM users;', interval: '3600', description: '  Local users  ' }),
    resource(KIND, 'full', {
      query: 'SELECT pid, name, path FROM processes;',
      interval: 300,
      description: 'Running processes',
      platform: 'windows,linux, darwin',
      version: '5.10.2',
      timeout: 120,
      snapshot: false,
      removed: true,
      ecs_mapping: { 'process.pid': { field: 'pid' }, 'process.name': { field: 'name' }, 'event.category': { value: ['process'] } },
    }),
    resource(KIND, 'in-soc', { query: 'SELECT * FROM os_version;', interval: 86400, platform: 'linux' }, { space: 'soc' }),
  ];

  it('creates manifests that omit defaults and lists them equal to the desired state', async () => {
    for (const res of manifests) {
      await adapter.create(ctx, res);
      const obj = await live(res.name, res.space);
      assert.equal(obj.kind, KIND);
      assert.equal(obj.readOnly, undefined);
      assert.match(obj.serverId ?? '', /^[0-9a-f-]{36}$/);
      assert.deepEqual(adapter.normalizeLive(obj, RUN), adapter.normalizeDesired(res, RUN), res.name);
    }
  });

  it('takes an empty version and any platform text, as the route does (Security_Osquery_API_Version and Platform: strings); an unknown platform is a warning', async () => {
    const yaml = ['apiVersion: svcform/v1', `kind: ${KIND}`, 'metadata: {name: posix-users}', 'spec:', "  query: 'SELECT * FROM users;'", '  interval: 3600', "  version: ''", "  platform: 'linux, macos'", ''].join('\n');
    const validated = await cli(['validate', repo({ 'q.yaml': yaml })]);
    assert.equal(validated.code, 0, validated.out + validated.err);
    assert.match(validated.err, /warning: .*platform "macos" \(did you mean darwin\?\) is none of linux, darwin, windows/);
    assert.match(validated.out, /valid \(0 errors, 1 warnings?\)/);
    const res = resource(KIND, 'posix-users', { query: 'SELECT * FROM users;', interval: 3600, version: '', platform: 'linux, macos' });
    await adapter.create(ctx, res);
    assert.deepEqual(adapter.normalizeLive(await live('posix-users'), RUN), adapter.normalizeDesired(res, RUN));
  });

  it('an ecs_mapping entry with neither field nor value is a warning, not an error: the route takes a partial of the two (Security_Osquery_API_ECSMappingItem)', () => {
    const res = resource(KIND, 'logged-in', { query: 'SELECT * FROM logged_in_users;', interval: 60, ecs_mapping: { 'user.name': { field: 'user' }, 'event.kind': {} } });
    assert.deepEqual(adapter.check?.(res), [
      { path: ['spec', 'ecs_mapping', 'event.kind'], severity: 'warning', message: 'ecs_mapping "event.kind" maps nothing: give field (a result column) or value (a static value); the server stores it as written' },
    ]);
  });

  it('normalizes interval as an integer, platform as a sorted set and description trimmed', () => {
    const n = adapter.normalizeDesired(manifests[2], RUN);
    assert.equal(n.interval, 300);
    assert.equal(n.platform, 'darwin,linux,windows');
    assert.equal(adapter.normalizeDesired(manifests[1], RUN).description, 'Local users');
    assert.equal(adapter.normalizeDesired(manifests[1], RUN).interval, 3600);
  });

  it('marks the prebuilt saved queries read-only', async () => {
    const prebuilt = (await adapter.list(ctx, 'default')).filter((o) => o.readOnly);
    assert.ok(prebuilt.length > 0);
    assert.ok(prebuilt.every((o) => o.body.prebuilt === true));
  });

  it('shows an interval changed through the API as a difference', async () => {
    const res = manifests[0];
    const obj = await live(res.name);
    const put = await call(emu, 'PUT', `/api/hostquery/saved_queries/${obj.serverId}`, { new_id: res.name, query: obj.body.query, interval: '120' });
    assert.equal(put.status, 200);
    const changed = await live(res.name);
    assert.notDeepEqual(adapter.normalizeLive(changed, RUN), adapter.normalizeDesired(res, RUN));
    assert.equal(adapter.normalizeLive(changed, RUN).interval, 120);
  });

  it('update converges, also when the manifest drops optional fields (replace semantics)', async () => {
    await adapter.update(ctx, manifests[0], await live(manifests[0].name), { rotateSecrets: false });
    assert.deepEqual(adapter.normalizeLive(await live(manifests[0].name), RUN), adapter.normalizeDesired(manifests[0], RUN));

    const trimmed = resource(KIND, 'full', { query: 'SELECT pid FROM processes;', interval: '600', platform: 'linux' });
    const before = await live('full');
    await adapter.update(ctx, trimmed, before, { rotateSecrets: false });
    const after = await live('full');
    assert.equal(after.serverId, before.serverId);
    assert.equal(after.body.description, undefined);
    assert.equal(after.body.ecs_mapping, undefined);
    assert.deepEqual(adapter.normalizeLive(after, RUN), adapter.normalizeDesired(trimmed, RUN));
  });

  it('toSpec leaves out server-managed fields and defaults and round-trips', async () => {
    for (const res of manifests) {
      const obj = await live(res.name, res.space);
      const { spec } = adapter.toSpec(obj, RUN);
      for (const managed of ['id', 'saved_object_id', 'created_at', 'updated_by', 'prebuilt']) assert.equal(spec[managed], undefined);
      assert.equal(typeof spec.interval, 'number');
      const rebuilt = resource(KIND, obj.name, spec, { space: obj.space });
      assert.deepEqual(adapter.normalizeDesired(rebuilt, RUN), adapter.normalizeLive(obj, RUN), res.name);
    }
    const minimal = adapter.toSpec(await live('minimal'), RUN).spec;
    assert.deepEqual(minimal, { query: 'SELECT * FROM uptime;', interval: 60 });
  });

  it('delete removes the saved query', async () => {
    const obj = await live('string-interval');
    await adapter.delete(ctx, obj);
    assert.equal((await adapter.list(ctx, 'default')).some((o) => o.name === 'string-interval'), false);
  });

  it('has no references', () => {
    assert.deepEqual(adapter.references(manifests[2].spec), []);
  });
});

describe('HostQuerySavedQuery adapter listing', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('lists 1,200 saved queries (plus the prebuilt ones) in 2 find requests of 1000', async () => {
    const seeding = fetchRequester(emu.url);
    const ctx: AdapterContext = { api: seeding, log: () => {}, run: new RunScope() };
    const total = 1200;
    for (let start = 0; start < total; start += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, total - start) }, (_, i) =>
          adapter.create(ctx, resource(KIND, `q-${String(start + i).padStart(4, '0')}`, { query: 'SELECT 1;', interval: 60 })),
        ),
      );
    }
    const counting = fetchRequester(emu.url);
    await call(emu, 'DELETE', '/__emulator/requests');
    const all = await adapter.list({ api: counting, log: () => {}, run: new RunScope() }, 'default');
    assert.equal(counting.count, 2);
    const log = (await call(emu, 'GET', '/__emulator/requests')).body.requests;
    assert.deepEqual(log.map((r: any) => r.route), ['/api/hostquery/saved_queries', '/api/hostquery/saved_queries']);
    assert.ok(log.every((r: any) => r.query.includes('pageSize=1000')));
    const names = all.filter((o) => !o.readOnly).map((o) => o.name);
    assert.equal(names.length, total);
    assert.equal(new Set(names).size, total);
  });
});

// The same scenario against both update behaviours: service-api.md ("update always needs new_id and
// replaces", the emulator's default) and the real route (wire-facts §15 fact 5: name in `id`,
// partial update, description "" when omitted), switched on with realRoutes.
for (const [label, realRoutes] of [['document', []], ['real', ['saved-query-update']]] as Array<[string, RealRoute[]]>) {
  describe(`HostQuerySavedQuery adapter converges against the ${label} update behaviour`, () => {
    let emu: RunningEmulator;
    let ctx: AdapterContext;
    before(async () => {
      emu = await emulator({ realRoutes });
      ctx = adapterContext(emu.url);
    });
    after(() => emu.stop());

    async function applyAndReplan(spec: Record<string, any>, expected: string): Promise<Record<string, any>> {
      const res = resource(KIND, 'converging', spec);
      const planned = await computePlan({ resources: [res], manage: [], adapterFor, ctx });
      assert.deepEqual(planned.changes.map((c) => c.action), [expected]);
      const report = await applyPlan(planned.changes, { ctx, adapterFor, concurrency: 1 });
      assert.equal(report.done, 1);
      const again = await computePlan({ resources: [res], manage: [], adapterFor, ctx });
      assert.deepEqual(again.changes.map((c) => [c.action, c.fields.map((f) => f.pointer)]), [], 'plan after apply is empty');
      const listed = (await adapter.list(ctx, 'default')).find((o) => o.name === 'converging')!;
      return (await call(emu, 'GET', `/api/hostquery/saved_queries/${listed.serverId}`)).body.data;
    }

    const full = {
      query: 'SELECT * FROM users;',
      interval: 3600,
      description: 'Local users',
      platform: 'linux,darwin',
      version: '5.0.0',
      timeout: 120,
      ecs_mapping: { 'user.name': { field: 'username' } },
    };

    it('create, then plan is empty', async () => {
      await applyAndReplan(full, 'create');
    });

    it('a changed query is updated, then plan is empty', async () => {
      const stored = await applyAndReplan({ ...full, query: 'SELECT uid, username FROM users;' }, 'update');
      assert.equal(stored.query, 'SELECT uid, username FROM users;');
      assert.equal(stored.description, 'Local users');
    });

    it('description, platform, version, ecs_mapping and timeout dropped from the manifest are cleared on the server, then plan is empty', async () => {
      const stored = await applyAndReplan({ query: 'SELECT uid, username FROM users;', interval: 3600 }, 'update');
      for (const field of ['description', 'platform', 'version']) assert.ok(!stored[field], `${field}: ${JSON.stringify(stored[field])}`);
      assert.deepEqual(stored.ecs_mapping ?? {}, {});
      assert.equal(stored.timeout, 60);
    });
  });
}
