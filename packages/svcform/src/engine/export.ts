import { createHash } from 'node:crypto';
import { dirname, posix, relative, join } from 'node:path';
import { yaml } from '../common/yaml.js';
import type { ExportVariable, KindAdapter, LiveObject } from '../kinds/types.js';
import { sortKeys } from '../kinds/normalize.js';
import { Selection } from './selection.js';
import { compareText } from '../common/compare-text.js';
import type { RunScope } from '../kinds/run-scope.js';
import { placeholdersForSecretFields } from './export-secrets.js';

// The envelope version of design.md (also API_VERSION in manifest/validate.ts, which is not imported
// here so that this module stays free of the registry and its adapters).
const API_VERSION = 'svcform/v1';

/**
 * `svcform export`: live objects -> manifest documents -> files. Everything here is pure (no I/O)
 * so the layout, naming and escaping rules are testable without a server; src/cli/export.ts reads
 * the server and writes what this returns.
 */

export type ExportLayout = 'per-kind' | 'per-object';

/** Read-only objects go under this folder: the loader skips dot-folders, so `plan <DIR>` ignores them. */
export const READONLY_DIR = '.readonly';
/** Lists the environment variables the exported manifests need (names and descriptions, never values). */
export const VARIABLES_FILE = 'variables.txt';
/** Records what an export wrote, so a later export may replace exactly those files. */
export const MARKER_FILE = '.svcform-export.json';
/**
 * A per-kind file is split into parts past this size. The loader refuses files over 32 MB, and
 * several smaller files also parse in parallel.
 */
export const MAX_PART_BYTES = 8 * 1024 * 1024;
/** File names are cut to this many characters (before `.yaml`), well inside any filesystem's limit. */
const MAX_SAFE_NAME = 100;

export interface ExportOptions {
  /** The run the live objects were read in (what their adapters read besides, e.g. package info). */
  run: RunScope;
  layout: ExportLayout;
  includeBuiltin: boolean;
  /** `--select kind/name`; absent or empty means everything. */
  select?: Selection;
  /** Absolute path of the output directory. */
  outDir: string;
  /**
   * Where modelines point: a directory holding the schemas (the path is written relative to each
   * file), or, when absent, a base URL the schema file name is appended to.
   */
  schemaDir?: string;
  schemaBaseUrl?: string;
  /** svcform version, for the header comment. */
  version: string;
  /** Applied to every file's text as a last line of defence against secrets. */
  redact?: (text: string) => string;
  /** Per-kind files are split past this many bytes (tests lower it). */
  maxPartBytes?: number;
}

/** Everything listed for one (kind, space) pair. */
export interface LiveGroup {
  kind: string;
  space: string;
  objects: LiveObject[];
}

export interface ExportFile {
  /** Relative to the output directory, `/`-separated. */
  path: string;
  content: string;
}

export interface ExportedVariable extends ExportVariable {
  /** `Kind/name (space S)` of the object that needs it. */
  subject: string;
  readOnly: boolean;
}

export interface PairSummary {
  kind: string;
  space: string;
  exported: number;
  /** Read-only objects left out (no --include-builtin). */
  readOnlySkipped: number;
  /** Read-only objects written under .readonly/ (--include-builtin). */
  readOnlyExported: number;
  /** Names of the exported objects that svcform may own (read-only ones excluded), sorted. */
  names: string[];
}

export interface ExportProblem {
  subject: string;
  message: string;
}

export interface ExportResult {
  files: ExportFile[];
  variables: ExportedVariable[];
  pairs: PairSummary[];
  problems: ExportProblem[];
  /** What a person must finish in an exported manifest (a connector's unknown secret keys). */
  warnings: ExportProblem[];
}

interface Prepared {
  live: LiveObject;
  spec: Record<string, any>;
  readOnly: boolean;
  /** Files the adapter asked to write beside the manifest, keyed by their path relative to it. */
  files: Record<string, string>;
  /** Whether the spec holds ${env:NAME} placeholders for secrets. */
  hasVariables: boolean;
}

/** `HostQuerySavedQuery` -> `host-query-saved-query`. */
export function kindFileStem(kind: string): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([A-Z])([A-Z][a-z])/g, '$1-$2').toLowerCase();
}

/**
 * A file name for an object: lowercase, characters outside [a-z0-9._-] become `-`, leading dots
 * become `-` (the loader skips dot-files), cut to 100 characters.
 */
export function safeName(name: string): string {
  let s = name.toLowerCase().replace(/[^a-z0-9._-]/g, '-');
  s = s.replace(/^\.+/, (dots) => '-'.repeat(dots.length));
  if (s.length > MAX_SAFE_NAME) s = s.slice(0, MAX_SAFE_NAME);
  return s || '-';
}

const shortHash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);

