import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { createSavedQuery, PACKS, unique, UUID } from '../helpers/hostquery.js';

async function createPack(emu: RunningEmulator, body: Record<string, unknown> = {}, space = '') {
  const res = await call(emu, 'POST', `${space}${PACKS}`, {
    name: unique('pack'),
    queries: { uptime: { query: 'SELECT * FROM uptime;', interval: 60 } },
    ...body,
  });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

describe('emulator host queries: packs', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('create answers data with saved_object_id and audit fields (service-api.md Host queries: "create pack | name, queries R ... | data with saved_object_id")', async () => {
    const data = await createPack(emu, { description: 'd', enabled: true, policy_ids: ['p1'] });
    assert.match(data.saved_object_id, UUID);
    assert.equal(data.description, 'd');
    assert.equal(data.enabled, true);
    assert.deepEqual(data.policy_ids, ['p1']);
    assert.equal(data.created_by, 'elastic');
    assert.ok(Date.parse(data.updated_at));
    assert.deepEqual(data.queries, { uptime: { query: 'SELECT * FROM uptime;', interval: 60 } });
  });

  it('the create reply carries shards as an array of {key, value} and no read_only (wire-facts §9: "The create response is not authoritative")', async () => {
    const data = await createPack(emu, { policy_ids: ['p1', 'p2'], shards: { p1: 50, p2: 100 } });
    assert.deepEqual(data.shards, [{ key: 'p1', value: 50 }, { key: 'p2', value: 100 }]);
    assert.equal('read_only' in data, false);
    const read = (await call(emu, 'GET', `${PACKS}/${data.saved_object_id}`)).body.data;
    assert.deepEqual(read.shards, { p1: 50, p2: 100 });
  });

  it('answers 400 without name or queries, or with a query entry missing query or with an interval that is not whole seconds (service-api.md Resources: "name (R), queries (R)"; "query (R ...)")', async () => {
    const bodies = [
      { queries: { q: { query: 'SELECT 1;', interval: 60 } } },
      { name: unique('p') },
      { name: unique('p'), queries: { q: { interval: 60 } } },
      { name: unique('p'), queries: { q: { query: 'SELECT 1;', interval: 1.5 } } },
      { name: unique('p'), queries: { q: { query: 'SELECT 1;', interval: 60 } }, policy_ids: 'p1' },
    ];
    for (const body of bodies) {
      const res = await call(emu, 'POST', PACKS, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'Bad Request');
    }
  });

  it('accepts a query without interval, or with interval null, and answers it without one (wire-facts §16 #4: the real ObjectQueriesItem has no required interval; IntervalOrUndefined is nullable)', async () => {
    const data = await createPack(emu, { queries: { bare: { query: 'SELECT 1;' }, nulled: { query: 'SELECT 2;', interval: null } } });
    const read = (await call(emu, 'GET', `${PACKS}/${data.saved_object_id}`)).body.data;
    assert.deepEqual(read.queries, { bare: { query: 'SELECT 1;' }, nulled: { query: 'SELECT 2;' } });
  });

  it('answers 400 for a shard percent outside 1 to 100 (service-api.md Limits: "Host query shards | pack | percent 1 to 100 per policy")', async () => {
    for (const percent of [0, 101, 50.5]) {
      const res = await call(emu, 'POST', PACKS, { name: unique('p'), queries: {}, shards: { p1: percent } });
      assert.equal(res.status, 400, String(percent));
    }
    assert.ok(await createPack(emu, { shards: { p1: 1, p2: 100 } }));
  });

  it('answers 409 for a second pack of the same name (wire-facts §9: "Pack names must be unique (I)"; decision: enforced)', async () => {
    const data = await createPack(emu);
    const res = await call(emu, 'POST', PACKS, { name: data.name, queries: {} });
    assert.equal(res.status, 409);
    assert.match(res.body.message, /already exists/);
  });

  it('get answers data with shards as a map, read_only, type and namespaces, and 404 for an unknown id (wire-facts §9 get; service-api.md Errors: 404)', async () => {
    const data = await createPack(emu, { shards: { p9: 10 } });
    const read = await call(emu, 'GET', `${PACKS}/${data.saved_object_id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.data.read_only, false);
    assert.deepEqual(read.body.data.shards, { p9: 10 });
    assert.equal(read.body.data.type, 'hostquery-pack');
    assert.deepEqual(read.body.data.namespaces, ['default']);
    assert.equal((await call(emu, 'GET', `${PACKS}/nope`)).status, 404);
  });

  it('accepts queries.*.saved_query_id on writes and never returns it (wire-facts §9: "accepted on writes and never returned")', async () => {
    const sq = await createSavedQuery(emu);
    const data = await createPack(emu, { queries: { q: { query: 'SELECT 1;', interval: 60, saved_query_id: sq.id } } });
    assert.equal(data.queries.q.saved_query_id, undefined);
    const read = (await call(emu, 'GET', `${PACKS}/${data.saved_object_id}`)).body.data;
    assert.equal(read.queries.q.saved_query_id, undefined);
    const put = await call(emu, 'PUT', `${PACKS}/${data.saved_object_id}`, { queries: { q: { query: 'SELECT 1;', interval: 60, saved_query_id: sq.id } } });
    assert.equal(put.body.data.queries.q.saved_query_id, undefined);
  });

  it('returns a query\'s snapshot and removed only when true (osquery server source: convertSOQueriesToPack)', async () => {
    const data = await createPack(emu, { queries: { a: { query: 'SELECT 1;', interval: 60, snapshot: false, removed: true }, b: { query: 'SELECT 2;', interval: 60, snapshot: true, removed: false } } });
    const read = (await call(emu, 'GET', `${PACKS}/${data.saved_object_id}`)).body.data;
    assert.deepEqual(read.queries.a, { query: 'SELECT 1;', interval: 60, removed: true });
    assert.deepEqual(read.queries.b, { query: 'SELECT 2;', interval: 60, snapshot: true });
  });

  it('update takes every field as optional and resets omitted ones, keeping name and enabled (service-api.md Host queries: "update pack | same fields, all optional; omitted fields may reset")', async () => {
    const data = await createPack(emu, { description: 'd', enabled: true, policy_ids: ['p1'], shards: { p1: 20 } });
    const res = await call(emu, 'PUT', `${PACKS}/${data.saved_object_id}`, {});
    assert.equal(res.status, 200);
    const read = (await call(emu, 'GET', `${PACKS}/${data.saved_object_id}`)).body.data;
    assert.equal(read.name, data.name);
    assert.equal(read.enabled, true);
    assert.equal(read.description, '');
    assert.deepEqual(read.policy_ids, []);
    assert.deepEqual(read.shards, {});
    assert.deepEqual(read.queries, {});
    assert.deepEqual(res.body.data.queries, {});
  });

  it('update answers data with the whole pack (service-api.md Host queries: "update pack ... data pack")', async () => {
    const data = await createPack(emu);
    const name = unique('renamed');
    const res = await call(emu, 'PUT', `${PACKS}/${data.saved_object_id}`, { name, enabled: false, policy_ids: ['p2'], shards: { p2: 30 }, queries: { q: { query: 'SELECT 3;', interval: 10 } } });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.name, name);
    assert.deepEqual(res.body.data.shards, { p2: 30 });
    assert.equal(res.body.data.read_only, false);
    assert.equal(res.body.data.created_at, data.created_at);
  });

  it('update to a name another pack holds answers 409, update of an unknown id 404 (service-api.md Errors: 404; wire-facts §9 unique names)', async () => {
    const a = await createPack(emu);
    const b = await createPack(emu);
    assert.equal((await call(emu, 'PUT', `${PACKS}/${b.saved_object_id}`, { name: a.name })).status, 409);
    assert.equal((await call(emu, 'PUT', `${PACKS}/nope`, { name: 'x' })).status, 404);
  });

  it('seeds a prebuilt read_only pack per space that cannot be updated (service-api.md Host queries: "prebuilt packs cannot be updated"; wire-facts §9 read_only)', async () => {
    const list = (await call(emu, 'GET', `${PACKS}?pageSize=100`)).body.data;
    const prebuilt = list.filter((p: any) => p.read_only === true);
    assert.equal(prebuilt.length, 1);
    const res = await call(emu, 'PUT', `${PACKS}/${prebuilt[0].saved_object_id}`, { name: prebuilt[0].name, queries: prebuilt[0].queries });
    assert.equal(res.status, 400);
  });

  it('delete answers an empty object and the pack is gone (service-api.md Host queries: "delete pack | | empty object")', async () => {
    const data = await createPack(emu);
    const res = await call(emu, 'DELETE', `${PACKS}/${data.saved_object_id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
    assert.equal((await call(emu, 'GET', `${PACKS}/${data.saved_object_id}`)).status, 404);
    assert.equal((await call(emu, 'DELETE', `${PACKS}/${data.saved_object_id}`)).status, 404);
  });

  it('find answers page, per_page, total and flattened packs, page 1 of 20 by default (service-api.md Host queries: "find packs | page (default 1), page_size (default 20) ... | page, per_page, total, data (flattened pack objects)")', async () => {
    const fresh = await emulator();
    try {
      for (let i = 0; i < 21; i++) await createPack(fresh, { policy_ids: ['p1'], shards: { p1: 40 } });
      const res = await call(fresh, 'GET', PACKS);
      assert.equal(res.status, 200);
      assert.deepEqual({ page: res.body.page, per_page: res.body.per_page, total: res.body.total }, { page: 1, per_page: 20, total: 22 });
      assert.equal(res.body.data.length, 20);
      const item = res.body.data.find((p: any) => !p.read_only);
      assert.match(item.saved_object_id, UUID);
      assert.deepEqual(item.policy_ids, ['p1']);
      assert.equal(item.queries[0].id, 'uptime');
      assert.equal(item.attributes, undefined);
      assert.equal((await call(fresh, 'GET', `${PACKS}?page=2`)).body.data.length, 2);
    } finally {
      await fresh.stop();
    }
  });

  it('find answers queries in stored form, an array of {id, ...} with ecs_mapping as [{key, value}], and no shards (wire-facts §15 fact 3; osquery server/routes/pack/find_pack_route.ts, routes/pack/utils.ts convertPackQueriesToSO)', async () => {
    const fresh = await emulator();
    try {
      const made = await createPack(fresh, {
        policy_ids: ['p1'],
        shards: { p1: 40 },
        queries: {
          users: { query: 'SELECT * FROM users;', interval: 600, platform: 'linux', snapshot: false, ecs_mapping: { 'user.name': { field: 'username' }, 'event.kind': { value: 'state' } } },
          uptime: { query: 'SELECT * FROM uptime;', interval: 60 },
        },
      });
      const item = (await call(fresh, 'GET', PACKS)).body.data.find((p: any) => p.saved_object_id === made.saved_object_id);
      assert.deepEqual(item.queries, [
        { id: 'users', query: 'SELECT * FROM users;', interval: 600, platform: 'linux', snapshot: false, ecs_mapping: [{ key: 'user.name', value: { field: 'username' } }, { key: 'event.kind', value: { value: 'state' } }] },
        { id: 'uptime', query: 'SELECT * FROM uptime;', interval: 60 },
      ]);
      assert.equal('shards' in item, false);
      assert.equal(item.read_only, false);
      // GET of one pack converts back: queries and shards as maps.
      const one = (await call(fresh, 'GET', `${PACKS}/${made.saved_object_id}`)).body.data;
      assert.deepEqual(one.queries.users.ecs_mapping, { 'user.name': { field: 'username' }, 'event.kind': { value: 'state' } });
      assert.deepEqual(one.shards, { p1: 40 });
    } finally {
      await fresh.stop();
    }
  });

  it('a body that fails validation answers a platform 400 in io-ts wording, with the path joined by commas (osquery common/api/packs/create_pack_route.ts, an io-ts codec; server/utils/build_validation/route_validation.ts)', async () => {
    const res = await call(emu, 'POST', PACKS, { name: unique('p'), queries: { q: { interval: 60 } } });
    assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: '[request body]: Invalid value "undefined" supplied to "queries,q,query"' });
    const shard = await call(emu, 'POST', PACKS, { name: unique('p'), queries: {}, shards: { p1: 0 } });
    assert.equal(shard.body.message, '[request body]: Invalid value "0" supplied to "shards,p1"');
  });

  it('accepts and ignores unknown keys in the pack and in its queries (the create and update codecs are io-ts intersections of t.type and t.partial, none t.exact)', async () => {
    const data = await createPack(emu, { colour: 'blue', queries: { q: { query: 'SELECT 1;', interval: 60, colour: 'red' } } });
    assert.equal(data.colour, undefined);
    const put = await call(emu, 'PUT', `${PACKS}/${data.saved_object_id}`, { name: data.name, colour: 'green', queries: { q: { query: 'SELECT 1;', interval: 60 } } });
    assert.equal(put.status, 200);
    const one = (await call(emu, 'GET', `${PACKS}/${data.saved_object_id}`)).body.data;
    assert.deepEqual(one.queries, { q: { query: 'SELECT 1;', interval: 60 } });
  });

  it('find sorts by createdAt by default, newest first (service-api.md Host queries: "sort (default createdAt), sort_order")', async () => {
    const fresh = await emulator();
    try {
      for (const name of ['m', 'z', 'a']) await createPack(fresh, { name });
      assert.deepEqual((await call(fresh, 'GET', PACKS)).body.data.slice(0, 3).map((p: any) => p.name), ['a', 'z', 'm']);
      const asc = (await call(fresh, 'GET', `${PACKS}?sort=name&sortOrder=asc`)).body.data.map((p: any) => p.name);
      assert.deepEqual(asc.slice(0, 3), ['a', 'm', 'prebuilt-hardware-monitoring']);
      assert.equal((await call(fresh, 'GET', `${PACKS}?sortOrder=sideways`)).status, 400);
      assert.equal((await call(fresh, 'GET', `${PACKS}?page=2&pageSize=5001`)).status, 400);
    } finally {
      await fresh.stop();
    }
  });
});
