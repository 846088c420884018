import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest, EmuResponse, Router } from '../../router.js';
import { parseRequest } from '../../zod.js';
import { findPage, namespaceParam } from './find.js';
import { CreateListBody, UpdateListBody } from './schemas.js';
import { containers, listById, listByListId, mergedObject, newList, put, removeList, type Containers, type Row } from './state.js';

/**
 * /api/exception_lists: create, read, update, delete and find exception lists (wire-facts 4.1).
 * Business errors are security-shaped `{message, status_code}`; messages are the real routes'
 * (lists plugin server/routes/*_exception_list_route.ts, utils getErrorMessageExceptionList).
 */

const securityError = (status: number, message: string) => new EmuError(status, message, 'security');

export function missingListMessage(id: string | undefined, listId: string | undefined): string {
  if (id !== undefined) return `exception list id: "${id}" does not exist`;
  if (listId !== undefined) return `exception list list_id: "${listId}" does not exist`;
  return 'exception list does not exist';
}

/** `?id=` or `?list_id=&namespace_type=`; an id is looked up in both namespaces, as a saved-object id is unique. */
function lookupList(ctx: EmulatorContext, space: string, id: string | undefined, listId: string | undefined, namespaceType: string): { list?: Row; where: Containers } {
  if (id !== undefined) {
    for (const ns of [namespaceType, namespaceType === 'single' ? 'agnostic' : 'single']) {
      const where = containers(ctx, space, ns);
      const list = listById(where, id);
      if (list) return { list, where };
    }
    return { where: containers(ctx, space, namespaceType) };
  }
  const where = containers(ctx, space, namespaceType);
  return { list: listId !== undefined ? listByListId(where, listId) : undefined, where };
}

function queryIds(req: EmuRequest): { id?: string; listId?: string; namespaceType: string } {
  const [namespaceType] = namespaceParam(req.query);
  return { id: req.query.get('id') || undefined, listId: req.query.get('list_id') || undefined, namespaceType };
}

function createList(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = parseRequest(CreateListBody, req.body) as Row;
  const where = containers(ctx, req.space, body.namespace_type ?? 'single');
  if (body.list_id !== undefined && listByListId(where, body.list_id)) throw securityError(409, `exception list id: "${body.list_id}" already exists`);
  const list = newList(ctx, req.user, body);
  put(where.lists, list.list_id, list);
  return { body: list };
}

function readList(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const { id, listId, namespaceType } = queryIds(req);
  if (id === undefined && listId === undefined) throw securityError(400, 'id or list_id required');
  const { list } = lookupList(ctx, req.space, id, listId, namespaceType);
  if (!list) throw securityError(404, missingListMessage(id, listId));
  return { body: list };
}

/**
 * A stale `_version` is a conflict (wire-facts 0.5); `version` is the one sent, else the stored one
 * plus one (wire-facts 4.2 "auto-incremented on update"). The route takes `os_types` but the update
 * never writes it: the stored ones stay (lists plugin services/exception_lists/update_exception_list.ts
 * updates description, meta, name, tags, type and version only).
 */
function updateList(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = parseRequest(UpdateListBody, req.body) as Row;
  if (body.id === undefined && body.list_id === undefined) throw securityError(400, 'either id or list_id need to be defined');
  const { list, where } = lookupList(ctx, req.space, body.id, body.list_id, body.namespace_type ?? 'single');
  if (!list) throw securityError(404, missingListMessage(body.id, body.list_id));
  if (body._version !== undefined && body._version !== list._version) throw securityError(409, `exception list id: "${list.id}" has been updated since _version ${body._version} was read`);
  const updated: Row = {
    ...list,
    name: body.name,
    description: body.description,
    tags: body.tags ?? list.tags,
    version: body.version ?? list.version + 1,
    _version: ctx.store.versionToken(),
    updated_at: ctx.now().toISOString(),
    updated_by: req.user,
  };
  // A saved-object partial update: meta left out stays, meta sent is merged into the stored one.
  if (body.meta !== undefined) updated.meta = mergedObject(list.meta, body.meta);
  put(where.lists, list.list_id, updated);
  return { body: updated };
}

function deleteList(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const { id, listId, namespaceType } = queryIds(req);
  if (id === undefined && listId === undefined) throw securityError(400, 'Either "list_id" or "id" needs to be defined in the request');
  const { list, where } = lookupList(ctx, req.space, id, listId, namespaceType);
  if (!list) throw securityError(404, missingListMessage(id, listId));
  removeList(where, list);
  return { body: list };
}

/** Lists of the namespaces asked for (default `single`); the agnostic ones are the same from every space. */
function findLists(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const rows = [...new Set(namespaceParam(req.query))].flatMap((ns) => Object.values(containers(ctx, req.space, ns).lists));
  return { body: findPage(rows, req.query, 1) };
}

export function registerListRoutes(router: Router): void {
  const security = { errors: 'security' as const };
  router.post('/api/exception_lists', createList, security);
  router.get('/api/exception_lists', readList, security);
  router.put('/api/exception_lists', updateList, security);
  router.delete('/api/exception_lists', deleteList, security);
  router.get('/api/exception_lists/_find', findLists, security);
}