/**
 * File stems for the names of one folder. Names whose safe forms collide are told apart by a hash
 * of the exact name (`name--1a2b3c4d`); a name that already is its safe form keeps it. The result
 * depends only on the set of names, never on the order they came in.
 */
export function assignFileStems(names: string[]): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const name of [...new Set(names)].sort(compareText)) {
    const safe = safeName(name);
    const group = groups.get(safe);
    if (group) group.push(name);
    else groups.set(safe, [name]);
  }
  const out = new Map<string, string>();
  const used = new Set<string>();
  const claim = (name: string, wanted: string) => {
    let stem = wanted;
    for (let n = 2; used.has(stem); n++) stem = `${wanted}-${n}`;
    used.add(stem);
    out.set(name, stem);
  };
  // Plain names first, so a disambiguated stem never takes a name another object has naturally.
  for (const [safe, group] of groups) if (group.length === 1) claim(group[0], safe);
  for (const [safe, group] of groups) {
    if (group.length === 1) continue;
    for (const name of group) claim(name, name === safe ? safe : `${safe}--${shortHash(name)}`);
  }
  return out;
}

/** Applies `fn` to every string of a JSON value (keys untouched). */
function mapStrings(value: unknown, fn: (s: string) => string): any {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value && typeof value === 'object') {
    const out: Record<string, any> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, fn);
    return out;
  }
  return value;
}

const PLACEHOLDER_OR_OPEN = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}|\$\{/g;

/**
 * Live text is literal, but the loader interpolates `${env:...}` and `${file:...}` and turns `$${`
 * into `${`. So every `${` is written as `$${`, except the placeholders the adapter put in for
 * secrets (`${env:NAME}` with NAME among `variables`), which are renamed through `rename`.
 */
export function escapeInterpolation(spec: Record<string, any>, variables: Set<string>, rename: Map<string, string> = new Map()): Record<string, any> {
  return mapStrings(spec, (s) =>
    s.includes('${')
      ? s.replace(PLACEHOLDER_OR_OPEN, (match, name: string | undefined) => {
          if (name !== undefined && variables.has(name)) return `\${env:${rename.get(name) ?? name}}`;
          return '$' + match;
        })
      : s,
  );
}

/** The manifest of one object: envelope keys in their usual order, spec keys sorted at every level. */
export function manifestDocument(kind: string, space: string, name: string, spec: Record<string, any>): Record<string, any> {
  return { apiVersion: API_VERSION, kind, metadata: { name, space }, spec: sortKeys(spec) };
}

export function renderDocument(doc: Record<string, any>): string {
  return yaml().stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false, blockQuote: 'literal' });
}

/** The editor modeline naming a kind's schema, for a file at `filePath` (relative to `options.outDir`). */
export function schemaModeline(adapter: Pick<KindAdapter, 'schema'>, filePath: string, options: Pick<ExportOptions, 'outDir' | 'schemaDir' | 'schemaBaseUrl'>): string {
  if (options.schemaDir === undefined) return `# yaml-language-server: $schema=${options.schemaBaseUrl ?? ''}/${adapter.schema}`;
  const fromDir = dirname(join(options.outDir, ...filePath.split('/')));
  const target = join(options.schemaDir, adapter.schema);
  const rel = relative(fromDir, target).split(/[\\/]/).join('/');
  return `# yaml-language-server: $schema=${rel}`;
}

function header(lines: string[]): string {
  return lines.map((l) => (l ? `# ${l}` : '#')).join('\n') + '\n';
}

function isSafeRelative(p: string): boolean {
  if (!p || p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.includes('\\')) return false;
  return !p.split('/').some((seg) => seg === '..' || seg === '');
}

/**
 * Builds every file of an export. Objects are sorted by name inside a (kind, space); groups by
 * kind (registry order) then space; so the same live state always gives byte-identical files.
 */
