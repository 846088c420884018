import { createRequire } from 'node:module';
import type { Operation } from 'fast-json-patch';
import { canonicalJson, clone, deepEqual, isPlainObject } from '../kinds/normalize.js';
import { SENSITIVE } from '../manifest/redact.js';
import { comparePointers, escapeSegment, getAt, overlaps, relativePointer, removeAt, setAt } from '../common/pointer.js';
import { stringSetDifference } from '../common/string-set-difference.js';

// Loaded when a patch is first made (JSON and saved plans), not by every plan.
const require = createRequire(import.meta.url);
const jsonpatch = () => require('fast-json-patch') as typeof import('fast-json-patch');

/** One changed field of an update, in spec terms. */
export interface FieldChange {
  /** JSON Pointer into the spec, e.g. `/severity` or `/actions`. */
  pointer: string;
  /** Absent when the field is new on the desired side. */
  before?: unknown;
  /** Absent when the field goes away. */
  after?: unknown;
  /** For set-like arrays: members to add and to remove, instead of before/after. */
  added?: unknown[];
  removed?: unknown[];
  sensitive?: boolean;
}

export interface ResourceDiff {
  equal: boolean;
  fields: FieldChange[];
  /** RFC 6902 patch from the live (normalized) object to the desired one, for machines. */
  patch: Operation[];
}

/**
 * A copy of a normalized spec without the ignored fields. Ignore pointers are written against the
 * manifest (`/spec/...`); others are not about the spec and change nothing here.
 */
export function withoutIgnored(spec: Record<string, any>, ignore: readonly string[]): Record<string, any> {
  const inSpec = ignore.flatMap((p) => relativePointer(p, '/spec') || []);
  if (inSpec.length === 0) return spec;
  const out = clone(spec);
  // Later array members first, so removing one never shifts another's pointer.
  for (const pointer of [...inSpec].sort(comparePointers).reverse()) removeAt(out, pointer);
  return out;
}

/**
 * `live` with its keyed arrays (an adapter's `keyedFields`: pointer -> key field) laid out like
 * `desired`'s: the member with the key of desired member i at index i (null when the server has
 * none), members the manifest does not have after them. Pointers written against the manifest
 * (`/spec/items/2/name` in metadata.ignore) then name the same member on both sides.
 */
export function alignKeyed(live: Record<string, any>, desired: Record<string, any>, keyed: Record<string, string> | undefined): Record<string, any> {
  if (!keyed) return live;
  let out = live;
  for (const [pointer, key] of Object.entries(keyed)) {
    const have = getAt(live, pointer);
    const want = getAt(desired, pointer);
    if (!Array.isArray(have) || !Array.isArray(want)) continue;
    const byKey = new Map(have.map((m) => [m?.[key], m]));
    const wanted = new Set(want.map((m) => m?.[key]));
    const laidOut = [...want.map((m) => byKey.get(m?.[key]) ?? null), ...have.filter((m) => !wanted.has(m?.[key]))];
    if (out === live) out = clone(live);
    setAt(out, pointer, laidOut);
  }
  return out;
}

function isSecret(pointer: string, secretPointers: Set<string>): boolean {
  for (const s of secretPointers) if (overlaps(pointer, s)) return true;
  return false;
}

/**
 * Field-level comparison of two normalized specs. Objects are walked key by key; arrays are
 * compared whole (a changed array is one field change) except the set-like ones, whose changes
 * are reported as members added and removed, so a 100,000-value list with one new value shows one
 * line rather than a positional rewrite.
 */
