import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import { fetchRequester } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { packagePolicyAdapter } from '../../src/kinds/fleet/package-policy.js';
import { deepEqual } from '../../src/kinds/normalize.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { ApiRequest } from '../../src/client/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { contextFor } from '../../src/engine/context.js';
import { RunScope } from '../../src/kinds/run-scope.js';


const SYSTEM = { name: 'system', version: '1.60.0' };

/** Manifests as people write them: only the inputs, streams and vars they care about. */
const MANIFESTS: Record<string, Record<string, any>> = {
  // Two streams configured out of the package's many.
  'web-system': {
    name: 'web system',
    policy_ids: ['web'],
    package: SYSTEM,
    inputs: {
      'system-logfile': {
        streams: {
          'system.auth': { vars: { paths: ['/var/log/auth.log', '/var/log/secure'], tags: ['auth', 'web'] } },
          'system.syslog': { enabled: false },
        },
      },
    },
  },
  'app-logs': {
    name: 'app logs',
    description: 'Application log files',
    namespace: 'prod',
    policy_ids: ['web'],
    package: { name: 'log', version: '2.4.3' },
    inputs: { 'logs-logfile': { streams: { 'log.logs': { vars: { paths: ['/srv/app/*.log'], 'data_stream.dataset': 'app' } } } } },
  },
  'db-endpoint': { name: 'db endpoint', policy_ids: ['db'], package: { name: 'endpoint', version: '8.18.1' } },
  'fleet-hostquery': { name: 'host queries', policy_ids: ['web', 'db'], package: { name: 'hostquery_manager', version: '1.14.0' } },
  'db-metrics': {
    name: 'db metrics',
    policy_ids: ['db'],
    package: SYSTEM,
    inputs: {
      'system-system/metrics': { vars: { 'system.hostfs': '/hostfs' }, streams: { 'system.core': {}, 'system.process': { vars: { 'process.include_top_n.by_cpu': 10 } } } },
      'system-winlog': { enabled: false },
      'system-logfile': { enabled: false },
    },
  },
};

