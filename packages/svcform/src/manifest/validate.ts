import type { LoadedDoc } from './load.js';
import { expandPaths, loadFiles, loadFilesYielding, type OnRead } from './files.js';
import type { CleanDocuments, KeptFinding, ManifestCache } from './manifest-cache.js';
import { confinedReadsAsked } from './confined-file.js';
import { CREDENTIAL_VARIABLES, interpolate } from './interpolate.js';
import { shellStyleMessage, shellStyleReferences } from './shell-style.js';
import { redactor, SENSITIVE, type Redactor } from './redact.js';
import { closest, describeSchemaErrors, displayField, schemaValidator } from './schema.js';
import { subjectOf, type CheckContext, type CheckIssue, type Diagnostic, type DocPath, type KindCatalog, type KindRules, type MissingReferencePolicy, type Reference, type RepositoryChecks, type Resource, type SourcePos } from './types.js';
import { defineLater, Later } from '../common/later.js';
import { formatPointer, getAt } from '../common/pointer.js';
import { quotedText, shortText } from './short-text.js';
import { unsendableNumbers } from './numbers.js';
import { applyOverlays, type EnvironmentOverlays } from './overlay.js';
import { scanDocument, type DocumentScan } from './scan.js';
import { declaredSpaces, fanOut, type DeclaredSpace } from './fan-out.js';
import { noteValuePlace, orderedByValue } from './finding-order.js';

export const API_VERSION = 'svcform/v1';

export interface ValidateOptions {
  /** Space for manifests without metadata.space (--space, then svcform.yaml, then `default`). */
  defaultSpace?: string;
  env?: NodeJS.ProcessEnv;
  redactor?: Redactor;
  /** The kinds manifests may declare (the kinds registry's KIND_CATALOG). */
  kinds: KindCatalog;
  /**
   * The repository root (absolute): ${file:...} and items_file read only regular files inside it.
   * The CLI passes --root, else the directory of svcform.yaml, else the working directory (the default here).
   */
  root?: string;
  /** `validate --offline-secrets`: missing variables and secret files are warnings (interpolate.ts). */
  offlineSecrets?: boolean;
  /** `--strict`: kind checks report unknown names (query fields) as errors, not warnings. */
  strict?: boolean;
  /** svcform.yaml `checks:`. */
  checks?: RepositoryChecks;
  /** Field names declared by the project (svcform.yaml `fields:`), for kinds that check field names. */
  projectFields?: ReadonlySet<string>;
  /** Documents of files read before, by the hash of their bytes (manifest-cache.ts). */
  manifestCache?: ManifestCache;
  /**
   * svcform.yaml `references: {missing: ...}`. With `error`, a reference the server would accept
   * unchecked must name an existing object too, so validate warns about it as about one the server
   * refuses; with `warn` (the default) validate leaves it to the plan.
   */
  missingReferences?: MissingReferencePolicy;
  /** `--env NAME`: that environment's overlays change the documents before they are checked (overlay.ts). */
  environment?: EnvironmentOverlays;
}

export interface ValidationResult {
  resources: Resource[];
  diagnostics: Diagnostic[];
  files: string[];
}

