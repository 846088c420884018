import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '../src/server.js';
import { call, emulator, postFile } from '../src/testing.js';

/** The exception-list area (/api/exception_lists): each behaviour with its source. */

const list = (over: Record<string, unknown> = {}) => ({ list_id: 'allow', name: 'Allow', description: 'Known good', type: 'detection', ...over });
const item = (over: Record<string, unknown> = {}) => ({
  list_id: 'allow', item_id: 'scanner', type: 'simple', name: 'Scanner', description: 'Weekly scan',
  entries: [{ field: 'source.ip', type: 'match', operator: 'included', value: '10.0.0.5' }], ...over,
});

describe('emulator: exception lists and items', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['soc'] });
  });
  beforeEach(async () => {
    await call(emu, 'POST', '/__emulator/reset');
  });
  after(() => emu.stop());

  it('creates a list with the create schema defaults (OpenAPI b76003905 POST /api/exception_lists: namespace_type single, tags [], version 1; wire-facts 4.2)', async () => {
    const res = await call(emu, 'POST', '/api/exception_lists', list());
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.namespace_type, 'single');
    assert.deepEqual(res.body.tags, []);
    assert.deepEqual(res.body.os_types, []);
    assert.equal(res.body.version, 1);
    assert.equal(res.body.immutable, false);
    assert.match(res.body._version, /^[A-Za-z0-9+/=]+$/);
    for (const key of ['id', 'tie_breaker_id', 'created_at', 'created_by', 'updated_at', 'updated_by']) assert.ok(key in res.body, key);
  });

  it('takes an empty name and empty tags, where list_id must not be empty (OpenAPI b76003905: ExceptionListName and ExceptionListTags are plain strings; ExceptionListHumanId is nonempty)', async () => {
    const res = await call(emu, 'POST', '/api/exception_lists', list({ list_id: 'blank-name', name: '', tags: [''] }));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, '');
    assert.deepEqual(res.body.tags, ['']);
    const noId = await call(emu, 'POST', '/api/exception_lists', list({ list_id: '' }));
    assert.equal(noId.status, 400, noId.text);
  });

  it('creates a type endpoint list with a list_id of its own in the single namespace, and takes items in it without the artifact validators (wire-facts §16 #7: TF TestAccResourceExceptionListEndpointType)', async () => {
    const created = await call(emu, 'POST', '/s/soc/api/exception_lists', list({ list_id: 'soc-endpoint', type: 'endpoint', namespace_type: 'single' }));
    assert.equal(created.status, 200, created.text);
    assert.deepEqual([created.body.type, created.body.namespace_type], ['endpoint', 'single']);
    const added = await call(emu, 'POST', '/s/soc/api/exception_lists/items', item({ list_id: 'soc-endpoint', entries: [{ field: 'process.executable', type: 'match', operator: 'included', value: '/opt/x' }] }));
    assert.equal(added.status, 200, added.text);
  });

  it('answers 409 for a duplicate list_id and item_id (create_exception_list_route.ts, create_exception_list_item_route.ts: "already exists")', async () => {
    await call(emu, 'POST', '/api/exception_lists', list());
    const dup = await call(emu, 'POST', '/api/exception_lists', list());
    assert.deepEqual([dup.status, dup.body], [409, { message: 'exception list id: "allow" already exists', status_code: 409 }]);
    assert.equal((await call(emu, 'POST', '/api/exception_lists/items', item())).status, 200);
    const dupItem = await call(emu, 'POST', '/api/exception_lists/items', item());
    assert.deepEqual([dupItem.status, dupItem.body], [409, { message: 'exception list item id: "scanner" already exists', status_code: 409 }]);
  });

  it('answers 404 for an item of a missing list (create_exception_list_item_route.ts) and a zod 400 for a missing field (wire-facts 0.3)', async () => {
    const missing = await call(emu, 'POST', '/api/exception_lists/items', item({ list_id: 'nope' }));
    assert.deepEqual([missing.status, missing.body.message], [404, 'exception list id: "nope" does not exist']);
    await call(emu, 'POST', '/api/exception_lists', list());
    const { name: _n, ...noName } = item();
    const bad = await call(emu, 'POST', '/api/exception_lists/items', noName);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, '[request body]: name: Invalid input: expected string, received undefined');
    const badType = await call(emu, 'POST', '/api/exception_lists', list({ type: 'nope' }));
    assert.equal(badType.status, 400);
    assert.match(badType.body.message, /^\[request body\]: type: Invalid option/);
  });

  it('updates a list: `type` required, version incremented, stale _version 409 (wire-facts 4.1, 4.2, 0.5)', async () => {
    const created = (await call(emu, 'POST', '/api/exception_lists', list())).body;
    const { type: _t, ...noType } = list({ name: 'Renamed' });
    assert.equal((await call(emu, 'PUT', '/api/exception_lists', noType)).status, 400);
    const updated = await call(emu, 'PUT', '/api/exception_lists', list({ name: 'Renamed', _version: created._version }));
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.version, 2);
    assert.notEqual(updated.body._version, created._version);
    const stale = await call(emu, 'PUT', '/api/exception_lists', list({ name: 'Again', _version: created._version }));
    assert.equal(stale.status, 409);
  });

  it('updates an item by item_id: stored comments stay, comments without an id are added after them, a stale _version is a 409 (services/exception_lists/utils/index.ts transformUpdateCommentsToComments; wire-facts 0.5)', async () => {
    await call(emu, 'POST', '/api/exception_lists', list());
    const created = (await call(emu, 'POST', '/api/exception_lists/items', item({ comments: [{ comment: 'first' }] }))).body;
    const comment = created.comments[0];
    assert.deepEqual(Object.keys(comment).sort(), ['comment', 'created_at', 'created_by', 'id']);
    const { list_id: _l, ...body } = item();
    const res = await call(emu, 'PUT', '/api/exception_lists/items', { ...body, name: 'Renamed', comments: [{ id: comment.id, comment: 'first' }, { comment: 'second' }], _version: created._version });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.comments[0], comment);
    assert.equal(res.body.comments[1].comment, 'second');
    const stale = await call(emu, 'PUT', '/api/exception_lists/items', { ...body, _version: created._version });
    assert.equal(stale.status, 409);
  });

  it('never removes or rewrites a stored comment: comments left out, or sent with their id and another text, stay as stored (transformUpdateCommentsToComments)', async () => {
    await call(emu, 'POST', '/api/exception_lists', list());
    const created = (await call(emu, 'POST', '/api/exception_lists/items', item({ comments: [{ comment: 'first' }, { comment: 'second' }] }))).body;
    const { list_id: _l, ...body } = item();
    const leftOut = await call(emu, 'PUT', '/api/exception_lists/items', { ...body, comments: [] });
    assert.equal(leftOut.status, 200, leftOut.text);
    assert.deepEqual(leftOut.body.comments, created.comments);
    const rewritten = await call(emu, 'PUT', '/api/exception_lists/items', { ...body, comments: [{ id: created.comments[0].id, comment: 'changed' }] });
    assert.deepEqual(rewritten.body.comments.map((c: any) => c.comment), ['first', 'second']);
    const replaced = await call(emu, 'PUT', '/api/exception_lists/items', { ...body, comments: [{ comment: 'third' }] });
    assert.deepEqual(replaced.body.comments.map((c: any) => c.comment), ['first', 'second', 'third']);
  });

  it('refuses a comment without an id before one with an id: 400, comments are append only (routes/utils/validate_comments_to_update.ts)', async () => {
    await call(emu, 'POST', '/api/exception_lists', list());
    const created = (await call(emu, 'POST', '/api/exception_lists/items', item({ comments: [{ comment: 'first' }] }))).body;
    const { list_id: _l, ...body } = item();
    const res = await call(emu, 'PUT', '/api/exception_lists/items', { ...body, comments: [{ comment: 'new' }, { id: created.comments[0].id, comment: 'first' }] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { message: ['item "comments" are append only'], status_code: 400 });
  });

  it('keeps tags, meta and expire_time an update leaves out, merges meta, and sets os_types to [] (saved-object partial update, services/exception_lists/update_exception_list_item.ts; OpenAPI UpdateExceptionListItem os_types default [])', async () => {
    await call(emu, 'POST', '/api/exception_lists', list());
    const expire = '2030-01-01T00:00:00.000Z';
    await call(emu, 'POST', '/api/exception_lists/items', item({ tags: ['t'], os_types: ['linux'], meta: { owner: 'soc', ticket: { id: 1, url: 'u' } }, expire_time: expire }));
    const { list_id: _l, ...body } = item();
    const left = (await call(emu, 'PUT', '/api/exception_lists/items', body)).body;
    assert.deepEqual([left.tags, left.os_types, left.meta, left.expire_time], [['t'], [], { owner: 'soc', ticket: { id: 1, url: 'u' } }, expire]);
    const merged = (await call(emu, 'PUT', '/api/exception_lists/items', { ...body, tags: [], meta: { ticket: { id: 2 } } })).body;
    assert.deepEqual([merged.tags, merged.meta], [[], { owner: 'soc', ticket: { id: 2, url: 'u' } }]);
  });

  it('keeps a list\'s meta when an update leaves it out and merges the meta sent (update_exception_list.ts: a saved-object partial update)', async () => {
    await call(emu, 'POST', '/api/exception_lists', list({ meta: { owner: 'soc', review: { due: '2031' } } }));
    const left = (await call(emu, 'PUT', '/api/exception_lists', list({ name: 'Renamed' }))).body;
    assert.deepEqual(left.meta, { owner: 'soc', review: { due: '2031' } });
    const merged = (await call(emu, 'PUT', '/api/exception_lists', list({ meta: { review: { by: 'lead' } } }))).body;
    assert.deepEqual(merged.meta, { owner: 'soc', review: { due: '2031', by: 'lead' } });
  });

  it('never changes a list\'s os_types through an update: the route takes them, the stored ones stay (update_exception_list.ts writes description, meta, name, tags, type and version)', async () => {
    await call(emu, 'POST', '/api/exception_lists', list({ os_types: ['linux'] }));
    const res = await call(emu, 'PUT', '/api/exception_lists', { list_id: 'allow', name: 'Allow', description: 'Known good', type: 'detection', os_types: ['windows'] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.os_types, ['linux']);
    assert.deepEqual((await call(emu, 'GET', '/api/exception_lists?list_id=allow&namespace_type=single')).body.os_types, ['linux']);
  });

  it('finds lists per namespace (default single) and pages them (OpenAPI FindExceptionLists; wire-facts 0.4)', async () => {
    for (const id of ['a', 'b', 'c']) await call(emu, 'POST', '/api/exception_lists', list({ list_id: id }));
    await call(emu, 'POST', '/api/exception_lists', list({ list_id: 'shared', namespace_type: 'agnostic' }));
    const single = (await call(emu, 'GET', '/api/exception_lists/_find?per_page=2&page=2')).body;
    assert.deepEqual([single.page, single.per_page, single.total, single.data.length], [2, 2, 3, 1]);
    const both = (await call(emu, 'GET', '/api/exception_lists/_find?namespace_type=single,agnostic&per_page=100')).body;
    assert.equal(both.total, 4);
    const filtered = (await call(emu, 'GET', '/api/exception_lists/_find?filter=exception-list.attributes.list_id:b')).body;
    assert.deepEqual(filtered.data.map((l: any) => l.list_id), ['b']);
  });

  it('finds the items of several lists at once, list_id and namespace_type paired by position (find_exception_list_item_route.ts)', async () => {
    await call(emu, 'POST', '/api/exception_lists', list());
    await call(emu, 'POST', '/api/exception_lists', list({ list_id: 'shared', namespace_type: 'agnostic' }));
    await call(emu, 'POST', '/api/exception_lists/items', item());
    await call(emu, 'POST', '/api/exception_lists/items', item({ list_id: 'shared', item_id: 'agent', namespace_type: 'agnostic' }));
    const both = (await call(emu, 'GET', '/api/exception_lists/items/_find?list_id=allow,shared&namespace_type=single,agnostic')).body;
    assert.deepEqual(both.data.map((i: any) => i.item_id).sort(), ['agent', 'scanner']);
    const unpaired = await call(emu, 'GET', '/api/exception_lists/items/_find?list_id=allow,shared');
    assert.equal(unpaired.status, 400);
    const missing = await call(emu, 'GET', '/api/exception_lists/items/_find?list_id=nope');
    assert.deepEqual([missing.status, missing.body.message], [404, 'exception list id: "nope" does not exist']);
  });

  it('shows agnostic lists in every space and single ones in their own only (wire-facts 0.1)', async () => {
    await call(emu, 'POST', '/s/soc/api/exception_lists', list({ list_id: 'shared', namespace_type: 'agnostic' }));
    await call(emu, 'POST', '/s/soc/api/exception_lists', list({ list_id: 'soc-only' }));
    assert.equal((await call(emu, 'GET', '/api/exception_lists?list_id=shared&namespace_type=agnostic')).status, 200);
    const own = await call(emu, 'GET', '/api/exception_lists?list_id=soc-only');
    assert.deepEqual([own.status, own.body.message], [404, 'exception list list_id: "soc-only" does not exist']);
  });

  it('deletes a list with its items (wire-facts 4.1 "also deletes its items")', async () => {
    await call(emu, 'POST', '/api/exception_lists', list());
    await call(emu, 'POST', '/api/exception_lists/items', item());
    assert.equal((await call(emu, 'DELETE', '/api/exception_lists?list_id=allow')).status, 200);
    assert.equal((await call(emu, 'GET', '/api/exception_lists/items?item_id=scanner')).status, 404);
  });

  it('holds the rule default list and rules _import lists in the same store (create_rule_exceptions/route.ts; import_rule_exceptions.ts)', async () => {
    const rule = (await call(emu, 'POST', '/api/detection_engine/rules', { rule_id: 'r1', type: 'query', query: 'a:b', name: 'R1', description: 'd', severity: 'low', risk_score: 1 })).body;
    const { list_id: _l, ...own } = item({ item_id: 'own' });
    assert.equal((await call(emu, 'POST', `/api/detection_engine/rules/${rule.id}/exceptions`, { items: [own] })).status, 200);
    const link = (await call(emu, 'GET', '/api/detection_engine/rules?rule_id=r1')).body.exceptions_list[0];
    const container = await call(emu, 'GET', `/api/exception_lists?list_id=${link.list_id}`);
    assert.equal(container.status, 200, container.text);
    assert.deepEqual([container.body.type, container.body.name, container.body.id], ['rule_default', 'Exceptions for rule - R1', link.id]);

    const ndjson = [JSON.stringify(list({ list_id: 'imported' })), JSON.stringify(item({ list_id: 'imported', item_id: 'imp-1' }))].join('\n') + '\n';
    assert.equal((await postFile(emu, '/api/detection_engine/rules/_import', ndjson)).status, 200);
    assert.equal((await call(emu, 'GET', '/api/exception_lists/items?item_id=imp-1')).body.list_id, 'imported');
  });

  it('writes the lists a rule links, with their items, into a rules _export, and reads them back on _import (get_export_all.ts: rules, exception lists, connectors, details)', async () => {
    const created = (await call(emu, 'POST', '/api/exception_lists', list())).body;
    await call(emu, 'POST', '/api/exception_lists/items', item());
    const linked = { rule_id: 'r2', type: 'query', query: 'a:b', name: 'R2', description: 'd', severity: 'low', risk_score: 1, exceptions_list: [{ id: created.id, list_id: 'allow', type: 'detection', namespace_type: 'single' }, { id: 'gone', list_id: 'gone', type: 'detection', namespace_type: 'single' }] };
    assert.equal((await call(emu, 'POST', '/api/detection_engine/rules', linked)).status, 200);
    const exported = await call(emu, 'POST', '/api/detection_engine/rules/_export', { objects: [{ rule_id: 'r2' }] });
    const lines = exported.text.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.rule_id ?? l.item_id ?? l.list_id ?? 'details'), ['r2', 'allow', 'scanner', 'details']);
    const details = lines.at(-1);
    assert.deepEqual([details.exported_exception_list_count, details.exported_exception_list_item_count, details.missing_exception_lists_count], [1, 1, 1]);
    assert.equal(details.exported_count, 3);

    await call(emu, 'POST', '/__emulator/spaces', { id: 'imported' });
    const ndjson = lines.slice(0, -1).map((l) => JSON.stringify(l)).join('\n') + '\n';
    const imported = (await postFile(emu, '/s/imported/api/detection_engine/rules/_import', ndjson)).body;
    assert.equal(imported.exceptions_success_count, 2, JSON.stringify(imported));
    assert.equal((await call(emu, 'GET', '/s/imported/api/exception_lists/items?item_id=scanner')).status, 200);
  });

  it('refuses endpoint artifacts the server refuses (trusted_app_validator.ts, host_isolation_exceptions_validator.ts)', async () => {
    await call(emu, 'POST', '/api/exception_lists', list({ list_id: 'endpoint_trusted_apps', type: 'endpoint_trusted_apps', namespace_type: 'agnostic' }));
    const base = { list_id: 'endpoint_trusted_apps', namespace_type: 'agnostic', item_id: 'app' };
    const twoOs = await call(emu, 'POST', '/api/exception_lists/items', item({ ...base, os_types: ['linux', 'windows'], entries: [{ field: 'process.hash.md5', type: 'match', operator: 'included', value: 'a'.repeat(32) }] }));
    assert.equal(twoOs.status, 400);
    assert.match(twoOs.body.message, /exactly one operating system/);
    const good = await call(emu, 'POST', '/api/exception_lists/items', item({ ...base, os_types: ['linux'], entries: [{ field: 'process.hash.md5', type: 'match', operator: 'included', value: 'a'.repeat(32) }] }));
    assert.equal(good.status, 200, good.text);
  });
});
