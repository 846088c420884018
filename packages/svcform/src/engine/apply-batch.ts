import type { AdapterContext, BatchOutcome, BatchWrite, KindAdapter } from '../kinds/types.js';
import type { CreateChange, DeleteChange, PlannedChange, UpdateChange } from './plan.js';
import { contextFor, withAnswerCheck } from './context.js';
import { settleWrites } from './confirm.js';

/**
 * Bulk writes within a wave: the creates (or updates) of one kind and one space go to the kind's
 * writeBatch when its adapter has one, its deletes to deleteBatch, and every object's outcome is
 * still reported on its own (design.md "Layout"). What the bulk call leaves (`alone`) is written
 * change by change afterwards; writes whose outcome is unknown are read back first (confirm.ts): a
 * create is never blindly repeated, and a delete that landed is not sent again.
 */

type BatchedChange = CreateChange | UpdateChange | DeleteChange;

export interface BatchGroup {
  adapter: KindAdapter;
  space: string;
  changes: BatchedChange[];
}

/** What a batch needs of apply's options (apply.ts's ApplyOptions has these and more). */
export interface BatchOptions {
  ctx: AdapterContext;
  adapterFor: (kind: string) => KindAdapter | undefined;
  rotateSecrets?: boolean;
  onStart?: (change: PlannedChange) => void;
}

/**
 * Splits a wave's runnable changes into groups for writeBatch (or deleteBatch) and the changes
 * written one by one; the latter include the writes the adapter says it always leaves alone, so
 * that they run beside the bulk call rather than after its answer.
 */
export function splitBatches(changes: PlannedChange[], adapterFor: BatchOptions['adapterFor']): { groups: BatchGroup[]; single: PlannedChange[] } {
  const groups = new Map<string, BatchGroup>();
  const single: PlannedChange[] = [];
  for (const c of changes) {
    const adapter = adapterFor(c.kind);
    if (!adapter || c.action === 'prerequisite' || !(c.action === 'delete' ? adapter.deleteBatch : adapter.writeBatch) || (c.action !== 'delete' && adapter.writesAlone?.(batchWrite(c)))) {
      single.push(c);
      continue;
    }
    const key = `${c.kind}\u0000${c.space}\u0000${c.action}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { adapter, space: c.space, changes: [] }));
    group.changes.push(c);
  }
  return { groups: [...groups.values()], single };
}

function batchWrite(c: CreateChange | UpdateChange): BatchWrite {
  return c.action === 'create' ? { action: 'create', resource: c.resource } : { action: 'update', resource: c.resource, live: c.live };
}

export type Settled = { change: PlannedChange; outcome: 'done'; note?: string; ms: number } | { change: PlannedChange; outcome: 'failed'; error: string; ms: number };

/**
 * Runs one group through its adapter's writeBatch. Settled changes are handed to `settle` as they
 * are known; the returned changes are left to be written on their own.
 */
export async function runBatch(group: BatchGroup, options: BatchOptions, settle: (s: Settled) => void): Promise<PlannedChange[]> {
  const { adapter, space, changes } = group;
  const ctx = contextFor(options.ctx, adapter);
  for (const c of changes) options.onStart?.(c);
  const started = Date.now();
  const what = `${changes[0].action} of ${changes.length} ${adapter.kind} objects in space ${space}`;
  let outcomes: BatchOutcome[];
  try {
    outcomes = await withAnswerCheck(ctx, what, (x) => {
      if (changes[0].action === 'delete') return adapter.deleteBatch!(x, space, (changes as DeleteChange[]).map((c) => c.live));
      const writes = (changes as Array<CreateChange | UpdateChange>).map(batchWrite);
      return adapter.writeBatch!(x, space, writes, { rotateSecrets: !!options.rotateSecrets });
    });
    if (outcomes.length !== changes.length) throw new Error(`${what}: the adapter reported ${outcomes.length} outcomes`);
  } catch (err) {
    // Nothing is known of any of them: they are read back.
    outcomes = changes.map(() => ({ status: 'unknown', reason: (err as Error).message }));
  }
  const alone: PlannedChange[] = [];
  const unknown: BatchedChange[] = [];
  changes.forEach((c, i) => {
    const o = outcomes[i];
    if (o.status === 'done') settle({ change: c, outcome: 'done', ms: Date.now() - started, ...(o.note ? { note: o.note } : {}) });
    else if (o.status === 'failed') settle({ change: c, outcome: 'failed', error: o.error, ms: Date.now() - started });
    else if (o.status === 'unknown') unknown.push(c);
    else alone.push(c);
  });
  if (unknown.length > 0) {
    let found: Awaited<ReturnType<typeof settleWrites>>;
    try {
      found = await withAnswerCheck(ctx, `reading back ${adapter.kind} objects in space ${space}`, (x) => settleWrites(x, adapter, space, unknown));
    } catch (err) {
      // Creates are never repeated blindly; updates (full replaces) and deletes may be.
      for (const c of unknown) {
        if (c.action !== 'create') alone.push(c);
        else settle({ change: c, outcome: 'failed', error: `the outcome of the bulk create is unknown, and reading the objects back failed: ${(err as Error).message}`, ms: Date.now() - started });
      }
      return alone;
    }
    unknown.forEach((c, i) => {
      const f = found[i];
      if (f.status === 'done') settle({ change: c, outcome: 'done', note: f.note, ms: Date.now() - started });
      else if (f.status === 'failed') settle({ change: c, outcome: 'failed', error: f.error, ms: Date.now() - started });
      else alone.push(c);
    });
  }
  return alone;
}