export function hasErrors(diagnostics: Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * The one way in: load -> interpolate -> schema -> adapter checks -> cross-document checks, all
 * errors collected. With `onRead`, the files are parsed as loadFilesYielding does: `onRead` sees the
 * kinds they declare before any is parsed, and the event loop turns between files, so that reads of
 * live state started from it (cli/read-ahead.ts) go out while the files are parsed.
 */
export async function loadAndValidate(paths: string[], options: ValidateOptions, onRead?: OnRead): Promise<ValidationResult> {
  const expanded = expandPaths(paths);
  const loaded = onRead ? await loadFilesYielding(expanded.files, onRead, options.manifestCache) : loadFiles(expanded.files, options.manifestCache);
  options.manifestCache?.save();
  options.manifestCache?.prune();
  const overlaid = options.environment ? applyOverlays(loaded.docs, options.environment) : { docs: loaded.docs, diagnostics: [] };
  const result = validateDocs(overlaid.docs, options);
  return {
    resources: result.resources,
    diagnostics: [...expanded.diagnostics, ...loaded.diagnostics, ...overlaid.diagnostics, ...result.diagnostics],
    files: expanded.files,
  };
}

export function validateDocs(docs: LoadedDoc[], options: ValidateOptions): { resources: Resource[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const resources: Resource[] = [];
  // Documents that name an identity but failed: references to them get no "not declared" warning
  // on top of the document's own errors (a missing secret is not a missing connector).
  const declaredInvalid = new Set<string>();
  const lookup = (kind: string) => options.kinds.lookup(kind);
  // One context for every document's kind checks, and the key its clean verdicts are kept under.
  const context: CheckContext = { strict: !!options.strict, projectFields: options.projectFields ?? new Set(), ...(options.checks ? { checks: options.checks } : {}) };
  const clean = options.manifestCache?.cleanDocuments(checkOptionsKey(context, options.defaultSpace ?? 'default'));
  let spaces: DeclaredSpace[] | undefined;
  const declaredSpaceDocs = () => (spaces ??= declaredSpaces(docs, lookup));
  for (const doc of docs) {
    const found: Diagnostic[] = [];
    // A document naming several spaces is checked as one copy per space (fan-out.ts); what the
    // copies share is said once.
    const copies = fanOut(doc, lookup, declaredSpaceDocs, found);
    for (const copy of copies) {
      // validateDoc judges a document by its own findings only.
      const own: Diagnostic[] = [];
      const res = validateDoc(copy, lookup, options, context, own, clean);
      if (res) resources.push(res);
      else declaredInvalid.add(identityOf(copy, options));
      found.push(...own);
    }
    // Checks run in stages (envelope, interpolation, schema, kind); a reader wants them in file order.
    // The order follows from where they are in the value when that is the document's own value
    // (finding-order.ts); else it takes every finding's place.
    const ordered = found.length < 2 ? found : ((copies.length === 1 && copies[0] === doc && orderedByValue(found, doc.value)) || once(byPlace(found)));
    diagnostics.push(...ordered);
  }
  crossCheck(resources, diagnostics, lookup, options.redactor ?? redactor, declaredInvalid, options.missingReferences ?? 'warn');
  clean?.save();
  return { resources, diagnostics };
}

/**
 * What besides a document's bytes its checks read, for a document they found clean: the kind
 * checks' context and the space the document falls into. Environment, secret files and the
 * repository root reach the checks only through `${...}` and file reads, which no clean verdict is
 * kept for.
 */
function checkOptionsKey(context: CheckContext, defaultSpace: string): string {
  return JSON.stringify({ strict: context.strict, projectFields: [...context.projectFields].sort(), checks: context.checks ?? null, defaultSpace });
}

/** `kind, space, name` of a document, as far as it can be read (for references to invalid documents). */
function identityOf(doc: LoadedDoc, options: ValidateOptions): string {
  const raw = (doc.value ?? {}) as Record<string, any>;
  const space = typeof raw.metadata?.space === 'string' ? raw.metadata.space : (options.defaultSpace ?? 'default');
  return `${raw.kind}\u0000${space}\u0000${raw.metadata?.name}`;
}

/** Findings in the order of their lines and columns: every one is placed. */
function byPlace(found: Diagnostic[]): Diagnostic[] {
  return found.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
}

/** Findings without repeats: the copies of one document find the same faults in what they share. */
function once(found: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return found.filter((d) => {
    const key = `${d.severity}\u0000${d.pos.file}:${d.pos.line}:${d.pos.col}\u0000${d.subject}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function pathKey(path: DocPath): string {
  return path.join('\u0000');
}

function validateDoc(doc: LoadedDoc, lookup: (kind: string) => KindRules | undefined, options: ValidateOptions, context: CheckContext, out: Diagnostic[], clean?: CleanDocuments): Resource | undefined {
  const raw = doc.value as Record<string, any>;
  const kind = raw.kind;
  const name = typeof raw.metadata?.name === 'string' ? raw.metadata.name : undefined;
  const subject = typeof kind === 'string' && name !== undefined ? subjectOf({ kind: shortText(kind), name: shortText(name) }) : typeof kind === 'string' ? shortText(kind) : undefined;
  const error = (path: DocPath, message: string) => out.push({ severity: 'error', pos: doc.posOf(path), subject, message });
  // Without a kind svcform knows, a `Kind/name` subject would only repeat the mistake.
  const kindError = (path: DocPath, message: string) => out.push({ severity: 'error', pos: doc.posOf(path), message });
  if (raw.apiVersion === undefined) error([], `apiVersion is required (${API_VERSION})`);
  else if (raw.apiVersion !== API_VERSION) error(['apiVersion'], `apiVersion must be ${API_VERSION}, not ${shortText(JSON.stringify(raw.apiVersion) ?? String(raw.apiVersion))}`);
  if (typeof kind !== 'string') {
    if (kind === undefined) kindError([], `kind is required: one of ${options.kinds.kinds().join(', ')}`);
    else kindError(['kind'], `kind must be one of ${options.kinds.kinds().join(', ')}, not ${shortText(JSON.stringify(kind) ?? String(kind))}`);
    return undefined;
  }
  const adapter = lookup(kind);
  if (!adapter) {
    const near = closest(kind, options.kinds.kinds());
    kindError(['kind'], `unknown kind ${quotedText(kind)}${near ? ` (did you mean ${near}?)` : ''}; known kinds: ${options.kinds.kinds().join(', ')}`);
    return undefined;
  }
  const root = options.root ?? process.cwd();
  // Warnings are placed when shown (text output shows a few of each group), and kept unplaced with
  // what places them (keptFindings): a warning on each of 2,068 rules cost a first plan 0.16 s of places.
  const placedLater = new Map<Diagnostic, UnplacedFinding>();
  const later = (finding: Omit<Diagnostic, 'pos'>, path: DocPath, at?: { offset: number; value: unknown }) => {
    const place = new Later(() => placeIn(doc, path, at?.offset, at?.value));
    const diagnostic = defineLater(finding, 'pos', place);
    // A place inside a string is found again from the kept document when it is that document's string.
    if (at === undefined || getAt(raw, path.map(String)) === at.value) {
      const where = { path, ...(at ? { offset: at.offset } : {}) };
      placedLater.set(diagnostic, { place, ...where });
      noteValuePlace(diagnostic, where);
    }
    out.push(diagnostic);
  };
  // Its checks found no error before and read nothing but the document: what they say is known.
  const known = name !== undefined ? clean?.known(doc) : undefined;
  if (known) {
    for (const f of known) {
      const finding = { severity: 'warning' as const, subject, message: f.message, ...(f.group === undefined ? {} : { group: f.group }) };
      if (f.path === undefined) out.push({ ...finding, pos: { file: doc.start.file, line: f.line, col: f.col } });
      else later(finding, f.path, f.offset === undefined ? undefined : { offset: f.offset, value: getAt(raw, f.path.map(String)) });
    }
    return resourceOf(doc, raw, kind, name!, new Set(), root, options);
  }
  const readsBefore = confinedReadsAsked();
  // One walk finds what interpolation, the shell-style warning and the number check look at.
  const scan = scanDocument(raw);
  const writeOnly = adapter.writeOnly ?? [];
  const deferrable = (path: DocPath) => writeOnly.some((prefix) => prefix.length <= path.length && prefix.every((step, i) => path[i] === step));
  const interpolated = interpolate(raw, { env: options.env ?? process.env, dir: doc.dir, root, redactor: options.redactor ?? redactor, posOf: doc.posOf, subject, offlineSecrets: options.offlineSecrets, deferrable, refusedVariables: CREDENTIAL_VARIABLES }, scan.templated);
  out.push(...interpolated.diagnostics);
  for (const ref of shellStyleReferences(raw, scan.templated)) {
    const message = shellStyleMessage(ref.names);
    // The same placeholders in many manifests (a team's template text) are one line.
    later({ severity: 'warning', subject, message, group: `shell-style\u0000${message}` }, ref.path);
  }
  const value = interpolated.value as Record<string, any>;
  const secretPaths = new Set(interpolated.secretPaths.map(pathKey));
  // A deferred string holds its reference as written: the schema would judge the placeholder, not the value.
  const failed = new Set([...interpolated.failedPaths, ...interpolated.deferredPaths].map(pathKey));
  // JSON cannot carry .inf or .nan, and whole numbers past 2^53 change on the way: an error at the
  // number whatever the field (the schema's bounds do not catch +infinity where there is no maximum).
  // Interpolation changes strings only: the numbers are those the scan found.
  for (const issue of unsendableNumbers(value, scan.unsendable)) {
    failed.add(pathKey(issue.path));
    error(issue.path, issue.message);
  }
  const validate = schemaValidator(adapter.schema);
  // apiVersion has its own message above; the schema judges the rest of the document.
  const checked = value.apiVersion === API_VERSION ? value : { ...value, apiVersion: API_VERSION };
  if (!validate(checked)) {
    // A value under a write-only field (connector secrets) is a secret even when written in the
    // manifest itself rather than read from ${env:...} or ${file:...}: messages never show it.
    for (const issue of describeSchemaErrors(validate.errors, checked, { schema: validate.schema, isSecret: (path) => secretPaths.has(pathKey(path)) || deferrable(path) })) {
      // A string whose ${...} failed already has its error; the placeholder text is not the value.
      if (failed.has(pathKey(issue.path))) continue;
      error(issue.path, issue.message);
    }
  }
  // `out` holds this document's findings only: any error so far means it is not a resource.
  if (out.some((d) => d.severity === 'error') || name === undefined) return undefined;

  // Deferred strings are secrets too: masked in plans and out of the desired fingerprint, so a
  // plan made without their values and an apply made with them agree.
  const secretPointers = new Set([...interpolated.secretPaths, ...interpolated.deferredPaths].flatMap((p) => specPointer(p) ?? []));
  const res = resourceOf(doc, value, kind, name, secretPointers, root, options);
  if (interpolated.deferredPaths.length) {
    const byPath = new Map(scan.templated.map((t) => [pathKey(t.path), t.text]));
    res.deferred = interpolated.deferredPaths.map((path) => ({ path, text: byPath.get(pathKey(path))! }));
  }
  let issues: CheckIssue[] = [];
  try {
    issues = adapter.check?.(res, context) ?? [];
  } catch (err) {
    // A defect in a kind's checks must not hide every other finding of the run.
    issues = [{ path: [], message: `internal error in the ${kind} checks (please report it): ${(err as Error).message}` }];
  }
  for (const issue of issues) {
    const finding = { severity: issue.severity ?? 'error', subject, message: issue.message, ...(issue.group === undefined ? {} : { group: issue.group }) };
    if (issue.pos) out.push({ ...finding, pos: issue.pos });
    else later(finding, issue.path, issue.at);
  }
  if (clean && confinedReadsAsked() === readsBefore && readsNothingElse(scan.templated, interpolated.value === raw)) {
    const kept = keptFindings(out, doc.start.file, placedLater);
    if (kept) clean.add(doc, kept);
  }
  return res;
}

/**
 * Whether a document's checks read nothing but its bytes as far as interpolation goes: no
 * `${env:...}` or `${file:...}` anywhere (a shell-style `${NAME}` is text, and only warned about),
 * and interpolation left the value as it was (an escaped `$${` changes it).
 */
function readsNothingElse(templated: DocumentScan['templated'], unchanged: boolean): boolean {
  return unchanged && templated.every((t) => !t.text.includes('${env:') && !t.text.includes('${file:'));
}

/** Where a finding at `path` (at `offset` of the string `value` there) lies in the document's file. */
function placeIn(doc: LoadedDoc, path: DocPath, offset: number | undefined, value: unknown): SourcePos {
  return (offset !== undefined && typeof value === 'string' && doc.posInScalar(path, offset, value)) || doc.posOf(path);
}

/** A finding not placed yet, and what places it from the document alone. */
interface UnplacedFinding {
  place: Later<SourcePos>;
  path: DocPath;
  offset?: number;
}

/**
 * A document's findings as CleanDocuments keeps them, or undefined when one is an error or sits in
 * another file. One not placed yet is kept with what places it, and placed when a run shows it.
 */
function keptFindings(found: Diagnostic[], file: string, unplaced: Map<Diagnostic, UnplacedFinding>): KeptFinding[] | undefined {
  const kept: KeptFinding[] = [];
  for (const d of found) {
    if (d.severity !== 'warning') return undefined;
    const finding = { message: d.message, ...(d.group === undefined ? {} : { group: d.group }) };
    const later = unplaced.get(d);
    if (later && !later.place.known) kept.push({ ...finding, path: later.path, ...(later.offset === undefined ? {} : { offset: later.offset }) });
    else if (d.pos.file !== file) return undefined;
    else kept.push({ ...finding, line: d.pos.line, col: d.pos.col });
  }
  return kept;
}

/** The resource a document that passed its checks declares (`value` interpolated). */
function resourceOf(doc: LoadedDoc, value: Record<string, any>, kind: string, name: string, secretPointers: Set<string>, root: string, options: ValidateOptions): Resource {
  return {
    apiVersion: value.apiVersion,
    kind,
    name,
    space: value.metadata.space ?? options.defaultSpace ?? 'default',
    ...(doc.fanOut ? { fanOut: doc.fanOut } : {}),
    labels: value.metadata.labels ?? {},
    ignore: value.metadata.ignore ?? [],
    spec: value.spec ?? {},
    source: doc.start,
    posOf: doc.posOf,
    secretPointers,
    dir: doc.dir,
    root,
    checks: value.metadata.checks,
    posInScalar: doc.posInScalar,
  };
}

/** JSON Pointer (relative to spec) of a document path under spec, as Resource.secretPointers holds them. */
function specPointer(path: DocPath): string | undefined {
  if (path[0] !== 'spec') return undefined;
  return formatPointer(path.slice(1));
}

/**
 * Whether validate speaks of a reference no manifest declares. Only one the server refuses when
 * the object is missing is worth a line offline: the write fails unless the server holds it. One
 * the server accepts unchecked is the plan's to report, which knows what the server holds; a line
 * per such reference here would repeat on every run about objects that usually exist (a
 * repository that manages rules but not data views names hundreds), and say nothing a user could act on.
 */
function mustExist(ref: Reference, policy: MissingReferencePolicy): boolean {
  return ref.whenMissing === 'refused' || (ref.whenMissing === 'accepted' && policy === 'error');
}

/**
 * Duplicate identities are errors; references that must name an existing object (mustExist) but
 * name one no manifest declares are warnings (the server may hold it). Names are quoted in
 * messages, and quoting escapes characters, which would slip a secret past text redaction: secret
 * names are shown as (sensitive) here.
 */
function crossCheck(resources: Resource[], out: Diagnostic[], lookup: (kind: string) => KindRules | undefined, secrets: Redactor, declaredInvalid: Set<string>, policy: MissingReferencePolicy): void {
  const quoted = (name: string, secret = false) => (secret || secrets.has(name) ? SENSITIVE : quotedText(name));
  const subject = (r: Resource) => subjectOf({ kind: r.kind, name: shortText(r.name) });
  const seen = new Map<string, Resource>();
  for (const r of resources) {
    const key = `${r.kind}\u0000${r.space}\u0000${r.name}`;
    const first = seen.get(key);
    if (first) {
      const at = first.posOf(['metadata', 'name']);
      out.push({
        severity: 'error',
        pos: r.posOf(['metadata', 'name']),
        subject: subject(r),
        message: `duplicate ${r.kind} ${quoted(r.name)} in space ${r.space}: also declared at ${at.file}:${at.line}:${at.col}`,
      });
    } else seen.set(key, r);
  }
  for (const r of resources) {
    for (const ref of lookup(r.kind)?.references(r.spec) ?? []) {
      const key = `${ref.kind}\u0000${r.space}\u0000${ref.name}`;
      if (mustExist(ref, policy) && !seen.has(key) && !declaredInvalid.has(key)) {
        const pointer = specPointer(ref.path);
        const finding = {
          severity: 'warning' as const,
          subject: subject(r),
          message: `${displayField(ref.path)} names ${ref.kind} ${quoted(ref.name, pointer !== undefined && r.secretPointers.has(pointer))}, which no manifest declares in space ${r.space}; it must exist on the server`,
          // A repository that manages rules but not the connector they page names it in every rule: one line.
          group: `undeclared\u0000${ref.kind}\u0000${r.space}\u0000${ref.name}`,
        };
        // Placed when shown: text output shows a few of the group.
        out.push(defineLater(finding, 'pos', new Later(() => r.posOf(ref.path))));
      }
    }
  }
  let byKindAndName: Map<string, Resource[]> | undefined;
  const declared = (kind: string, name?: string): Resource[] => {
    if (!byKindAndName) {
      byKindAndName = new Map();
      for (const r of resources) {
        for (const key of [`${r.kind}\u0000${r.name}`, r.kind]) {
          const same = byKindAndName.get(key);
          if (same) same.push(r);
          else byKindAndName.set(key, [r]);
        }
      }
    }
    return byKindAndName.get(name === undefined ? kind : `${kind}\u0000${name}`) ?? [];
  };
  for (const r of resources) {
    const checkAmong = lookup(r.kind)?.checkAmong;
    if (!checkAmong) continue;
    for (const issue of checkAmong(r, declared)) {
      const finding = { severity: issue.severity ?? ('error' as const), subject: subject(r), message: issue.message, ...(issue.group ? { group: issue.group } : {}) };
      out.push(defineLater(finding, 'pos', new Later(() => r.posOf(issue.path))));
    }
  }
}
