/**
 * JSON Pointers (RFC 6901): the one implementation of `~0`/`~1` escaping, lookup and edits used by
 * manifests (secret and ignore pointers), the engine (diffs and ignore rules), kind adapters and
 * reports. Segments are strings; an array index is a segment of digits.
 */

export type Segment = string | number;

export function escapeSegment(seg: Segment): string {
  return String(seg).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeSegment(raw: string): string {
  return raw.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `/a/b~1c` -> `['a', 'b/c']`; `''` (the whole document) -> `[]`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${JSON.stringify(pointer)} (it must start with "/")`);
  return pointer.slice(1).split('/').map(unescapeSegment);
}

/**
 * The segments of the pointers lookups are given, kept: a plan looks up the same few (an adapter's
 * keyed and set fields) in every object. Read-only; parsePointer gives a fresh array to edit.
 */
const PARSED = new Map<string, readonly string[]>();
const PARSED_LIMIT = 10_000;

function segmentsOf(pointer: string): readonly string[] {
  let segments = PARSED.get(pointer);
  if (!segments) {
    segments = parsePointer(pointer);
    if (PARSED.size < PARSED_LIMIT) PARSED.set(pointer, segments);
  }
  return segments;
}

export function formatPointer(segments: readonly Segment[]): string {
  return segments.map((s) => '/' + escapeSegment(s)).join('');
}

/**
 * The pointer relative to `prefix` (e.g. `/spec/enabled` under `/spec` is `/enabled`), or
 * undefined when it does not lie under the prefix.
 */
export function relativePointer(pointer: string, prefix: string): string | undefined {
  if (pointer === prefix) return '';
  return pointer.startsWith(prefix + '/') ? pointer.slice(prefix.length) : undefined;
}

const isContainer = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object';

function step(cur: any, seg: string): unknown {
  if (Array.isArray(cur)) return /^\d+$/.test(seg) ? cur[Number(seg)] : undefined;
  return isContainer(cur) && Object.prototype.hasOwnProperty.call(cur, seg) ? cur[seg] : undefined;
}

/** The value at `pointer`, or undefined when any step is missing. */
export function getAt(doc: unknown, pointer: string | readonly string[]): unknown {
  const segments = typeof pointer === 'string' ? segmentsOf(pointer) : pointer;
  let cur: unknown = doc;
  for (const seg of segments) {
    cur = step(cur, seg);
    if (cur === undefined) return undefined;
  }
  return cur;
}

export function hasAt(doc: unknown, pointer: string | readonly string[]): boolean {
  return getAt(doc, pointer) !== undefined;
}

/**
 * Sets the value at `pointer` in place, creating missing objects on the way. Returns false (and
 * changes nothing) when a step runs into a value that is not an object, or an array index that
 * does not exist: a pointer never turns a scalar into an object behind the caller's back.
 */
export function setAt(doc: Record<string, any>, pointer: string | readonly string[], value: unknown): boolean {
  const segments = typeof pointer === 'string' ? parsePointer(pointer) : pointer;
  if (segments.length === 0) return false;
  let cur: any = doc;
  for (const seg of segments.slice(0, -1)) {
    let next = step(cur, seg);
    if (next === undefined) {
      if (Array.isArray(cur)) return false;
      next = cur[seg] = {};
    }
    if (!isContainer(next)) return false;
    cur = next;
  }
  const last = segments[segments.length - 1];
  if (Array.isArray(cur)) {
    if (!/^\d+$/.test(last) || Number(last) >= cur.length) return false;
    cur[Number(last)] = value;
  } else cur[last] = value;
  return true;
}

/** Removes the value at `pointer` in place (array members are spliced out). Returns whether it was there. */
export function removeAt(doc: unknown, pointer: string | readonly string[]): boolean {
  const segments = typeof pointer === 'string' ? parsePointer(pointer) : pointer;
  if (segments.length === 0) return false;
  const parent = getAt(doc, segments.slice(0, -1));
  const last = segments[segments.length - 1];
  if (Array.isArray(parent)) {
    if (!/^\d+$/.test(last) || Number(last) >= parent.length) return false;
    parent.splice(Number(last), 1);
    return true;
  }
  if (!isContainer(parent) || !Object.prototype.hasOwnProperty.call(parent, last)) return false;
  delete parent[last];
  return true;
}

/** Document order: segment by segment, array indices numerically, a parent before its children. */
export function comparePointers(a: string, b: string): number {
  const x = parsePointer(a);
  const y = parsePointer(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    if (/^\d+$/.test(x[i]) && /^\d+$/.test(y[i])) return Number(x[i]) - Number(y[i]);
    return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

/** Whether `a` equals `b` or one lies inside the other (a secret at /secrets covers /secrets/token). */
export function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(b + '/') || b.startsWith(a + '/');
}

/** Display form of a spec pointer: `/actions/0/id` -> `spec.actions[0].id`. */
export function fieldLabel(pointer: string, root = 'spec'): string {
  let out = root;
  for (const seg of parsePointer(pointer)) {
    out += /^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_][\w-]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return out;
}
