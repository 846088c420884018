import type { EmulatorContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { applyFilter, pageOf, parseFilter, parseFindQuery, rowComparator } from './find.js';
import { CreateListBody, PatchListBody, UpdateListBody, queryFlag, readBody, requiredQuery } from './request.js';
import {
  checkVersion, dropListItems, getKey, JsonMap, itemStreamName, listStreamName, listsState, setKey, type ListRecord, type ListsState,
} from './state.js';

const SECURITY = { errors: 'security' } as const;

export function requireStreams(state: ListsState, space: string, action: string): void {
  if (!state.streams) {
    throw badRequest(`To ${action}, the data stream must exist first. Data stream "${listStreamName(space)}" does not exist`, 'security');
  }
}

export function newList(
  ctx: EmulatorContext,
  req: EmuRequest,
  fields: { id?: string; name: string; description: string; type: string; meta?: Record<string, unknown>; version?: number },
): ListRecord {
  const now = ctx.now().toISOString();
  const list: ListRecord = {
    _version: ctx.store.versionToken(),
    '@timestamp': now,
    created_at: now,
    created_by: req.user,
    description: fields.description,
    id: fields.id ?? ctx.uuid(),
    immutable: false,
    name: fields.name,
    tie_breaker_id: ctx.uuid(),
    type: fields.type,
    updated_at: now,
    updated_by: req.user,
    version: fields.version ?? 1,
  };
  if (fields.meta !== undefined) list.meta = fields.meta;
  return list;
}

function existingList(state: ListsState, id: string, message: string): ListRecord {
  const list = getKey(state.lists, id);
  if (!list) throw notFound(message, 'security');
  return list;
}

/** PUT replaces name, description and meta (absent meta is removed); PATCH changes what it is given. */
function updateList(ctx: EmulatorContext, req: EmuRequest, patch: boolean) {
  const body = readBody(patch ? PatchListBody : UpdateListBody, req.body);
  const { id, name, description, meta, version } = body as { id: string; name?: string; description?: string; meta?: Record<string, unknown>; version?: number };
  const state = listsState(ctx, req.space);
  const list = existingList(state, id, `list id: "${id}" not found`);
  checkVersion(body._version, list._version);
  const updated: ListRecord = {
    ...list,
    _version: ctx.store.versionToken(),
    description: description ?? list.description,
    name: name ?? list.name,
    updated_at: ctx.now().toISOString(),
    updated_by: req.user,
    version: version ?? list.version + 1,
  };
  if (meta !== undefined) updated.meta = meta;
  else if (!patch) delete updated.meta;
  setKey(state.lists, id, updated);
  return { body: updated };
}

const READ_PRIVILEGES = new Set(['monitor', 'monitor_ml', 'monitor_transform', 'read', 'view_index_metadata']);

function privilegesOf(index: string, user: string, readOnly: boolean) {
  const held = (names: string[]) => Object.fromEntries(names.map((p) => [p, !readOnly || READ_PRIVILEGES.has(p)]));
  return {
    username: user,
    has_all_requested: !readOnly,
    cluster: held(['all', 'manage', 'manage_api_key', 'manage_index_templates', 'manage_ml', 'manage_own_api_key', 'manage_pipeline', 'monitor', 'monitor_ml', 'monitor_transform']),
    index: { [index]: held(['all', 'create', 'create_doc', 'create_index', 'delete', 'delete_index', 'index', 'maintenance', 'manage', 'monitor', 'read', 'view_index_metadata', 'write']) },
    application: {},
  };
}

export function registerListRoutes(router: Router): void {
  router.post('/api/lists/index', (req, ctx) => {
    // Idempotent per service-api.md (wire-facts reports a 409 on repeat; the API document wins).
    listsState(ctx, req.space).streams = true;
    return { body: { acknowledged: true } };
  }, SECURITY);

  router.get('/api/lists/index', (req, ctx) => {
    if (!listsState(ctx, req.space).streams) {
      throw notFound(`data stream ${listStreamName(req.space)} and data stream ${itemStreamName(req.space)} does not exist`, 'security');
    }
    return { body: { list_index: true, list_item_index: true } };
  }, SECURITY);

  router.delete('/api/lists/index', (req, ctx) => {
    const state = listsState(ctx, req.space);
    if (!state.streams) {
      throw notFound(`index and data stream: "${listStreamName(req.space)}" and "${itemStreamName(req.space)}" does not exist`, 'security');
    }
    state.lists = {};
    state.items = {};
    state.itemOwner = new JsonMap();
    state.streams = false;
    return { body: { acknowledged: true } };
  }, SECURITY);

  router.post('/api/lists', (req, ctx) => {
    const fields = readBody<{ id?: string; name: string; description: string; type: string; meta?: Record<string, unknown>; version?: number }>(CreateListBody, req.body);
    const state = listsState(ctx, req.space);
    requireStreams(state, req.space, 'create a list');
    if (fields.id !== undefined && getKey(state.lists, fields.id)) throw conflict(`list id: "${fields.id}" already exists`, 'security');
    const list = newList(ctx, req, fields);
    setKey(state.lists, list.id, list);
    return { body: list };
  }, SECURITY);

  router.get('/api/lists', (req, ctx) => {
    const id = requiredQuery(req.query, 'id');
    return { body: existingList(listsState(ctx, req.space), id, `list id: "${id}" does not exist`) };
  }, SECURITY);

  router.put('/api/lists', (req, ctx) => updateList(ctx, req, false), SECURITY);
  router.patch('/api/lists', (req, ctx) => updateList(ctx, req, true), SECURITY);

  router.delete('/api/lists', (req, ctx) => {
    const id = requiredQuery(req.query, 'id');
    // References from exception lists live in another area; both flags are accepted and validated.
    queryFlag(req.query, 'delete_references', 'deleteReferences');
    queryFlag(req.query, 'ignore_references', 'ignoreReferences');
    const state = listsState(ctx, req.space);
    const list = existingList(state, id, `list id: "${id}" was not found`);
    dropListItems(state, id);
    delete state.lists[id];
    return { body: list };
  }, SECURITY);

  router.get('/api/lists/_find', (req, ctx) => {
    const q = parseFindQuery(req.query);
    const state = listsState(ctx, req.space);
    const rows = applyFilter(Object.values(state.lists), parseFilter(q.filter)).sort(rowComparator(q.sortField, q.sortOrder));
    const { data, cursor } = pageOf(rows, q);
    return { body: { cursor, data, page: q.page, per_page: q.perPage, total: rows.length } };
  }, SECURITY);

  router.get('/api/lists/privileges', (req) => ({
    body: {
      listItems: privilegesOf(itemStreamName(req.space), req.user, req.readOnly),
      lists: privilegesOf(listStreamName(req.space), req.user, req.readOnly),
      is_authenticated: true,
    },
  }), SECURITY);
}
