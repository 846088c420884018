import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { LIST_TYPES } from '../src/areas/lists/values.js';

const LISTS = '/api/lists';
const ITEMS = '/api/lists/items';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

async function createList(emu: RunningEmulator, body: Record<string, unknown> = {}, space = ''): Promise<any> {
  const res = await call(emu, 'POST', `${space}${LISTS}`, { id: unique('list'), name: 'Blocked', description: 'Blocked addresses', type: 'ip', ...body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

async function createItem(emu: RunningEmulator, listId: string, value: string, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await call(emu, 'POST', ITEMS, { list_id: listId, value, ...extra });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

async function findItems(emu: RunningEmulator, query: string): Promise<any> {
  const res = await call(emu, 'GET', `${ITEMS}/_find?${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describe('emulator value lists: data streams', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('status of a fresh space is 404 naming both missing streams (service-api.md Errors: "Value list data streams missing on status or delete | 404 | message names the missing streams")', async () => {
    const res = await call(emu, 'GET', `${LISTS}/index`);
    assert.equal(res.status, 404);
    assert.equal(res.body.status_code, 404);
    assert.match(res.body.message, /\.lists-default/);
    assert.match(res.body.message, /\.items-default/);
  });

  it('delete of missing streams is 404 naming them (service-api.md Value lists: DELETE /api/lists/index "404 when missing")', async () => {
    const res = await call(emu, 'DELETE', `${LISTS}/index`);
    assert.equal(res.status, 404);
    assert.match(res.body.message, /\.lists-default.*\.items-default/);
  });

  it('a list cannot be created before the streams exist (service-api.md Value lists: "400 when the data streams do not exist")', async () => {
    const res = await call(emu, 'POST', LISTS, { id: 'early', name: 'n', description: 'd', type: 'ip' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      message: 'To create a list, the data stream must exist first. Data stream ".lists-default" does not exist',
      status_code: 400,
    });
  });

  it('items cannot be imported before the streams exist (service-api.md Errors: "Value list created before the list data streams exist | 400")', async () => {
    const res = await postFile(emu, `${ITEMS}/_import?type=ip`, '10.0.0.1\n', 'early.txt');
    assert.equal(res.status, 400);
    assert.match(res.body.message, /To import a list item, the data stream must exist first/);
  });

  it('POST /api/lists/index answers {acknowledged: true} and is idempotent (service-api.md Value lists: "`{acknowledged: true}`; idempotent")', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await call(emu, 'POST', `${LISTS}/index`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { acknowledged: true });
    }
  });

  it('status then reports both streams (service-api.md Value lists: GET /api/lists/index "list_index, list_item_index")', async () => {
    const res = await call(emu, 'GET', `${LISTS}/index`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { list_index: true, list_item_index: true });
  });

  it('DELETE /api/lists/index deletes all lists and items of the space (service-api.md Value lists: "deletes all lists and items of the space")', async () => {
    const list = await createList(emu);
    const item = await createItem(emu, list.id, '10.1.1.1');
    const res = await call(emu, 'DELETE', `${LISTS}/index`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { acknowledged: true });
    assert.equal((await call(emu, 'GET', `${LISTS}/index`)).status, 404);
    assert.equal((await call(emu, 'GET', `${LISTS}?id=${list.id}`)).status, 404);
    assert.equal((await call(emu, 'GET', `${ITEMS}?id=${item.id}`)).status, 404);
    await call(emu, 'POST', `${LISTS}/index`);
    assert.equal((await call(emu, 'GET', `${LISTS}/_find`)).body.total, 0);
  });
});

describe('emulator value lists: lists', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    await call(emu, 'POST', `${LISTS}/index`);
  });
  after(() => emu.stop());

  it('create answers the list with the server-managed fields, version default 1 (service-api.md Value lists: "version (default 1)"; wire-facts 3.2)', async () => {
    const res = await call(emu, 'POST', LISTS, { id: 'blocked-ips', name: 'Blocked IPs', description: 'Known bad', type: 'ip', meta: { owner: 'soc' } });
    assert.equal(res.status, 200);
    const list = res.body;
    assert.equal(list.id, 'blocked-ips');
    assert.equal(list.type, 'ip');
    assert.equal(list.version, 1);
    assert.equal(list.immutable, false);
    assert.deepEqual(list.meta, { owner: 'soc' });
    assert.match(list.tie_breaker_id, UUID);
    assert.ok(Array.isArray(JSON.parse(Buffer.from(list._version, 'base64').toString())), '_version is a base64 token');
    assert.equal(list.created_by, 'elastic');
    assert.equal(list.updated_by, 'elastic');
    assert.equal(list['@timestamp'], list.created_at);
    assert.equal(list.updated_at, list.created_at);
  });

  it('create without an id gets a generated one (service-api.md Value lists: "id" optional on create)', async () => {
    const res = await call(emu, 'POST', LISTS, { name: 'n', description: 'd', type: 'keyword' });
    assert.equal(res.status, 200);
    assert.match(res.body.id, UUID);
  });

  it('create requires name, description and type with a platform-shaped 400 in zod v4 words (service-api.md Value lists: "name, description, type R"; wire-facts 0.3; K-LISTS/api/create_list/create_list.gen.ts)', async () => {
    const expected: Record<string, string> = {
      name: 'name: Invalid input: expected string, received undefined',
      description: 'description: Invalid input: expected string, received undefined',
      type: `type: Invalid option: expected one of ${LIST_TYPES.map((t) => `"${t}"`).join('|')}`,
    };
    for (const missing of ['name', 'description', 'type']) {
      const body: Record<string, unknown> = { name: 'n', description: 'd', type: 'ip' };
      delete body[missing];
      const res = await call(emu, 'POST', LISTS, body);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: `[request body]: ${expected[missing]}` });
    }
  });

  it('create rejects a type outside the enum (wire-facts 3.2: "type enum: binary, boolean, byte, ...")', async () => {
    const bad = await call(emu, 'POST', LISTS, { name: 'n', description: 'd', type: 'uuid' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /^\[request body\]: type: Invalid option: expected one of "binary"\|/);
    for (const type of ['ip_range', 'date_nanos', 'geo_point', 'half_float', 'long_range']) {
      assert.equal((await call(emu, 'POST', LISTS, { name: 'n', description: 'd', type })).status, 200, type);
    }
  });

  it('create with an existing id is 409 (service-api.md Value lists: "409 when id exists"; wire-facts 3.1: list id: "x" already exists)', async () => {
    const list = await createList(emu);
    const res = await call(emu, 'POST', LISTS, { id: list.id, name: 'n', description: 'd', type: 'ip' });
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, { message: `list id: "${list.id}" already exists`, status_code: 409 });
  });

  it('get by id answers the list, 404 if absent, 400 without id (service-api.md Value lists: GET /api/lists "id R ... 404 if absent")', async () => {
    const list = await createList(emu);
    const res = await call(emu, 'GET', `${LISTS}?id=${list.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, list);
    const missing = await call(emu, 'GET', `${LISTS}?id=nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.status_code, 404);
    assert.equal((await call(emu, 'GET', LISTS)).status, 400);
  });

  it('PUT replaces: unspecified fields are deleted, version increments (service-api.md Value lists: "unspecified fields are deleted")', async () => {
    const list = await createList(emu, { meta: { a: 1 } });
    const res = await call(emu, 'PUT', LISTS, { id: list.id, name: 'Renamed', description: 'New' });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'Renamed');
    assert.equal(res.body.description, 'New');
    assert.equal(res.body.meta, undefined);
    assert.equal(res.body.version, 2);
    assert.equal(res.body.type, 'ip');
    assert.notEqual(res.body._version, list._version);
    assert.equal(res.body.created_at, list.created_at);
    assert.deepEqual((await call(emu, 'GET', `${LISTS}?id=${list.id}`)).body, res.body);
  });

  it('PUT requires id, name and description; a type sent is stripped and never changes the list (service-api.md Value lists: "id, name, description R"; wire-facts 3.1: "type cannot be sent"; K-LISTS/api/update_list/update_list.gen.ts: a z.object without type)', async () => {
    const list = await createList(emu);
    assert.equal((await call(emu, 'PUT', LISTS, { id: list.id, name: 'n' })).status, 400);
    assert.equal((await call(emu, 'PUT', LISTS, { name: 'n', description: 'd' })).status, 400);
    const typed = await call(emu, 'PUT', LISTS, { id: list.id, name: 'n', description: 'd', type: 'keyword' });
    assert.equal(typed.status, 200);
    assert.equal(typed.body.type, 'ip');
    assert.equal((await call(emu, 'PUT', LISTS, { id: 'nope', name: 'n', description: 'd' })).status, 404);
  });

  it('PUT and PATCH set the version given instead of incrementing it (wire-facts 3.1: PUT/PATCH "version?")', async () => {
    const list = await createList(emu);
    assert.equal((await call(emu, 'PUT', LISTS, { id: list.id, name: 'n', description: 'd', version: 7 })).body.version, 7);
    assert.equal((await call(emu, 'PATCH', LISTS, { id: list.id, version: 3 })).body.version, 3);
  });

  it('a stale _version gives 409, the current one passes (wire-facts 0.5: "when _version is sent on an update and is stale, the update fails with 409")', async () => {
    const list = await createList(emu);
    const first = await call(emu, 'PUT', LISTS, { id: list.id, name: 'a', description: 'd', _version: list._version });
    assert.equal(first.status, 200);
    for (const method of ['PUT', 'PATCH']) {
      const stale = await call(emu, method, LISTS, { id: list.id, name: 'b', description: 'd', _version: list._version });
      assert.equal(stale.status, 409, method);
      assert.match(stale.body.message, /versions mismatch/);
    }
    assert.equal((await call(emu, 'PATCH', LISTS, { id: list.id, name: 'c', _version: first.body._version })).status, 200);
  });

  it('PATCH changes only what it is given and bumps the version (service-api.md Value lists: PATCH "id R; name, description, meta, _version, version")', async () => {
    const list = await createList(emu, { meta: { keep: true } });
    const res = await call(emu, 'PATCH', LISTS, { id: list.id, description: 'Only this' });
    assert.equal(res.status, 200);
    assert.equal(res.body.description, 'Only this');
    assert.equal(res.body.name, list.name);
    assert.deepEqual(res.body.meta, { keep: true });
    assert.equal(res.body.version, 2);
    assert.equal((await call(emu, 'PATCH', LISTS, { name: 'x' })).status, 400);
    assert.equal((await call(emu, 'PATCH', LISTS, { id: 'nope', name: 'x' })).status, 404);
  });

  it('DELETE answers the deleted list and deletes its items; reference flags are accepted (service-api.md Value lists: "deleted list; its items are deleted too")', async () => {
    const list = await createList(emu);
    const item = await createItem(emu, list.id, '10.0.0.1');
    const res = await call(emu, 'DELETE', `${LISTS}?id=${list.id}&delete_references=false&ignore_references=true`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, list);
    assert.equal((await call(emu, 'GET', `${LISTS}?id=${list.id}`)).status, 404);
    assert.equal((await call(emu, 'GET', `${ITEMS}?id=${item.id}`)).status, 404);
    const again = await call(emu, 'DELETE', `${LISTS}?id=${list.id}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.status_code, 404);
  });

  it('find answers {data, page, per_page, total, cursor} with 20 per page by default (service-api.md Value lists: "per_page (default 20 per page)")', async () => {
    for (let i = 0; i < 25; i++) await createList(emu, { name: `bulk-${String(i).padStart(2, '0')}` });
    const res = await call(emu, 'GET', `${LISTS}/_find`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['cursor', 'data', 'page', 'per_page', 'total']);
    assert.equal(res.body.page, 1);
    assert.equal(res.body.per_page, 20);
    assert.equal(res.body.data.length, 20);
    assert.ok(res.body.total >= 25);
    assert.equal(typeof res.body.cursor, 'string');
  });

  it('find sorts by sort_field and sort_order and filters on <field>:<value> (service-api.md Value lists: "sort_field, sort_order, cursor, filter (`<field>:<value>`)")', async () => {
    const asc = await call(emu, 'GET', `${LISTS}/_find?filter=name:bulk-*&sort_field=name&sort_order=asc&per_page=100`);
    const names = asc.body.data.map((l: any) => l.name);
    assert.equal(asc.body.total, 25);
    assert.deepEqual(names, [...names].sort());
    const desc = await call(emu, 'GET', `${LISTS}/_find?filter=name:bulk-*&sort_field=name&sort_order=desc&per_page=3`);
    assert.deepEqual(desc.body.data.map((l: any) => l.name), ['bulk-24', 'bulk-23', 'bulk-22']);
    const one = await call(emu, 'GET', `${LISTS}/_find?filter=${encodeURIComponent('name:"bulk-07"')}`);
    assert.equal(one.body.total, 1);
    assert.equal((await call(emu, 'GET', `${LISTS}/_find?sort_order=up`)).status, 400);
    assert.equal((await call(emu, 'GET', `${LISTS}/_find?per_page=0`)).status, 400);
  });

  it('find without a cursor is bounded by the search window (brief: page*per_page <= 10000 else 400)', async () => {
    assert.equal((await call(emu, 'GET', `${LISTS}/_find?page=1&per_page=10000`)).status, 200);
    const res = await call(emu, 'GET', `${LISTS}/_find?page=2&per_page=10000`);
    assert.equal(res.status, 400);
    assert.match(res.body.message, /Result window is too large/);
  });

  it('privileges answer lists, listItems and is_authenticated (wire-facts 3.1: GET /api/lists/privileges)', async () => {
    const res = await call(emu, 'GET', `${LISTS}/privileges`);
    assert.equal(res.status, 200);
    assert.equal(res.body.is_authenticated, true);
    assert.ok(res.body.lists.index['.lists-default']);
    assert.ok(res.body.listItems.index['.items-default']);
    assert.equal(res.body.lists.has_all_requested, true);
  });
});

describe('emulator value lists: items', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    await call(emu, 'POST', `${LISTS}/index`);
  });
  after(() => emu.stop());

  it('create answers the item with its list type and server fields (wire-facts 3.2: Item "{id, list_id, type, value, _version, tie_breaker_id, ...}")', async () => {
    const list = await createList(emu);
    const res = await call(emu, 'POST', ITEMS, { list_id: list.id, value: '10.0.0.1', id: 'first', meta: { src: 'feed' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, 'first');
    assert.equal(res.body.list_id, list.id);
    assert.equal(res.body.type, 'ip');
    assert.equal(res.body.value, '10.0.0.1');
    assert.deepEqual(res.body.meta, { src: 'feed' });
    assert.match(res.body.tie_breaker_id, UUID);
    assert.equal(typeof res.body._version, 'string');
    assert.equal(res.body['@timestamp'], res.body.created_at);
  });

  it('create needs list_id and value, 404 when the list is missing, 409 when the item id exists (wire-facts 3.1: "404 if the list is missing; 409 if the item id exists")', async () => {
    const list = await createList(emu);
    assert.equal((await call(emu, 'POST', ITEMS, { list_id: list.id })).status, 400);
    const missing = await call(emu, 'POST', ITEMS, { list_id: 'nope', value: '10.0.0.1' });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: 'list id: "nope" does not exist', status_code: 404 });
    await createItem(emu, list.id, '10.0.0.2', { id: 'dup' });
    const dup = await call(emu, 'POST', ITEMS, { list_id: list.id, value: '10.0.0.3', id: 'dup' });
    assert.equal(dup.status, 409);
    assert.deepEqual(dup.body, { message: 'list item id: "dup" already exists', status_code: 409 });
  });

  // The same rules as svcform's offline check (src/common/list-values.ts, test/unit/list-values.test.ts).
  // A decimal part is truncated for integer types: the backend's `coerce` is on by default ("Floating
  // points will be truncated for integer values", elastic.co mapping parameter coerce).
  it('validates each value against the list type with a 400 on a bad value (wire-facts 3.2: "a bad IP gives 400")', async () => {
    const cases: Array<[string, string[], string[]]> = [
      ['ip', ['192.168.0.1', '2001:db8::1'], ['300.1.1.1', '192.0.2.300', 'host-a']],
      ['ip_range', ['10.0.0.0/8', '2001:db8::/32', '10.0.0.1-10.0.0.9'], ['10.0.0.0/33', 'ten/8']],
      ['integer', ['42', '-2147483648', '4.2'], ['2147483648', 'x']],
      ['long', ['9223372036854775807'], ['9223372036854775808', 'x']],
      ['short', ['32767'], ['32768']],
      ['byte', ['-128'], ['128']],
      ['double', ['3.14', '-1e10'], ['pi']],
      ['float', ['0.5'], ['half']],
      ['date', ['2026-01-01T00:00:00Z', '1700000000000'], ['yesterday']],
      ['keyword', ['anything at all'], []],
      ['text', ['free text'], []],
    ];
    for (const [type, good, bad] of cases) {
      const list = await createList(emu, { type });
      for (const value of good) assert.equal((await call(emu, 'POST', ITEMS, { list_id: list.id, value })).status, 200, `${type} ${value}`);
      for (const value of bad) {
        const res = await call(emu, 'POST', ITEMS, { list_id: list.id, value });
        assert.equal(res.status, 400, `${type} ${value}`);
        assert.equal(res.body.status_code, 400);
        assert.match(res.body.message, /failed to parse field/);
      }
    }
  });

  it('get by id answers one item; by list_id and value an array; 404 and 400 otherwise (wire-facts 3.1: "the response is one item or an array")', async () => {
    const list = await createList(emu);
    const item = await createItem(emu, list.id, '10.9.9.9');
    const byId = await call(emu, 'GET', `${ITEMS}?id=${item.id}`);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body, item);
    const byValue = await call(emu, 'GET', `${ITEMS}?list_id=${list.id}&value=10.9.9.9`);
    assert.equal(byValue.status, 200);
    assert.deepEqual(byValue.body, [item]);
    assert.equal((await call(emu, 'GET', `${ITEMS}?id=nope`)).status, 404);
    assert.equal((await call(emu, 'GET', `${ITEMS}?list_id=${list.id}&value=10.0.0.0`)).status, 404);
    assert.equal((await call(emu, 'GET', `${ITEMS}?list_id=nope&value=10.0.0.0`)).status, 404);
    const neither = await call(emu, 'GET', ITEMS);
    assert.equal(neither.status, 400);
    assert.deepEqual(neither.body, { message: 'Either "list_id" or "id" needs to be defined in the request', status_code: 400 });
  });

  it('PUT replaces value and meta, validates the value and checks _version (wire-facts 3.1: replace item "{id, value, meta?, _version?}")', async () => {
    const list = await createList(emu);
    const item = await createItem(emu, list.id, '10.0.0.1', { meta: { a: 1 } });
    const res = await call(emu, 'PUT', ITEMS, { id: item.id, value: '10.0.0.2', _version: item._version });
    assert.equal(res.status, 200);
    assert.equal(res.body.value, '10.0.0.2');
    assert.equal(res.body.meta, undefined);
    assert.equal((await call(emu, 'GET', `${ITEMS}?list_id=${list.id}&value=10.0.0.2`)).body[0].id, item.id);
    assert.equal((await call(emu, 'GET', `${ITEMS}?list_id=${list.id}&value=10.0.0.1`)).status, 404);
    assert.equal((await call(emu, 'PUT', ITEMS, { id: item.id, value: '10.0.0.3', _version: item._version })).status, 409);
    assert.equal((await call(emu, 'PUT', ITEMS, { id: item.id, value: 'not-an-ip' })).status, 400);
    assert.equal((await call(emu, 'PUT', ITEMS, { id: item.id })).status, 400);
    assert.equal((await call(emu, 'PUT', ITEMS, { id: 'nope', value: '10.0.0.3' })).status, 404);
  });

  it('PATCH changes only what it is given (wire-facts 3.1: patch item "{id, value?, meta?, _version?, refresh?}")', async () => {
    const list = await createList(emu);
    const item = await createItem(emu, list.id, '10.0.0.1', { meta: { a: 1 } });
    const res = await call(emu, 'PATCH', ITEMS, { id: item.id, meta: { b: 2 }, refresh: 'wait_for' });
    assert.equal(res.status, 200);
    assert.equal(res.body.value, '10.0.0.1');
    assert.deepEqual(res.body.meta, { b: 2 });
    assert.equal((await call(emu, 'PATCH', ITEMS, { id: item.id, value: '10.0.0.7' })).body.value, '10.0.0.7');
  });

  it('DELETE by id answers the item; by list_id and value an array (wire-facts 3.1: "response is an item or an array")', async () => {
    const list = await createList(emu);
    const a = await createItem(emu, list.id, '10.0.0.1');
    const b = await createItem(emu, list.id, '10.0.0.2');
    const byId = await call(emu, 'DELETE', `${ITEMS}?id=${a.id}`);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body, a);
    const byValue = await call(emu, 'DELETE', `${ITEMS}?list_id=${list.id}&value=10.0.0.2`);
    assert.equal(byValue.status, 200);
    assert.deepEqual(byValue.body, [b]);
    assert.equal((await call(emu, 'DELETE', `${ITEMS}?id=${a.id}`)).status, 404);
    assert.equal((await call(emu, 'DELETE', `${ITEMS}?list_id=${list.id}&value=10.0.0.2`)).status, 404);
    assert.equal((await call(emu, 'DELETE', ITEMS)).status, 400);
    assert.equal((await findItems(emu, `list_id=${list.id}`)).total, 0);
  });

  it('find needs list_id, 404 for a missing list, 20 per page by default (wire-facts 0.4: items/_find "list_id (required)", "{page, per_page, total, cursor, data[]}")', async () => {
    const list = await createList(emu);
    for (let i = 0; i < 23; i++) await createItem(emu, list.id, `10.0.1.${i}`);
    const res = await findItems(emu, `list_id=${list.id}`);
    assert.deepEqual(Object.keys(res).sort(), ['cursor', 'data', 'page', 'per_page', 'total']);
    assert.equal(res.per_page, 20);
    assert.equal(res.data.length, 20);
    assert.equal(res.total, 23);
    const noList = await call(emu, 'GET', `${ITEMS}/_find`);
    assert.equal(noList.status, 400);
    assert.equal(noList.body.statusCode, 400);
    assert.equal((await call(emu, 'GET', `${ITEMS}/_find?list_id=nope`)).status, 404);
    const filtered = await findItems(emu, `list_id=${list.id}&filter=${encodeURIComponent('value:10.0.1.7')}`);
    assert.deepEqual(filtered.data.map((i: any) => i.value), ['10.0.1.7']);
    const sorted = await findItems(emu, `list_id=${list.id}&sort_field=value&sort_order=desc&per_page=2`);
    assert.deepEqual(sorted.data.map((i: any) => i.value), ['10.0.1.9', '10.0.1.8']);
  });

  it('the cursor pages past the 10,000 search window (brief: "the cursor must let a caller page past the 10,000 search window")', async () => {
    const list = await createList(emu);
    const values = Array.from({ length: 25_000 }, (_, i) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
    assert.equal((await postFile(emu, `${ITEMS}/_import?list_id=${list.id}`, values.join('\n'), 'big.txt')).status, 200);
    const beyond = await call(emu, 'GET', `${ITEMS}/_find?list_id=${list.id}&page=2&per_page=10000`);
    assert.equal(beyond.status, 400);
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; page <= 3; page++) {
      const body = await findItems(emu, `list_id=${list.id}&page=${page}&per_page=10000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(body.total, 25_000);
      for (const item of body.data) seen.add(item.value);
      cursor = body.cursor;
    }
    assert.equal(seen.size, 25_000);
    const bad = await call(emu, 'GET', `${ITEMS}/_find?list_id=${list.id}&cursor=not-base64-json`);
    assert.equal(bad.status, 400);
  });

  it('import adds newline-separated values, ignores blank lines, never adds a value twice and answers the List (wire-facts 3.1: import "returns the List object")', async () => {
    const list = await createList(emu);
    await createItem(emu, list.id, '10.0.0.1');
    const res = await postFile(emu, `${ITEMS}/_import?list_id=${list.id}`, '10.0.0.1\r\n\n10.0.0.2\n  \n10.0.0.3\n10.0.0.2\n', 'feed.txt');
    assert.equal(res.status, 200);
    assert.equal(res.body.id, list.id);
    assert.equal(res.body.type, 'ip');
    const found = await findItems(emu, `list_id=${list.id}&per_page=100&sort_field=value`);
    assert.deepEqual(found.data.map((i: any) => i.value), ['10.0.0.1', '10.0.0.2', '10.0.0.3']);
  });

  it('import with type and no list_id creates a list named after the file (service-api.md Value lists: "list_id or type and filename for a new list")', async () => {
    const res = await postFile(emu, `${ITEMS}/_import?type=keyword`, 'alpha\nbeta\n', 'hosts.csv');
    assert.equal(res.status, 200);
    assert.equal(res.body.id, 'hosts.csv');
    assert.equal(res.body.name, 'hosts.csv');
    assert.equal(res.body.type, 'keyword');
    assert.equal((await findItems(emu, 'list_id=hosts.csv')).total, 2);
  });

  it('import without list_id or type is 400 (wire-facts 3.1: "needs list_id or type (400 otherwise)")', async () => {
    const res = await postFile(emu, `${ITEMS}/_import`, 'a\n', 'a.txt');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { message: 'Either type or list_id need to be defined in the query', status_code: 400 });
  });

  it('import into a missing list, of a non-text file, or of a bad value is refused without adding anything (wire-facts 3.1: import ".txt/.csv")', async () => {
    assert.equal((await postFile(emu, `${ITEMS}/_import?list_id=nope`, 'a\n', 'a.txt')).status, 409);
    const list = await createList(emu);
    assert.equal((await postFile(emu, `${ITEMS}/_import?list_id=${list.id}`, '10.0.0.1\n', 'a.ndjson')).status, 415);
    const bad = await postFile(emu, `${ITEMS}/_import?list_id=${list.id}`, '10.0.0.1\nnot-an-ip\n', 'a.txt');
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /not-an-ip/);
    assert.equal((await findItems(emu, `list_id=${list.id}`)).total, 0);
  });

  it('export answers the values as newline-separated text (wire-facts 3.1: export "returns newline-separated text")', async () => {
    const list = await createList(emu);
    await postFile(emu, `${ITEMS}/_import?list_id=${list.id}`, '10.0.0.1\n10.0.0.2\n', 'a.txt');
    const res = await call(emu, 'POST', `${ITEMS}/_export?list_id=${list.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.text.split('\n').filter(Boolean).sort().join(','), '10.0.0.1,10.0.0.2');
    assert.ok(res.text.endsWith('\n'));
    assert.equal((await call(emu, 'POST', `${ITEMS}/_export?list_id=nope`)).status, 400);
  });

  it('export answers the values in tie_breaker_id order, as _find without a sort field, whatever the ids and however they were written (lists plugin services/items/write_list_items_to_stream.ts: sort tie_breaker_id asc)', async () => {
    const list = await createList(emu);
    const first = await createItem(emu, list.id, '10.0.0.1', { id: 'item-first' });
    // An id that reads as a number: an object enumerates such keys before all others.
    await createItem(emu, list.id, '10.0.0.2', { id: '7' });
    await createItem(emu, list.id, '10.0.0.3');
    // A changed value keeps the item's tie_breaker_id, so its place.
    assert.equal((await call(emu, 'PUT', ITEMS, { id: first.id, value: '10.0.0.9' })).status, 200);
    const found = await findItems(emu, `list_id=${list.id}&per_page=10`);
    const res = await call(emu, 'POST', `${ITEMS}/_export?list_id=${list.id}`);
    assert.equal(res.text, found.data.map((item: { value: string }) => `${item.value}\n`).join(''));
    assert.equal(res.text, '10.0.0.9\n10.0.0.2\n10.0.0.3\n');
    const byTieBreaker = [...found.data].sort((a: { tie_breaker_id: string }, b: { tie_breaker_id: string }) => (a.tie_breaker_id < b.tie_breaker_id ? -1 : 1));
    assert.deepEqual(found.data, byTieBreaker);
  });

  it('copes with 100,000 items in one list: import, lookup and delete by value stay fast (brief: "Value lists must cope with 100,000 items per list")', async () => {
    const list = await createList(emu);
    const values = Array.from({ length: 100_000 }, (_, i) => `172.${16 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`);
    const started = Date.now();
    assert.equal((await postFile(emu, `${ITEMS}/_import?list_id=${list.id}`, values.join('\n'), 'big.txt')).status, 200);
    // A second import of the same values must find each one by value, not scan the list.
    assert.equal((await postFile(emu, `${ITEMS}/_import?list_id=${list.id}`, values.join('\n'), 'big.txt')).status, 200);
    for (let i = 0; i < 200; i++) {
      assert.equal((await call(emu, 'DELETE', `${ITEMS}?list_id=${list.id}&value=${values[i * 400]}`)).status, 200);
    }
    assert.equal((await call(emu, 'GET', `${ITEMS}?list_id=${list.id}&value=${values[99_999]}`)).status, 200);
    assert.equal((await findItems(emu, `list_id=${list.id}&per_page=1`)).total, 99_800);
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
  });
});

