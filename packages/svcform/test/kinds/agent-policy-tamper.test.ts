import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { fetchRequester } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { agentPolicyAdapter } from '../../src/kinds/fleet/agent-policy.js';
import { markElasticDefend, tamperProtectionWarnings } from '../../src/kinds/fleet/tamper-protection.js';
import type { PlanChangeView } from '../../src/kinds/types.js';
import { compareWithLive } from '../../src/engine/compare.js';
import { contextFor } from '../../src/engine/context.js';
import { RunScope } from '../../src/kinds/run-scope.js';
import type { ApiRequest } from '../../src/client/types.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';

/**
 * Tamper protection of AgentPolicy manifests. The server holds `is_protected: true` only with an
 * Elastic Defend (`endpoint`) package policy attached (K-FLEET services/agent_policy.ts create():
 * prepareAsNewSo stores false; update(): policyHasEndpointSecurity, else false), so the adapter
 * reads which policies have one, compares the field only there, and the plan warns where it will
 * not hold after the apply.
 */

const DEFEND = { name: 'endpoint', version: '8.18.1' };

describe('AgentPolicy tamper protection: what the plan reads and what is compared', () => {
  let emu: RunningEmulator;
  const sent: ApiRequest[] = [];
  const context = (run = new RunScope()): AdapterContext => {
    const api = fetchRequester(emu.url);
    return contextFor({ api: { request: (req) => { sent.push(req); return api.request(req); } }, log: () => {}, run }, agentPolicyAdapter);
  };
  const one = async (name: string, ctx = context()) => (await marked(undefined, undefined, ctx)).find((l) => l.name === name)!;
  const equal = (spec: Record<string, any>, live: LiveObject) => compareWithLive(agentPolicyAdapter, resource('AgentPolicy', live.name, spec), live, [], new RunScope()).equal;

  before(async () => {
    emu = await emulator();
    for (const id of ['with-defend', 'without-defend']) await call(emu, 'POST', '/api/fleet/agent_policies', { id, name: id, namespace: 'default' });
    await call(emu, 'POST', '/api/fleet/package_policies', { id: 'the-defend', name: 'the defend', policy_ids: ['with-defend'], package: DEFEND });
    await call(emu, 'POST', '/api/fleet/package_policies', { name: 'some system', policy_ids: ['without-defend'], package: { name: 'system', version: '1.60.0' } });
  });
  after(() => emu.stop());

  const protectedManifest = resource('AgentPolicy', 'without-defend', { name: 'without-defend', namespace: 'default', is_protected: true });
  /** The space's policies as a plan holds them once markElasticDefend has run. */
  const marked = async (resources = [protectedManifest], packagePolicies?: LiveObject[], ctx = context()) => {
    const policies = await agentPolicyAdapter.list(ctx, 'default');
    await markElasticDefend(ctx, resources, (kind) => (kind === 'AgentPolicy' ? policies : packagePolicies));
    return policies;
  };

  it('reads nothing for a run that asks for no tamper protection: the listing stays as it was', async () => {
    sent.length = 0;
    const policies = await marked([resource('AgentPolicy', 'without-defend', { name: 'without-defend', namespace: 'default' })]);
    assert.equal(sent.filter((r) => r.path === '/api/fleet/package_policies').length, 0);
    assert.equal(policies.find((l) => l.name === 'with-defend')!.extra, undefined);
  });

  it('where a manifest asks for it: one listing filtered to Elastic Defend, kept per policy', async () => {
    sent.length = 0;
    const policies = await marked();
    assert.deepEqual(policies.find((l) => l.name === 'with-defend')!.extra, { defend: ['the-defend'] });
    assert.deepEqual(policies.find((l) => l.name === 'without-defend')!.extra, { defend: [] });
    const reads = sent.filter((r) => r.path === '/api/fleet/package_policies');
    assert.equal(reads.length, 1);
    assert.equal(reads[0].query?.kuery, 'ingest-package-policies.package.name:endpoint');
  });

  it("takes them from the plan's own PackagePolicy listing when it has one: no request of its own", async () => {
    sent.length = 0;
    const policies = await marked(undefined, [{ kind: 'PackagePolicy', space: 'default', name: 'the-defend', body: { id: 'the-defend', package: DEFEND, policy_ids: ['with-defend'] } }]);
    assert.deepEqual(policies.find((l) => l.name === 'with-defend')!.extra, { defend: ['the-defend'] });
    assert.equal(sent.filter((r) => r.path === '/api/fleet/package_policies').length, 0);
  });

  it('is_protected: true is compared only where Elastic Defend is attached (elsewhere the server stores false)', async () => {
    const without = await one('without-defend');
    assert.equal(without.body.is_protected, false);
    assert.equal(equal({ name: 'without-defend', namespace: 'default', is_protected: true }, without), true);
    const withDefend = await one('with-defend');
    assert.equal(equal({ name: 'with-defend', namespace: 'default', is_protected: true }, withDefend), false);
    // A value the server does hold is compared as ever.
    await call(emu, 'PUT', '/api/fleet/agent_policies/with-defend', { name: 'with-defend', namespace: 'default', is_protected: true });
    const on = await one('with-defend');
    assert.equal(equal({ name: 'with-defend', namespace: 'default', is_protected: true }, on), true);
    assert.equal(equal({ name: 'with-defend', namespace: 'default' }, on), false);
  });

  it('when Elastic Defend cannot be read, nothing is known: is_protected is compared as written', async () => {
    const api = fetchRequester(emu.url);
    const refusing = contextFor({
      api: { request: (req) => (req.path === '/api/fleet/package_policies' ? Promise.reject(new Error('403 Forbidden')) : api.request(req)) },
      log: () => {},
      run: new RunScope(),
    }, agentPolicyAdapter);
    const live = await one('without-defend', refusing);
    assert.equal(live.extra, undefined);
    assert.equal(equal({ name: 'without-defend', namespace: 'default', is_protected: true }, live), false);
  });
});

