import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';

/** A value list as the server returns it (wire-facts 3.2). */
export interface ListRecord {
  _version: string;
  '@timestamp': string;
  created_at: string;
  created_by: string;
  description: string;
  id: string;
  immutable: boolean;
  meta?: Record<string, unknown>;
  name: string;
  tie_breaker_id: string;
  type: string;
  updated_at: string;
  updated_by: string;
  version: number;
}

/** A list item as the server returns it; `type` is inherited from its list. */
export interface ItemRecord {
  _version: string;
  '@timestamp': string;
  created_at: string;
  created_by: string;
  id: string;
  list_id: string;
  meta?: Record<string, unknown>;
  tie_breaker_id: string;
  type: string;
  updated_at: string;
  updated_by: string;
  value: string;
}

/**
 * A Map that --state saves as the plain object it has always saved. Items are kept by id, by value
 * and by owner in Maps: in plain objects of a million keys, importing a million values spent 7 of
 * its 16 s of CPU adding keys, and listing them took seconds (2.3 s for Object.values).
 */
export class JsonMap<V> extends Map<string, V> {
  toJSON(): Record<string, V> {
    const out: Record<string, V> = {};
    for (const [key, value] of this) setKey(out, key, value);
    return out;
  }

  /** The map of a value read back from a --state file (a plain object), or the map itself. */
  static of<V>(value: unknown): JsonMap<V> {
    if (value instanceof JsonMap) return value as JsonMap<V>;
    const map = new JsonMap<V>();
    if (value && typeof value === 'object') for (const key of Object.keys(value)) map.set(key, (value as Record<string, V>)[key]);
    return map;
  }
}

/**
 * The items of one list, indexed by id and by value so that import, lookup and delete by value
 * stay O(1) per value even for lists of a million items. A value may be held by several items
 * (item create does not deduplicate), hence the id arrays.
 */
export interface ListItems {
  byId: JsonMap<ItemRecord>;
  byValue: JsonMap<string[]>;
}

/** Value-list state of one space. `streams` stands for both `.lists-<space>` and `.items-<space>`. */
export interface ListsState {
  streams: boolean;
  lists: Record<string, ListRecord>;
  items: Record<string, ListItems>;
  /** Item id -> list id: item ids are unique across the space's item stream, not per list. */
  itemOwner: JsonMap<string>;
}

export const AREA = 'lists';

export function listsState(ctx: EmulatorContext, space: string): ListsState {
  const state = ctx.store.area<ListsState>(space, AREA, () => ({ streams: false, lists: {}, items: {}, itemOwner: new JsonMap() }));
  if (!(state.itemOwner instanceof JsonMap)) {
    // Read back from a --state file: its maps are plain objects until first used.
    state.itemOwner = JsonMap.of(state.itemOwner);
    for (const slot of Object.values(state.items)) {
      slot.byId = JsonMap.of(slot.byId);
      slot.byValue = JsonMap.of(slot.byValue);
    }
  }
  return state;
}

export const listStreamName = (space: string) => `.lists-${space}`;
export const itemStreamName = (space: string) => `.items-${space}`;

// Ids and names are user data used as record keys; `__proto__` must become an own key rather
// than reach the prototype (the records are plain JSON objects so that --state can save them).
export function getKey<T>(rec: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(rec, key) ? rec[key] : undefined;
}

export function setKey<T>(rec: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(rec, key, { value, writable: true, enumerable: true, configurable: true });
  else rec[key] = value;
}

const sortedCache = new WeakMap<ListItems, { key: string; sorted: ItemRecord[] }>();

/** Every write to a list's items goes through here so that cached sort orders are dropped. */
export function itemsChanged(items: ListItems): void {
  sortedCache.delete(items);
}

/** The list's items in one sort order, cached until the next write (find pages through it). */
export function sortedItems(items: ListItems, key: string, sort: (all: ItemRecord[]) => ItemRecord[]): ItemRecord[] {
  const cached = sortedCache.get(items);
  if (cached && cached.key === key) return cached.sorted;
  const sorted = sort([...items.byId.values()]);
  sortedCache.set(items, { key, sorted });
  return sorted;
}

export function itemsOf(state: ListsState, listId: string): ListItems {
  let slot = getKey(state.items, listId);
  if (!slot) {
    slot = { byId: new JsonMap(), byValue: new JsonMap() };
    setKey(state.items, listId, slot);
  }
  return slot;
}

export function addItem(state: ListsState, item: ItemRecord): void {
  const slot = itemsOf(state, item.list_id);
  slot.byId.set(item.id, item);
  const ids = slot.byValue.get(item.value);
  if (ids) ids.push(item.id);
  else slot.byValue.set(item.value, [item.id]);
  state.itemOwner.set(item.id, item.list_id);
  itemsChanged(slot);
}

export function removeItem(state: ListsState, item: ItemRecord): void {
  const slot = itemsOf(state, item.list_id);
  slot.byId.delete(item.id);
  const ids = slot.byValue.get(item.value);
  if (ids) {
    const rest = ids.filter((id) => id !== item.id);
    if (rest.length) slot.byValue.set(item.value, rest);
    else slot.byValue.delete(item.value);
  }
  state.itemOwner.delete(item.id);
  itemsChanged(slot);
}

/** Re-indexes an item whose value changed (PUT/PATCH of an item). */
export function replaceItem(state: ListsState, before: ItemRecord, after: ItemRecord): void {
  removeItem(state, before);
  addItem(state, after);
}

export function findItem(state: ListsState, id: string): ItemRecord | undefined {
  const listId = state.itemOwner.get(id);
  if (listId === undefined) return undefined;
  return getKey(state.items, listId)?.byId.get(id);
}

export function itemsByValue(state: ListsState, listId: string, value: string): ItemRecord[] {
  const slot = getKey(state.items, listId);
  if (!slot) return [];
  return (slot.byValue.get(value) ?? []).map((id) => slot.byId.get(id)).filter((x): x is ItemRecord => !!x);
}

export function dropListItems(state: ListsState, listId: string): void {
  const slot = getKey(state.items, listId);
  if (!slot) return;
  for (const id of slot.byId.keys()) state.itemOwner.delete(id);
  itemsChanged(slot);
  delete state.items[listId];
}

/**
 * `_version` optimistic concurrency as the security app does it: only checked when the caller
 * sends one; a mismatch is a 409 that shows both decoded versions.
 */
export function checkVersion(sent: unknown, current: string): void {
  if (sent === undefined || sent === null || sent === '') return;
  if (sent !== current) {
    throw new EmuError(
      409,
      `Conflict: versions mismatch. Provided versions:${JSON.stringify(decodeVersion(String(sent)))} does not match ${JSON.stringify(decodeVersion(current))}`,
      'security',
    );
  }
}

function decodeVersion(token: string): unknown {
  try {
    const [seqNo, primaryTerm] = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as [number, number];
    return { if_primary_term: primaryTerm, if_seq_no: seqNo };
  } catch {
    return {};
  }
}