describe('emulator value lists: spaces', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'] });
  });
  after(() => emu.stop());

  it('lists, items and data streams of space A are invisible in space B (service-api.md cross-cutting rule 1; wire-facts 0.1: ".lists-<space>")', async () => {
    await call(emu, 'POST', `${LISTS}/index`);
    const list = await createList(emu, { id: 'shared-name' });
    const item = await createItem(emu, list.id, '10.0.0.1');
    const status = await call(emu, 'GET', `/s/other${LISTS}/index`);
    assert.equal(status.status, 404);
    assert.match(status.body.message, /\.lists-other/);
    await call(emu, 'POST', `/s/other${LISTS}/index`);
    assert.equal((await call(emu, 'GET', `/s/other${LISTS}?id=shared-name`)).status, 404);
    assert.equal((await call(emu, 'GET', `/s/other${ITEMS}?id=${item.id}`)).status, 404);
    assert.equal((await call(emu, 'GET', `/s/other${LISTS}/_find`)).body.total, 0);
    const again = await call(emu, 'POST', `/s/other${LISTS}`, { id: 'shared-name', name: 'n', description: 'd', type: 'keyword' });
    assert.equal(again.status, 200);
    assert.equal((await call(emu, 'GET', `${LISTS}?id=shared-name`)).body.type, 'ip');
  });
});
