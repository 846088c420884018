import type { LoadedDoc } from './load.js';
import { displayField } from './schema.js';
import { quotedText, shortText } from './short-text.js';
import { subjectOf, type Diagnostic, type DocPath, type FanOut, type KindRules } from './types.js';

/**
 * One manifest, many spaces (issue 33): `metadata.spaces` makes a document declare the same object
 * in each space it names, `metadata.spaceOverrides` changes it in some of them. This is the one
 * place that knows: every document with `spaces` becomes one document per space, with
 * `metadata.space` set and the space's override merged into its spec, before anything else judges
 * it. Validation, the plan, ownership, references (a rule's connector in its own space), export
 * and drift then see ordinary documents, one object per space, each named `Kind/name (space S)`.
 *
 * - `spaces: [soc-eu, soc-us]`: those spaces; or `spaces: {labels: {tier: soc}}`: every Space
 *   manifest of the run whose labels include all of these (a selector over declared Spaces only:
 *   what the server holds is not known offline, and a plan's objects must not depend on it).
 * - `spaceOverrides: {soc-eu: {spec: {...}}}`: merged into the spec for that space as a JSON Merge
 *   Patch (RFC 7386): objects merge key by key, `null` removes a field, any other value (arrays
 *   included) replaces it whole. A value from an override is placed at the override in messages.
 */

/** What fan-out needs to know of a kind. */
type Lookup = (kind: string) => KindRules | undefined;

const SPACE_ID = /^[a-z0-9_-]+$/;
const FAN_OUT_KEYS = ['spaces', 'spaceOverrides'] as const;

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface DeclaredSpace {
  name: string;
  labels: Record<string, unknown>;
}

/**
 * The copies a document stands for: itself when it names no `spaces`, none after an error (in
 * `out`), else one per space. `declared` is the run's Space manifests (declaredSpaces).
 */
export function fanOut(doc: LoadedDoc, lookup: Lookup, declared: () => DeclaredSpace[], out: Diagnostic[]): LoadedDoc[] {
  return asksFanOut(doc) ? fanOutDoc(doc, lookup, declared(), out) : [doc];
}

function asksFanOut(doc: LoadedDoc): boolean {
  const meta = (doc.value as Record<string, any> | null)?.metadata;
  return isObject(meta) && FAN_OUT_KEYS.some((k) => k in meta);
}

/** The Space manifests of the run (a kind that `containsSpaces`), with their labels. */
export function declaredSpaces(docs: LoadedDoc[], lookup: Lookup): DeclaredSpace[] {
  const found: DeclaredSpace[] = [];
  for (const doc of docs) {
    const raw = doc.value as Record<string, any> | null;
    if (!isObject(raw) || typeof raw.kind !== 'string' || !lookup(raw.kind)?.containsSpaces) continue;
    const meta = raw.metadata;
    if (isObject(meta) && typeof meta.name === 'string') found.push({ name: meta.name, labels: isObject(meta.labels) ? meta.labels : {} });
  }
  return found;
}

function fanOutDoc(doc: LoadedDoc, lookup: Lookup, declared: DeclaredSpace[], out: Diagnostic[]): LoadedDoc[] {
  const raw = doc.value as Record<string, any>;
  const meta = raw.metadata as Record<string, any>;
  const kind = typeof raw.kind === 'string' ? raw.kind : undefined;
  const rules = kind === undefined ? undefined : lookup(kind);
  // An unknown kind gets its own error from validation; nothing here can add to it.
  if (!rules) return [{ ...doc, value: { ...raw, metadata: withoutFanOut(meta) } }];
  const subject = typeof meta.name === 'string' ? subjectOf({ kind: shortText(kind!), name: shortText(meta.name) }) : shortText(kind!);
  const before = out.length;
  const error = (path: DocPath, message: string) => out.push({ severity: 'error', pos: doc.posOf(path), subject, message: `${displayField(path)}: ${message}` });

  if (!('spaces' in meta)) {
    error(['metadata', 'spaceOverrides'], 'needs metadata.spaces, the spaces the manifest is declared in');
    return [];
  }
  if ('space' in meta) error(['metadata', 'spaces'], 'give metadata.space (one space) or metadata.spaces (several), not both');
  const spec = isObject(raw.spec) ? raw.spec : {};
  if (rules.containsSpaces || rules.spaceless?.declared(spec)) {
    error(['metadata', 'spaces'], `this ${kind} belongs to no space (one object, seen from every space): declare it once, without metadata.spaces`);
  }
  const named = spacesNamed(meta.spaces, declared, error);
  const overrides = overridesOf(meta, named?.map((n) => n.space), error);
  if (out.length > before || !named || !overrides) return [];

  return named.map(({ space, path }) => {
    const override = overrides.get(space);
    const overridePath: DocPath = ['metadata', 'spaceOverrides', space, 'spec'];
    const metadata = { ...withoutFanOut(meta), space };
    const value = { ...raw, metadata, ...(override === undefined ? {} : { spec: mergePatch(raw.spec, override) }) };
    // A place in the copy is the place of what it came from: its space at the list item, a field
    // the override sets at the override, everything else in the document itself.
    const from = (p: DocPath): DocPath => {
      if (p[0] === 'metadata' && p[1] === 'space') return [...path, ...p.slice(2)];
      if (override !== undefined && p[0] === 'spec' && setsPath(override, p.slice(1))) return [...overridePath, ...p.slice(1)];
      return p;
    };
    const copy: LoadedDoc = {
      ...doc,
      value,
      posOf: (p) => doc.posOf(from(p)),
      posInScalar: (p, offset, text) => doc.posInScalar(from(p), offset, text),
      fanOut: { spaces: named.map((n) => n.space), spacePath: path },
    };
    // A copy is the document's bytes and its space: clean verdicts are kept per copy.
    if (doc.cacheKey !== undefined) copy.cacheKey = `${doc.cacheKey}@${space}`;
    return copy;
  });
}

