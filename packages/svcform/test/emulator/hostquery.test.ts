import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, KEYS } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { createSavedQuery, PACKS, SQ, unique, UUID } from '../helpers/hostquery.js';

describe('emulator host queries: saved queries', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('create answers data with a saved_object_id and the server-managed fields (service-api.md Host queries: "create saved query ... data with saved_object_id")', async () => {
    const res = await call(emu, 'POST', SQ, { id: 'users', query: 'SELECT * FROM users;', interval: '3600', description: 'Users', version: '5.0.0', ecs_mapping: { 'user.name': { field: 'username' } } });
    assert.equal(res.status, 200);
    const data = res.body.data;
    assert.match(data.saved_object_id, UUID);
    assert.equal(data.id, 'users');
    assert.equal(data.prebuilt, false);
    assert.equal(data.created_by, 'elastic');
    assert.equal(data.updated_by, 'elastic');
    assert.ok(Date.parse(data.created_at) && Date.parse(data.updated_at));
    assert.deepEqual(data.ecs_mapping, { 'user.name': { field: 'username' } });
    assert.equal(data.version, '5.0.0');
  });

  it('takes interval as a string of seconds and refuses a number on create (service-api.md Resources: "interval (R, string of seconds)"; osquery-io-ts-types interval = t.string)', async () => {
    const data = await createSavedQuery(emu, { interval: '120' });
    assert.equal(data.interval, '120');
    const read = await call(emu, 'GET', `${SQ}/${data.saved_object_id}`);
    assert.equal(read.body.data.interval, '120');
    const numeric = await call(emu, 'POST', SQ, { id: unique('sq'), query: 'SELECT 1;', interval: 120 });
    assert.equal(numeric.status, 400);
    assert.equal(numeric.body.message, '[request body]: Invalid value "120" supplied to "interval"');
  });

  it('keeps platform as a comma-joined string (service-api.md Resources: "platform (comma separated)")', async () => {
    const data = await createSavedQuery(emu, { platform: 'linux,darwin' });
    assert.equal(data.platform, 'linux,darwin');
  });

  it('fills snapshot true and removed false when omitted (wire-facts §8: "treat snapshot and removed as server-defaulted")', async () => {
    const data = await createSavedQuery(emu);
    assert.equal(data.snapshot, true);
    assert.equal(data.removed, false);
  });

  it('answers 400 when id, query or interval is missing or interval is not seconds (service-api.md Resources: "id (name string, R), query (R), interval (R ...)"; Errors: 400)', async () => {
    for (const body of [{ query: 'SELECT 1;', interval: '60' }, { id: unique('x'), interval: '60' }, { id: unique('x'), query: 'SELECT 1;' }, { id: unique('x'), query: 'SELECT 1;', interval: 'hourly' }]) {
      const res = await call(emu, 'POST', SQ, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'Bad Request');
      assert.equal(res.body.statusCode, 400);
    }
  });

  it('answers 409 for a duplicate id (service-api.md Errors: "Duplicate id on create (saved object, list) | 409")', async () => {
    const data = await createSavedQuery(emu);
    const res = await call(emu, 'POST', SQ, { id: data.id, query: 'SELECT 2;', interval: '60' });
    assert.equal(res.status, 409);
    assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message', 'statusCode']);
  });

  it('get answers data by saved_object_id and 404 for an unknown one (service-api.md Errors: "Resource does not exist ... 404")', async () => {
    const data = await createSavedQuery(emu);
    const read = await call(emu, 'GET', `${SQ}/${data.saved_object_id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.data.id, data.id);
    const missing = await call(emu, 'GET', `${SQ}/no-such-id`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'Not Found');
  });

  it('update without new_id answers 400 (service-api.md Host queries: "update always needs new_id (the name)")', async () => {
    const data = await createSavedQuery(emu);
    const res = await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { query: 'SELECT 2;', interval: '60' });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /new_id/);
  });

  it('update replaces: omitted optional fields are removed and id becomes new_id (service-api.md Host queries: "update ... replaces")', async () => {
    const data = await createSavedQuery(emu, { description: 'old', platform: 'linux', version: '1.0.0', snapshot: false, ecs_mapping: { a: { value: 'b' } } });
    const newId = unique('renamed');
    const res = await call(emu, 'PUT', `${SQ}/${data.saved_object_id}`, { new_id: newId, query: 'SELECT 2;', interval: '30' });
    assert.equal(res.status, 200);
    const read = (await call(emu, 'GET', `${SQ}/${data.saved_object_id}`)).body.data;
    assert.equal(read.id, newId);
    assert.equal(read.query, 'SELECT 2;');
    assert.equal(read.interval, '30');
    for (const gone of ['description', 'platform', 'version', 'ecs_mapping']) assert.equal(read[gone], undefined, gone);
    assert.equal(read.snapshot, true);
    assert.equal(read.created_at, data.created_at);
  });

  it('update to a new_id another query holds answers 409 (service-api.md Errors: 409 conflict)', async () => {
    const a = await createSavedQuery(emu);
    const b = await createSavedQuery(emu);
    const res = await call(emu, 'PUT', `${SQ}/${b.saved_object_id}`, { new_id: a.id, query: 'SELECT 1;', interval: '60' });
    assert.equal(res.status, 409);
  });

  it('update and delete of an unknown saved_object_id answer 404 (service-api.md Errors: 404)', async () => {
    assert.equal((await call(emu, 'PUT', `${SQ}/nope`, { new_id: 'x', query: 'SELECT 1;', interval: '60' })).status, 404);
    assert.equal((await call(emu, 'DELETE', `${SQ}/nope`)).status, 404);
  });

  it('delete answers an empty object and the query is gone (wire-facts §8: delete returns {})', async () => {
    const data = await createSavedQuery(emu);
    const res = await call(emu, 'DELETE', `${SQ}/${data.saved_object_id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
    assert.equal((await call(emu, 'GET', `${SQ}/${data.saved_object_id}`)).status, 404);
  });

  it('find answers page, per_page, total and flattened data with id and saved_object_id, page 1 of 20 by default (service-api.md Host queries: "find paging as for packs"; "data items have id (name) and saved_object_id")', async () => {
    const fresh = await emulator();
    try {
      for (let i = 0; i < 25; i++) await createSavedQuery(fresh);
      const res = await call(fresh, 'GET', SQ);
      assert.equal(res.status, 200);
      assert.equal(res.body.page, 1);
      assert.equal(res.body.per_page, 20);
      assert.equal(res.body.total, 28); // 25 plus the three prebuilt queries
      assert.equal(res.body.data.length, 20);
      for (const item of res.body.data) {
        assert.equal(typeof item.id, 'string');
        assert.match(item.saved_object_id, UUID);
        assert.equal(typeof item.query, 'string');
      }
      const second = await call(fresh, 'GET', `${SQ}?page=2&pageSize=20`);
      assert.equal(second.body.data.length, 8);
      // service-api.md names the parameter page_size; the wire name is pageSize (wire-facts 0.4).
      const snake = await call(fresh, 'GET', `${SQ}?page=3&page_size=10`);
      assert.deepEqual([snake.body.per_page, snake.body.data.length], [10, 8]);
      const ids = new Set([...res.body.data, ...second.body.data].map((q: any) => q.saved_object_id));
      assert.equal(ids.size, 28);
    } finally {
      await fresh.stop();
    }
  });

  it('find sorts by createdAt by default, newest first, and honours sort and sortOrder (service-api.md Host queries: "sort (default createdAt), sort_order")', async () => {
    const fresh = await emulator();
    try {
      const made = [];
      for (const id of ['b-query', 'c-query', 'a-query']) made.push(await createSavedQuery(fresh, { id }));
      const byDefault = (await call(fresh, 'GET', SQ)).body.data.map((q: any) => q.id);
      assert.deepEqual(byDefault.slice(0, 3), ['a-query', 'c-query', 'b-query']);
      const byId = (await call(fresh, 'GET', `${SQ}?sort=id&sortOrder=asc`)).body.data.map((q: any) => q.id);
      assert.deepEqual(byId.slice(0, 3), ['a-query', 'b-query', 'c-query']);
      assert.equal((await call(fresh, 'GET', `${SQ}?sort=bogus`)).status, 400);
    } finally {
      await fresh.stop();
    }
  });

  it('find answers 400 past the search window page × pageSize > 10000 (brief: search window limit)', async () => {
    assert.equal((await call(emu, 'GET', `${SQ}?page=10&pageSize=1000`)).status, 200);
    const res = await call(emu, 'GET', `${SQ}?page=11&pageSize=1000`);
    assert.equal(res.status, 400);
    assert.equal((await call(emu, 'GET', `${SQ}?page=0`)).status, 400);
  });

  it('seeds prebuilt saved queries (prebuilt: true) that refuse update and delete with 409 (wire-facts §15 fact 5; osquery server/routes/saved_query/update_saved_query_route.ts and delete_saved_query_route.ts answer conflict)', async () => {
    const all = (await call(emu, 'GET', `${SQ}?pageSize=1000`)).body.data;
    const prebuilt = all.filter((q: any) => q.prebuilt === true);
    assert.ok(prebuilt.length >= 2);
    const target = prebuilt[0];
    const put = await call(emu, 'PUT', `${SQ}/${target.saved_object_id}`, { new_id: target.id, query: 'SELECT 1;', interval: '60' });
    assert.deepEqual([put.status, put.body.error, put.body.message], [409, 'Conflict', 'Elastic prebuilt Saved query cannot be updated.']);
    const del = await call(emu, 'DELETE', `${SQ}/${target.saved_object_id}`);
    assert.deepEqual([del.status, del.body.message], [409, 'Elastic prebuilt Saved query cannot be deleted.']);
    assert.equal((await call(emu, 'GET', `${SQ}/${target.saved_object_id}`)).status, 200);
  });

  it('a body that fails validation answers a platform 400 in io-ts wording (osquery server/utils/build_validation/route_validation.ts: formatErrors of @kbn/securitysolution-io-ts-utils)', async () => {
    const res = await call(emu, 'POST', SQ, { id: unique('sq'), interval: '60' });
    assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: '[request body]: Invalid value "undefined" supplied to "query"' });
    const nested = await call(emu, 'POST', SQ, { id: unique('sq'), query: 'SELECT 1;', interval: '60', ecs_mapping: { 'user.name': { field: 7 } } });
    assert.equal(nested.body.message, '[request body]: Invalid value "7" supplied to "ecs_mapping,user.name,field"');
  });

  it('accepts and ignores unknown keys, at the top and inside ecs_mapping entries (osquery common/api/saved_query/create_saved_query_route.ts: an io-ts t.type, not t.exact, so exactCheck reports nothing)', async () => {
    const data = await createSavedQuery(emu, { colour: 'blue', ecs_mapping: { 'user.name': { field: 'username', note: 'x' } } });
    assert.equal(data.colour, undefined);
    const read = (await call(emu, 'GET', `${SQ}/${data.saved_object_id}`)).body.data;
    assert.equal(read.colour, undefined);
    assert.deepEqual(read.ecs_mapping, { 'user.name': { field: 'username', note: 'x' } });
  });

  it('takes an ecs_mapping entry with field, value (string or strings) or neither (osquery-io-ts-types ecsMapping: a t.partial of field and value)', async () => {
    const data = await createSavedQuery(emu, { ecs_mapping: { a: { field: 'f' }, b: { value: 'v' }, c: { value: ['x', 'y'] }, d: {} } });
    assert.deepEqual(data.ecs_mapping, { a: { field: 'f' }, b: { value: 'v' }, c: { value: ['x', 'y'] }, d: {} });
    assert.equal((await call(emu, 'POST', SQ, { id: unique('sq'), query: 'SELECT 1;', interval: '60', ecs_mapping: { a: { value: 3 } } })).status, 400);
  });

  it('takes timeout from 60 to 900 seconds (osquery-io-ts-types timeout = inRangeRt(60, 60 * 15))', async () => {
    assert.equal((await createSavedQuery(emu, { timeout: 60 })).timeout, 60);
    assert.equal((await createSavedQuery(emu, { timeout: 900 })).timeout, 900);
    for (const timeout of [59, 901, '120']) {
      const res = await call(emu, 'POST', SQ, { id: unique('sq'), query: 'SELECT 1;', interval: '60', timeout });
      assert.equal(res.status, 400, String(timeout));
    }
  });
});

