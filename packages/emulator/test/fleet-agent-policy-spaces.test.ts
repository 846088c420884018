import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const AP = '/api/fleet/agent_policies';
const PP = '/api/fleet/package_policies';

/**
 * Agent policies in several spaces: with Fleet space awareness `space_ids` may name several
 * spaces and the one policy is visible in each (wire-facts §16 #10; TF agentpolicy testdata
 * NonDefaultSpace and SpaceReordering; OAS b76003905 `space_ids` of the agent policy bodies).
 */
describe('Fleet agent policies in several spaces (wire-facts §16 #10)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['ops', 'soc'] });
  });
  after(() => emu.stop());

  it('creates a policy in two spaces and shows the same policy in each, with space_ids as sent', async () => {
    const made = await call(emu, 'POST', AP, { id: 'shared', name: 'Shared', namespace: 'default', space_ids: ['default', 'ops'] });
    assert.equal(made.status, 200, made.text);
    assert.deepEqual(made.body.item.space_ids, ['default', 'ops']);
    for (const prefix of ['', '/s/ops']) {
      const got = await call(emu, 'GET', `${prefix}${AP}/shared`);
      assert.equal(got.status, 200, `${prefix}: ${got.text}`);
      assert.deepEqual(got.body.item.space_ids, ['default', 'ops']);
      const listed = (await call(emu, 'GET', `${prefix}${AP}?perPage=100`)).body.items.map((p: any) => p.id);
      assert.ok(listed.includes('shared'), `${prefix}: ${listed.join(', ')}`);
    }
    assert.equal((await call(emu, 'GET', `/s/soc${AP}/shared`)).status, 404);
  });

  it('sees an update made through one space in the other, and a package policy attached in the second space', async () => {
    const updated = await call(emu, 'PUT', `/s/ops${AP}/shared`, { name: 'Shared', namespace: 'default', description: 'changed in ops' });
    assert.equal(updated.status, 200, updated.text);
    assert.equal((await call(emu, 'GET', `${AP}/shared`)).body.item.description, 'changed in ops');
    const pp = await call(emu, 'POST', `/s/ops${PP}`, { name: 'ops-logs', namespace: 'default', policy_ids: ['shared'], package: { name: 'log', version: '2.4.3' }, inputs: { 'logs-logfile': { streams: { 'log.logs': { vars: { paths: ['/var/log/ops.log'] } } } } } });
    assert.equal(pp.status, 200, pp.text);
    const fromDefault = await call(emu, 'GET', `${AP}/shared`);
    assert.deepEqual(fromDefault.body.item.package_policies.map((p: any) => p.name), ['ops-logs']);
  });

  it('moves a policy between spaces by updating space_ids (SpaceReordering: order kept as sent)', async () => {
    const moved = await call(emu, 'PUT', `${AP}/shared`, { name: 'Shared', namespace: 'default', space_ids: ['ops', 'soc', 'default'] });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual((await call(emu, 'GET', `/s/soc${AP}/shared`)).body.item.space_ids, ['ops', 'soc', 'default']);
  });

  it('refuses an id or a name another policy already holds in one of the spaces named', async () => {
    await call(emu, 'POST', `/s/soc${AP}`, { id: 'soc-only', name: 'SOC only', namespace: 'default' });
    const sameId = await call(emu, 'POST', AP, { id: 'soc-only', name: 'Another', namespace: 'default', space_ids: ['default', 'soc'] });
    assert.equal(sameId.status, 409, sameId.text);
    const sameName = await call(emu, 'POST', AP, { id: 'fresh', name: 'SOC only', namespace: 'default', space_ids: ['default', 'soc'] });
    assert.equal(sameName.status, 409, sameName.text);
  });

  it('deletes the one policy through any of its spaces', async () => {
    const deleted = await call(emu, 'POST', `/s/soc${AP}/delete`, { agentPolicyId: 'shared' });
    assert.equal(deleted.status, 200, deleted.text);
    for (const prefix of ['', '/s/ops', '/s/soc']) assert.equal((await call(emu, 'GET', `${prefix}${AP}/shared`)).status, 404);
  });
});
