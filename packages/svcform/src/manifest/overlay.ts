import { createRequire } from 'node:module';
import type { Operation } from 'fast-json-patch';
import { clone } from '../common/json-copy.js';
import { globToRegExp } from '../common/glob.js';
import { formatPointer, parsePointer } from '../common/pointer.js';
import { displayPath, type LoadedDoc } from './load.js';
import { shortText } from './short-text.js';
import type { Diagnostic, DocPath, SourcePos } from './types.js';

// Loaded only when an environment's overlay has patch operations.
const require = createRequire(import.meta.url);
const jsonpatch = () => require('fast-json-patch') as typeof import('fast-json-patch');

/**
 * Environment overlays (svcform.yaml `environments.<name>.overlays`): values and patches that one
 * environment applies to the manifests it selects before they are validated and planned, so the
 * repository holds one manifest and each environment its differences (every rule disabled in dev,
 * another connector id in prod). Pure: the CLI reads them from svcform.yaml (cli/environments.ts).
 */

/** Which manifests an overlay changes; every given part must match. */
export interface OverlaySelector {
  /** Kinds (exact names). */
  kinds?: string[];
  /** A `*` glob over metadata.name. */
  name?: string;
  /** Every one of these metadata.labels, with these values. */
  labels?: Record<string, string>;
  /** Every one of these spec.tags (kinds whose manifests carry tags). */
  tags?: string[];
}

export interface Overlay {
  /** 0-based position in its environment's list. */
  index: number;
  select: OverlaySelector;
  /** A JSON merge patch (RFC 7386) of the document: objects merge, anything else replaces, null removes. */
  values?: Record<string, unknown>;
  /** JSON Patch (RFC 6902) operations on the document. */
  patch?: Operation[];
  /** Where a part of the overlay sits in svcform.yaml (path relative to the overlay). */
  posOf(path: DocPath): SourcePos;
}

export interface EnvironmentOverlays {
  environment: string;
  overlays: Overlay[];
}

/** What an overlay set in a document: the document path, and the overlay path its value came from. */
interface Touched {
  path: DocPath;
  origin: DocPath;
  overlay: Overlay;
}

const isMapping = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Whether an overlay selects a manifest document (its value as read, before interpolation). */
export function overlayMatches(overlay: Overlay, value: unknown): boolean {
  if (!isMapping(value)) return false;
  const { kinds, name, labels, tags } = overlay.select;
  if (kinds && !kinds.includes(value.kind as string)) return false;
  const metadata = isMapping(value.metadata) ? value.metadata : {};
  if (name !== undefined && !(typeof metadata.name === 'string' && globToRegExp(name).test(metadata.name))) return false;
  if (labels) {
    const held = isMapping(metadata.labels) ? metadata.labels : {};
    if (!Object.entries(labels).every(([k, v]) => held[k] === v)) return false;
  }
  if (tags) {
    const held = isMapping(value.spec) && Array.isArray(value.spec.tags) ? value.spec.tags : [];
    if (!tags.every((t) => held.includes(t))) return false;
  }
  return true;
}

class PatchFailure extends Error {
  constructor(readonly op: number, message: string) {
    super(message);
  }
}

/** fast-json-patch's error names, in words (its own messages print the whole document, secrets included). */
const PATCH_ERRORS: Record<string, string> = {
  OPERATION_PATH_UNRESOLVABLE: 'the path does not exist in the manifest',
  OPERATION_FROM_UNRESOLVABLE: 'the `from` path does not exist in the manifest',
  TEST_OPERATION_FAILED: 'the test failed: the manifest holds another value there',
  OPERATION_VALUE_OUT_OF_BOUNDS: 'the array index is past the end of the array',
  OPERATION_PATH_ILLEGAL_ARRAY_INDEX: 'the array index is not a number',
  OPERATION_PATH_CANNOT_ADD: 'the parent of the path does not exist in the manifest',
};

/** Applies one overlay to a copy of `value`, recording what it set. */
function applyOne(overlay: Overlay, value: Record<string, unknown>, touched: Touched[]): Record<string, unknown> {
  let out = clone(value);
  if (overlay.values) merge(out, overlay.values, [], ['values'], overlay, touched);
  (overlay.patch ?? []).forEach((op, j) => {
    const path = parsePointer(op.path);
    // `-` appends: the member it makes is the one past the current end.
    if (path[path.length - 1] === '-') {
      let parent: unknown = out;
      for (const step of path.slice(0, -1)) parent = isMapping(parent) || Array.isArray(parent) ? (parent as any)[step] : undefined;
      if (Array.isArray(parent)) path[path.length - 1] = String(parent.length);
    }
    try {
      out = jsonpatch().applyOperation(out, op, true, true, true, j).newDocument as Record<string, unknown>;
    } catch (err) {
      const name = (err as { name?: string }).name ?? '';
      throw new PatchFailure(j, PATCH_ERRORS[name] ?? name.toLowerCase().replace(/_/g, ' '));
    }
    if (op.op !== 'remove' && op.op !== 'test') touched.push({ path: path.map(step), origin: op.op === 'move' || op.op === 'copy' ? ['patch', j] : ['patch', j, 'value'], overlay });
  });
  return out;
}

