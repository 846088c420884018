import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import { startEmulator, type RunningEmulator } from '../src/server.js';

const WL = '/api/entity_analytics/watchlists';
const ES = '/api/security/entity_store';
/** The server's source the behaviours follow (security_solution server/lib/entity_analytics/watchlists). */
const SRC = 'watchlists/management';

async function create(emu: RunningEmulator, name: string, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await call(emu, 'POST', WL, { name, description: `${name} list`, riskModifier: 1.5, ...extra });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const members = async (emu: RunningEmulator, id: string) =>
  (await call(emu, 'GET', `${ES}/entities?filter=${encodeURIComponent(`entity.attributes.watchlists: "${id}"`)}`)).body.entities.map((e: any) => e.entity.id).sort();

describe('emulator watchlists (technical preview 9.4; service-api.md line 473, Entity analytics "Watchlist", "Watchlist membership")', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e), { spaces: ['other'], now: () => new Date('2026-03-02T12:00:00.000Z') });

  it(`create answers the watchlist with a fresh id, managed false and timestamps; names are not unique (${SRC}/routes/create.ts, watchlist_config.ts create, common.schema.yaml WatchlistObject)`, async () => {
    const w = await create(emu, 'vendors');
    assert.deepEqual(w, { id: w.id, name: 'vendors', description: 'vendors list', riskModifier: 1.5, managed: false, createdAt: '2026-03-02T12:00:00.000Z', updatedAt: '2026-03-02T12:00:00.000Z', entitySourceIds: [] });
    const twin = await create(emu, 'vendors');
    assert.notEqual(twin.id, w.id);
  });

  it(`create and update need name, description and riskModifier (create.schema.yaml, update.schema.yaml required)`, async () => {
    for (const body of [{ name: 'x', riskModifier: 1 }, { name: 'x', description: 'd' }, { description: 'd', riskModifier: 1 }, { name: 'x', description: 'd', riskModifier: 'high' }]) {
      const res = await call(emu, 'POST', WL, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    }
    const w = await create(emu, 'x');
    const res = await call(emu, 'PUT', `${WL}/${w.id}`, { name: 'x', riskModifier: 2 });
    assert.equal(res.status, 400, res.text);
  });

  it(`list installs the managed Privileged Users watchlist in each space and counts members (${SRC}/routes/list.ts ensurePrebuiltWatchlists; install_prebuilt_watchlists.ts; watchlist_config.ts list)`, async () => {
    const lists = (await call(emu, 'GET', `${WL}/list`)).body;
    assert.deepEqual(lists.map((w: any) => [w.id, w.name, w.managed, w.riskModifier, w.entityCount]), [['privileged-user-monitoring-watchlist-id-default', 'Privileged Users', true, 50, 0]]);
    const other = (await call(emu, 'GET', `/s/other${WL}/list`)).body;
    assert.equal(other[0].id, 'privileged-user-monitoring-watchlist-id-other');
  });

  it(`a managed watchlist's name and description cannot change; its riskModifier can (${SRC}/validation.ts, MANAGED_WATCHLIST_LOCKED_FIELDS)`, async () => {
    await call(emu, 'GET', `${WL}/list`);
    const id = 'privileged-user-monitoring-watchlist-id-default';
    const renamed = await call(emu, 'PUT', `${WL}/${id}`, { name: 'Admins', description: 'System-managed watchlist for tracking privileged users', riskModifier: 50 });
    assert.equal(renamed.status, 400, renamed.text);
    assert.equal(renamed.body.message, `Cannot modify name of managed watchlist '${id}'`);
    const modifier = await call(emu, 'PUT', `${WL}/${id}`, { name: 'Privileged Users', description: 'System-managed watchlist for tracking privileged users', riskModifier: 10 });
    assert.equal(modifier.status, 200, modifier.text);
    assert.equal(modifier.body.riskModifier, 10);
  });

  it(`get, update and assign of an unknown id answer 500 "Watchlist config ... not found"; delete answers 404 (watchlist_config.ts get: a plain Error through transformError; delete.ts: the saved object's 404)`, async () => {
    const got = await call(emu, 'GET', `${WL}/nope`);
    assert.equal(got.status, 500, got.text);
    assert.deepEqual(got.body, { message: "Watchlist config 'nope' not found", status_code: 500 });
    assert.equal((await call(emu, 'POST', `${WL}/nope/entities/assign`, { euids: ['user:alice'] })).status, 500);
    assert.equal((await call(emu, 'DELETE', `${WL}/nope`)).status, 404);
  });

  it(`assign takes entities of the store only, repeats once, and reports not_found ones first; unassign removes manual members (routes/entities/assign.ts, unassign.ts; entity_sources/manual/service.ts)`, async () => {
    await call(emu, 'POST', `${ES}/install`, { entityTypes: ['user', 'host'] });
    const w = await create(emu, 'payroll');
    const res = await call(emu, 'POST', `${WL}/${w.id}/entities/assign`, { euids: ['user:alice', 'user:alice', 'host:build-01', 'user:nobody'] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      successful: 2,
      failed: 0,
      not_found: 1,
      total: 3,
      items: [
        { euid: 'user:nobody', status: 'not_found', error: 'Entity not found in entity store' },
        { euid: 'user:alice', status: 'success' },
        { euid: 'host:build-01', status: 'success' },
      ],
    });
    assert.deepEqual(await members(emu, w.id), ['host:build-01', 'user:alice']);
    assert.equal((await call(emu, 'GET', `${WL}/${w.id}`)).body.entityCount, 2);
    const un = await call(emu, 'POST', `${WL}/${w.id}/entities/unassign`, { euids: ['user:alice', 'user:bob'] });
    assert.deepEqual(un.body.items, [
      { euid: 'user:bob', status: 'not_found', error: 'Entity not manually assigned to this watchlist' },
      { euid: 'user:alice', status: 'success' },
    ]);
    assert.deepEqual(await members(emu, w.id), ['host:build-01']);
  });

  it(`delete removes the watchlist from its entities (delete.ts: deleteWatchlistEntities before the saved object)`, async () => {
    await call(emu, 'POST', `${ES}/install`, { entityTypes: ['user'] });
    const w = await create(emu, 'gone');
    await call(emu, 'POST', `${WL}/${w.id}/entities/assign`, { euids: ['user:bob'] });
    const res = await call(emu, 'DELETE', `${WL}/${w.id}`);
    assert.deepEqual(res.body, { deleted: true });
    assert.deepEqual(await members(emu, w.id), []);
  });

  it(`every route needs a Platinum licence: 403 "Your license does not support this feature." (utils/with_minimum_license.ts, 'platinum' on each route)`, async () => {
    const basic = await startEmulator({ port: 0, license: 'gold' });
    try {
      const res = await call(basic, 'GET', `${WL}/list`);
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.message, 'Your license does not support this feature.');
    } finally {
      await basic.stop();
    }
  });
});
