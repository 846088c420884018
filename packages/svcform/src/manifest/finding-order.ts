import type { Diagnostic, DocPath } from './types.js';

/**
 * A document's findings are shown in the order of their lines and columns, and a place costs a
 * reading of the document with positions (for a file beyond ASCII, reading the file again). A
 * document with two warnings (a `${NAME}` in two fields of every rule) made a first validate of
 * the 2,068 real rules 0.3 s slower than one warning did, all of it placing findings no output
 * showed. Where a document's value holds its keys in the order of its text, the order of the
 * findings follows from where they are in the value, as the line and column sort would give it.
 */

/** Where a finding not placed yet lies in its document's value: a path, and an offset in the string there. */
export interface ValuePlace {
  path: DocPath;
  offset?: number;
}

const placesOf = new WeakMap<Diagnostic, ValuePlace>();
const inTextOrder = new WeakSet<object>();

/**
 * Notes where a finding placed when shown lies: its place is `doc.posOf(path)`, or the place of
 * `offset` in the string at `path` when that string is the document's own.
 */
export function noteValuePlace(finding: Diagnostic, place: ValuePlace): void {
  placesOf.set(finding, place);
}

/**
 * Marks a document's value as read from its text in order (the fast reader's, or a copy of it
 * kept by the manifest cache): no anchors or aliases, each mapping's keys inserted as written.
 * A value built anew (a fan-out copy, an overlay) is another object, and is not marked.
 */
export function markTextOrder(value: unknown): void {
  if (value !== null && typeof value === 'object') inTextOrder.add(value);
}

/**
 * The findings of the document whose value is `value`, sorted and with repeats dropped as sorting by
 * line and column and dropping repeats of a place would: or undefined when where they are in the
 * value cannot tell it (a finding with a place of its own, an unmarked value, a pair that
 * `valueOrder` cannot order).
 */
export function orderedByValue(found: Diagnostic[], value: unknown): Diagnostic[] | undefined {
  if (value === null || typeof value !== 'object' || !inTextOrder.has(value)) return undefined;
  // Each pair is compared up front, so a sort never meets a pair it cannot order; a document with
  // many findings is rare and placed as before.
  if (found.length > 16) return undefined;
  const places: ValuePlace[] = [];
  for (const d of found) {
    const place = placesOf.get(d);
    if (!place) return undefined;
    places.push(place);
  }
  const order: number[][] = found.map(() => []);
  let samePlace = false;
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const c = valueOrder(value, places[i]!, places[j]!);
      if (c === undefined) return undefined;
      order[i]![j] = c;
      order[j]![i] = -c;
      if (c === 0) samePlace = true;
    }
  }
  const sorted = found.map((_, i) => i).sort((a, b) => order[a]![b]!);
  if (!samePlace) return sorted.map((i) => found[i]!);
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const i of sorted) {
    const d = found[i]!;
    // A repeat is the same finding at the same place: here, at the same path and offset.
    const key = JSON.stringify([d.severity, places[i]!.path, places[i]!.offset ?? null, d.subject ?? null, d.message]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

/**
 * The order of two places in a value marked by markTextOrder, as their lines and columns would
 * give it: what is under an earlier key or item comes first, as it is written first. Undefined where
 * that does not follow from the value alone:
 * - a step of either path is not in the value (the place is then that of the last step that is);
 * - one path lies within the other (a mapping's place and its first key's may be the same);
 * - the same path with two offsets (a string whose characters cannot be found in the text is
 *   placed at its start, whatever the offset), or with one;
 * - the keys where the paths part are integer-like: JavaScript puts those first in an object,
 *   whatever their place in the text.
 */
export function valueOrder(value: unknown, a: ValuePlace, b: ValuePlace): number | undefined {
  if (!holds(value, a.path) || !holds(value, b.path)) return undefined;
  const shared = Math.min(a.path.length, b.path.length);
  let node: unknown = value;
  for (let i = 0; i < shared; i++) {
    const x = a.path[i]!;
    const y = b.path[i]!;
    if (x === y) {
      node = (node as Record<string | number, unknown>)[x];
      continue;
    }
    if (Array.isArray(node)) return (x as number) - (y as number);
    if (isIndexLike(String(x)) || isIndexLike(String(y))) return undefined;
    const keys = Object.keys(node as object);
    return keys.indexOf(String(x)) - keys.indexOf(String(y));
  }
  if (a.path.length !== b.path.length) return undefined;
  return a.offset === b.offset ? 0 : undefined;
}

/** Whether every step of `path` is in `value`, as the fast reader's positions look them up (an item by number, a key by name). */
function holds(value: unknown, path: DocPath): boolean {
  let node = value;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return false;
    if (Array.isArray(node)) {
      if (typeof step !== 'number' || !Number.isInteger(step) || step < 0 || step >= node.length) return false;
    } else if (!Object.prototype.hasOwnProperty.call(node, String(step))) return false;
    node = (node as Record<string | number, unknown>)[step];
  }
  return true;
}

/** An array index as JavaScript orders object keys: a canonical whole number below 2^32 - 1. */
function isIndexLike(key: string): boolean {
  return /^(?:0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 4294967295;
}