export function buildExport(groups: LiveGroup[], adapterFor: (kind: string) => KindAdapter | undefined, options: ExportOptions): ExportResult {
  const selection = options.select ?? new Selection();
  const problems: ExportProblem[] = [];
  const warnings: ExportProblem[] = [];
  const pairs: PairSummary[] = [];
  const prepared: Array<{ group: LiveGroup; adapter: KindAdapter; items: Prepared[] }> = [];
  const variables: ExportedVariable[] = [];
  const variableOwners = new Map<string, { subject: string; space: string }>();

  for (const group of groups) {
    const adapter = adapterFor(group.kind);
    if (!adapter) {
      problems.push({ subject: group.kind, message: 'no adapter for this kind' });
      continue;
    }
    const summary: PairSummary = { kind: group.kind, space: group.space, exported: 0, readOnlySkipped: 0, readOnlyExported: 0, names: [] };
    pairs.push(summary);
    const items: Prepared[] = [];
    const objects = group.objects.filter((o) => selection.matches(o.kind, o.name)).sort((a, b) => compareText(a.name, b.name));
    for (const live of objects) {
      const readOnly = !!live.readOnly;
      if (readOnly && !options.includeBuiltin) {
        summary.readOnlySkipped += 1;
        continue;
      }
      const subject = `${live.kind}/${live.name} (space ${live.space})`;
      let out: ReturnType<KindAdapter['toSpec']>;
      try {
        out = adapter.toSpec(live, options.run);
      } catch (err) {
        problems.push({ subject, message: `cannot turn the live object into a manifest: ${(err as Error).message}` });
        continue;
      }
      // What the adapter did not know to be secret but a key says is (a bearer header) is a placeholder too.
      const scrubbed = placeholdersForSecretFields(out.spec ?? {}, { kindStem: kindFileStem(live.kind), name: live.name, declared: new Set((out.variables ?? []).map((v) => v.name)) });
      out = { ...out, spec: scrubbed.spec, variables: [...(out.variables ?? []), ...scrubbed.variables] };
      // Two objects may ask for the same variable name (one connector id in two spaces, say):
      // the later one gets a suffix, so neither silently receives the other's secret.
      const declared = new Set((out.variables ?? []).map((v) => v.name));
      const rename = new Map<string, string>();
      const taken = (name: string) => variableOwners.has(name) && variableOwners.get(name)!.subject !== subject;
      for (const v of out.variables ?? []) {
        let name = v.name;
        if (taken(name)) {
          const fromOtherSpace = variableOwners.get(name)!.space !== live.space;
          const base = fromOtherSpace ? `${v.name}_${live.space.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}` : v.name;
          name = base;
          for (let n = 2; taken(name); n++) name = `${base}_${n}`;
        }
        if (name !== v.name) rename.set(v.name, name);
        if (!variableOwners.has(name)) {
          variableOwners.set(name, { subject, space: live.space });
          variables.push({ name, description: v.description, subject, readOnly });
        }
      }
      for (const message of out.warnings ?? []) warnings.push({ subject, message });
      const spec = escapeInterpolation(out.spec ?? {}, declared, rename);
      const files: Record<string, string> = {};
      for (const [path, content] of Object.entries(out.files ?? {})) {
        if (!isSafeRelative(path)) {
          problems.push({ subject, message: `the adapter asked for a file outside the manifest's folder: ${JSON.stringify(path)}` });
          continue;
        }
        files[path] = content;
      }
      items.push({ live, spec, readOnly, files, hasVariables: declared.size > 0 });
      if (readOnly) summary.readOnlyExported += 1;
      else {
        summary.exported += 1;
        summary.names.push(live.name);
      }
    }
    prepared.push({ group, adapter, items });
  }

  const files = new Map<string, string>();
  const addFile = (path: string, content: string) => files.set(path, content);
  for (const { group, adapter, items } of prepared) {
    for (const readOnly of [false, true]) {
      const chosen = items.filter((i) => i.readOnly === readOnly);
      if (chosen.length === 0) continue;
      const base = readOnly ? `${READONLY_DIR}/${group.space}` : group.space;
      if (options.layout === 'per-object') writePerObject(base, group, adapter, chosen, options, files, addFile);
      else writePerKind(base, group, adapter, chosen, options, files, addFile);
    }
  }

  const redact = options.redact ?? ((t: string) => t);
  const list = [...files.entries()].sort(([a], [b]) => compareText(a, b)).map(([path, content]) => ({ path, content: redact(content) }));
  variables.sort((a, b) => compareText(a.name, b.name));
  return { files: list, variables, pairs, problems, warnings };
}

function fileHeader(kind: string, adapter: KindAdapter, path: string, space: string, count: number, readOnly: boolean, hasVariables: boolean, options: ExportOptions): string {
  const lines = [
    `Exported by svcform ${options.version} (svcform export) from space ${JSON.stringify(space)}: ${count} ${kind} object${count === 1 ? '' : 's'}.`,
  ];
  if (readOnly) {
    lines.push(
      'READ-ONLY: built-in, prebuilt, preconfigured or managed objects, for reference only.',
      'svcform never writes them; this folder starts with a dot, so `svcform plan <DIR>` skips it.',
    );
  } else {
    lines.push('Server-managed fields and fields equal to server defaults are left out.');
  }
  if (hasVariables) lines.push('Secrets are ${env:NAME} placeholders: set the variables listed in variables.txt.');
  return `${schemaModeline(adapter, path, options)}\n#\n${header(lines)}`;
}

/**
 * Adapter files (value-list items) go beside the manifest, so its relative `items_file` works in
 * either layout. Two objects wanting one path with different contents: the later file gets a
 * `-2` suffix and the object's spec is pointed at it.
 */
