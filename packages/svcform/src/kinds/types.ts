import type { Requester } from '../client/types.js';
import type { Area } from '../client/areas.js';
import type { KindRules, Resource } from '../manifest/types.js';
import type { RunScope } from './run-scope.js';

/** An object as listed from the server, with its identity resolved. */
export interface LiveObject {
  kind: string;
  space: string;
  /** The identity that metadata.name carries (connector id, rule_id, pack name, window title...). */
  name: string;
  /** The id used in paths when it differs from name (rule `id`, `saved_object_id`, window id). */
  serverId?: string;
  /** The object as the server returned it. */
  body: Record<string, any>;
  /** Set (to the reason) for built-in, prebuilt, preconfigured, managed and read-only objects. */
  readOnly?: string;
  /**
   * Set (to the reason) for objects the server makes or needs by itself (packages Fleet and the
   * security app install on their own, the default Fleet output): a manifest may manage one, but
   * a manage scope never deletes it undeclared, since the server would make it again, refuse the
   * delete, or break without it.
   */
  serverOwned?: string;
  /** Tags, for `manage` selectors, on kinds that have them. */
  tags?: string[];
  /** Adapter data fetched with the object, e.g. the values of a value list. */
  extra?: any;
  /** Set by the engine on objects of no space (read through the adapter's `spaceless.list`). */
  spaceless?: boolean;
}

export type { CheckIssue, Reference } from '../manifest/types.js';

export interface AdapterContext {
  /** The server; inside an adapter, every request counts against the adapter's area. */
  api: Requester;
  /** A progress note for --verbose output. */
  log(message: string): void;
  /** State of this command run, shared by every adapter call of the run (run-scope.ts). */
  run: RunScope;
}

export interface UpdateOptions {
  /** `apply --rotate-secrets`: send write-only secrets even when nothing else changed. */
  rotateSecrets: boolean;
}

/** Something a kind needs in a space before its first create (value lists: the list data streams). */
export interface SpacePrerequisite {
  /** Shown in the plan, e.g. `list data streams`. */
  description: string;
  /** Whether it is in place already (one request, made while planning). */
  check(ctx: AdapterContext, space: string): Promise<boolean>;
  ensure(ctx: AdapterContext, space: string): Promise<void>;
}

/**
 * What a target offers that a kind's manifests depend on (the connector types of a space): read
 * once per space while planning, with the listing, and each manifest of the space checked against
 * it. A target that cannot be asked leaves the check to the server's answer at apply.
 */
export interface TargetOffer {
  /** Shown in --verbose output, e.g. `connector types`. */
  description: string;
  read(ctx: AdapterContext, space: string): Promise<unknown>;
  /** What is wrong with the manifest on this target, if anything (a plan error). */
  check(res: Resource, offered: unknown): { path: Array<string | number>; message: string } | undefined;
}

/** One create or update of a batch (see KindAdapter.writeBatch). */
export type BatchWrite = { action: 'create'; resource: Resource } | { action: 'update'; resource: Resource; live: LiveObject };

/**
 * What became of one write of a batch:
 * - `done`, `failed` (with the reason): settled;
 * - `alone`: the bulk call did not carry it out (it rejected the object, or the adapter writes such
 *   objects one by one): the engine writes it on its own, as any other change;
 * - `unknown`: it may or may not have been carried out (the bulk call's answer was lost, or a create
 *   met an object of its identity): the engine reads the objects back before writing again.
 */
export type BatchOutcome = { status: 'done'; note?: string } | { status: 'failed'; error: string } | { status: 'alone' } | { status: 'unknown'; reason: string };

export interface ListOptions {
  /** About how many objects the caller expects (the manifests declare that many): a paged listing may ask for that many pages at once. */
  expected?: number;
}

/** See KindAdapter.spaceless. */
export interface SpacelessObjects {
  /** Whether the manifest's object is one of them. */
  declared(spec: Record<string, any>): boolean;
  /** All of them, read once per run; `space` is where they were read through (the engine re-homes them). */
  list(ctx: AdapterContext, space: string): Promise<LiveObject[]>;
}

