import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const ES = '/api/security/entity_store';

/** The control route a large watchlist needs: entities beyond the fixed sample the emulator's "logs" hold (docs/emulator.md). */
describe('emulator control: POST /__emulator/entities', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e), { spaces: ['other'] });

  const page = async (size: number, after?: string, space = '') => {
    const q = new URLSearchParams({ size: String(size), ...(after ? { searchAfter: after } : {}) });
    return call(emu, 'GET', `${space}${ES}/entities?${q}`);
  };

  it('adds entities by type and name to one space; the installed store pages through them in id order, and watchlists can assign them', async () => {
    const entities = Array.from({ length: 25 }, (_, i) => ({ type: 'user', name: `m-${String(24 - i).padStart(2, '0')}` }));
    const added = await call(emu, 'POST', '/__emulator/entities', { space: 'other', entities });
    assert.equal(added.status, 200, added.text);
    assert.equal(added.body.entities, 25);
    assert.equal((await call(emu, 'POST', `/s/other${ES}/install`, { entityTypes: ['user'] })).status, 201);
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await page(10, after, '/s/other');
      assert.equal(res.status, 200, res.text);
      ids.push(...res.body.entities.map((e: any) => e.entity.id));
      if (!res.body.nextSearchAfter) break;
      after = JSON.stringify(res.body.nextSearchAfter);
    }
    const users = ids.filter((id) => id.startsWith('user:m-'));
    assert.equal(users.length, 25);
    assert.deepEqual(users, [...users].sort(), 'id order across pages');
    assert.deepEqual(ids, [...ids].sort(), 'the sample entities of the install are in the same order');
    // An install after the seeding changed the entities: the order takes in the sample's users too.
    const list = await call(emu, 'POST', '/s/other/api/entity_analytics/watchlists', { name: 'w', description: 'd', riskModifier: 1 });
    const assigned = await call(emu, 'POST', `/s/other/api/entity_analytics/watchlists/${list.body.id}/entities/assign`, { euids: ['user:m-03', 'user:m-17'] });
    assert.equal(assigned.status, 200, assigned.text);
    const none = await page(10);
    assert.equal(none.status, 404, 'the default space has no store: the seeding went to one space only');
  });

  it('refuses an unknown space, an unknown type and a nameless entity', async () => {
    for (const body of [{ space: 'nowhere', entities: [] }, { entities: [{ type: 'device', name: 'x' }] }, { entities: [{ type: 'user', name: '' }] }, { entities: 'user:x' }]) {
      const res = await call(emu, 'POST', '/__emulator/entities', body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });
});
