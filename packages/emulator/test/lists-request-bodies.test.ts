import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * Value-list bodies are read as the server's generated zod (v4) schemas read them
 * (K-LISTS/api/{create_list,update_list,patch_list,create_list_item,update_list_item,patch_list_item}/*.gen.ts,
 * field types from K-LISTS/api/model/list_common.gen.ts; the same field sets in the OpenAPI document
 * at b76003905, paths /api/lists and /api/lists/items): plain z.objects, so unknown keys are
 * stripped and never stored (wire-facts §15 fact 6: security routes strip), required and typed
 * fields refused with the platform-shaped route-validation 400 (wire-facts 0.3).
 */

const LISTS = '/api/lists';
const ITEMS = '/api/lists/items';

describe('emulator value lists: request bodies as the real zod schemas read them', () => {
  let emu: RunningEmulator;
  let n = 0;
  const id = () => `body-list-${++n}`;
  before(async () => {
    emu = await emulator();
    assert.equal((await call(emu, 'POST', '/api/lists/index')).status, 200);
  });
  after(() => emu.stop());

  const refused = async (method: string, path: string, body: unknown, message: string) => {
    const res = await call(emu, method, path, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: `[request body]: ${message}` });
  };

  it('create strips keys the schema does not know and stores none of them (wire-facts §15 fact 6: security routes validate with zod; create_list.gen.ts: z.object, not strict)', async () => {
    const res = await call(emu, 'POST', LISTS, { id: id(), name: 'n', description: 'd', type: 'ip', colour: 'red', immutable: true });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.colour, undefined);
    assert.equal(res.body.immutable, false, 'a server-managed field in the body is stripped too');
    assert.equal((await call(emu, 'GET', `${LISTS}?id=${res.body.id}`)).body.colour, undefined);
  });

  it('names, descriptions and ids must not be blank (list_common.gen.ts: z.string().min(1) with isNonEmptyString)', async () => {
    await refused('POST', LISTS, { name: '   ', description: 'd', type: 'ip' }, 'name: No empty strings allowed');
    await refused('POST', LISTS, { name: 'n', description: '', type: 'ip' }, 'description: Too small: expected string to have >=1 characters, description: No empty strings allowed');
    await refused('POST', LISTS, { id: 7, name: 'n', description: 'd', type: 'ip' }, 'id: Invalid input: expected string, received number');
  });

  it('version is an integer of at least 1 and meta an object (list_common.gen.ts ListVersion, ListMetadata)', async () => {
    await refused('POST', LISTS, { name: 'n', description: 'd', type: 'ip', version: 0 }, 'version: Too small: expected number to be >=1');
    await refused('POST', LISTS, { name: 'n', description: 'd', type: 'ip', version: 1.5 }, 'version: Invalid input: expected int, received number');
    await refused('POST', LISTS, { name: 'n', description: 'd', type: 'ip', meta: 'x' }, 'meta: Invalid input: expected object, received string');
    await refused('POST', LISTS, [], 'Invalid input: expected object, received array');
  });

  it('PUT and PATCH strip unknown keys, PATCH takes name and description as optional (update_list.gen.ts, patch_list.gen.ts)', async () => {
    const list = (await call(emu, 'POST', LISTS, { id: id(), name: 'n', description: 'd', type: 'ip' })).body;
    const put = await call(emu, 'PUT', LISTS, { id: list.id, name: 'n2', description: 'd2', colour: 'red' });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.colour, undefined);
    await refused('PUT', LISTS, { id: list.id, name: 'n' }, 'description: Invalid input: expected string, received undefined');
    const patch = await call(emu, 'PATCH', LISTS, { id: list.id, colour: 'red' });
    assert.equal(patch.status, 200, patch.text);
    assert.equal(patch.body.colour, undefined);
    await refused('PATCH', LISTS, { id: list.id, name: '' }, 'name: Too small: expected string to have >=1 characters, name: No empty strings allowed');
    await refused('PATCH', LISTS, { name: 'n' }, 'id: Invalid input: expected string, received undefined');
  });

  it('items: create and PATCH take refresh from its enum, PUT strips it (create_list_item.gen.ts, patch_list_item.gen.ts, update_list_item.gen.ts)', async () => {
    const list = (await call(emu, 'POST', LISTS, { id: id(), name: 'n', description: 'd', type: 'keyword' })).body;
    const item = await call(emu, 'POST', ITEMS, { list_id: list.id, value: 'a', refresh: 'wait_for', colour: 'red' });
    assert.equal(item.status, 200, item.text);
    assert.equal(item.body.colour, undefined);
    await refused('POST', ITEMS, { list_id: list.id, value: 'b', refresh: 'soon' }, 'refresh: Invalid option: expected one of "true"|"false"|"wait_for"');
    await refused('POST', ITEMS, { list_id: list.id, value: '' }, 'value: Too small: expected string to have >=1 characters, value: No empty strings allowed');
    await refused('PATCH', ITEMS, { id: item.body.id, refresh: 'soon' }, 'refresh: Invalid option: expected one of "true"|"false"|"wait_for"');
    const put = await call(emu, 'PUT', ITEMS, { id: item.body.id, value: 'c', refresh: 'soon' });
    assert.equal(put.status, 200, 'PUT declares no refresh, so any refresh is stripped');
    await refused('PUT', ITEMS, { id: item.body.id, value: 'c', meta: [] }, 'meta: Invalid input: expected object, received array');
  });

  it('the item delete takes refresh from its enum in the query (delete_list_item.gen.ts DeleteListItemRequestQuery; OAS DeleteListItem refresh)', async () => {
    const list = (await call(emu, 'POST', LISTS, { id: id(), name: 'n', description: 'd', type: 'keyword' })).body;
    const item = (await call(emu, 'POST', ITEMS, { list_id: list.id, value: 'a' })).body;
    const bad = await call(emu, 'DELETE', `${ITEMS}?id=${item.id}&refresh=bogus`);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { statusCode: 400, error: 'Bad Request', message: '[request query]: refresh: Invalid option: expected one of "true"|"false"|"wait_for"' });
    assert.equal((await call(emu, 'GET', `${ITEMS}?id=${item.id}`)).status, 200, 'a refused delete deletes nothing');
    assert.equal((await call(emu, 'DELETE', `${ITEMS}?id=${item.id}&refresh=wait_for`)).status, 200);
  });

  it('query parameters the route requires answer the same 400 under [request query] (read_list.gen.ts ReadListRequestQuery)', async () => {
    const res = await call(emu, 'GET', LISTS);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: '[request query]: id: Invalid input: expected string, received undefined' });
  });
});