/** A variable an exported manifest needs (a connector secret written as ${env:NAME}). */
export interface ExportVariable {
  name: string;
  description: string;
}

/**
 * Everything svcform knows about one kind. The engine never looks inside a spec: it diffs
 * `normalizeDesired(res)` against `normalizeLive(live)` (which must be deep-equal when the server
 * holds what the manifest says, the arrays of `setFields` up to order and repetition), orders work by
 * `references`, and calls create/update/delete.
 */
/** One change of a plan, as plan-level checks of a kind read it (KindAdapter.planWarnings). */
export interface PlanChangeView {
  action: string;
  kind: string;
  space: string;
  name: string;
  resource?: Resource;
}

/** A plan warning about a manifest, at a path of it. */
export interface ManifestWarning {
  resource: Resource;
  path: Array<string | number>;
  message: string;
}

export interface KindAdapter extends KindRules {
  /**
   * The API area (from the one table in client/areas.ts): its in-flight limit and retry policy
   * apply to every request the adapter makes. The engine binds it; requests never name it.
   */
  area: Area;
  /**
   * JSON Pointers (into the normalized spec) of arrays that compare as sets. The engine shows their
   * changes as added and removed members instead of positional edits.
   */
  setFields?: string[];
  /**
   * The fields a person reviews in a create, as JSON Pointers into the spec (`*` for every member
   * of an array): what the text and Markdown plans show of a new object. Absent: every field.
   */
  reviewFields?: readonly string[];
  /**
   * JSON Pointers of arrays of objects matched by a key field (pointer -> key), e.g. exception items
   * by item_id: a changed member shows as that member's fields, added and removed ones as such,
   * and pointers into a member (metadata.ignore) name the member at that index of the manifest.
   */
  keyedFields?: Record<string, string>;
  /**
   * The kinds `references` can name. Deleting an object of one of them reads this kind in that
   * space too, so that a live object still naming it is found (engine/references.ts).
   */
  referenceKinds?: readonly string[];
  /** Every object of the kind in a space: list/find endpoints only, all pages, largest page allowed. */
  list(ctx: AdapterContext, space: string, options?: ListOptions): Promise<LiveObject[]>;
  /** The manifest's spec as the server would hold it: server defaults filled in, write-only parts left out. */
  normalizeDesired(res: Resource, run: RunScope): Record<string, any>;
  /** A live object in the manifest's spec shape: server-managed fields dropped, defaults kept. */
  normalizeLive(live: LiveObject, run: RunScope): Record<string, any>;
  /**
   * JSON Pointers (`/spec/...`) of fields this listing of `live` does not report, so neither side of
   * the comparison includes them (a pack's shards: the find reply leaves them out, and planning
   * makes no request per object). An update still writes the manifest's value for them.
   */
  unreported?(live: LiveObject): string[];
  /**
   * JSON Pointers (`/spec/...`) of fields the server fills with a value of its own choosing when
   * the manifest leaves them out, a default that changes between releases (an AI connector's
   * model): not compared while the manifest has none. A value the manifest gives is compared,
   * unless the server cannot hold it in `live`'s state and stores its own instead (an agent
   * policy's tamper protection without Elastic Defend): then it is not compared either, and an
   * update still sends it.
   */
  chosenByServer?(res: Resource, live: LiveObject): string[];
  /**
   * Export only (planning never calls it): the object with what its listing left out read in, one
   * request per object that needs it. Exported manifests must hold every field an update writes.
   */
  complete?(ctx: AdapterContext, live: LiveObject): Promise<LiveObject>;
  create(ctx: AdapterContext, res: Resource): Promise<void>;
  /** Bring `live` to `res` with the API's own update semantics (replace, merge or patch). */
  update(ctx: AdapterContext, res: Resource, live: LiveObject, options: UpdateOptions): Promise<void>;
  delete(ctx: AdapterContext, live: LiveObject): Promise<void>;
  /**
   * Optional: carries out many creates, or many updates, of one space in few requests where the API
   * has a bulk endpoint (design.md "Layout"). The engine calls it with the changes of one action and
   * one space that a wave holds; it returns one outcome per write, in the same order, and never
   * throws for what the server answered about one object.
   */
  writeBatch?(ctx: AdapterContext, space: string, writes: BatchWrite[], options: UpdateOptions): Promise<BatchOutcome[]>;
  /**
   * Optional, with writeBatch: whether this write is always left to be written on its own (writeBatch
   * would answer `alone` for it whatever the server says). The engine starts such writes beside the
   * bulk call instead of after it, so they do not wait for its answer.
   */
  writesAlone?(write: BatchWrite): boolean;
  /**
   * Optional: deletes many objects of one space in few requests, where the API has a bulk delete.
   * Same contract as writeBatch: one outcome per object, in order; never throws for what the server
   * answered about one object.
   */
  deleteBatch?(ctx: AdapterContext, space: string, lives: LiveObject[]): Promise<BatchOutcome[]>;
  /**
   * A live object as a person would write its manifest spec: server-managed fields and fields equal
   * to server defaults left out; write-only secrets as ${env:NAME} placeholders listed in `variables`.
   */
  toSpec(live: LiveObject, run: RunScope): { spec: Record<string, any>; variables?: ExportVariable[]; files?: Record<string, string>; warnings?: string[] };
  prerequisite?: SpacePrerequisite;
  /** What the target must offer for the kind's manifests (see TargetOffer). */
  offers?: TargetOffer;
  /**
   * For kinds some of whose objects belong to no space but are visible in every one (agnostic
   * exception lists). The engine reads those once per run with `list`, plans each once (in the
   * run's home space, whatever space its manifest names), and lets objects of any space reference
   * them. `list(ctx, space)` then returns only the space's own objects.
   */
  spaceless?: SpacelessObjects;
  /**
   * Set on the kind whose objects are the spaces themselves (Space; it is also `spaceless`). The
   * engine then orders every write in space S after the create of the Space S a run declares,
   * plans a declared space that does not exist yet as empty, and deletes a Space only with its own
   * approval, listing what lives in it (engine/space-objects.ts).
   */
  containsSpaces?: boolean;
  /**
   * What the server reports about a declared object that is not a difference to apply, shown with
   * the plan (a prebuilt rule's vendor upgrade). Never changes what apply does.
   */
  notices?(res: Resource, live: LiveObject): string[];
  /**
   * Why an update of `live` to `res` is carried out as a delete and a create (no update route, or
   * none that can make the change), in a few words; the plan shows it beside the update. Absent or
   * undefined: an update in place.
   */
  replacedOnUpdate?(res: Resource, live: LiveObject): string | undefined;
  /** Whether write-only fields (connector secrets) exist, so updates re-send them (see rotateSecrets). */
  hasWriteOnly?(res: Resource, run: RunScope): boolean;
  /**
   * Plan only, once the plan's listings are in: reads what comparing this kind's objects needs
   * beyond its own listing into their LiveObject.extra (an agent policy's Elastic Defend
   * integrations). `objectsOf` answers the plan's listing of any kind and space, undefined where
   * it read none. Called when the run declares manifests of the kind.
   */
  readForPlan?(ctx: AdapterContext, resources: readonly Resource[], objectsOf: (kind: string, space: string) => LiveObject[] | undefined): Promise<void>;
  /**
   * Plan only: warnings about this kind's manifests that need the whole plan (its changes of other
   * kinds, the live objects). `liveOf` gives a manifest's live object, undefined where it has none
   * (a create) and `unknown` where the plan cannot tell. `ownsUnnamed` says whether a manage scope
   * owns every undeclared object of a kind in a space (one no selector narrows): what it would
   * delete of the objects the server makes with generated ids. `liveIn` gives the plan's listing of
   * a kind in a space, undeclared objects included, undefined where it read none.
   */
  planWarnings?(
    resources: readonly Resource[],
    changes: readonly PlanChangeView[],
    liveOf: (res: Resource) => LiveObject | undefined | 'unknown',
    ownsUnnamed: (kind: string, space: string) => boolean,
    liveIn: (kind: string, space: string) => readonly LiveObject[] | undefined,
  ): ManifestWarning[];
}
