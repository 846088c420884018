import type { Operation } from 'fast-json-patch';
import type { LiveObject } from '../kinds/types.js';
import type { FanOut, Resource, SourcePos } from '../manifest/types.js';
import type { FieldChange } from './diff.js';
import { defineLater, Later } from '../common/later.js';

/**
 * What a plan is made of: its changes, errors, warnings and notices. Apart from plan.ts, which
 * computes them, because the steps plan.ts calls (graph.ts, references.ts) read and write them.
 */

export interface ChangeBase {
  /** `Kind/space/name`, unique in a plan. */
  id: string;
  kind: string;
  space: string;
  name: string;
  /** Why, in a few words (e.g. `rotate secrets`, `ensure list data streams`). */
  reason?: string;
  fields: FieldChange[];
  patch: Operation[];
  /** Ids of changes that must succeed first. */
  dependsOn: string[];
  /** Wave number: changes of one wave run together. */
  wave: number;
  source?: SourcePos;
  /** The change's manifest names several spaces (metadata.spaces): reports group its changes under it. */
  fanOut?: FanOut;
}

/** A create: the manifest as written. */
export interface CreateChange extends ChangeBase {
  action: 'create';
  resource: Resource;
  /** Pointers left out when a create's outcome is checked against the server (see confirm.ts). */
  ignore: string[];
  /**
   * The manifest's spec as the server will hold it (the adapter's normalizeDesired in the plan's
   * run, which holds what it needs, such as Fleet package info), made when first read: what the
   * reports show of a create. Not enumerable, so a saved plan does not carry it.
   */
  readonly normalized?: () => Record<string, any>;
}

/** An update: the manifest with ignored fields carried over from `live` (see ignore.ts), and the object it changes. */
export interface UpdateChange extends ChangeBase {
  action: 'update';
  resource: Resource;
  live: LiveObject;
  /** Pointers left out when the update's outcome is read back (see confirm.ts). */
  ignore: string[];
}

export interface DeleteChange extends ChangeBase {
  action: 'delete';
  live: LiveObject;
}

/** Something a kind needs in a space before its first create there (value lists: the data streams). */
export interface PrerequisiteChange extends ChangeBase {
  action: 'prerequisite';
}

export type PlannedChange = CreateChange | UpdateChange | DeleteChange | PrerequisiteChange;
export type Action = PlannedChange['action'];

export interface PlanError {
  subject: string;
  message: string;
  source?: SourcePos;
}

/** Something the plan goes ahead with but a user should see (a reference the server accepts to an object it does not hold). */
export interface PlanWarning {
  subject: string;
  message: string;
  source?: SourcePos;
}

/**
 * A finding whose place in its manifest is worked out when first read. The place of a field of a
 * document read from the cache costs a parse of its file, and a plan shown as text gives one place
 * per group of like warnings (2,051 rules naming one missing template: one). The JSON plan reads
 * every place; those are kept for the next run (manifest/kept-positions.ts).
 */
export function placedLater<T extends PlanError | PlanWarning>(finding: Omit<T, 'source'>, place: () => SourcePos | undefined): T {
  return defineLater(finding, 'source', new Later(place)) as unknown as T;
}

/** Something worth knowing about a declared object that is not a change (adapter.notices). */
export interface PlanNotice {
  subject: string;
  message: string;
}

/** A live object outside every manage scope and every manifest: left alone, named for review. */
export interface UnmanagedObject {
  kind: string;
  space: string;
  name: string;
  /** The server's own id, where it differs from the name (a rule's id beside its rule_id). */
  id?: string;
  /** Why a manage scope that covers it leaves it alone (LiveObject.serverOwned). */
  kept?: string;
}