describe('tamperProtectionWarnings', () => {
  const policy = (name: string, isProtected = true) => resource('AgentPolicy', name, { name, namespace: 'default', is_protected: isProtected });
  const defendSpec = (policies: string[]) => ({ name: 'd', policy_ids: policies, package: DEFEND });
  const livePolicy = (name: string, defend: string[] | undefined, isProtected = false): LiveObject => ({ kind: 'AgentPolicy', space: 'default', name, body: { id: name, is_protected: isProtected }, extra: defend ? { defend } : {} });
  const ppChange = (action: string, name: string, spec?: Record<string, any>): PlanChangeView => ({ action, kind: 'PackagePolicy', space: 'default', name, ...(spec ? { resource: resource('PackagePolicy', name, spec) } : {}) });
  const warn = (res: ReturnType<typeof policy>, changes: PlanChangeView[], live?: LiveObject) => tamperProtectionWarnings([res], changes, () => live).map((w) => w.message);

  it('a created policy whose Elastic Defend the plan creates: stored false now, set by the next apply', () => {
    const [message] = warn(policy('p'), [{ action: 'create', kind: 'AgentPolicy', space: 'default', name: 'p' }, ppChange('create', 'd', defendSpec(['p']))]);
    assert.match(message, /^is_protected: the create stores false .* the next apply sets it$/);
  });

  it('a created policy without Elastic Defend: the server stores false, attach one or remove the field', () => {
    const [message] = warn(policy('p'), [ppChange('create', 'd', { ...defendSpec(['p']), package: { name: 'system', version: '1.60.0' } })]);
    assert.match(message, /^is_protected is true, but no Elastic Defend integration .* attach one, or remove is_protected$/);
  });

  it('a live policy whose first Elastic Defend the plan attaches (created, or moved onto it): the next apply', () => {
    assert.match(warn(policy('p'), [ppChange('create', 'd', defendSpec(['p']))], livePolicy('p', []))[0], /takes effect at the next apply/);
    assert.match(warn(policy('p'), [ppChange('update', 'd', defendSpec(['q', 'p']))], livePolicy('p', []))[0], /takes effect at the next apply/);
  });

  it('a live policy that keeps its Elastic Defend: nothing to say, whatever else the plan does', () => {
    assert.deepEqual(warn(policy('p'), [], livePolicy('p', ['d'])), []);
    assert.deepEqual(warn(policy('p'), [ppChange('update', 'd', defendSpec(['p', 'q']))], livePolicy('p', ['d'])), []);
    assert.deepEqual(warn(policy('p', false), [], livePolicy('p', [])), [], 'only where the manifest asks for it');
  });

  it('a live policy whose Elastic Defend the plan deletes or moves away: it cannot hold', () => {
    assert.match(warn(policy('p'), [ppChange('delete', 'd')], livePolicy('p', ['d'], true))[0], /no Elastic Defend integration/);
    assert.match(warn(policy('p'), [ppChange('update', 'd', defendSpec(['q']))], livePolicy('p', ['d'], true))[0], /no Elastic Defend integration/);
  });

  it('says nothing where the Elastic Defend policies could not be read', () => {
    assert.deepEqual(warn(policy('p'), [], livePolicy('p', undefined)), []);
  });
});
