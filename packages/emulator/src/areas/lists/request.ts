import { EmuError } from '../../errors.js';
import { enumOf, int, nonEmptyString, object, optional, parseRequest, string, type Schema } from '../../zod.js';
import { LIST_TYPES } from './values.js';

/**
 * The request schemas of the value-list routes, read as the server's generated zod (v4) schemas
 * read them (K-LISTS/api/<operation>/<operation>.gen.ts with the field types of
 * K-LISTS/api/model/list_common.gen.ts; the same field sets in the OpenAPI document at b76003905,
 * paths /api/lists and /api/lists/items). Every body is a plain `z.object`, so keys the schema does
 * not know are stripped, never refused; a failure is a platform 400 `[request body]: path: message`
 * (wire-facts 0.3).
 */

/** ListId, ListName, ListDescription, ListItemId, ListItemValue: `z.string().min(1)` and not blank. */
const text = nonEmptyString;
/** ListMetadata, ListItemMetadata: any object (`z.object({}).catchall(z.unknown())`). */
const meta = () => object({}, 'open');
/** ListVersion: an integer of at least 1. */
const version = () => int(1);
const refresh = () => enumOf(['true', 'false', 'wait_for']);

/**
 * `serializer` and `deserializer` (ListSerializer, ListDeserializer: strings) are checked and never
 * stored: the current lists plugin's createList writes neither, and items are written and read
 * with the default serializers only (services/lists/create_list.ts, items/create_list_items_bulk.ts).
 */
export const CreateListBody = object({
  id: optional(text()),
  name: text(),
  description: text(),
  type: enumOf(LIST_TYPES),
  serializer: optional(string()),
  deserializer: optional(string()),
  meta: optional(meta()),
  version: optional(version()),
});

/** PUT /api/lists: no `type` (the list's type never changes; a `type` sent is stripped). */
export const UpdateListBody = object({
  id: text(),
  name: text(),
  description: text(),
  meta: optional(meta()),
  version: optional(version()),
  _version: optional(string()),
});

export const PatchListBody = object({
  id: text(),
  name: optional(text()),
  description: optional(text()),
  meta: optional(meta()),
  version: optional(version()),
  _version: optional(string()),
});

export const CreateListItemBody = object({
  id: optional(text()),
  list_id: text(),
  value: text(),
  meta: optional(meta()),
  refresh: optional(refresh()),
});

/** PUT /api/lists/items: no `refresh` (only create and patch declare it). */
export const UpdateListItemBody = object({
  id: text(),
  value: text(),
  meta: optional(meta()),
  _version: optional(string()),
});

export const PatchListItemBody = object({
  id: text(),
  value: optional(text()),
  meta: optional(meta()),
  _version: optional(string()),
  refresh: optional(refresh()),
});

/** The body as the route schema leaves it, or the route's 400. */
export function readBody<T = Record<string, any>>(schema: Schema, body: unknown): T {
  return parseRequest(schema, body) as T;
}

/** A query parameter the route's schema requires (ListId and the like: present, not blank). */
export function requiredQuery(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  const parsed = parseRequest(object({ [name]: text() }), v === null ? {} : { [name]: v }, 'request query');
  return parsed[name];
}

export function optionalQuery(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null || v === '' ? undefined : v;
}

/** A query parameter whose values are ListType's. */
export function optionalListType(q: URLSearchParams, name: string): string | undefined {
  const v = optionalQuery(q, name);
  if (v === undefined) return undefined;
  return parseRequest(object({ [name]: enumOf(LIST_TYPES) }), { [name]: v }, 'request query')[name];
}

/** Boolean query flags are the strings `true` and `false` on the wire (BooleanFromString). */
export function queryFlag(q: URLSearchParams, ...names: string[]): boolean {
  for (const name of names) {
    const v = q.get(name);
    if (v === null) continue;
    if (v !== 'true' && v !== 'false') throw new EmuError(400, `[request query]: ${name}: Invalid option: expected one of "true"|"false"`, 'platform');
    return v === 'true';
  }
  return false;
}

/** The `refresh` query parameter of the item delete (DeleteListItem: `true`, `false` or `wait_for`). */
export function checkRefreshQuery(q: URLSearchParams): void {
  const v = q.get('refresh');
  if (v !== null) parseRequest(object({ refresh: refresh() }), { refresh: v }, 'request query');
}