export function diffSpecs(
  live: Record<string, any>,
  desired: Record<string, any>,
  options: { setFields?: string[]; keyedFields?: Record<string, string>; secretPointers?: Set<string> } = {},
): ResourceDiff {
  const sets = new Set(options.setFields ?? []);
  const keyed = new Map(Object.entries(options.keyedFields ?? {}));
  live = alignKeyed(live, desired, options.keyedFields);
  const secrets = options.secretPointers ?? new Set<string>();
  const fields: FieldChange[] = [];
  const walk = (a: unknown, b: unknown, pointer: string) => {
    if (deepEqual(a, b)) return;
    if (isPlainObject(a) && isPlainObject(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const k of [...keys].sort()) walk(a[k], b[k], `${pointer}/${escapeSegment(k)}`);
      return;
    }
    const sensitive = isSecret(pointer, secrets);
    const key = keyed.get(pointer);
    if (key !== undefined && Array.isArray(a) && Array.isArray(b)) {
      // Members matched by key: a changed member shows as its own fields, others as added or removed.
      const added: unknown[] = [];
      b.forEach((member, i) => {
        const current = a[i];
        if (isPlainObject(current) && isPlainObject(member) && current[key] === member[key]) walk(current, member, `${pointer}/${i}`);
        else added.push(member);
      });
      const kept = new Set(b.map((m) => (isPlainObject(m) ? m[key] : undefined)));
      const removed = a.filter((m) => isPlainObject(m) && !kept.has(m[key]));
      if (added.length || removed.length) {
        fields.push({ pointer, added: sensitive ? added.map(() => SENSITIVE) : added, removed: sensitive ? removed.map(() => SENSITIVE) : removed, sensitive });
      }
      return;
    }
    if (sets.has(pointer) && (Array.isArray(a) || a === undefined) && (Array.isArray(b) || b === undefined)) {
      const { added, removed } = setDifference((a as unknown[]) ?? [], (b as unknown[]) ?? []);
      if (added.length || removed.length) {
        fields.push({ pointer, added: sensitive ? added.map(() => SENSITIVE) : added, removed: sensitive ? removed.map(() => SENSITIVE) : removed, sensitive });
      }
      return;
    }
    const change: FieldChange = { pointer, sensitive };
    if (a !== undefined) change.before = sensitive ? SENSITIVE : a;
    if (b !== undefined) change.after = sensitive ? SENSITIVE : b;
    fields.push(change);
  };
  walk(live, desired, '');
  if (fields.length === 0) return { equal: true, fields, patch: [] };
  // The patch is for machines (JSON plans, saved plans): made when first read, not for every update of a large apply.
  let patch: Operation[] | undefined;
  const makePatch = () => {
    const wholeArrays = new Set([...sets, ...keyed.keys()]);
    // A keyed array that changed is replaced whole in the machine patch (its live side is laid out, not as the server sent it).
    const keyedPatch = [...keyed.keys()]
      .filter((p) => !deepEqual(getAt(live, p), getAt(desired, p)))
      .map((p) => ({ op: 'replace', path: p, value: clone(getAt(desired, p)) }) as Operation);
    return [...jsonpatch().compare(withoutPointers(live, wholeArrays), withoutPointers(desired, wholeArrays)), ...setPatch(live, fields, sets), ...keyedPatch].map((op) =>
      'value' in op && isSecret(op.path, secrets) ? { ...op, value: SENSITIVE } : op,
    ) as Operation[];
  };
  return {
    equal: false,
    fields,
    get patch() {
      return (patch ??= makePatch());
    },
  };
}

/** Whether every member is a string: such sets (tags, a list's values) compare without canonical JSON. */
const allStrings = (arr: unknown[]) => arr.every((x) => typeof x === 'string');

/** Members of `after` missing from `before` and the reverse, each once, by canonical JSON (strings as they are). */
function setDifference(before: unknown[], after: unknown[]): { added: unknown[]; removed: unknown[] } {
  if (allStrings(before) && allStrings(after)) return stringSetDifference(before as string[], after as string[]);
  const had = new Map(before.map((x) => [canonicalJson(x), x]));
  const has = new Map(after.map((x) => [canonicalJson(x), x]));
  return {
    added: [...has.entries()].filter(([k]) => !had.has(k)).map(([, v]) => v),
    removed: [...had.entries()].filter(([k]) => !has.has(k)).map(([, v]) => v),
  };
}

/** A copy without the set-like arrays, which are patched member by member instead. */
function withoutPointers(obj: Record<string, any>, pointers: Set<string>): Record<string, any> {
  const present = [...pointers].filter((p) => getAt(obj, p) !== undefined);
  if (present.length === 0) return obj;
  const out = clone(obj);
  for (const p of present) removeAt(out, p);
  return out;
}

/**
 * Operations for set-like arrays: removals by index from the end (so earlier indices stay valid),
 * then additions appended. A one-value change to a 100,000-value list is one operation, not a
 * positional rewrite of everything after it.
 */
function setPatch(live: Record<string, any>, fields: FieldChange[], sets: Set<string>): Operation[] {
  const ops: Operation[] = [];
  for (const f of fields) {
    if (!sets.has(f.pointer) || (!f.added && !f.removed)) continue;
    const current = getAt(live, f.pointer);
    if (!Array.isArray(current)) {
      ops.push({ op: 'add', path: f.pointer, value: f.added ?? [] });
      continue;
    }
    const key = allStrings(current) && allStrings(f.removed ?? []) ? (v: unknown) => v as string : canonicalJson;
    const removed = new Set((f.removed ?? []).map(key));
    const indices = current.flatMap((v, i) => (removed.has(key(v)) ? [i] : []));
    for (const i of indices.reverse()) ops.push({ op: 'remove', path: `${f.pointer}/${i}` });
    for (const v of f.added ?? []) ops.push({ op: 'add', path: `${f.pointer}/-`, value: v });
  }
  return ops;
}