describe('PackagePolicy adapter', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  const sent: ApiRequest[] = [];
  const listLive = (space = 'default') => packagePolicyAdapter.list(ctx, space);
  const liveOne = async (name: string, space = 'default') => (await listLive(space)).find((l) => l.name === name)!;
  const desired = (name: string, spec: Record<string, any>, space = 'default') => packagePolicyAdapter.normalizeDesired(resource('PackagePolicy', name, spec, { space }), ctx.run);
  const converged = (spec: Record<string, any>, live: LiveObject) => deepEqual(desired(live.name, spec, live.space), packagePolicyAdapter.normalizeLive(live, ctx.run));

  before(async () => {
    emu = await emulator({ spaces: ['other', 'bulk'] });
    const api = fetchRequester(emu.url);
    // As the engine runs adapters: every request carries the adapter's area.
    ctx = contextFor({ api: { request: (req) => { sent.push(req); return api.request(req); } }, log: () => {}, run: new RunScope() }, packagePolicyAdapter);
    for (const id of ['web', 'db']) await call(emu, 'POST', '/api/fleet/agent_policies', { id, name: id, namespace: 'default' });
    for (const [name, spec] of Object.entries(MANIFESTS)) await packagePolicyAdapter.create(ctx, resource('PackagePolicy', name, spec));
  });
  after(() => emu.stop());

  it('names its agent policies (the server refuses a missing one), and its package as one the server installs (ordering only)', () => {
    const refs = packagePolicyAdapter.references(resource('PackagePolicy', 'x', MANIFESTS['fleet-hostquery']).spec);
    assert.deepEqual(refs, [
      { kind: 'AgentPolicy', name: 'web', path: ['spec', 'policy_ids', 0], whenMissing: 'refused' },
      { kind: 'AgentPolicy', name: 'db', path: ['spec', 'policy_ids', 1], whenMissing: 'refused' },
      { kind: 'IntegrationPackage', name: 'hostquery_manager', path: ['spec', 'package', 'name'], whenMissing: 'installed' },
    ]);
  });

  it('creates with POST ?format=simplified, the id from metadata.name, idempotent', () => {
    const create = sent.find((r) => r.method === 'POST' && (r.body as any)?.id === 'web-system')!;
    assert.equal(create.path, '/api/fleet/package_policies');
    assert.deepEqual(create.query, { format: 'simplified' });
    assert.equal(create.idempotent, true);
    assert.equal(create.area, 'fleet');
  });

  it('lists with one list request plus one package-info GET per distinct package version', async () => {
    ctx.run = new RunScope(); // a new run: no package info read yet
    const before = sent.length;
    const all = await listLive();
    const requests = sent.slice(before);
    const lists = requests.filter((r) => r.path === '/api/fleet/package_policies');
    assert.equal(lists.length, 1);
    assert.equal(lists[0].query?.format, 'simplified');
    const infos = requests.filter((r) => r.path.startsWith('/api/fleet/epm/packages/')).map((r) => r.path).sort();
    assert.deepEqual(infos, [
      '/api/fleet/epm/packages/endpoint/8.18.1',
      '/api/fleet/epm/packages/hostquery_manager/1.14.0',
      '/api/fleet/epm/packages/log/2.4.3',
      '/api/fleet/epm/packages/system/1.60.0',
    ]);
    assert.equal(all.length, Object.keys(MANIFESTS).length);
    const again = sent.length;
    await listLive();
    assert.equal(sent.slice(again).filter((r) => r.path.startsWith('/api/fleet/epm/')).length, 0, 'package info is cached');
  });

  it('a manifest configuring only two streams converges with the server-expanded policy', async () => {
    const live = await liveOne('web-system');
    assert.ok(Object.keys(live.body.inputs['system-system/metrics'].streams).length > 5, 'the server expanded every stream');
    assert.ok(converged(MANIFESTS['web-system'], live));
  });

  it('normalizes every created manifest equal to its live object', async () => {
    const all = await listLive();
    for (const [name, spec] of Object.entries(MANIFESTS)) {
      const live = all.find((l) => l.name === name);
      assert.ok(live, name);
      assert.deepEqual(desired(name, spec), packagePolicyAdapter.normalizeLive(live, ctx.run), name);
    }
  });

  it('compares the name as the server stores it, trimmed (fleet services/package_policy.ts create and update)', async () => {
    const spec = { name: ' padded name\t', policy_ids: ['db'], package: SYSTEM };
    await packagePolicyAdapter.create(ctx, resource('PackagePolicy', 'padded', spec));
    const live = await liveOne('padded');
    assert.equal(live.body.name, 'padded name');
    assert.ok(converged(spec, live));
    await packagePolicyAdapter.delete(ctx, live);
  });

  it('sorts policy_ids as a set', () => {
    assert.deepEqual(desired('x', MANIFESTS['fleet-hostquery']).policy_ids, ['db', 'web']);
  });

  it('shows a var changed through the API as a difference, named in the manifest or not', async () => {
    const live = await liveOne('web-system');
    const body = structuredClone(live.body);
    body.inputs['system-logfile'].streams['system.auth'].vars.tags = ['changed'];
    const put = await call(emu, 'PUT', '/api/fleet/package_policies/web-system?format=simplified', { name: body.name, policy_ids: body.policy_ids, package: SYSTEM, inputs: body.inputs });
    assert.equal(put.status, 200);
    assert.ok(!converged(MANIFESTS['web-system'], await liveOne('web-system')));
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'web-system', MANIFESTS['web-system']), await liveOne('web-system'), { rotateSecrets: false });
    assert.ok(converged(MANIFESTS['web-system'], await liveOne('web-system')));

    const untouched = structuredClone((await liveOne('web-system')).body);
    untouched.inputs['system-system/metrics'].streams['system.memory'].vars.period = '1m';
    await call(emu, 'PUT', '/api/fleet/package_policies/web-system?format=simplified', { name: untouched.name, policy_ids: untouched.policy_ids, package: SYSTEM, inputs: untouched.inputs });
    const drifted = await liveOne('web-system');
    const a = desired('web-system', MANIFESTS['web-system']);
    const b = packagePolicyAdapter.normalizeLive(drifted, ctx.run);
    assert.equal(a.inputs['system-system/metrics'].streams['system.memory'].vars.period, '10s');
    assert.equal(b.inputs['system-system/metrics'].streams['system.memory'].vars.period, '1m');
  });

  it('update sends PUT ?format=simplified with a simplified body, which carries no version token (wire-facts 15 fact 2), and converges', async () => {
    const live = await liveOne('web-system');
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'web-system', MANIFESTS['web-system']), live, { rotateSecrets: false });
    const put = sent.filter((r) => r.method === 'PUT').pop()!;
    assert.equal(put.path, '/api/fleet/package_policies/web-system');
    assert.deepEqual(put.query, { format: 'simplified' });
    // The emulator refuses a map of inputs together with `version` as the server does, so the PUT
    // having succeeded already shows the body is valid; the keys say it outright.
    assert.equal('version' in (put.body as any), false);
    assert.ok(converged(MANIFESTS['web-system'], await liveOne('web-system')));
  });

  it('update with a changed var sends a body the server schema accepts and converges', async () => {
    const changed = structuredClone(MANIFESTS['web-system']);
    changed.inputs['system-logfile'].streams['system.auth'].vars.paths = ['/var/log/auth.log*'];
    const live = await liveOne('web-system');
    assert.ok(!converged(changed, live));
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'web-system', changed), live, { rotateSecrets: false });
    const put = sent.filter((r) => r.method === 'PUT').pop()!;
    assert.deepEqual(Object.keys(put.body as any).sort(), ['inputs', 'name', 'namespace', 'package', 'policy_ids']);
    assert.ok(converged(changed, await liveOne('web-system')));
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'web-system', MANIFESTS['web-system']), await liveOne('web-system'), { rotateSecrets: false });
    assert.ok(converged(MANIFESTS['web-system'], await liveOne('web-system')));
  });

  it('upgrades the package when the manifest names a new package.version (simplified body: package {name, version})', async () => {
    const old = { name: 'upgrade me', policy_ids: ['web'], package: { name: 'system', version: '1.58.0' }, inputs: { 'system-logfile': { streams: { 'system.auth': { vars: { ignore_older: '24h' } } } } } };
    await packagePolicyAdapter.create(ctx, resource('PackagePolicy', 'upgrade-me', old));
    assert.equal((await liveOne('upgrade-me')).body.package.version, '1.58.0');
    const upgraded = { ...old, package: SYSTEM };
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'upgrade-me', upgraded), await liveOne('upgrade-me'), { rotateSecrets: false });
    assert.deepEqual((sent.filter((r) => r.method === 'PUT').pop()!.body as any).package, SYSTEM);
    const live = await liveOne('upgrade-me');
    assert.equal(live.body.package.version, '1.60.0');
    // 1.60.0 brings a var 1.58.0 did not have; the expansion of the manifest knows it too.
    assert.equal(live.body.inputs['system-logfile'].streams['system.auth'].vars.preserve_original_event, false);
    assert.ok(converged(upgraded, live));
    await packagePolicyAdapter.delete(ctx, live);
  });

  it('update of a manifest without inputs still sends inputs, so inputs changed outside Git go back to the defaults (the server merges a body without inputs)', async () => {
    const live = await liveOne('fleet-hostquery');
    const [inputKey] = Object.keys(live.body.inputs);
    const drifted = await call(emu, 'PUT', '/api/fleet/package_policies/fleet-hostquery?format=simplified', { name: live.body.name, policy_ids: live.body.policy_ids, package: live.body.package, inputs: { [inputKey]: { enabled: false } } });
    assert.equal(drifted.status, 200, JSON.stringify(drifted.body));
    assert.ok(!converged(MANIFESTS['fleet-hostquery'], await liveOne('fleet-hostquery')));
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'fleet-hostquery', MANIFESTS['fleet-hostquery']), await liveOne('fleet-hostquery'), { rotateSecrets: false });
    assert.deepEqual((sent.filter((r) => r.method === 'PUT').pop()!.body as any).inputs, {});
    assert.ok(converged(MANIFESTS['fleet-hostquery'], await liveOne('fleet-hostquery')));
  });

  it('update clears a description and namespace the manifest dropped and moves agent policies', async () => {
    const changed: Record<string, any> = { ...MANIFESTS['app-logs'], policy_ids: ['db', 'web'] };
    delete changed.description;
    delete changed.namespace;
    const live = await liveOne('app-logs');
    assert.ok(!converged(changed, live));
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'app-logs', changed), live, { rotateSecrets: false });
    const after = await liveOne('app-logs');
    assert.ok(converged(changed, after), JSON.stringify(packagePolicyAdapter.normalizeLive(after, ctx.run)));
    assert.equal(after.body.namespace, '');
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'app-logs', MANIFESTS['app-logs']), after, { rotateSecrets: false });
    assert.ok(converged(MANIFESTS['app-logs'], await liveOne('app-logs')));
  });

  it('update replaces the policy when the manifest names another package (the package cannot change)', async () => {
    const swapped = { name: 'db metrics', policy_ids: ['db'], package: { name: 'log', version: '2.4.3' }, inputs: { 'logs-logfile': { streams: { 'log.logs': { vars: { paths: ['/var/lib/db/*.log'] } } } } } };
    const live = await liveOne('db-metrics');
    const before = sent.length;
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'db-metrics', swapped), live, { rotateSecrets: false });
    assert.deepEqual(sent.slice(before).filter((r) => r.path.startsWith('/api/fleet/package_policies')).map((r) => r.method), ['DELETE', 'POST']);
    assert.ok(converged(swapped, await liveOne('db-metrics')));
    await packagePolicyAdapter.update(ctx, resource('PackagePolicy', 'db-metrics', MANIFESTS['db-metrics']), await liveOne('db-metrics'), { rotateSecrets: false });
    assert.ok(converged(MANIFESTS['db-metrics'], await liveOne('db-metrics')));
  });

  it('toSpec gives the smallest manifest that expands back to the live policy', async () => {
    const { spec } = packagePolicyAdapter.toSpec(await liveOne('web-system'), ctx.run);
    assert.deepEqual(spec, MANIFESTS['web-system']);
    assert.deepEqual(packagePolicyAdapter.toSpec(await liveOne('db-endpoint'), ctx.run).spec, MANIFESTS['db-endpoint']);
    for (const live of await listLive()) {
      const exported = packagePolicyAdapter.toSpec(live, ctx.run).spec;
      assert.equal('id' in exported, false);
      assert.ok(converged(exported, live), live.name);
    }
  });

  it('compares the manifest as written while the package version has not been fetched yet', async () => {
    ctx.run = new RunScope(); // a new run: no package info read yet
    const unexpanded = desired('web-system', MANIFESTS['web-system']);
    assert.deepEqual(Object.keys(unexpanded.inputs), ['system-logfile']);
    await listLive();
    assert.ok(Object.keys(desired('web-system', MANIFESTS['web-system']).inputs).length > 1);
  });

  it('marks package policies of hosted agent policies read-only', async () => {
    const res = await call(emu, 'POST', '/api/fleet/package_policies', { id: 'hosted-pp', name: 'hosted pp', policy_ids: ['fleet-server-policy'], package: SYSTEM, force: true });
    assert.equal(res.status, 200);
    const all = await listLive();
    assert.match(all.find((l) => l.name === 'hosted-pp')!.readOnly ?? '', /managed/);
    assert.equal(all.find((l) => l.name === 'web-system')!.readOnly, undefined);
    await call(emu, 'DELETE', '/api/fleet/package_policies/hosted-pp?force=true');
  });

  it('delete removes the policy with DELETE /{id}', async () => {
    await packagePolicyAdapter.delete(ctx, await liveOne('db-endpoint'));
    assert.equal((await listLive()).some((l) => l.name === 'db-endpoint'), false);
    assert.equal(sent.filter((r) => r.method === 'DELETE').pop()!.path, '/api/fleet/package_policies/db-endpoint');
  });

  it('lists 1,001 policies with 2 list requests (perPage 1000) and one package-info GET', async () => {
    await call(emu, 'POST', '/s/bulk/api/fleet/agent_policies', { id: 'bulk-agents', name: 'bulk agents', namespace: 'default' });
    for (let i = 0; i < 1001; i += 77) {
      await Promise.all(Array.from({ length: Math.min(77, 1001 - i) }, (_, j) => call(emu, 'POST', '/s/bulk/api/fleet/package_policies', {
        id: `bulk-${i + j}`,
        name: `bulk ${i + j}`,
        policy_ids: ['bulk-agents'],
        package: { name: 'log', version: '2.4.3' },
        inputs: { 'logs-logfile': { streams: { 'log.logs': { vars: { paths: [`/srv/${i + j}.log`] } } } } },
      })));
    }
    ctx.run = new RunScope(); // a new run: no package info read yet
    const before = sent.length;
    const all = await listLive('bulk');
    const requests = sent.slice(before);
    assert.equal(requests.filter((r) => r.path === '/api/fleet/package_policies').length, 2);
    assert.equal(requests.filter((r) => r.path.startsWith('/api/fleet/epm/')).length, 1);
    assert.equal(new Set(all.map((l) => l.name)).size, 1001);
  });
  it('treats password vars as write-only secrets: never compared, exported as ${env:NAME}, re-sent on update', async () => {
    const spec = {
      name: 'rest api',
      policy_ids: ['web'],
      package: SYSTEM,
      inputs: { 'system-httpjson': { vars: { url: 'https://collector.example.com', username: 'svc', password: 'PP-SECRET-first' } } },
    };
    await packagePolicyAdapter.create(ctx, resource('PackagePolicy', 'rest-api', spec));
    const live = await liveOne('rest-api');
    // The server holds the password; a manifest with another value still compares equal (it cannot be read back).
    const rotated = { ...spec, inputs: { 'system-httpjson': { vars: { ...spec.inputs['system-httpjson'].vars, password: 'PP-SECRET-second' } } } };
    assert.ok(converged(rotated, live));
    assert.equal(packagePolicyAdapter.hasWriteOnly!(resource('PackagePolicy', 'rest-api', rotated), ctx.run), true);
    assert.equal(packagePolicyAdapter.hasWriteOnly!(resource('PackagePolicy', 'web-system', MANIFESTS['web-system']), ctx.run), false);
    const exported = packagePolicyAdapter.toSpec(live, ctx.run);
    assert.ok(!JSON.stringify(exported.spec).includes('PP-SECRET'), JSON.stringify(exported.spec));
    assert.equal(exported.spec.inputs['system-httpjson'].vars.password, '${env:SVCFORM_PACKAGE_POLICY_REST_API_SYSTEM_HTTPJSON_PASSWORD}');
    assert.deepEqual(exported.variables?.map((v) => v.name), ['SVCFORM_PACKAGE_POLICY_REST_API_SYSTEM_HTTPJSON_PASSWORD']);
  });
});
