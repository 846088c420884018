/** A place in a manifest file; line and column are 1-based. */
export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

/** A path into a document, e.g. ['spec', 'actions', 0, 'id']. */
export type DocPath = Array<string | number>;

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  pos: SourcePos;
  /** `Kind/name` when the document got far enough to have one. */
  subject?: string;
  message: string;
  /**
   * Findings of one cause repeated across documents (the same unknown field in 40 rules) share a
   * group: text output shows the first in full and counts the rest (foldDiagnostics).
   */
  group?: string;
}

/** What a document with `metadata.spaces` fanned out to (manifest/fan-out.ts): kept on each of its copies. */
export interface FanOut {
  /** The spaces the document names, in its order. */
  spaces: string[];
  /** Where the document names this copy's space: `metadata.spaces[i]`, or its selector. */
  spacePath: DocPath;
}

/** One manifest document after loading and interpolation. */
export interface Resource {
  apiVersion: string;
  kind: string;
  /** metadata.name: the resource's identity in its space. */
  name: string;
  /** metadata.space, else the run's default space; for a copy of a `metadata.spaces` document, its space. */
  space: string;
  /** Set on each copy of a document that names several spaces (metadata.spaces). */
  fanOut?: FanOut;
  labels: Record<string, string>;
  /** metadata.ignore: JSON Pointers into the manifest (e.g. /spec/enabled) left out of the diff. */
  ignore: string[];
  spec: Record<string, any>;
  /** Where the document starts. */
  source: SourcePos;
  /** Where a value of the document sits (path from the document root), or the nearest parent. */
  posOf(path: DocPath): SourcePos;
  /**
   * JSON Pointers (relative to spec, e.g. /secrets/password) of strings that came from
   * ${env:...} or ${file:...}: plans, logs and errors show them as (sensitive).
   */
  secretPointers: Set<string>;
  /**
   * Write-only strings (KindRules.writeOnly) whose ${env:...} or ${file:...} could not be resolved
   * when the manifests were read: `text` is the string as written (it is in `spec` too). Plan and
   * drift never need them; apply resolves them for the objects it writes (resolveDeferred).
   */
  deferred?: Array<{ path: DocPath; text: string }>;
  /** Directory of the manifest file, for paths such as items_file. */
  dir: string;
  /** The repository root: files named by the manifest (items_file) are read only from inside it (confined-file.ts). */
  root: string;
  /** metadata.checks: local switches of offline checks (e.g. `queryFields: false`); never sent. */
  checks?: Record<string, unknown>;
  /** Where character `offset` of the string at `path` sits, when the file's text says so (scalar-position.ts). */
  posInScalar?(path: DocPath, offset: number, value: string): SourcePos | undefined;
}

export function subjectOf(r: { kind: string; name: string }): string {
  return `${r.kind}/${r.name}`;
}

/** `Kind/name (space S)`: how plans, errors and reports name one object. */
export function describeObject(r: { kind: string; name: string; space: string }): string {
  return `${r.kind}/${r.name} (space ${r.space})`;
}

/**
 * What the real server does with a write that names an object it does not hold. Each adapter
 * records, beside the reference, the source it took this from.
 * - `refused`: the write fails (a rule action's connector). A plan error; validate warns when no
 *   manifest declares the object.
 * - `accepted`: the server stores the name unchecked (a rule's data_view_id, wire-facts §16 #8).
 *   A plan warning, or an error with svcform.yaml `references: {missing: error}`; validate says
 *   nothing by default (it cannot know what the server holds).
 * - `installed`: the server makes the object on demand (Fleet installs a package policy's
 *   package). Never a warning nor an error.
 * Whatever the class, a reference orders the writes and guards deletes (engine/references.ts).
 */
export type MissingOnWrite = 'refused' | 'accepted' | 'installed';

/** A field of a manifest that names another resource by id. */
export interface Reference {
  kind: string;
  name: string;
  /** Where the reference sits in the document, e.g. ['spec', 'actions', 0, 'id']. */
  path: DocPath;
  whenMissing: MissingOnWrite;
  /** For `accepted` references: what goes wrong while the object is missing, for the plan's warning. */
  missingEffect?: string;
  /**
   * Other kinds that declare the same server object (a data view is also an index-pattern
   * SavedObject): a manifest of any of them satisfies the reference, orders the write and is
   * guarded on delete. `kind` is the one whose listing tells whether the object exists.
   */
  alsoKinds?: readonly string[];
}

