/** Small pure helpers shared by the kind adapters' normalize/toSpec functions. */
import { clone } from '../common/json-copy.js';
import { compareText } from '../common/compare-text.js';

// The one deep copy of JSON-shaped values (common/json-copy.ts); the emulator keeps its own.
export { clone };

export function isPlainObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function omit<T extends Record<string, any>>(obj: T, keys: Iterable<string>): Record<string, any> {
  const drop = new Set(keys);
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(obj)) if (!drop.has(k)) out[k] = v;
  return out;
}

export function pick(obj: Record<string, any>, keys: Iterable<string>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/** Removes keys whose value is null or undefined, recursively in objects (not inside arrays' scalars). */
export function dropNulls<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => dropNulls(x)) as T;
  if (!isPlainObject(v)) return v;
  const out: Record<string, any> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = dropNulls(x);
  return out as T;
}

/** Fills `defaults` into `obj` where obj has no value (shallow). */
export function withDefaults(obj: Record<string, any>, defaults: Record<string, any>): Record<string, any> {
  const out = { ...obj };
  for (const [k, v] of Object.entries(defaults)) if (out[k] === undefined) out[k] = clone(v);
  return out;
}

/** Removes keys whose value deep-equals the default (for export: leave out what the server fills). */
export function withoutDefaults(obj: Record<string, any>, defaults: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(obj)) if (!(k in defaults) || !deepEqual(v, defaults[k])) out[k] = v;
  return out;
}

/** A canonical, order-independent form of a set-like array: strings sorted by code units, anything else by canonical JSON. */
export function asSet<T>(arr: T[] | undefined): T[] | undefined {
  if (!arr) return arr;
  // Strings (tags, references, index patterns...) need no canonical JSON to be told apart or ordered.
  if (arr.every((x) => typeof x === 'string')) return ([...new Set(arr)] as string[]).sort() as T[];
  const keyed = arr.map((x) => [canonicalJson(x), x] as const);
  const seen = new Map<string, T>();
  for (const [k, x] of keyed) seen.set(k, x);
  return [...seen.entries()].sort(([a], [b]) => compareText(a, b)).map(([, x]) => x);
}

/** JSON with object keys sorted at every level: equal values give equal strings. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}

export function sortKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => sortKeys(x)) as T;
  if (!isPlainObject(v)) return v;
  const out: Record<string, any> = {};
  for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = sortKeys(v[k]);
  return out as T;
}

/** JSON equality: keys holding undefined count as absent. Loops without callbacks: a plan compares every declared object. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const aa = a as unknown[];
    const bb = b as unknown[];
    if (aa.length !== bb.length) return false;
    for (let i = 0; i < aa.length; i++) if (!deepEqual(aa[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // Defined keys of a, each equal in b; then b may have no more defined keys than a.
  let defined = 0;
  for (const k of Object.keys(ao)) {
    const v = ao[k];
    if (v === undefined) continue;
    defined++;
    if (!deepEqual(v, bo[k])) return false;
  }
  for (const k of Object.keys(bo)) if (bo[k] !== undefined) defined--;
  return defined === 0;
}

/** Duration strings such as `1d`, `24h`, `90m` in seconds (maintenance windows come back in other units). */
export function durationSeconds(s: string): number | undefined {
  const m = /^(\d+)([smhd])$/.exec(s);
  if (!m) return undefined;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
}
