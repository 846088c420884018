import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const AP = '/api/fleet/agent_policies';
const AGENT_PACKAGE = '/api/fleet/epm/packages/elastic_agent';

/**
 * The agents' own package, installed by Fleet itself (K-FLEET = x-pack/platform/plugins/shared/fleet/server):
 * - services/agent_policies/agent_policy_create.ts createAgentPolicyWithPackages adds
 *   FLEET_ELASTIC_AGENT_PACKAGE to the packages it installs (bulkInstallPackages, the registry's
 *   latest unless that version or a later one is installed) when `monitoring_enabled` is not empty,
 *   before agentPolicyService.create;
 * - services/agent_policy.ts update() does the same when `!existingAgentPolicy.monitoring_enabled &&
 *   monitoringEnabled?.length`: only for a policy that never had the field, an empty list included.
 */
describe('Fleet agent policies: monitoring installs the elastic_agent package', () => {
  let emu: RunningEmulator;
  const installed = async () => (await call(emu, 'GET', AGENT_PACKAGE)).body.item.installationInfo?.version;
  const write = async (method: 'POST' | 'PUT', path: string, body: Record<string, unknown>) => {
    const res = await call(emu, method, path, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  beforeEach(() => call(emu, 'POST', '/__emulator/reset'));

  it('a policy created with monitoring installs the latest elastic_agent; one without does not', async () => {
    await write('POST', AP, { id: 'plain', name: 'plain', namespace: 'default' });
    assert.equal(await installed(), undefined);
    await write('POST', AP, { id: 'watched', name: 'watched', namespace: 'default', monitoring_enabled: ['logs'] });
    assert.equal(await installed(), '1.20.0');
  });

  it('an empty monitoring list installs nothing', async () => {
    await write('POST', AP, { id: 'empty', name: 'empty', namespace: 'default', monitoring_enabled: [] });
    assert.equal(await installed(), undefined);
  });

  it('an update that switches monitoring on for a policy without the field installs it', async () => {
    await write('POST', AP, { id: 'later', name: 'later', namespace: 'default' });
    await write('PUT', `${AP}/later`, { name: 'later', namespace: 'default', monitoring_enabled: ['metrics'] });
    assert.equal(await installed(), '1.20.0');
  });

  it('an update of a policy that had an empty list installs nothing (the server tests the field, not its length)', async () => {
    await write('POST', AP, { id: 'had-empty', name: 'had-empty', namespace: 'default', monitoring_enabled: [] });
    await write('PUT', `${AP}/had-empty`, { name: 'had-empty', namespace: 'default', monitoring_enabled: ['logs', 'metrics'] });
    assert.equal(await installed(), undefined);
  });
});
