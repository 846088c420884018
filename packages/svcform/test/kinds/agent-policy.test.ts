import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import { fetchRequester } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { agentPolicyAdapter } from '../../src/kinds/fleet/agent-policy.js';
import { deepEqual } from '../../src/kinds/normalize.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { ApiRequest } from '../../src/client/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { contextFor } from '../../src/engine/context.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

/** Manifests as people write them: server defaults left out. */
const MANIFESTS: Record<string, Record<string, any>> = {
  'linux-servers': { name: 'Linux servers', namespace: 'default' },
  'windows-workstations': {
    name: 'Windows workstations',
    namespace: 'corp',
    description: 'Laptops and desktops',
    monitoring_enabled: ['metrics', 'logs'],
    inactivity_timeout: 3600,
    unenroll_timeout: 86400,
    global_data_tags: [{ name: 'team', value: 'soc' }, { name: 'cost_center', value: 42 }],
    agent_features: [{ name: 'fqdn', enabled: true }],
  },
  'dmz-sensors': {
    name: 'DMZ sensors',
    namespace: 'dmz',
    monitoring_enabled: [],
    data_output_id: 'dmz-output',
    monitoring_http: { enabled: true },
    advanced_settings: { agent_logging_level: 'debug' },
    required_versions: [{ version: '9.4.0', percentage: 25 }],
  },
  'k8s-nodes': { name: 'Kubernetes nodes', namespace: 'k8s', sys_monitoring: true, monitoring_enabled: ['logs', 'metrics', 'traces'] },
};