function placeSideFiles(folder: string, item: Prepared, files: Map<string, string>, addFile: (p: string, c: string) => void): Record<string, any> {
  let spec = item.spec;
  for (const [rel, content] of Object.entries(item.files)) {
    let chosen = rel;
    const ext = posix.extname(rel);
    const stem = rel.slice(0, rel.length - ext.length);
    for (let n = 2; files.has(posix.join(folder, chosen)) && files.get(posix.join(folder, chosen)) !== content; n++) chosen = `${stem}-${n}${ext}`;
    addFile(posix.join(folder, chosen), content);
    if (chosen !== rel) spec = mapStrings(spec, (s) => (s === rel ? chosen : s));
  }
  return spec;
}

function documentText(item: Prepared, spec: Record<string, any>): string {
  const note = item.readOnly ? `# ${item.live.kind}/${item.live.name}: ${item.live.readOnly}\n` : '';
  return note + renderDocument(manifestDocument(item.live.kind, item.live.space, item.live.name, spec));
}

function writePerKind(base: string, group: LiveGroup, adapter: KindAdapter, items: Prepared[], options: ExportOptions, files: Map<string, string>, addFile: (p: string, c: string) => void): void {
  const stem = kindFileStem(group.kind);
  const limit = options.maxPartBytes ?? MAX_PART_BYTES;
  const parts: Array<Array<{ text: string; hasVariables: boolean }>> = [[]];
  let size = 0;
  for (const item of items) {
    const spec = placeSideFiles(base, item, files, addFile);
    const text = documentText(item, spec);
    const bytes = Buffer.byteLength(text);
    const current = parts[parts.length - 1];
    const doc = { text, hasVariables: item.hasVariables };
    if (current.length > 0 && size + bytes > limit) {
      parts.push([doc]);
      size = bytes;
    } else {
      current.push(doc);
      size += bytes;
    }
  }
  parts.forEach((docs, i) => {
    const path = `${base}/${stem}${i === 0 ? '' : `-${i + 1}`}.yaml`;
    addFile(path, fileHeader(group.kind, adapter, path, group.space, docs.length, items[0].readOnly, docs.some((d) => d.hasVariables), options) + docs.map((d) => d.text).join('---\n'));
  });
}

function writePerObject(base: string, group: LiveGroup, adapter: KindAdapter, items: Prepared[], options: ExportOptions, files: Map<string, string>, addFile: (p: string, c: string) => void): void {
  const folder = `${base}/${kindFileStem(group.kind)}`;
  const stems = assignFileStems(items.map((i) => i.live.name));
  for (const item of items) {
    const spec = placeSideFiles(folder, item, files, addFile);
    const path = `${folder}/${stems.get(item.live.name)}.yaml`;
    // Two live objects sharing one identity (the server allows it for some kinds) get one file each.
    let unique = path;
    for (let n = 2; files.has(unique); n++) unique = path.replace(/\.yaml$/, `-${n}.yaml`);
    addFile(unique, fileHeader(group.kind, adapter, unique, group.space, 1, item.readOnly, item.hasVariables, options) + documentText(item, spec));
  }
}

/** `variables.txt`: one `NAME=  # description` line per variable, never a value. */
export function renderVariablesFile(variables: ExportedVariable[]): string {
  const lines = [
    '# Environment variables the exported manifests reference as ${env:NAME}.',
    '# svcform export never writes secret values: set each variable (from your secret store)',
    '# before running svcform validate, plan or apply on these manifests.',
    '',
  ];
  for (const v of variables) {
    const note = v.readOnly ? ' (read-only object: needed only to validate .readonly/)' : '';
    lines.push(`${v.name}=  # ${v.subject}: ${oneLine(v.description)}${note}`);
  }
  return lines.join('\n') + '\n';
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** How a `--manage-out` file starts: a later export may replace a file that starts so. */
export const MANAGE_HEADER = '# manage scopes written by svcform';

/** `manage` scopes owning exactly the exported objects (read-only ones never), by name. */
export function exportedScopes(pairs: PairSummary[]): Array<{ kind: string; spaces: string[]; selector: { names: string[] } }> {
  return pairs.filter((p) => p.names.length > 0).map((p) => ({ kind: p.kind, spaces: [p.space], selector: { names: [...p.names].sort(compareText) } }));
}

/** A svcform.yaml `manage` section owning exactly the exported objects (read-only ones never). */
export function renderManageSection(pairs: PairSummary[], version: string): string {
  const manage = exportedScopes(pairs);
  const head = header([
    `${MANAGE_HEADER.slice(2)} ${version} (svcform export --manage-out): svcform owns exactly`,
    'the exported objects, so it may update them and delete one whose manifest is removed.',
    'Merge this section into svcform.yaml; widen the selectors when you are ready to own more.',
  ]);
  return head + renderDocument({ manage });
}
