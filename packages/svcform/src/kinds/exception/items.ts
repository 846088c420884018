import { isAbsolute } from 'node:path';
import { parseErrorWords, yaml } from '../../common/yaml.js';
import { ApiError } from '../../client/errors.js';
import type { Requester } from '../../client/types.js';
import { MAX_ITEMS_FILE_BYTES, readConfinedFile } from '../../manifest/confined-file.js';
import { shortText } from '../../manifest/short-text.js';
import type { Resource } from '../../manifest/types.js';
import { clone, deepEqual, isPlainObject } from '../normalize.js';
import { listAllPages } from '../paging.js';

/**
 * Exception items, shared by the ExceptionList kind and a rule's default exceptions: how a
 * manifest's items (inline or in an `items_file`) and a live item compare, how they are written,
 * and how the items of many lists are read with one `_find` request per page.
 */

export const LISTS_PATH = '/api/exception_lists';
export const ITEMS_PATH = `${LISTS_PATH}/items`;
const PAGE_SIZE = 1000;
/** Lists whose items one `_find` asks for (list_id and namespace_type travel comma-separated in the URL). */
const LISTS_PER_FIND = 50;

export type Item = Record<string, any>;

/** The fields of an item a manifest sets and an update writes (the create schema's, without list_id). */
const ITEM_FIELDS = ['name', 'description', 'entries', 'os_types', 'tags', 'expire_time', 'comments', 'meta'];

const fileItemsCache = new WeakMap<Resource, Item[] | Error>();

/**
 * The items of a manifest's `items_file`: a YAML (or JSON) sequence of items, read like every file
 * a manifest names (confined-file.ts: inside the repository root, under a size cap).
 */
export function readItemsFile(res: Resource, file: string): Item[] | Error {
  let items = fileItemsCache.get(res);
  if (!items) {
    const read = readConfinedFile(file, { root: res.root, base: res.dir, maxBytes: MAX_ITEMS_FILE_BYTES });
    const where = `items_file cannot be read: ${shortText(file)}${isAbsolute(file) ? '' : ' (relative to this manifest)'}`;
    if (read.text === undefined) items = new Error(`${where}: ${read.error}`);
    else {
      try {
        const parsed = yaml().parse(read.text);
        items = Array.isArray(parsed) && parsed.every(isPlainObject) ? (parsed as Item[]) : new Error(`${where}: it must hold a YAML sequence of items`);
      } catch (err) {
        items = new Error(`${where}: ${parseErrorWords(err)}`);
      }
    }
    fileItemsCache.set(res, items);
  }
  return items;
}

/** The manifest's items with where each sits (for messages): inline under spec.items, else in the file. */
export function declaredItems(res: Resource, container: Record<string, any> = res.spec, base: Array<string | number> = ['spec']): Array<{ item: Item; path: Array<string | number>; inFile?: string }> {
  if (Array.isArray(container.items)) return container.items.map((item: Item, i: number) => ({ item, path: [...base, 'items', i] }));
  if (typeof container.items_file !== 'string') return [];
  const items = readItemsFile(res, container.items_file);
  if (items instanceof Error) throw items;
  return items.map((item, i) => ({ item, path: [...base, 'items_file'], inFile: `item ${i + 1}` }));
}

const sorted = (v: unknown) => (Array.isArray(v) ? [...new Set(v.map(String))].sort() : []);

/** The server keeps the time as sent; compare instants, not spellings. */
function instant(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : new Date(t).toISOString();
}

/** One item in compared form: defaults filled (tags, os_types and comments []; type simple), sets sorted, comments as their texts. */
export function comparableItem(source: Item): Item {
  const out: Item = {
    type: 'simple',
    name: source.name,
    description: source.description,
    entries: clone(source.entries ?? []),
    os_types: sorted(source.os_types),
    tags: sorted(source.tags),
    comments: (source.comments ?? []).map((c: { comment: string }) => c.comment),
  };
  if (source.expire_time !== undefined) out.expire_time = instant(source.expire_time);
  if (isPlainObject(source.meta)) out.meta = source.meta;
  return out;
}

/**
 * Items in compared form, in the given order; adapters declare the array keyed by item_id
 * (`keyedFields`), so a changed item shows as that item only.
 */