function withoutFanOut(meta: Record<string, any>): Record<string, any> {
  const rest = { ...meta };
  for (const k of FAN_OUT_KEYS) delete rest[k];
  return rest;
}

/** The spaces `metadata.spaces` names, each with the path that names it; undefined after an error. */
function spacesNamed(value: unknown, declared: DeclaredSpace[], error: (path: DocPath, message: string) => void): Array<{ space: string; path: DocPath }> | undefined {
  const at: DocPath = ['metadata', 'spaces'];
  if (Array.isArray(value)) {
    if (value.length === 0) {
      error(at, 'names no space: list at least one space id, or give metadata.space');
      return undefined;
    }
    const seen = new Set<string>();
    let ok = true;
    value.forEach((s, i) => {
      if (typeof s !== 'string' || !SPACE_ID.test(s)) {
        error([...at, i], `must be a space id (a-z, 0-9, _ and -), not ${typeof s === 'string' ? quotedText(s) : shortText(JSON.stringify(s) ?? String(s))}`);
        ok = false;
      } else if (seen.has(s)) {
        error([...at, i], `space ${s} is listed twice`);
        ok = false;
      }
      seen.add(String(s));
    });
    return ok ? value.map((space, i) => ({ space: space as string, path: [...at, i] })) : undefined;
  }
  if (isObject(value) && Object.keys(value).length === 1 && isObject(value.labels) && Object.values(value.labels).every((v) => typeof v === 'string')) {
    const wanted = Object.entries(value.labels);
    const chosen = declared.filter((s) => wanted.every(([k, v]) => s.labels[k] === v)).map((s) => s.name);
    if (chosen.length === 0) {
      const names = declared.map((s) => s.name);
      error([...at, 'labels'], `matches no Space manifest of this run (${names.length ? `declared: ${names.join(', ')}` : 'none is declared'}); a selector chooses among declared Spaces only`);
      return undefined;
    }
    return [...new Set(chosen)].map((space) => ({ space, path: [...at, 'labels'] }));
  }
  error(at, 'must be a list of space ids ([soc-eu, soc-us]) or a selector over the Space manifests ({labels: {tier: soc}})');
  return undefined;
}

/** `metadata.spaceOverrides` by space: each a spec patch. Undefined after an error. */
function overridesOf(meta: Record<string, any>, spaces: string[] | undefined, error: (path: DocPath, message: string) => void): Map<string, unknown> | undefined {
  const found = new Map<string, unknown>();
  if (!('spaceOverrides' in meta)) return found;
  const value = meta.spaceOverrides;
  const at: DocPath = ['metadata', 'spaceOverrides'];
  if (!isObject(value)) {
    error(at, 'must map a space id to its override ({soc-eu: {spec: {...}}})');
    return undefined;
  }
  let ok = true;
  for (const [space, override] of Object.entries(value)) {
    if (spaces && !spaces.includes(space)) {
      error([...at, space], `overrides space ${quotedText(space)}, which metadata.spaces does not name (it names ${spaces.join(', ')})`);
      ok = false;
    } else if (!isObject(override) || Object.keys(override).some((k) => k !== 'spec') || !isObject(override.spec)) {
      error([...at, space], 'must be {spec: {...}}: the spec fields that differ in this space');
      ok = false;
    } else found.set(space, override.spec);
  }
  return ok ? found : undefined;
}

/** RFC 7386 JSON Merge Patch: `patch` applied to `target`, neither changed. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Whether a merge patch sets the value at `path` (or something above it). */
function setsPath(patch: unknown, path: DocPath): boolean {
  let at: unknown = patch;
  for (const step of path) {
    if (!isObject(at)) return true;
    if (!(String(step) in at)) return false;
    at = at[String(step)];
  }
  return true;
}

/** Where a resource's space is named: `metadata.spaces[i]` for a copy, else `metadata.space`. */
export function spacePathOf(r: { fanOut?: FanOut }): DocPath {
  return r.fanOut ? r.fanOut.spacePath : ['metadata', 'space'];
}
