import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const AP = '/api/fleet/agent_policies';
const PP = '/api/fleet/package_policies';
const DEFEND = { name: 'endpoint', version: '8.18.1' };
const SYSTEM = { name: 'system', version: '1.60.0' };

/**
 * Tamper protection (`is_protected`) of agent policies, as the real server keeps it (K-FLEET =
 * x-pack/platform/plugins/shared/fleet/server):
 * - services/agent_policy.ts create(): checkTamperProtectionLicense, then prepareAsNewSo stores
 *   `is_protected: false` whatever was sent (a new policy has no Elastic Defend integration);
 * - update(): the same licence check, then `is_protected` forced to false unless the policy has an
 *   `endpoint` package policy (policyHasEndpointSecurity), before the hosted-policy check;
 * - checkTamperProtectionLicense throws FleetUnauthorizedError('Tamper protection requires Platinum
 *   license'), which errors/handlers.ts answers with 403;
 * - services/package_policy.ts: update() and bulkUpdate() bump the agent policies an `endpoint`
 *   package policy joins or leaves with `removeProtection` (is_protected false), delete() every
 *   agent policy of a deleted one; create() never does;
 * - copy() gives the copy the source's setting.
 */
describe('Fleet agent policies: tamper protection (is_protected)', () => {
  let emu: RunningEmulator;
  const policy = async (id: string) => (await call(emu, 'GET', `${AP}/${id}`)).body.item;
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const res = await p;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const newPolicy = (id: string, fields: Record<string, unknown> = {}) => ok(call(emu, 'POST', AP, { id, name: id, namespace: 'default', ...fields }));
  const protect = (id: string, isProtected = true) => ok(call(emu, 'PUT', `${AP}/${id}`, { name: id, namespace: 'default', is_protected: isProtected }));
  const withLicense = async (type: string, run: () => Promise<void>) => {
    await call(emu, 'PUT', '/__emulator/license', { type });
    try {
      await run();
    } finally {
      await call(emu, 'PUT', '/__emulator/license', { type: 'platinum' });
    }
  };
  /** An agent policy with Elastic Defend and tamper protection on. */
  const protectedPolicy = async (id: string) => {
    await newPolicy(id);
    const pp = await ok(call(emu, 'POST', `${PP}?format=simplified`, { id: `${id}-defend`, name: `${id} defend`, policy_ids: [id], package: DEFEND }));
    await protect(id);
    assert.equal((await policy(id)).is_protected, true);
    return pp.item;
  };

  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('create stores false whatever is sent, and answers false (prepareAsNewSo)', async () => {
    const created = await newPolicy('created-protected', { is_protected: true });
    assert.equal(created.item.is_protected, false);
    assert.equal((await policy('created-protected')).is_protected, false);
  });

  it('create and update refuse is_protected: true below Platinum with 403 (checkTamperProtectionLicense)', async () => {
    await newPolicy('licensed');
    await withLicense('gold', async () => {
      const refused = await call(emu, 'POST', AP, { name: 'gold protected', namespace: 'default', is_protected: true });
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, { statusCode: 403, error: 'Forbidden', message: 'Tamper protection requires Platinum license' });
      const update = await call(emu, 'PUT', `${AP}/licensed`, { name: 'licensed', namespace: 'default', is_protected: true });
      assert.equal(update.status, 403);
      assert.equal(update.body.message, 'Tamper protection requires Platinum license');
      // false (or nothing) is no request for tamper protection: accepted on any licence.
      await ok(call(emu, 'POST', AP, { name: 'gold unprotected', namespace: 'default', is_protected: false }));
      await protect('licensed', false);
    });
    await withLicense('trial', async () => {
      await ok(call(emu, 'POST', AP, { name: 'trial protected', namespace: 'default', is_protected: true }));
    });
  });

  it('the licence is checked before the name: a taken name with is_protected below Platinum is a 403, not a 409', async () => {
    await newPolicy('name-holder');
    await withLicense('basic', async () => {
      const res = await call(emu, 'POST', AP, { name: 'name-holder', namespace: 'default', is_protected: true });
      assert.equal(res.status, 403);
    });
  });

  it('update without Elastic Defend stores false, with it true (policyHasEndpointSecurity)', async () => {
    await newPolicy('no-defend');
    await ok(call(emu, 'POST', PP, { name: 'no-defend system', policy_ids: ['no-defend'], package: SYSTEM }));
    const answered = await protect('no-defend');
    assert.equal(answered.item.is_protected, false);
    assert.equal((await policy('no-defend')).is_protected, false);
    await ok(call(emu, 'POST', PP, { name: 'no-defend defend', policy_ids: ['no-defend'], package: DEFEND }));
    assert.equal((await protect('no-defend')).item.is_protected, true);
    // An update that leaves is_protected out keeps it.
    await ok(call(emu, 'PUT', `${AP}/no-defend`, { name: 'no-defend', namespace: 'default', description: 'kept' }));
    assert.equal((await policy('no-defend')).is_protected, true);
  });

  it('a hosted policy takes is_protected: true without force: stored false, so nothing changes (the check sees the forced value)', async () => {
    const res = await call(emu, 'PUT', `${AP}/fleet-server-policy`, { name: 'Fleet Server Policy', namespace: 'default', is_protected: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.item.is_protected, false);
  });

  it('creating an Elastic Defend package policy does not switch protection off elsewhere, nor does any other integration', async () => {
    await protectedPolicy('keeps');
    await ok(call(emu, 'POST', PP, { name: 'keeps system', policy_ids: ['keeps'], package: SYSTEM }));
    assert.equal((await policy('keeps')).is_protected, true);
  });

  it('deleting its Elastic Defend package policy switches protection off and moves the revision', async () => {
    const pp = await protectedPolicy('loses-defend');
    const revision = (await policy('loses-defend')).revision;
    await ok(call(emu, 'DELETE', `${PP}/${pp.id}`));
    const after = await policy('loses-defend');
    assert.equal(after.is_protected, false);
    assert.equal(after.revision, revision + 1);
  });

  it('the bulk delete route does the same; deleting another integration does not', async () => {
    await protectedPolicy('bulk-delete');
    const system = await ok(call(emu, 'POST', PP, { name: 'bulk-delete system', policy_ids: ['bulk-delete'], package: SYSTEM }));
    await ok(call(emu, 'POST', `${PP}/delete`, { packagePolicyIds: [system.item.id] }));
    assert.equal((await policy('bulk-delete')).is_protected, true);
    await ok(call(emu, 'POST', `${PP}/delete`, { packagePolicyIds: ['bulk-delete-defend'] }));
    assert.equal((await policy('bulk-delete')).is_protected, false);
  });

  it('an update of the Elastic Defend policy switches protection off where it joins or leaves, not where it stays', async () => {
    const pp = await protectedPolicy('stays');
    await newPolicy('joins');
    const body = (policyIds: string[], description: string) => ({ name: pp.name, description, policy_ids: policyIds, package: DEFEND, inputs: {} });
    await ok(call(emu, 'PUT', `${PP}/${pp.id}?format=simplified`, body(['stays'], 'same agent policy')));
    assert.equal((await policy('stays')).is_protected, true);
    await ok(call(emu, 'PUT', `${PP}/${pp.id}?format=simplified`, body(['stays', 'joins'], 'shared')));
    assert.equal((await policy('stays')).is_protected, true);
    await protect('joins');
    assert.equal((await policy('joins')).is_protected, true);
    await ok(call(emu, 'PUT', `${PP}/${pp.id}?format=simplified`, body(['joins'], 'moved')));
    assert.equal((await policy('stays')).is_protected, false, 'left');
    assert.equal((await policy('joins')).is_protected, true, 'stayed');
  });

  it('a copy takes the source setting over (copy(): `_update` with is_protected: true)', async () => {
    await protectedPolicy('copied-source');
    const copy = await ok(call(emu, 'POST', `${AP}/copied-source/copy`, { name: 'copied protected' }));
    assert.equal(copy.item.is_protected, true);
    assert.equal(copy.item.revision, 2);
    const plain = await ok(call(emu, 'POST', `${AP}/licensed/copy`, { name: 'copied plain' }));
    assert.equal(plain.item.revision, 2, 'bumped even without package policies to copy');
  });
});
