/** Small pure helpers shared by the kind adapters' normalize/toSpec functions. */
import { clone } from '../common/json-copy.js';

// The one deep copy of JSON-shaped values (common/json-copy.ts), shared with the emulator.
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
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, x]) => x);
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

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object).filter((k) => (a as any)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as any)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as any)[k], (b as any)[k]));
}

/** Duration strings such as `1d`, `24h`, `90m` in seconds (maintenance windows come back in other units). */
export function durationSeconds(s: string): number | undefined {
  const m = /^(\d+)([smhd])$/.exec(s);
  if (!m) return undefined;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
}
