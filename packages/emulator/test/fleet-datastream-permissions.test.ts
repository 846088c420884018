import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const PP = '/api/fleet/package_policies';
const AP = '/api/fleet/agent_policies';
const SYSTEM = { name: 'system', version: '1.60.0' };
const EXTRA = ['logs-custom.audit-default', 'metrics-custom.usage-*'];

/**
 * `additional_datastreams_permissions` of package policies (OAS package_policy_request and
 * package_policy: stored on the policy and answered with it). K-FLEET =
 * x-pack/platform/plugins/shared/fleet:
 * - a simplified body goes through common/services/simplified_package_policy_helper.ts
 *   simplifiedPackagePolicytoNewPackagePolicy, which sets the field only when truthy: a list (an
 *   empty one too) is stored, null is dropped;
 * - a legacy create copies it as sent (server/services/package_policy.ts
 *   enrichPolicyWithDefaultsFromPackage), a merged update spreads the body
 *   (server/routes/package_policy/handlers.ts updatePackagePolicyHandler);
 * - the update is a partial saved-object update (package_policy.ts update()), so a body without
 *   the field (or a simplified one with null) keeps the stored value;
 * - create and update run validateAdditionalDatastreamsPermissionsForSpace, which refuses only
 *   names outside a space's allowed namespace prefixes: the emulator has no space settings, so it
 *   never refuses there;
 * - the agent receives them as extra index permissions of the policy
 *   (server/services/agent_policies/package_policies_to_agent_permissions.ts).
 */
describe('Fleet package policies: additional_datastreams_permissions', () => {
  let emu: RunningEmulator;
  let counter = 0;
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const res = await p;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.item;
  };
  const create = (fields: Record<string, unknown>, format = 'simplified') => {
    counter += 1;
    return ok(call(emu, 'POST', `${PP}?format=${format}`, { name: `perm ${counter}`, policy_ids: ['perms'], package: SYSTEM, ...fields }));
  };
  const stored = async (id: string) => (await call(emu, 'GET', `${PP}/${id}`)).body.item.additional_datastreams_permissions;
  const update = (id: string, fields: Record<string, unknown>) => ok(call(emu, 'PUT', `${PP}/${id}?format=simplified`, { name: id, policy_ids: ['perms'], package: SYSTEM, ...fields }));

  before(async () => {
    emu = await emulator({ deployment: 'cloud' });
    await ok(call(emu, 'POST', AP, { id: 'perms', name: 'perms', namespace: 'default' }));
  });
  after(() => emu.stop());

  it('a create stores the list and every read answers it: the create, GET (both formats), the list, bulk get', async () => {
    const item = await create({ id: 'listed', additional_datastreams_permissions: EXTRA });
    assert.deepEqual(item.additional_datastreams_permissions, EXTRA);
    assert.deepEqual(await stored('listed'), EXTRA);
    assert.deepEqual((await call(emu, 'GET', `${PP}/listed?format=simplified`)).body.item.additional_datastreams_permissions, EXTRA);
    const listed = (await call(emu, 'GET', `${PP}?format=simplified`)).body.items.find((p: any) => p.id === 'listed');
    assert.deepEqual(listed.additional_datastreams_permissions, EXTRA);
    assert.deepEqual((await call(emu, 'POST', `${PP}/_bulk_get`, { ids: ['listed'] })).body.items[0].additional_datastreams_permissions, EXTRA);
  });

  it('a simplified create with null or without the field stores none; an empty list is kept as sent', async () => {
    assert.equal('additional_datastreams_permissions' in (await create({ id: 'null-perms', additional_datastreams_permissions: null })), false);
    assert.equal('additional_datastreams_permissions' in (await create({ id: 'no-perms' })), false);
    assert.deepEqual((await create({ id: 'empty-perms', additional_datastreams_permissions: [] })).additional_datastreams_permissions, []);
  });

  it('a legacy create stores the field as sent', async () => {
    const item = await create({ id: 'legacy-perms', inputs: [], additional_datastreams_permissions: EXTRA }, 'legacy');
    assert.deepEqual(item.additional_datastreams_permissions, EXTRA);
  });

  it('a simplified update without the field, or with null, keeps it; a list replaces it; an empty list clears it', async () => {
    await create({ id: 'updated', additional_datastreams_permissions: EXTRA });
    await update('updated', { description: 'no field', inputs: {} });
    assert.deepEqual(await stored('updated'), EXTRA);
    await update('updated', { inputs: {}, additional_datastreams_permissions: null });
    assert.deepEqual(await stored('updated'), EXTRA, 'null is dropped before the write');
    await update('updated', { inputs: {}, additional_datastreams_permissions: ['logs-other-default'] });
    assert.deepEqual(await stored('updated'), ['logs-other-default']);
    await update('updated', { inputs: {}, additional_datastreams_permissions: [] });
    assert.deepEqual(await stored('updated'), []);
  });

  it('a merged update (no inputs) keeps the field when left out and stores what it sends, null included', async () => {
    await create({ id: 'merged', additional_datastreams_permissions: EXTRA });
    await update('merged', { description: 'merged, no field' });
    assert.deepEqual(await stored('merged'), EXTRA);
    await update('merged', { additional_datastreams_permissions: null });
    assert.equal(await stored('merged'), null);
  });

  it('names that do not start with a data stream type are refused (the body schema), as before', async () => {
    const res = await call(emu, 'POST', PP, { name: 'bad perms', policy_ids: ['perms'], package: SYSTEM, additional_datastreams_permissions: ['custom-index'] });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /custom-index is not a valid datastream permissions/);
  });

  it('the agentless route stores and answers it', async () => {
    const item = await ok(call(emu, 'POST', '/api/fleet/agentless_policies', { id: 'agentless-perms', name: 'agentless perms', package: SYSTEM, additional_datastreams_permissions: EXTRA }));
    assert.deepEqual(item.additional_datastreams_permissions, EXTRA);
    assert.deepEqual(await stored('agentless-perms'), EXTRA);
  });

  it("the agent's policy grants them with the default index privileges", async () => {
    const full = (await call(emu, 'GET', `${AP}/perms/full`)).body.item;
    const indices = full.output_permissions.default.listed.indices;
    assert.deepEqual(indices.at(-1), { names: EXTRA, privileges: ['auto_configure', 'create_doc'] });
  });
});
