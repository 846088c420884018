import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const AP = '/api/fleet/agent_policies';
const PP = '/api/fleet/package_policies';

/**
 * `has_fleet_server` on create (K-FLEET = x-pack/platform/plugins/shared/fleet/server):
 * - routes/agent_policy/handlers.ts createAgentPolicyHandler takes `has_fleet_server` out of the
 *   body and hands it to createAgentPolicyWithPackages apart, so agentPolicyService.create stores
 *   the policy without it; updateAgentPolicyHandler passes its body on whole, so an update stores it;
 * - services/agent_policies/agent_policy_create.ts createAgentPolicyWithPackages installs
 *   FLEET_SERVER_PACKAGE before the create and then adds a `fleet_server-<n>` package policy to the
 *   new policy (createPackagePolicy); without an id, the policy takes the space's default Fleet
 *   Server policy id only while no policy holds it (getFleetServerAgentPolicyId), and the
 *   preconfigured Fleet Server policy holds it.
 */
describe('Fleet agent policies: has_fleet_server on create', () => {
  let emu: RunningEmulator;
  const attached = async (policyId: string) =>
    (await call(emu, 'GET', `${PP}?kuery=${encodeURIComponent(`ingest-package-policies.policy_ids:${policyId}`)}`)).body.items as Array<Record<string, any>>;

  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  beforeEach(() => call(emu, 'POST', '/__emulator/reset'));

  it('adds a fleet_server integration, installs its package, and stores no flag', async () => {
    const created = await call(emu, 'POST', AP, { id: 'fs', name: 'fs', namespace: 'default', has_fleet_server: true });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.item.has_fleet_server, undefined);
    assert.equal((await call(emu, 'GET', `${AP}/fs`)).body.item.has_fleet_server, undefined);
    const integrations = await attached('fs');
    // No namespace of its own: createPackagePolicy sets none on what buildPackagePolicyFromPackage made.
    assert.deepEqual(integrations.map((p) => [p.name, p.package.name, p.namespace]), [['fleet_server-1', 'fleet_server', '']]);
    assert.equal((await call(emu, 'GET', '/api/fleet/epm/packages/fleet_server')).body.item.installationInfo?.version, '1.2.0');
  });

  it('an update stores the flag', async () => {
    await call(emu, 'POST', AP, { id: 'fs', name: 'fs', namespace: 'default', has_fleet_server: true });
    const updated = await call(emu, 'PUT', `${AP}/fs`, { name: 'fs', namespace: 'default', has_fleet_server: true });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal((await call(emu, 'GET', `${AP}/fs`)).body.item.has_fleet_server, true);
    assert.equal((await attached('fs')).length, 1, 'an update adds no integration');
  });

  it('a second Fleet Server policy gets the next integration name', async () => {
    await call(emu, 'POST', AP, { id: 'one', name: 'one', namespace: 'default', has_fleet_server: true });
    await call(emu, 'POST', AP, { id: 'two', name: 'two', namespace: 'default', has_fleet_server: true });
    assert.deepEqual((await attached('two')).map((p) => p.name), ['fleet_server-2']);
  });

  it('without an id, takes a generated one while the default Fleet Server policy exists', async () => {
    const created = await call(emu, 'POST', AP, { name: 'no id', namespace: 'default', has_fleet_server: true });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.notEqual(created.body.item.id, 'fleet-server-policy');
    assert.notEqual(created.body.item.is_default_fleet_server, true);
  });

  it('a policy without the flag gets no integration', async () => {
    await call(emu, 'POST', AP, { id: 'plain', name: 'plain', namespace: 'default' });
    assert.deepEqual(await attached('plain'), []);
  });
});
