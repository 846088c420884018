import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, KEYS } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const NOTE = '/api/endpoint/protection_updates_note';

/**
 * Sources: the OAS at b76003905 (GetProtectionUpdatesNote, CreateUpdateProtectionUpdatesNote:
 * GET and POST /api/endpoint/protection_updates_note/{package_policy_id}, body `{note: string}`),
 * the route handlers of the security solution's protection_updates_note (GET: 404
 * `No note found for this policy`; POST upserts; the space-aware check of the package policy
 * first), and service-api.md Endpoint management ("create or update and get protection-updates
 * note (package_policy_id, note)").
 */
describe('emulator: protection-updates notes (/api/endpoint/protection_updates_note)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'], credentials: KEYS.credentials });
    const policy = await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'servers', name: 'Servers', namespace: 'default' }, KEYS.full);
    assert.equal(policy.status, 200, policy.text);
    const pp = await call(emu, 'POST', '/api/fleet/package_policies?format=simplified', { id: 'defend-servers', name: 'defend servers', policy_ids: ['servers'], package: { name: 'system', version: '1.60.0' } }, KEYS.full);
    assert.equal(pp.status, 200, pp.text);
  });
  after(() => emu.stop());
  const url = (id: string) => `${NOTE}/${id}`;

  it('GET of a policy without a note is 404 "No note found for this policy"; POST creates it and answers {note}; a second POST replaces it', async () => {
    const none = await call(emu, 'GET', url('defend-servers'), undefined, KEYS.full);
    assert.equal(none.status, 404);
    assert.equal(none.body.message, 'No note found for this policy');
    const created = await call(emu, 'POST', url('defend-servers'), { note: 'Updates held: change freeze until Monday' }, KEYS.full);
    assert.deepEqual([created.status, created.body], [200, { note: 'Updates held: change freeze until Monday' }]);
    const replaced = await call(emu, 'POST', url('defend-servers'), { note: 'Freeze over' }, KEYS.full);
    assert.deepEqual(replaced.body, { note: 'Freeze over' });
    assert.deepEqual((await call(emu, 'GET', url('defend-servers'), undefined, KEYS.full)).body, { note: 'Freeze over' });
  });

  it('the body is {note: string} and nothing else (config-schema): a missing note, a number or an extra key is 400', async () => {
    for (const body of [{}, { note: 5 }, { note: 'x', text: 'y' }]) {
      const res = await call(emu, 'POST', url('defend-servers'), body, KEYS.full);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.message, /\[request body\.(note|text)\]/);
    }
  });

  it('a package policy that is not in the caller\'s space is 404 for both (space-aware endpoint management)', async () => {
    for (const method of ['GET', 'POST']) {
      const other = await call(emu, method, `/s/other${url('defend-servers')}`, method === 'POST' ? { note: 'x' } : undefined, KEYS.full);
      assert.equal(other.status, 404, method);
      const missing = await call(emu, method, url('nowhere'), method === 'POST' ? { note: 'x' } : undefined, KEYS.full);
      assert.equal(missing.status, 404, method);
    }
  });

  it('reading needs read and writing all (the routes\' endpoint authz: read and write policy management)', async () => {
    assert.equal((await call(emu, 'GET', url('defend-servers'), undefined, KEYS.viewer)).status, 200);
    assert.equal((await call(emu, 'POST', url('defend-servers'), { note: 'x' }, KEYS.viewer)).status, 403);
  });
});