describe('AgentPolicy adapter', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  const sent: ApiRequest[] = [];
  const listLive = (space = 'default') => agentPolicyAdapter.list(ctx, space);
  const liveOne = async (name: string, space = 'default') => (await listLive(space)).find((l) => l.name === name)!;
  const converged = (spec: Record<string, any>, live: LiveObject, space = 'default') =>
    deepEqual(agentPolicyAdapter.normalizeDesired(resource('AgentPolicy', live.name, spec, { space }), RUN), agentPolicyAdapter.normalizeLive(live, RUN));

  before(async () => {
    emu = await emulator({ spaces: ['other', 'bulk'] });
    const api = fetchRequester(emu.url);
    // As the engine runs adapters: every request carries the adapter's area.
    ctx = contextFor({ api: { request: (req) => { sent.push(req); return api.request(req); } }, log: () => {}, run: new RunScope() }, agentPolicyAdapter);
    for (const [name, spec] of Object.entries(MANIFESTS)) await agentPolicyAdapter.create(ctx, resource('AgentPolicy', name, spec));
  });
  after(() => emu.stop());

  it('creates with POST, the id from metadata.name, idempotent, sys_monitoring as the query flag only', async () => {
    const creates = sent.filter((r) => r.method === 'POST' && r.path === '/api/fleet/agent_policies');
    const k8s = creates.find((r) => (r.body as any).id === 'k8s-nodes')!;
    assert.equal(k8s.idempotent, true);
    assert.equal(k8s.area, 'fleet');
    assert.deepEqual(k8s.query, { sys_monitoring: true });
    assert.equal('sys_monitoring' in (k8s.body as any), false);
    const plain = creates.find((r) => (r.body as any).id === 'linux-servers')!;
    assert.equal(plain.query, undefined);
    const pps = await call(emu, 'GET', `/api/fleet/package_policies?kuery=${encodeURIComponent('policy_ids:k8s-nodes')}`);
    assert.equal(pps.body.items[0].package.name, 'system');
  });

  it('normalizes every created manifest equal to its live object', async () => {
    const all = await listLive();
    for (const [name, spec] of Object.entries(MANIFESTS)) {
      const live = all.find((l) => l.name === name);
      assert.ok(live, name);
      assert.deepEqual(agentPolicyAdapter.normalizeDesired(resource('AgentPolicy', name, spec), RUN), agentPolicyAdapter.normalizeLive(live, RUN), name);
    }
  });

  it('drops response-only fields and sorts set-like arrays', async () => {
    const live = await liveOne('windows-workstations');
    const normalized = agentPolicyAdapter.normalizeLive(live, RUN);
    for (const field of ['id', 'revision', 'status', 'updated_at', 'updated_by', 'agents', 'unprivileged_agents', 'version', 'is_preconfigured', 'schema_version', 'space_ids', 'is_managed', 'is_protected', 'supports_agentless']) {
      assert.equal(field in normalized, false, field);
    }
    assert.deepEqual(normalized.monitoring_enabled, ['logs', 'metrics']);
    assert.deepEqual(normalized.global_data_tags.map((t: any) => t.name), ['cost_center', 'team']);
  });

  it('marks the preconfigured Fleet Server policy and hosted policies read-only', async () => {
    await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'hosted-one', name: 'Hosted one', namespace: 'default', is_managed: true });
    const all = await listLive();
    assert.match(all.find((l) => l.name === 'fleet-server-policy')!.readOnly ?? '', /preconfigured/);
    assert.match(all.find((l) => l.name === 'hosted-one')!.readOnly ?? '', /managed/);
    assert.equal(all.find((l) => l.name === 'linux-servers')!.readOnly, undefined);
    await call(emu, 'POST', '/api/fleet/agent_policies/delete', { agentPolicyId: 'hosted-one', force: true });
  });

  it('shows a change made directly through the API as a difference', async () => {
    const before = await liveOne('linux-servers');
    await call(emu, 'PUT', '/api/fleet/agent_policies/linux-servers', { name: 'Linux servers', namespace: 'default', description: 'changed by hand' });
    const after = await liveOne('linux-servers');
    assert.ok(converged(MANIFESTS['linux-servers'], before));
    assert.ok(!converged(MANIFESTS['linux-servers'], after));
  });

  it('update converges, including the inactivity_timeout reset and a description removed from the manifest', async () => {
    const live = await liveOne('linux-servers');
    await agentPolicyAdapter.update(ctx, resource('AgentPolicy', 'linux-servers', MANIFESTS['linux-servers']), live, { rotateSecrets: false });
    assert.ok(converged(MANIFESTS['linux-servers'], await liveOne('linux-servers')));
    const put = sent.filter((r) => r.method === 'PUT').pop()!;
    assert.equal(put.path, '/api/fleet/agent_policies/linux-servers');
    assert.equal((put.body as any).inactivity_timeout, 1209600);
  });

  it('update clears fields the manifest no longer sets, since PUT merges (wire-facts 5.3)', async () => {
    const trimmed = { name: 'Windows workstations', namespace: 'corp' };
    const live = await liveOne('windows-workstations');
    assert.ok(!converged(trimmed, live));
    await agentPolicyAdapter.update(ctx, resource('AgentPolicy', 'windows-workstations', trimmed), live, { rotateSecrets: false });
    const body = sent.filter((r) => r.method === 'PUT').pop()!.body as any;
    assert.deepEqual(body.global_data_tags, []);
    assert.deepEqual(body.agent_features, [{ name: 'fqdn', enabled: false }]);
    assert.equal(body.unenroll_timeout, 0);
    assert.equal(body.description, '');
    const after = await liveOne('windows-workstations');
    assert.ok(converged(trimmed, after), JSON.stringify(agentPolicyAdapter.normalizeLive(after, RUN)));
    // And back: the full manifest converges again.
    await agentPolicyAdapter.update(ctx, resource('AgentPolicy', 'windows-workstations', MANIFESTS['windows-workstations']), after, { rotateSecrets: false });
    assert.ok(converged(MANIFESTS['windows-workstations'], await liveOne('windows-workstations')));
  });

  it('update clears null-able ids, objects and versions the manifest dropped', async () => {
    const trimmed = { name: 'DMZ sensors', namespace: 'dmz', monitoring_enabled: [] };
    const live = await liveOne('dmz-sensors');
    await agentPolicyAdapter.update(ctx, resource('AgentPolicy', 'dmz-sensors', trimmed), live, { rotateSecrets: false });
    const body = sent.filter((r) => r.method === 'PUT').pop()!.body as any;
    assert.equal(body.data_output_id, null);
    assert.deepEqual(body.required_versions, []);
    assert.deepEqual(body.advanced_settings, {});
    assert.ok(converged(trimmed, await liveOne('dmz-sensors')));
    await agentPolicyAdapter.update(ctx, resource('AgentPolicy', 'dmz-sensors', MANIFESTS['dmz-sensors']), await liveOne('dmz-sensors'), { rotateSecrets: false });
    assert.ok(converged(MANIFESTS['dmz-sensors'], await liveOne('dmz-sensors')));
  });

  it('reads a policy without monitoring_enabled as not monitored (wire-facts 15 fact 8: no server default on create)', async () => {
    // Made outside Git without the field: the server stores none, and the agent is not monitored.
    assert.equal((await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'made-by-hand', name: 'Made by hand', namespace: 'default' })).status, 200);
    const live = await liveOne('made-by-hand');
    assert.equal('monitoring_enabled' in live.body, false);
    assert.deepEqual(agentPolicyAdapter.normalizeLive(live, RUN).monitoring_enabled, []);
    assert.ok(converged({ name: 'Made by hand', namespace: 'default' }, live), 'a manifest without the field: nothing to plan');
    assert.ok(!converged({ name: 'Made by hand', namespace: 'default', monitoring_enabled: ['logs', 'metrics'] }, live), 'a manifest asking for monitoring: a difference');
    assert.equal('monitoring_enabled' in agentPolicyAdapter.toSpec(live, RUN).spec, false);
    await call(emu, 'POST', '/api/fleet/agent_policies/delete', { agentPolicyId: 'made-by-hand' });
  });

  it('sends monitoring_enabled: [] for a manifest without it, so an update switches monitoring off', async () => {
    const create = sent.find((r) => r.method === 'POST' && (r.body as any)?.id === 'linux-servers')!;
    assert.deepEqual((create.body as any).monitoring_enabled, []);
    const monitored = { name: 'Linux servers', namespace: 'default', monitoring_enabled: ['logs'] };
    await agentPolicyAdapter.update(ctx, resource('AgentPolicy', 'linux-servers', monitored), await liveOne('linux-servers'), { rotateSecrets: false });
    assert.deepEqual((await liveOne('linux-servers')).body.monitoring_enabled, ['logs']);
    await agentPolicyAdapter.update(ctx, resource('AgentPolicy', 'linux-servers', MANIFESTS['linux-servers']), await liveOne('linux-servers'), { rotateSecrets: false });
    assert.deepEqual((await liveOne('linux-servers')).body.monitoring_enabled, []);
    assert.ok(converged(MANIFESTS['linux-servers'], await liveOne('linux-servers')));
  });

  it('toSpec leaves out server-managed fields and defaults and round-trips', async () => {
    for (const live of await listLive()) {
      const { spec } = agentPolicyAdapter.toSpec(live, RUN);
      assert.equal('id' in spec, false);
      assert.ok(converged(spec, live), live.name);
    }
    const { spec } = agentPolicyAdapter.toSpec(await liveOne('linux-servers'), RUN);
    assert.deepEqual(spec, { name: 'Linux servers', namespace: 'default' });
    assert.deepEqual(Object.keys(agentPolicyAdapter.toSpec(await liveOne('dmz-sensors'), RUN).spec).slice(0, 2), ['name', 'namespace']);
  });

  // The server works these out from the policy's package policies on every update and package
  // policy change, whatever a body said (K-FLEET services/agent_policy.ts update(), bumpRevision(),
  // computeMinAgentVersionData), in its own item shape {name, title, version_condition}.
  it('neither compares, sends nor exports the agent version fields the server computes, and warns where a manifest sets one', async () => {
    const computed = { has_agent_version_conditions: true, min_agent_version: '9.3.0', package_agent_version_conditions: [{ name: 'doors', title: 'Door sensors', version_condition: '^9.3.0' }] };
    const live = await liveOne('linux-servers');
    const filled: LiveObject = { ...live, body: { ...live.body, ...computed } };
    assert.ok(converged(MANIFESTS['linux-servers'], filled), 'what the server filled is no difference');
    const declared = { ...MANIFESTS['linux-servers'], has_agent_version_conditions: false, min_agent_version: '8.0.0', package_agent_version_conditions: [{ packageName: 'doors', versionCondition: '^8.0.0' }] };
    assert.ok(converged(declared, filled), 'nor what a manifest says of them');
    assert.deepEqual(agentPolicyAdapter.check!(resource('AgentPolicy', 'linux-servers', declared)).map((i) => [i.path.join('.'), i.severity]), Object.keys(computed).map((k) => [`spec.${k}`, 'warning']));
    assert.deepEqual(agentPolicyAdapter.check!(resource('AgentPolicy', 'linux-servers', MANIFESTS['linux-servers'])), []);
    for (const k of Object.keys(computed)) assert.equal(k in agentPolicyAdapter.toSpec(filled, RUN).spec, false, `export: ${k}`);
    await agentPolicyAdapter.update(ctx, resource('AgentPolicy', 'linux-servers', declared), filled, { rotateSecrets: false });
    const put = sent.filter((r) => r.method === 'PUT').pop()!.body as any;
    for (const k of Object.keys(computed)) assert.equal(k in put, false, `update: ${k}`);
    await agentPolicyAdapter.create(ctx, resource('AgentPolicy', 'with-computed', { name: 'With computed', namespace: 'default', ...computed }));
    const post = sent.filter((r) => r.method === 'POST' && (r.body as any)?.id === 'with-computed').pop()!.body as any;
    for (const k of Object.keys(computed)) assert.equal(k in post, false, `create: ${k}`);
    await agentPolicyAdapter.delete(ctx, await liveOne('with-computed'));
  });

  it('warns at supports_agentless: self-managed servers refuse it, and cloud stores the policy as hosted, which svcform reads as read-only (K-FLEET agent_policy.ts checkAgentless, create)', async () => {
    const spec = { name: 'Agentless by hand', namespace: 'default', supports_agentless: true };
    const issues = agentPolicyAdapter.check!(resource('AgentPolicy', 'agentless-by-hand', spec));
    assert.deepEqual(issues.map((i) => [i.path.join('.'), i.severity]), [['spec.supports_agentless', 'warning']]);
    assert.match(issues[0].message, /declare an AgentlessPolicy/);
    assert.deepEqual(agentPolicyAdapter.check!(resource('AgentPolicy', 'not-agentless', { ...spec, supports_agentless: false })), []);
    // What the warning says, against the emulator: refused here (self-managed), hosted and read-only on cloud.
    await assert.rejects(agentPolicyAdapter.create(ctx, resource('AgentPolicy', 'agentless-by-hand', spec)), /supports_agentless is only allowed/);
    emu.context.settings.selfManaged = false;
    try {
      await agentPolicyAdapter.create(ctx, resource('AgentPolicy', 'agentless-by-hand', spec));
      assert.match((await liveOne('agentless-by-hand')).readOnly ?? '', /managed \(hosted\)/);
      await call(emu, 'POST', '/api/fleet/agent_policies/delete', { agentPolicyId: 'agentless-by-hand', force: true });
    } finally {
      emu.context.settings.selfManaged = true;
    }
  });

  it('works in another space', async () => {
    const spec = { name: 'Other space policy', namespace: 'default' };
    await agentPolicyAdapter.create(ctx, resource('AgentPolicy', 'elsewhere', spec, { space: 'other' }));
    const live = (await listLive('other')).find((l) => l.name === 'elsewhere')!;
    assert.equal(live.space, 'other');
    assert.ok(converged(spec, live, 'other'));
    assert.equal((await listLive()).some((l) => l.name === 'elsewhere'), false);
  });

  it('delete removes the policy with POST /delete', async () => {
    await agentPolicyAdapter.delete(ctx, await liveOne('elsewhere', 'other'));
    assert.equal((await listLive('other')).some((l) => l.name === 'elsewhere'), false);
    const del = sent.filter((r) => r.path === '/api/fleet/agent_policies/delete').pop()!;
    assert.deepEqual(del.body, { agentPolicyId: 'elsewhere' });
  });

  it('lists 1,500 policies with 2 list requests (perPage 1000)', async () => {
    for (let i = 0; i < 1500; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => call(emu, 'POST', '/s/bulk/api/fleet/agent_policies', { id: `bulk-${i + j}`, name: `Bulk ${i + j}`, namespace: 'default' })));
    }
    const before = sent.length;
    const all = await listLive('bulk');
    const lists = sent.slice(before).filter((r) => r.method === 'GET' && r.path === '/api/fleet/agent_policies');
    assert.equal(lists.length, 2);
    assert.ok(lists.every((r) => r.query?.perPage === 1000));
    assert.equal(all.length, 1501, '1,500 plus the preconfigured policy');
    assert.equal(new Set(all.map((l) => l.name)).size, 1501, 'no page overlaps another');
  });
});
