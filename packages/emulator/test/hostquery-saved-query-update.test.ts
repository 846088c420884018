import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import { startEmulator, type RunningEmulator } from '../src/server.js';

// Saved-query update: service-api.md ("update always needs new_id (the name) and replaces") and the
// real route (osquery server/routes/saved_query/update_saved_query_route.ts; wire-facts §15 fact 5)
// differ. The emulator follows the document unless the route is switched to the real behaviour.

const SQ = '/api/hostquery/saved_queries';

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

async function createFull(emu: RunningEmulator) {
  const res = await call(emu, 'POST', SQ, {
    id: unique('sq'),
    query: 'SELECT 1;',
    interval: '60',
    description: 'old',
    platform: 'linux',
    version: '1.0.0',
    timeout: 120,
    snapshot: false,
    removed: true,
    ecs_mapping: { 'user.name': { field: 'username' } },
  });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

const read = async (emu: RunningEmulator, soId: string) => (await call(emu, 'GET', `${SQ}/${soId}`)).body.data;

describe('emulator saved-query update, real behaviour (realRoutes: saved-query-update; wire-facts §15 fact 5)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ realRoutes: ['saved-query-update'] });
  });
  after(() => emu.stop());

  it('takes the name from id and ignores new_id (wire-facts §15 fact 5: "reads id (the new name) from the body"; update_saved_query_route.ts destructures id; new_id is in no codec)', async () => {
    const data = await createFull(emu);
    const renamed = unique('renamed');
    const res = await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { id: renamed, new_id: 'ignored', query: 'SELECT 1;' });
    assert.equal(res.status, 200, res.text);
    assert.equal((await read(emu, data.saved_object_id)).id, renamed);
  });

  it('requires id and query, answering a platform 400 in io-ts wording (updateSavedQueryRequestBodySchema: id and query are t.string)', async () => {
    const data = await createFull(emu);
    const noId = await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { new_id: data.id, query: 'SELECT 1;' });
    assert.deepEqual(noId.body, { statusCode: 400, error: 'Bad Request', message: '[request body]: Invalid value "undefined" supplied to "id"' });
    const noQuery = await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { id: data.id });
    assert.equal(noQuery.status, 400);
  });

  it('is a partial update: omitted fields keep their values, except description, which becomes "" (wire-facts §15 fact 5; savedObjectsClient.update with description || \'\')', async () => {
    const data = await createFull(emu);
    const res = await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { id: data.id, query: 'SELECT 2;' });
    assert.equal(res.status, 200);
    const after = await read(emu, data.saved_object_id);
    assert.equal(after.query, 'SELECT 2;');
    assert.equal(after.description, '');
    assert.deepEqual(
      { interval: after.interval, platform: after.platform, version: after.version, timeout: after.timeout, snapshot: after.snapshot, removed: after.removed, ecs_mapping: after.ecs_mapping },
      { interval: '60', platform: 'linux', version: '1.0.0', timeout: 120, snapshot: false, removed: true, ecs_mapping: { 'user.name': { field: 'username' } } },
    );
  });

  it('stores explicit empty values as sent, so a client clears a field by sending it empty (wire-facts §8: TF clears with "" and {})', async () => {
    const data = await createFull(emu);
    const res = await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { id: data.id, query: 'SELECT 1;', description: '', platform: '', version: '', ecs_mapping: {}, interval: 30 });
    assert.equal(res.status, 200);
    const after = await read(emu, data.saved_object_id);
    assert.deepEqual([after.description, after.platform, after.version, after.ecs_mapping, after.interval], ['', '', '', {}, '30']);
  });

  it('answers with the updated fields only: no created_at, created_by or prebuilt (the route builds data from a fixed list)', async () => {
    const data = await createFull(emu);
    const res = await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { id: data.id, query: 'SELECT 1;' });
    assert.equal(res.body.data.saved_object_id, data.saved_object_id);
    for (const absent of ['created_at', 'created_by', 'prebuilt']) assert.equal(absent in res.body.data, false, absent);
  });

  it('answers 409 for a prebuilt query and for a name another query holds (response.conflict in the route)', async () => {
    const prebuilt = (await call(emu, 'GET', `${SQ}?pageSize=100`)).body.data.find((q: any) => q.prebuilt);
    const put = await call(emu, 'PUT', `${SQ}/${prebuilt.saved_object_id}`, { id: prebuilt.id, query: 'SELECT 1;' });
    assert.deepEqual([put.status, put.body.message], [409, 'Elastic prebuilt Saved query cannot be updated.']);
    const a = await createFull(emu);
    const b = await createFull(emu);
    const clash = await call(emu, 'PUT', `${SQ}/${b.saved_object_id}`, { id: a.id, query: 'SELECT 1;' });
    assert.deepEqual([clash.status, clash.body.message], [409, `Saved query with id "${a.id}" already exists.`]);
  });
});

describe('emulator real-route switch (docs/emulator.md: /__emulator/real-routes)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('follows the document by default and switches the route at run time; a reset restores the start setting', async () => {
    assert.deepEqual((await call(emu, 'GET', '/__emulator/real-routes')).body.routes, []);
    const data = await createFull(emu);
    // Document: new_id is required, and the body replaces the query.
    assert.equal((await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { id: data.id, query: 'SELECT 1;', interval: '60' })).status, 400);

    const set = await call(emu, 'PUT', '/__emulator/real-routes', { routes: ['saved-query-update'] });
    assert.deepEqual(set.body.routes, ['saved-query-update']);
    assert.equal((await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { id: data.id, query: 'SELECT 1;' })).status, 200);
    assert.equal((await read(emu, data.saved_object_id)).platform, 'linux');

    assert.equal((await call(emu, 'PUT', '/__emulator/real-routes', { routes: ['no-such-route'] })).status, 400);
    await call(emu, 'POST', '/__emulator/reset');
    assert.deepEqual((await call(emu, 'GET', '/__emulator/real-routes')).body.routes, []);
  });

  it('refuses an unknown route name at start', async () => {
    await assert.rejects(startEmulator({ port: 0, realRoutes: ['nope' as any] }), /unknown real route/);
  });
});