describe('emulator host queries: live queries, privileges and spaces', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'], credentials: KEYS.credentials });
  });
  after(() => emu.stop());
  const { full, viewer } = KEYS;

  it('a live query answers 400 because no agent is enrolled (service-api.md Host queries: "Live queries need at least one enrolled agent running the host-query integration")', async () => {
    const res = await call(emu, 'POST', '/api/hostquery/live_queries', { query: 'SELECT 1;', agent_all: true }, full);
    assert.equal(res.status, 400);
    assert.match(res.body.message, /enrolled agent/);
    const list = await call(emu, 'GET', '/api/hostquery/live_queries', undefined, full);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data, { items: [], total: 0 });
  });

  it('a live query body is decoded as the real io-ts t.partial: unknown keys pass, known keys must have their types (osquery common/api/live_query/create_live_query_route.ts; osquery-io-ts-types arrayQueries, timeout)', async () => {
    const post = (body: unknown) => call(emu, 'POST', '/api/hostquery/live_queries', body, full);
    const accepted = await post({ query: 'SELECT 1;', agent_all: true, colour: 'red', queries: [{ id: 'q', query: 'SELECT 2;', extra: 1 }] });
    assert.match(accepted.body.message, /enrolled agent/, 'only the missing agents refuse it');
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ query: 'SELECT 1;', agent_ids: 'agent-1' }, 'Invalid value "agent-1" supplied to "agent_ids"'],
      [{ query: 'SELECT 1;', tags: [1] }, 'Invalid value "1" supplied to "tags"'],
      [{ query: 'SELECT 1;', timeout: 30 }, 'Invalid value "30" supplied to "timeout"'],
      [{ queries: [{ id: 'q' }] }, 'Invalid value "undefined" supplied to "queries,query"'],
      [{ query: 'SELECT 1;', metadata: 'x' }, 'Invalid value "x" supplied to "metadata"'],
    ];
    for (const [body, message] of refused) {
      const res = await post(body);
      assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: `[request body]: ${message}` }, JSON.stringify(body));
    }
  });

  it('records its creator in created_by and updated_by (service-api.md Resources: "audit metadata")', async () => {
    const res = await call(emu, 'POST', SQ, { id: 'by-ops', query: 'SELECT 1;', interval: '60' }, full);
    assert.equal(res.body.data.created_by, 'ops');
  });

  it('a read-only key reads but gets Forbidden on writes (service-api.md Authentication 7: "insufficient privileges give an authorization error with reason Forbidden")', async () => {
    assert.equal((await call(emu, 'GET', PACKS, undefined, viewer)).status, 200);
    const res = await call(emu, 'POST', PACKS, { name: 'nope', queries: {} }, viewer);
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'Forbidden');
  });

  it('packs and saved queries of one space are invisible in another (service-api.md cross-cutting rule 1: "A resource created in one space is not visible from another")', async () => {
    const sq = await call(emu, 'POST', `/s/other${SQ}`, { id: 'only-in-other', query: 'SELECT 1;', interval: '60' }, full);
    const pack = await call(emu, 'POST', `/s/other${PACKS}`, { name: 'only-in-other', queries: {} }, full);
    assert.equal(sq.status, 200);
    assert.equal(pack.status, 200);
    assert.equal((await call(emu, 'GET', `${SQ}/${sq.body.data.saved_object_id}`, undefined, full)).status, 404);
    assert.equal((await call(emu, 'GET', `${PACKS}/${pack.body.data.saved_object_id}`, undefined, full)).status, 404);
    const defaultQueries = (await call(emu, 'GET', `${SQ}?pageSize=100`, undefined, full)).body.data.map((q: any) => q.id);
    const defaultPacks = (await call(emu, 'GET', `${PACKS}?pageSize=100`, undefined, full)).body.data.map((p: any) => p.name);
    assert.equal(defaultQueries.includes('only-in-other'), false);
    assert.equal(defaultPacks.includes('only-in-other'), false);
    // The same names are free in the default space.
    assert.equal((await call(emu, 'POST', PACKS, { name: 'only-in-other', queries: {} }, full)).status, 200);
    assert.equal((await call(emu, 'GET', `/s/other${PACKS}/${pack.body.data.saved_object_id}`, undefined, full)).status, 200);
  });
});