/** Array indexes as numbers, as DocPaths hold them. */
const step = (s: string): string | number => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s);

function merge(target: Record<string, unknown>, patch: Record<string, unknown>, path: DocPath, origin: DocPath, overlay: Overlay, touched: Touched[]): void {
  for (const [key, v] of Object.entries(patch)) {
    const at = [...path, key];
    const from = [...origin, key];
    if (v === null) delete target[key];
    else if (isMapping(v)) {
      if (!isMapping(target[key])) target[key] = {};
      merge(target[key] as Record<string, unknown>, v, at, from, overlay, touched);
      continue;
    } else target[key] = clone(v);
    touched.push({ path: at, origin: from, overlay });
  }
}

/** The document as an environment sees it: errors at what an overlay set point at the overlay. */
function overlaidDoc(doc: LoadedDoc, value: Record<string, unknown>, touched: Touched[]): LoadedDoc {
  const setBy = (path: DocPath): Touched | undefined => {
    let best: Touched | undefined;
    for (const t of touched) {
      if (t.path.length > path.length || !t.path.every((s, i) => String(s) === String(path[i]))) continue;
      if (!best || t.path.length >= best.path.length) best = t;
    }
    return best;
  };
  // Not kept in the manifest cache's verdicts: those are for the file's bytes, not this value.
  const { cacheKey: _bytes, ...rest } = doc;
  return {
    ...rest,
    value,
    posOf(path) {
      const t = setBy(path);
      return t ? t.overlay.posOf([...t.origin, ...path.slice(t.path.length)]) : doc.posOf(path);
    },
    posInScalar(path, offset, text) {
      return setBy(path) ? undefined : doc.posInScalar(path, offset, text);
    },
  };
}

function subjectOf(value: Record<string, unknown>): string {
  const name = isMapping(value.metadata) ? value.metadata.name : undefined;
  return `${shortText(String(value.kind))}/${shortText(String(name))}`;
}

/**
 * Every overlay of the environment applied, in order, to the documents it selects. An overlay
 * that selects nothing is a warning at its line (a typo in a selector must not pass silently);
 * a patch that fails is an error at the operation naming the environment, overlay, manifest and
 * field, and the document is validated as written.
 */
export function applyOverlays(docs: LoadedDoc[], env: EnvironmentOverlays): { docs: LoadedDoc[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const matched = new Set<Overlay>();
  const out = docs.map((doc) => {
    if (!isMapping(doc.value)) return doc;
    let value = doc.value;
    const touched: Touched[] = [];
    // A removal touches no place of the overlay, but rewrites the document all the same.
    let rewritten = false;
    for (const overlay of env.overlays) {
      if (!overlayMatches(overlay, value)) continue;
      matched.add(overlay);
      try {
        value = applyOne(overlay, value, touched);
        rewritten ||= overlay.values !== undefined || (overlay.patch ?? []).some((op) => op.op !== 'test');
      } catch (err) {
        if (!(err instanceof PatchFailure)) throw err;
        const op = overlay.patch![err.op];
        const where = `${displayPath(doc.start.file)}:${doc.start.line}`;
        diagnostics.push({
          severity: 'error',
          pos: overlay.posOf(['patch', err.op]),
          subject: subjectOf(doc.value),
          message: `environment ${env.environment}, overlay ${overlay.index + 1}: patch[${err.op}] ${op.op} ${shortText(op.path)} on ${subjectOf(doc.value)} (${where}): ${err.message}`,
        });
        return doc;
      }
    }
    return rewritten ? overlaidDoc(doc, value, touched) : doc;
  });
  for (const overlay of env.overlays) {
    if (!matched.has(overlay)) diagnostics.push({ severity: 'warning', pos: overlay.posOf([]), message: `environment ${env.environment}, overlay ${overlay.index + 1} matches no manifest` });
  }
  return { docs: out, diagnostics };
}

/**
 * The spec pointers the overlays set on a document like `value` (promote: a field an environment's
 * overlay sets is that environment's own, not a difference between environments).
 */
export function overlaidSpecPointers(env: EnvironmentOverlays, value: Record<string, unknown>): string[] {
  const out = new Set<string>();
  for (const overlay of env.overlays) {
    if (!overlayMatches(overlay, value)) continue;
    const paths: DocPath[] = [];
    const walk = (patch: Record<string, unknown>, path: DocPath) => {
      for (const [k, v] of Object.entries(patch)) isMapping(v) ? walk(v, [...path, k]) : paths.push([...path, k]);
    };
    if (overlay.values) walk(overlay.values, []);
    for (const op of overlay.patch ?? []) paths.push(parsePointer(op.path).filter((s) => s !== '-'));
    for (const p of paths) if (p[0] === 'spec' && p.length > 1) out.add(formatPointer(p.slice(1)));
  }
  return [...out];
}
