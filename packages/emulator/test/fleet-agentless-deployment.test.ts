import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const AGENTLESS = '/api/fleet/agentless_policies';
const body = { id: 'okta-logs', name: 'okta-logs', package: { name: 'okta', version: '3.1.0' } };

/**
 * The deployment type: service-api.md Fleet policies ("Agentless calls are rejected with HTTP 400
 * on self-managed deployments") and Errors ("Agentless policy on self-managed deployment | 400");
 * the routes are the OAS's post-fleet-agentless-policies and delete-fleet-agentless-policies-policyid.
 */
describe('emulator: deployment type (agentless Fleet policies)', () => {
  let selfManaged: RunningEmulator;
  let cloud: RunningEmulator;
  before(async () => {
    selfManaged = await emulator();
    cloud = await emulator({ deployment: 'cloud' });
  });
  after(async () => {
    await selfManaged.stop();
    await cloud.stop();
  });

  it('self-managed, the default, answers 400 to both agentless routes and stores nothing', async () => {
    const created = await call(selfManaged, 'POST', AGENTLESS, body);
    assert.equal(created.status, 400, created.text);
    assert.match(created.body.message, /not on self-managed deployments/);
    assert.equal((await call(selfManaged, 'DELETE', `${AGENTLESS}/okta-logs`)).status, 400);
    assert.equal((await call(selfManaged, 'GET', '/api/fleet/package_policies/okta-logs')).status, 404);
  });

  it('a cloud deployment creates the policy (item.id; a managed agentless package policy) and deletes it by policy id', async () => {
    const created = await call(cloud, 'POST', `${AGENTLESS}?format=simplified`, body);
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.item.id, 'okta-logs');
    const stored = (await call(cloud, 'GET', '/api/fleet/package_policies/okta-logs?format=simplified')).body.item;
    assert.deepEqual([stored.supports_agentless, stored.is_managed], [true, true]);
    assert.equal((await call(cloud, 'DELETE', `${AGENTLESS}/okta-logs`)).status, 200);
    assert.equal((await call(cloud, 'GET', '/api/fleet/package_policies/okta-logs')).status, 404);
  });
});