export function comparableItems(items: Item[]): Item[] {
  return items.map((item) => ({ item_id: item.item_id, ...comparableItem(item) }));
}

/** An item's writable fields as the manifest gives them. */
function itemBody(item: Item): Item {
  const out: Item = { type: 'simple' };
  for (const key of ITEM_FIELDS) if (item[key] !== undefined) out[key] = clone(item[key]);
  return out;
}

/**
 * Whether an update can bring `live` to `desired`. The update route keeps every stored comment and
 * adds only those sent without an id, after them (lists plugin exception_lists/utils,
 * transformUpdateCommentsToComments); it writes the item as a saved-object partial update, so an
 * expire_time left out stays and meta is merged into the stored one, its keys never removed. So
 * the stored comments must begin the desired ones, a stored expire_time must still be wanted, and
 * every stored meta key too; otherwise the item is deleted and created again.
 */
function updatable(desired: Item, live: Item): boolean {
  const stored = (live.comments ?? []) as Array<{ comment: string }>;
  const wanted = (desired.comments ?? []) as Array<{ comment: string }>;
  if (stored.length > wanted.length || stored.some((c, i) => c.comment !== wanted[i].comment)) return false;
  if (live.expire_time !== undefined && desired.expire_time === undefined) return false;
  return keysKept(live.meta, desired.meta);
}

/** Whether merging `sent` into `stored` (objects merged key by key, anything else replaced) gives `sent`. */
export function keysKept(stored: unknown, sent: unknown): boolean {
  if (!isPlainObject(stored)) return true;
  if (!isPlainObject(sent)) return false;
  return Object.keys(stored).every((key) => key in sent && (!isPlainObject(sent[key]) || keysKept(stored[key], sent[key])));
}

/** The stored comments go back with their ids, in their order; the desired ones after them are new, without ids. */
function commentsFor(desired: Array<{ comment: string }> | undefined, live: Item): Array<{ comment: string; id?: string }> {
  const kept = ((live.comments ?? []) as Array<{ id: string; comment: string }>).map((c) => ({ id: c.id, comment: c.comment }));
  return [...kept, ...(desired ?? []).slice(kept.length).map((c) => ({ comment: c.comment }))];
}

export interface ItemTarget {
  listId: string;
  namespaceType: string;
  space: string;
}

/**
 * Whether a 409 is the server refusing the repeat of a write of ours that landed: a create repeated
 * after its answer was lost finds its item_id taken, an update repeated finds the `_version` it sent
 * made stale by its own first attempt. The item is read back: if it holds what was written, the
 * write is done (as engine/confirm.ts settles creates); anything else stays the conflict. An
 * update's 409 on its first attempt is someone else's change and is never read past.
 */
async function ownWriteLanded(api: Requester, target: ItemTarget, item: Item, err: unknown, create: boolean): Promise<boolean> {
  if (!(err instanceof ApiError) || err.status !== 409 || (!create && err.attempts < 2)) return false;
  let read;
  try {
    read = await api.request({ method: 'GET', path: ITEMS_PATH, space: target.space, query: { item_id: item.item_id, namespace_type: target.namespaceType }, accept: [404] });
  } catch {
    return false;
  }
  // The item_id is unique across the lists of a namespace (item-ids.ts): held by another list, the
  // create can never land here, whoever retries it.
  const holder = read.status === 200 ? read.body?.list_id : undefined;
  if (create && typeof holder === 'string' && holder !== target.listId) {
    throw new Error(`exception list ${target.listId}: item_id ${JSON.stringify(item.item_id)} is held by exception list ${JSON.stringify(holder)}, and the server keeps item ids unique across the ${target.namespaceType === 'agnostic' ? 'agnostic lists of every space' : `lists of space ${target.space}`} (409); give the item another item_id, or take it out of that list first`);
  }
  return holder === target.listId && deepEqual(comparableItem(read.body), comparableItem(item));
}

/**
 * Brings the items of one list from `live` to `desired`: a create, an update (with the `_version`
 * read, so a change made since fails instead of being overwritten) or a delete per differing item.
 * Every write is finished before a failure is reported, so a read-back after it sees them all.
 */
