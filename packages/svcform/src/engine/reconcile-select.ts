import type { KindAdapter } from '../kinds/types.js';
import type { Resource } from '../manifest/types.js';
import type { PlannedChange } from './changes.js';
import { changeId, desiredRow } from './plan.js';
import { rehome } from './spaceless.js';

/**
 * What `svcform reconcile` applies of a plan, per policy. `report` applies nothing; `apply` applies
 * the plan but its deletes, unless `--auto-approve` (as apply without a terminal); `heal-drift`
 * applies only creates and updates that undo a change made on the server: those of a manifest the
 * loop has already seen the server match, unchanged since. A plan alone cannot tell drift from an
 * edited manifest (both are a difference between manifest and server), so the loop remembers, per
 * object, the manifest it last saw in sync (DriftBaseline). An edited or new manifest is left for a
 * reviewed apply; the server is the only state, so the memory is the process's only.
 */

export type ReconcilePolicy = 'report' | 'heal-drift' | 'apply';
export const POLICIES: readonly ReconcilePolicy[] = ['report', 'heal-drift', 'apply'];

export interface HeldChange {
  change: PlannedChange;
  why: string;
}

export interface Selection {
  apply: PlannedChange[];
  held: HeldChange[];
}

/** Each manifest's desired row (plan.ts desiredRow) by change id, in the spaces the plan gives them. */
export function desiredRows(resources: Resource[], adapterFor: (kind: string) => KindAdapter | undefined, home: string): Map<string, string> {
  return new Map(rehome(resources, adapterFor, home).map((r) => [changeId(r.kind, r.space, r.name), desiredRow(r)]));
}

export class DriftBaseline {
  /** Change id -> desired row of the manifest when the server last matched it. */
  private readonly inSync = new Map<string, string>();

  /** Whether a change undoes drift: its manifest is the one the server matched before. */
  isDrift(change: PlannedChange, rows: Map<string, string>): boolean {
    if (change.action !== 'create' && change.action !== 'update') return false;
    const seen = this.inSync.get(change.id);
    return seen !== undefined && seen === rows.get(change.id);
  }

  /**
   * After a cycle: every manifest without a remaining change now matches the server. A manifest
   * still differing keeps what was remembered, so drift that failed to heal is drift next time.
   */
  record(rows: Map<string, string>, remaining: Iterable<string>): void {
    const differing = new Set(remaining);
    for (const id of [...this.inSync.keys()]) if (!rows.has(id)) this.inSync.delete(id);
    for (const [id, row] of rows) if (!differing.has(id)) this.inSync.set(id, row);
  }
}

export interface SelectOptions {
  isDrift: (change: PlannedChange) => boolean;
  /** `--auto-approve`: the apply policy may delete (and so replace). */
  allowDeletes: boolean;
  /** Changes the run must leave alone, with why (another apply changed them while waiting for the lease). */
  refused?: Map<string, string>;
}

export function selectForPolicy(changes: PlannedChange[], policy: ReconcilePolicy, options: SelectOptions): Selection {
  const held = new Map<string, string>();
  for (const c of changes) {
    const why = options.refused?.get(c.id) ?? firstReason(c, policy, options);
    if (why) held.set(c.id, why);
  }
  // What depends on a held change waits with it (a rule whose connector is not created).
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of changes) {
      if (held.has(c.id)) continue;
      const blocker = c.dependsOn.find((d) => held.has(d));
      if (blocker) {
        held.set(c.id, `depends on ${blocker}, which is held`);
        changed = true;
      }
    }
  }
  // A prerequisite goes with what needs it: alone it would be a write nobody asked for.
  const needed = new Set(changes.filter((c) => !held.has(c.id)).flatMap((c) => c.dependsOn));
  for (const c of changes) if (c.action === 'prerequisite' && !held.has(c.id) && !needed.has(c.id)) held.set(c.id, 'nothing applied needs it');
  return {
    apply: changes.filter((c) => !held.has(c.id)),
    held: changes.filter((c) => held.has(c.id)).map((change) => ({ change, why: held.get(change.id)! })),
  };
}

function firstReason(c: PlannedChange, policy: ReconcilePolicy, options: SelectOptions): string | undefined {
  if (policy === 'report') return 'policy report applies nothing';
  if (c.action === 'prerequisite') return undefined;
  if (policy === 'apply') return c.action === 'delete' && !options.allowDeletes ? 'a delete needs --auto-approve' : undefined;
  if (c.action === 'delete') return 'policy heal-drift never deletes';
  return options.isDrift(c) ? undefined : 'not drift: the manifest is new or changed since the server last matched it';
}
