import { artifactItemIssues, endpointListOfId } from '../../facts/endpoint-artifacts.js';
import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest, EmuResponse, Router } from '../../router.js';
import { parseRequest } from '../../zod.js';
import { arrayParam, findPage, namespaceParam } from './find.js';
import { CreateItemBody, UpdateItemBody } from './schemas.js';
import { containers, itemById, itemByItemId, listByListId, mergedObject, newItem, put, updatedComments, type Containers, type Row } from './state.js';

/**
 * /api/exception_lists/items: create, read, update, delete and find exception items (wire-facts 4.1;
 * lists plugin server/routes/*_exception_list_item_route.ts).
 */

const securityError = (status: number, message: string) => new EmuError(status, message, 'security');

function missingItemMessage(id: string | undefined, itemId: string | undefined): string {
  if (id !== undefined) return `exception list item id: "${id}" does not exist`;
  return `exception list item item_id: "${itemId}" does not exist`;
}

/**
 * The endpoint artifact lists' own validators run before an item is stored (security_solution
 * lists_integration/endpoint/validators; EndpointArtifactExceptionValidationError is a 400).
 */
export function checkArtifact(listId: string, item: Row): void {
  if (!endpointListOfId(listId)) return;
  const issues = artifactItemIssues(listId, item);
  if (issues.length) throw securityError(400, `EndpointArtifactError: ${issues.map((i) => `[${i.path.join('.')}]: ${i.message}`).join(', ')}`);
}

function lookupItem(ctx: EmulatorContext, space: string, id: string | undefined, itemId: string | undefined, namespaceType: string): { item?: Row; where: Containers } {
  const where = containers(ctx, space, namespaceType);
  if (id !== undefined) return { item: itemById(where, id), where };
  return { item: itemId !== undefined ? itemByItemId(where, itemId) : undefined, where };
}

function createItem(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = parseRequest(CreateItemBody, req.body) as Row;
  const where = containers(ctx, req.space, body.namespace_type ?? 'single');
  const list = listByListId(where, body.list_id);
  if (!list) throw securityError(404, `exception list id: "${body.list_id}" does not exist`);
  if (body.item_id !== undefined && itemByItemId(where, body.item_id)) throw securityError(409, `exception list item id: "${body.item_id}" already exists`);
  checkArtifact(list.list_id, body);
  const item = newItem(ctx, req.user, list, body);
  put(where.items, item.item_id, item);
  return { body: item };
}

function readItem(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const id = req.query.get('id') || undefined;
  const itemId = req.query.get('item_id') || undefined;
  if (id === undefined && itemId === undefined) throw securityError(400, 'id or item_id required');
  const { item } = lookupItem(ctx, req.space, id, itemId, namespaceParam(req.query)[0]);
  if (!item) throw securityError(404, missingItemMessage(id, itemId));
  return { body: item };
}

/**
 * The update route (update_exception_list_item_route.ts, services update_exception_list_item.ts):
 * comments are append-only (a comment without an id before one with an id is a 400), and the item
 * is written as a saved-object partial update: name, description, entries and type as sent,
 * os_types as sent or [] (the body's default), tags, meta and expire_time kept when left out, meta
 * merged into the stored one, and the stored comments kept with the new ones after them.
 * `_version`, when sent, must be the stored one.
 */
function updateItem(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = parseRequest(UpdateItemBody, req.body) as Row;
  if (!commentsAppendOnly(body.comments ?? [])) throw new EmuError(400, APPEND_ONLY, 'security', undefined, [APPEND_ONLY]);
  if (body.id === undefined && body.item_id === undefined) throw securityError(400, 'either id or item_id need to be defined');
  const { item, where } = lookupItem(ctx, req.space, body.id, body.item_id, body.namespace_type ?? 'single');
  if (!item) throw securityError(404, missingItemMessage(body.id, body.item_id));
  if (body._version !== undefined && body._version !== item._version) throw securityError(409, `exception list item id: "${item.id}" has been updated since _version ${body._version} was read`);
  checkArtifact(item.list_id, body);
  const updated: Row = {
    ...item,
    name: body.name,
    description: body.description,
    entries: body.entries,
    os_types: body.os_types ?? [],
    comments: updatedComments(ctx, req.user, body.comments, item.comments),
    _version: ctx.store.versionToken(),
    updated_at: ctx.now().toISOString(),
    updated_by: req.user,
  };
  if (body.tags !== undefined) updated.tags = body.tags;
  if (body.expire_time !== undefined) updated.expire_time = body.expire_time;
  if (body.meta !== undefined) updated.meta = mergedObject(item.meta, body.meta);
  put(where.items, item.item_id, updated);
  return { body: updated };
}

const APPEND_ONLY = 'item "comments" are append only';

/** validate_comments_to_update.ts: comments sent with an id come first, new ones after them. */
function commentsAppendOnly(comments: Array<{ id?: string }>): boolean {
  const firstNew = comments.findIndex((c) => c.id === undefined);
  return firstNew < 0 || comments.slice(firstNew).every((c) => c.id === undefined);
}

function deleteItem(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const id = req.query.get('id') || undefined;
  const itemId = req.query.get('item_id') || undefined;
  if (id === undefined && itemId === undefined) throw securityError(400, 'Either "item_id" or "id" needs to be defined in the request');
  const { item, where } = lookupItem(ctx, req.space, id, itemId, namespaceParam(req.query)[0]);
  if (!item) throw securityError(404, missingItemMessage(id, itemId));
  delete where.items[item.item_id];
  return { body: item };
}

/**
 * Items of one or more lists: `list_id` and `namespace_type` are paired by position
 * (find_exception_list_item_route.ts refuses lists of different lengths), and a list that does
 * not exist is a 404.
 */
function findItems(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const listIds = arrayParam(req.query, 'list_id');
  if (!listIds || listIds.some((l) => l === '')) throw new EmuError(400, '[request query]: list_id: Invalid input: expected string, received undefined', 'platform');
  const namespaces = namespaceParam(req.query);
  if (namespaces.length !== listIds.length) {
    throw securityError(400, `list_id and namespace_id need to have the same comma separated number of values. Expected list_id length: ${listIds.length} to equal namespace_type length: ${namespaces.length}`);
  }
  const rows: Row[] = [];
  listIds.forEach((listId, i) => {
    const where = containers(ctx, req.space, namespaces[i]);
    if (!listByListId(where, listId)) throw securityError(404, `exception list id: "${listId}" does not exist`);
    rows.push(...Object.values(where.items).filter((item) => item.list_id === listId));
  });
  return { body: findPage(rows, req.query, 0) };
}

export function registerItemRoutes(router: Router): void {
  const security = { errors: 'security' as const };
  router.post('/api/exception_lists/items', createItem, security);
  router.get('/api/exception_lists/items', readItem, security);
  router.put('/api/exception_lists/items', updateItem, security);
  router.delete('/api/exception_lists/items', deleteItem, security);
  router.get('/api/exception_lists/items/_find', findItems, security);
}