/** Every kind a reference may be declared as. */
export function referenceKinds(ref: Reference): readonly string[] {
  return ref.alsoKinds ? [ref.kind, ...ref.alsoKinds] : [ref.kind];
}

/** `references.missing` of svcform.yaml: what a missing `accepted` reference is (default `warn`). */
export type MissingReferencePolicy = 'warn' | 'error';

export interface CheckIssue {
  path: DocPath;
  message: string;
  severity?: Severity;
  /** A place inside the string at `path` (a query's error): shown at its line and column in the file. */
  at?: { offset: number; value: string };
  /** Diagnostic.group. */
  group?: string;
  /** A place in another file the manifest names (a line of a value list's items_file): shown there. */
  pos?: SourcePos;
}

/** What a run tells kind checks beyond the resource. */
export interface CheckContext {
  /** `--strict`: checks that would warn about unknown names report errors instead. */
  strict: boolean;
  /** Field names the project declares (svcform.yaml `fields:`). */
  projectFields: ReadonlySet<string>;
  /** svcform.yaml `checks:`: switches for every manifest, and per kind; metadata.checks wins over both. */
  checks?: RepositoryChecks;
}

/**
 * The switches of offline checks a manifest's metadata.checks and svcform.yaml `checks:` may set
 * (rule queries: src/kinds/rule/query.ts).
 */
export const CHECK_SWITCHES = ['queryFields', 'querySyntax'] as const;

/** svcform.yaml `checks: {queryFields: false, kinds: {Rule: {querySyntax: false}}}`. */
export interface RepositoryChecks {
  all: Record<string, boolean>;
  kinds: Record<string, Record<string, boolean>>;
}

/** The check switches in force for a resource: the repository's, its kind's, then its own metadata.checks. */
export function checksOf(res: Pick<Resource, 'kind' | 'checks'>, context: CheckContext | undefined): Record<string, unknown> {
  const repository = context?.checks;
  if (!repository) return res.checks ?? {};
  return { ...repository.all, ...repository.kinds[res.kind], ...res.checks };
}

/** What validation needs to know of one kind (a kind adapter is one). */
export interface KindRules {
  kind: string;
  /** File name under schemas/, e.g. `Rule.schema.json`. */
  schema: string;
  /**
   * Ids a spec names that other manifests may declare (connector ids, policy ids...). Takes a spec,
   * not a Resource, so the engine can ask the same of a live object's manifest form.
   */
  references(spec: Record<string, any>): Reference[];
  /**
   * Document paths under which every string is write-only: sent, never returned by the server,
   * so never compared (a connector's `['spec', 'secrets']`). A ${env:...} or ${file:...} there
   * that cannot be resolved is deferred to the apply that writes the object (Resource.deferred).
   */
  writeOnly?: readonly DocPath[];
  /** The kind whose objects are the spaces themselves (Space): what `metadata.spaces: {labels}` chooses from. */
  containsSpaces?: boolean;
  /** Objects of no space (KindAdapter.spaceless): one such manifest cannot name several spaces. */
  spaceless?: { declared(spec: Record<string, any>): boolean };
  /** Checks the schema cannot express (errors unless severity says otherwise). */
  check?(res: Resource, context?: CheckContext): CheckIssue[];
  /**
   * Checks of a manifest against the others the run declares (a package policy's version against
   * the version its IntegrationPackage pins); `declared` answers every manifest of a kind and name,
   * whatever its space, or of the kind alone when no name is given, in the order they were read.
   * Run on every validate, after the documents' own checks.
   */
  checkAmong?(res: Resource, declared: (kind: string, name?: string) => Resource[]): CheckIssue[];
}

/**
 * The kinds validation knows, handed in by the caller (the kinds registry), so that manifest/
 * never imports kinds/.
 */
export interface KindCatalog {
  kinds(): string[];
  lookup(kind: string): KindRules | undefined;
}
