import { randomBytes } from 'node:crypto';
import type { EmulatorContext } from '../../context.js';
import { EmuError, badRequest, conflict, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { applyFilter, pageOf, parseFilter, parseFindQuery, rowComparator, sortKey, type FindQuery } from './find.js';
import { newList, requireStreams } from './list-routes.js';
import {
  CreateListItemBody, PatchListItemBody, UpdateListItemBody, checkRefreshQuery, optionalListType, optionalQuery, readBody, requiredQuery,
} from './request.js';
import {
  addItem, checkVersion, findItem, getKey, itemsByValue, itemsOf, listsState, removeItem, replaceItem, setKey, sortedItems,
  type ItemRecord, type ListItems, type ListRecord, type ListsState,
} from './state.js';
import { valueError, valueFits } from './values.js';
import { readBackValue } from '../../facts/list-values.js';
import { deleteByValueRefusal, itemsWithValue } from './value-query.js';

const SECURITY = { errors: 'security' } as const;
const IMPORT_EXTENSIONS = ['.csv', '.txt'];
/** The import route's body limit (the lists plugin's maxImportPayloadBytes, default 9000000; wire-facts 3.1). */
export const MAX_ITEMS_IMPORT_BYTES = 9_000_000;

function checkValue(list: ListRecord, value: string, itemId: string): void {
  if (!valueFits(list.type, value)) throw badRequest(valueError(list.type, value, itemId), 'security');
}

let lastMs = 0;
let sameMs = 0;
let randomPool = Buffer.alloc(0);
let randomAt = 0;

/**
 * Random bytes as hex, drawn from a pool filled a few thousand ids at a time: one randomBytes
 * call per item made importing a million values spend 9 of its 19 s of CPU in the generator.
 */
function randomHex(bytes: number): string {
  if (randomAt + bytes > randomPool.length) {
    randomPool = randomBytes(bytes * 4096);
    randomAt = 0;
  }
  randomAt += bytes;
  return randomPool.toString('hex', randomAt - bytes, randomAt);
}

/**
 * A tie_breaker_id in UUID form that sorts after every one made before it in this process (time,
 * then a counter, then random digits). The real server's are random; clients treat them as opaque.
 * Items then come out of the store already in _find's default order, so the first find after an
 * import of a million values sorts them in one pass instead of many seconds.
 */
function orderedId(): string {
  const ms = Date.now();
  sameMs = ms === lastMs ? sameMs + 1 : 0;
  lastMs = ms;
  const hex = ms.toString(16).padStart(12, '0').slice(-12) + sameMs.toString(16).padStart(8, '0').slice(-8) + randomHex(6);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function makeItem(ctx: EmulatorContext, user: string, list: ListRecord, value: string, now: string, id?: string, meta?: Record<string, unknown>): ItemRecord {
  const item: ItemRecord = {
    _version: ctx.store.versionToken(),
    '@timestamp': now,
    created_at: now,
    created_by: user,
    id: id ?? ctx.uuid(),
    list_id: list.id,
    tie_breaker_id: orderedId(),
    type: list.type,
    updated_at: now,
    updated_by: user,
    value,
  };
  if (meta !== undefined) item.meta = meta;
  return item;
}

/** Both lookups (by id, or by list_id and value) are shared by GET and DELETE. */
function lookup(state: ListsState, q: URLSearchParams, verb: 'read' | 'delete'): ItemRecord | ItemRecord[] {
  const id = optionalQuery(q, 'id');
  const listId = optionalQuery(q, 'list_id');
  const value = q.get('value');
  if (id !== undefined) {
    const item = findItem(state, id);
    if (!item) throw notFound(verb === 'read' ? `list item id: "${id}" does not exist` : `list item with id: "${id}" not found`, 'security');
    return item;
  }
  if (listId !== undefined && value !== null) {
    const list = getKey(state.lists, listId) as ListRecord | undefined;
    if (!list) {
      throw notFound(verb === 'read' ? `list id: "${listId}" does not exist` : `list_id: "${listId}" does not exist`, 'security');
    }
    const items = itemsWithValue(getKey(state.items, listId), () => itemsByValue(state, listId, value), list.type, value);
    if (items.length === 0) {
      throw notFound(verb === 'read' ? `list_id: "${listId}" item of ${value} does not exist` : `list_id: "${listId}" with ${value} was not found`, 'security');
    }
    const refusal = verb === 'delete' ? deleteByValueRefusal(list.type, items) : undefined;
    if (refusal !== undefined) throw badRequest(refusal, 'security');
    return items;
  }
  throw badRequest('Either "list_id" or "id" needs to be defined in the request', 'security');
}

/** A list's items in one order (_find's; without a sort field, tie_breaker_id ascending), kept until the next write. */
function inOrder(items: ListItems, order: Pick<FindQuery, 'sortField' | 'sortOrder'>): ItemRecord[] {
  return sortedItems(items, sortKey(order), (all) => all.sort(rowComparator(order.sortField, order.sortOrder)));
}

/** PUT replaces value and meta (absent meta is removed); PATCH changes what it is given. */
function updateItem(ctx: EmulatorContext, req: EmuRequest, patch: boolean) {
  const body = readBody<{ id: string; value?: string; meta?: Record<string, unknown>; _version?: string }>(patch ? PatchListItemBody : UpdateListItemBody, req.body);
  const { id, value, meta } = body;
  const state = listsState(ctx, req.space);
  const item = findItem(state, id);
  if (!item) throw notFound(`list item id: "${id}" not found`, 'security');
  checkVersion(body._version, item._version);
  const list = getKey(state.lists, item.list_id) as ListRecord;
  if (value !== undefined) checkValue(list, value, id);
  const updated: ItemRecord = {
    ...item,
    _version: ctx.store.versionToken(),
    updated_at: ctx.now().toISOString(),
    updated_by: req.user,
    value: value === undefined ? item.value : readBackValue(list.type, value) ?? value,
  };
  if (meta !== undefined) updated.meta = meta;
  else if (!patch) delete updated.meta;
  replaceItem(state, item, updated);
  return { body: updated };
}

/** Non-blank lines of an uploaded file, each without its line terminator. */
function fileValues(content: string): string[] {
  const out: string[] = [];
  for (const raw of content.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '') out.push(line);
  }
  return out;
}

function importInto(ctx: EmulatorContext, req: EmuRequest, state: ListsState, list: ListRecord, values: string[]): void {
  // Every line is checked before any is stored, so a bad file leaves the list untouched (the real
  // backend's bulk request would drop the bad documents silently, leaving a perpetual difference).
  for (const value of values) {
    if (!valueFits(list.type, value)) {
      throw badRequest(`Unable to import value '${value}': it is not a valid ${list.type} value; nothing was imported`, 'security');
    }
  }
  const slot = itemsOf(state, list.id);
  const now = ctx.now().toISOString();
  for (const value of values) {
    const stored = readBackValue(list.type, value);
    if (stored === undefined || slot.byValue.has(stored)) continue;
    addItem(state, makeItem(ctx, req.user, list, stored, now));
  }
}

export function registerItemRoutes(router: Router): void {
  router.post('/api/lists/items', (req, ctx) => {
    const { list_id: listId, value, id, meta } = readBody<{ list_id: string; value: string; id?: string; meta?: Record<string, unknown> }>(CreateListItemBody, req.body);
    const state = listsState(ctx, req.space);
    const list = getKey(state.lists, listId);
    if (!list) throw notFound(`list id: "${listId}" does not exist`, 'security');
    if (id !== undefined && findItem(state, id)) throw conflict(`list item id: "${id}" already exists`, 'security');
    const item = makeItem(ctx, req.user, list, readBackValue(list.type, value) ?? value, ctx.now().toISOString(), id, meta);
    checkValue(list, value, item.id);
    addItem(state, item);
    return { body: item };
  }, SECURITY);

  router.get('/api/lists/items', (req, ctx) => ({ body: lookup(listsState(ctx, req.space), req.query, 'read') }), SECURITY);

  router.put('/api/lists/items', (req, ctx) => updateItem(ctx, req, false), SECURITY);
  router.patch('/api/lists/items', (req, ctx) => updateItem(ctx, req, true), SECURITY);

  router.delete('/api/lists/items', (req, ctx) => {
    checkRefreshQuery(req.query);
    const state = listsState(ctx, req.space);
    const found = lookup(state, req.query, 'delete');
    for (const item of Array.isArray(found) ? found : [found]) removeItem(state, item);
    return { body: found };
  }, SECURITY);

  router.get('/api/lists/items/_find', (req, ctx) => {
    const listId = requiredQuery(req.query, 'list_id');
    const q = parseFindQuery(req.query);
    const state = listsState(ctx, req.space);
    const list = getKey(state.lists, listId);
    if (!list) throw notFound(`list id: "${listId}" does not exist`, 'security');
    const sorted = inOrder(itemsOf(state, listId), q);
    // The stored document holds the value under the list type's own field (`ip:10.0.0.1`).
    const rows = applyFilter(sorted, parseFilter(q.filter), (row, field) => (field === row.type ? row.value : (row as unknown as Record<string, unknown>)[field]));
    const { data, cursor } = pageOf(rows, q);
    return { body: { cursor, data, page: q.page, per_page: q.perPage, total: rows.length } };
  }, SECURITY);

  router.post('/api/lists/items/_import', (req, ctx) => {
    // The platform refuses a larger body before the route sees it (the route's options.body.maxBytes).
    if (req.rawBody.length > MAX_ITEMS_IMPORT_BYTES) throw new EmuError(413, `Payload content length greater than maximum allowed: ${MAX_ITEMS_IMPORT_BYTES}`, 'platform');
    const listId = optionalQuery(req.query, 'list_id');
    const type = optionalListType(req.query, 'type');
    const filename = req.file?.name;
    if (!req.file || !filename) throw badRequest('To import a list item, the file name must be specified', 'security');
    const dot = filename.lastIndexOf('.');
    if (!IMPORT_EXTENSIONS.includes(dot >= 0 ? filename.slice(dot).toLowerCase() : '')) {
      throw new EmuError(415, `Unsupported media type. File must be one of the following types: [${IMPORT_EXTENSIONS.join(', ')}]`, 'security');
    }
    const state = listsState(ctx, req.space);
    requireStreams(state, req.space, 'import a list item');
    const values = fileValues(req.file.content);
    if (listId !== undefined) {
      const list = getKey(state.lists, listId);
      if (!list) throw conflict(`list id: "${listId}" does not exist`, 'security');
      importInto(ctx, req, state, list, values);
      return { body: list };
    }
    if (type !== undefined) {
      // A new list named after the file, or the existing list of that id.
      let list = getKey(state.lists, filename);
      if (!list) {
        list = newList(ctx, req, { id: filename, name: filename, description: `File uploaded from file system of ${filename}`, type });
        setKey(state.lists, list.id, list);
      }
      importInto(ctx, req, state, list, values);
      return { body: list };
    }
    throw badRequest('Either type or list_id need to be defined in the query', 'security');
  }, SECURITY);

  router.post('/api/lists/items/_export', (req, ctx) => {
    const listId = requiredQuery(req.query, 'list_id');
    const state = listsState(ctx, req.space);
    const list = getKey(state.lists, listId);
    if (!list) throw badRequest(`list_id: ${listId} does not exist`, 'security');
    // The real route pages through the items sorted by tie_breaker_id ascending (lists plugin
    // services/items/write_list_items_to_stream.ts): the order of _find without a sort field.
    const values = inOrder(itemsOf(state, listId), { sortField: undefined, sortOrder: 'asc' }).map((item) => item.value);
    const text = values.length ? values.join('\n') + '\n' : '';
    return {
      text,
      contentType: 'application/ndjson',
      headers: { 'content-disposition': `attachment; filename="${list.name}"` },
    };
  }, { ...SECURITY, access: 'read' });
}
