import type { EmulatorContext } from '../../context.js';

/**
 * The one store of exception lists and items. The exception-list routes, the rule default-list
 * route (POST /api/detection_engine/rules/{id}/exceptions) and rules `_import` all read and write
 * it. A `single` container belongs to one space; the `agnostic` one is shared by every space
 * (wire-facts 0.1: "Exception lists with namespace_type: agnostic are visible in every space").
 * Items are keyed by item_id within their namespace: the server looks an item up by item_id and
 * namespace_type alone (create_exception_list_item_route.ts: getExceptionListItem({itemId, namespaceType})).
 */

export type Row = Record<string, any>;
export type NamespaceType = 'single' | 'agnostic';

export interface Containers {
  lists: Record<string, Row>;
  /** By item_id. */
  items: Record<string, Row>;
}

export const NAMESPACE_TYPES: readonly NamespaceType[] = ['single', 'agnostic'];

export function containers(ctx: EmulatorContext, space: string, namespaceType: string): Containers {
  const init = (): Containers => ({ lists: {}, items: {} });
  return namespaceType === 'agnostic' ? ctx.store.global('exception_lists', init) : ctx.store.area(space, 'exception_lists', init);
}

/** The lists a space sees, by list_id: its own and the agnostic ones. */
export function listsVisibleIn(ctx: EmulatorContext, space: string): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const namespaceType of NAMESPACE_TYPES) for (const list of Object.values(containers(ctx, space, namespaceType).lists)) out.set(list.list_id, list);
  return out;
}

export const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** defineProperty, not assignment: an id such as `__proto__` must stay an ordinary key. */
export const put = (o: Record<string, Row>, key: string, value: Row) => Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

export function listByListId(c: Containers, listId: string): Row | undefined {
  return own(c.lists, listId) ? c.lists[listId] : undefined;
}

export function listById(c: Containers, id: string): Row | undefined {
  return Object.values(c.lists).find((l) => l.id === id);
}

export function itemByItemId(c: Containers, itemId: string): Row | undefined {
  return own(c.items, itemId) ? c.items[itemId] : undefined;
}

export function itemById(c: Containers, id: string): Row | undefined {
  return Object.values(c.items).find((i) => i.id === id);
}

export function itemsOfList(c: Containers, listId: string): Row[] {
  return Object.values(c.items).filter((i) => i.list_id === listId);
}

/** Deleting a list deletes its items (wire-facts 4.1 "also deletes its items"). */
export function removeList(c: Containers, list: Row): void {
  for (const item of itemsOfList(c, list.list_id)) delete c.items[item.item_id];
  delete c.lists[list.list_id];
}

/** New comments as the server stores them: it adds each one's id and who wrote it when (wire-facts 4.2). */
export function storedComments(ctx: EmulatorContext, user: string, comments: Array<{ comment: string }> | undefined): Row[] {
  const now = ctx.now().toISOString();
  return (comments ?? []).map((c) => ({ id: ctx.uuid(), comment: c.comment, created_at: now, created_by: user }));
}

/**
 * An update's comments: every stored comment stays as it is and those sent without an id are
 * added after them; a comment sent with an id changes nothing, its text included (lists plugin
 * services/exception_lists/utils/index.ts, transformUpdateCommentsToComments).
 */
export function updatedComments(ctx: EmulatorContext, user: string, sent: Array<{ comment: string; id?: string }> | undefined, stored: Row[] = []): Row[] {
  return [...stored, ...storedComments(ctx, user, (sent ?? []).filter((c) => c.id === undefined))];
}

/**
 * An object attribute written by a saved-object update: Elasticsearch merges the partial document
 * into the stored one, so keys of objects are added or replaced, never removed; arrays and other
 * values are replaced whole.
 */
export function mergedObject(stored: unknown, sent: Row): Row {
  const out: Row = isPlainRow(stored) ? { ...stored } : {};
  for (const [key, value] of Object.entries(sent)) out[key] = isPlainRow(value) && isPlainRow(out[key]) ? mergedObject(out[key], value) : value;
  return out;
}

function isPlainRow(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The fields the server sets on every new list and item: its version token, tie breaker, and who made it when. */
function serverStamp(ctx: EmulatorContext, user: string): Row {
  const now = ctx.now().toISOString();
  return { _version: ctx.store.versionToken(), tie_breaker_id: ctx.uuid(), created_at: now, created_by: user, updated_at: now, updated_by: user };
}

/** A new item as the server stores and answers it (defaults of the create schema filled in). */
export function newItem(ctx: EmulatorContext, user: string, list: Row, input: Row): Row {
  return {
    id: ctx.uuid(),
    item_id: input.item_id ?? ctx.uuid(),
    list_id: list.list_id,
    type: 'simple',
    name: input.name,
    description: input.description,
    entries: input.entries,
    namespace_type: list.namespace_type,
    os_types: input.os_types ?? [],
    tags: input.tags ?? [],
    comments: storedComments(ctx, user, input.comments),
    ...(input.meta !== undefined ? { meta: input.meta } : {}),
    ...(input.expire_time !== undefined ? { expire_time: input.expire_time } : {}),
    ...serverStamp(ctx, user),
  };
}

/** A replacement (an import under overwrite) keeps the stored object's identity and creation. */
export function replacing(existing: Row | undefined, fresh: Row): Row {
  return existing ? { ...fresh, id: existing.id, tie_breaker_id: existing.tie_breaker_id, created_at: existing.created_at, created_by: existing.created_by } : fresh;
}

/** A new list as the server stores and answers it. */
export function newList(ctx: EmulatorContext, user: string, input: Row): Row {
  return {
    id: ctx.uuid(),
    list_id: input.list_id ?? ctx.uuid(),
    type: input.type,
    name: input.name,
    description: input.description,
    namespace_type: input.namespace_type ?? 'single',
    os_types: input.os_types ?? [],
    tags: input.tags ?? [],
    ...(input.meta !== undefined ? { meta: input.meta } : {}),
    version: input.version ?? 1,
    immutable: false,
    ...serverStamp(ctx, user),
  };
}