export async function reconcileItems(api: Requester, target: ItemTarget, desired: Item[], live: Item[]): Promise<void> {
  const liveById = new Map(live.map((i) => [i.item_id, i]));
  const want = new Map(desired.map((i) => [i.item_id, i]));
  const writes: Array<Promise<unknown>> = [];
  const write = (item: Item, create: boolean, request: Parameters<Requester['request']>[0]) =>
    api.request(request).catch(async (err) => {
      if (!(await ownWriteLanded(api, target, item, err, create))) throw err;
    });
  for (const [itemId, item] of want) {
    const current = liveById.get(itemId);
    const body: Item = { ...itemBody(item), item_id: itemId, namespace_type: target.namespaceType };
    if (!current) {
      writes.push(write(item, true, { method: 'POST', path: ITEMS_PATH, space: target.space, idempotent: true, body: { ...body, list_id: target.listId } }));
    } else if (!deepEqual(comparableItem(item), comparableItem(current))) {
      if (updatable(item, current)) {
        // Tags left out would stay as stored: an item without them is sent [].
        writes.push(write(item, false, { method: 'PUT', path: ITEMS_PATH, space: target.space, body: { ...body, tags: body.tags ?? [], comments: commentsFor(item.comments, current), _version: current._version } }));
      } else {
        // Only a new item drops a comment, changes one or loses an expire_time or a meta key. A
        // failure after the delete leaves the item to create: the next run does that.
        const query = { item_id: itemId, namespace_type: target.namespaceType };
        writes.push(api.request({ method: 'DELETE', path: ITEMS_PATH, space: target.space, query, accept: [404] })
          .then(() => write(item, true, { method: 'POST', path: ITEMS_PATH, space: target.space, idempotent: true, body: { ...body, list_id: target.listId } })));
      }
    }
  }
  for (const itemId of liveById.keys()) {
    if (want.has(itemId)) continue;
    // An item already gone (404) is what was wanted.
    writes.push(api.request({ method: 'DELETE', path: ITEMS_PATH, space: target.space, query: { item_id: itemId, namespace_type: target.namespaceType }, accept: [404] }));
  }
  const failed = (await Promise.allSettled(writes)).find((w): w is PromiseRejectedResult => w.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Every exception list of one namespace a space sees, without items: one `_find` per page. */
export function findLists(api: Requester, space: string, namespaceType: string): Promise<Item[]> {
  return listAllPages<Item>(api, {
    path: `${LISTS_PATH}/_find`,
    space,
    query: { namespace_type: namespaceType, sort_field: 'created_at', sort_order: 'asc' },
    sizeParam: 'per_page',
    pageSize: PAGE_SIZE,
    items: (body) => body.data,
    total: (body) => body.total,
  });
}

/** The items of many lists of one namespace, by list_id: one `_find` per page per LISTS_PER_FIND lists. */
export async function itemsOfLists(api: Requester, space: string, listIds: string[], namespaceType: string): Promise<Map<string, Item[]>> {
  const out = new Map<string, Item[]>(listIds.map((id) => [id, []]));
  const chunks: string[][] = [];
  for (let i = 0; i < listIds.length; i += LISTS_PER_FIND) chunks.push(listIds.slice(i, i + LISTS_PER_FIND));
  await Promise.all(
    chunks.map(async (chunk) => {
      const items = await listAllPages<Item>(api, {
        path: `${ITEMS_PATH}/_find`,
        space,
        query: { list_id: chunk.join(','), namespace_type: chunk.map(() => namespaceType).join(','), sort_field: 'created_at', sort_order: 'asc' },
        sizeParam: 'per_page',
        pageSize: PAGE_SIZE,
        items: (body) => body.data,
        total: (body) => body.total,
      });
      for (const item of items) out.get(item.list_id)?.push(item);
    }),
  );
  return out;
}

/** A live item as a manifest writes it: server-managed fields and defaults left out. */
export function itemSpec(live: Item): Item {
  const out: Item = { item_id: live.item_id, name: live.name, description: live.description, entries: live.entries };
  if (live.os_types?.length) out.os_types = live.os_types;
  if (live.tags?.length) out.tags = live.tags;
  if (live.expire_time !== undefined) out.expire_time = live.expire_time;
  if (live.comments?.length) out.comments = live.comments.map((c: { comment: string }) => ({ comment: c.comment }));
  if (isPlainObject(live.meta)) out.meta = live.meta;
  return out;
}
