import type { AdapterContext, KindAdapter } from '../kinds/types.js';
import type { PlannedChange } from './plan.js';
import { contextFor, withAnswerCheck } from './context.js';
import { createConfirmed, settled } from './confirm.js';
import { runBatch, splitBatches, type BatchGroup, type Settled } from './apply-batch.js';
import { describeObject } from '../manifest/types.js';

export type Outcome = 'done' | 'failed' | 'skipped';

export interface ChangeResult {
  change: PlannedChange;
  outcome: Outcome;
  error?: string;
  /** How a done change was established when the write's own answer was lost or refused (see confirm.ts). */
  note?: string;
  /** For skipped changes: the failed change they depended on, or `interrupted`. */
  blockedBy?: string;
  ms: number;
}

export interface ApplyOptions {
  ctx: AdapterContext;
  adapterFor: (kind: string) => KindAdapter | undefined;
  /** Changes started at once within a wave (the HTTP client bounds requests in flight separately). */
  concurrency: number;
  rotateSecrets?: boolean;
  onResult?: (result: ChangeResult, finished: number, total: number) => void;
  onStart?: (change: PlannedChange) => void;
  /** Checked before each change starts: once true (SIGINT, SIGTERM), no new change starts. */
  stopRequested?: () => boolean;
}

export interface ApplyReport {
  results: ChangeResult[];
  done: number;
  failed: number;
  skipped: number;
}

/**
 * Runs a plan wave by wave. Within a wave, changes run in parallel up to `concurrency`. A failed
 * change makes everything that depends on it (directly or not) skipped; independent work goes on.
 * Every write is one the plan derived from live state, so re-running after a failure plans only
 * what is still missing: nothing is created twice. Creates and updates of a kind whose adapter
 * writes in bulk go through it, a group per kind, space and action (apply-batch.ts).
 */
export async function applyPlan(changes: PlannedChange[], options: ApplyOptions): Promise<ApplyReport> {
  const results: ChangeResult[] = [];
  const failedOrSkipped = new Map<string, string>(); // id -> root failure id
  const waves = new Map<number, PlannedChange[]>();
  for (const c of changes) {
    const wave = waves.get(c.wave);
    if (wave) wave.push(c);
    else waves.set(c.wave, [c]);
  }
  const total = changes.length;
  const record = (r: ChangeResult) => {
    results.push(r);
    options.onResult?.(r, results.length, total);
  };

  for (const wave of [...waves.keys()].sort((a, b) => a - b)) {
    const queue = [...waves.get(wave)!];
    const runnable: PlannedChange[] = [];
    for (const c of queue) {
      const blocker = c.dependsOn.find((d) => failedOrSkipped.has(d));
      if (blocker) {
        const root = failedOrSkipped.get(blocker)!;
        failedOrSkipped.set(c.id, root);
        record({ change: c, outcome: 'skipped', blockedBy: root, ms: 0 });
      } else runnable.push(c);
    }
    const { groups, single } = splitBatches(runnable, options.adapterFor);
    const settle = (s: Settled) => {
      if (s.outcome === 'failed') {
        failedOrSkipped.set(s.change.id, s.change.id);
        record({ change: s.change, outcome: 'failed', error: withSource(s.change, s.error), ms: s.ms });
      } else record({ change: s.change, outcome: 'done', ms: s.ms, ...(s.note ? { note: s.note } : {}) });
    };
    const runBatchGroup = async (group: BatchGroup) => {
      if (options.stopRequested?.()) return runOneByOne(group.changes);
      return runOneByOne(await runBatch(group, options, settle));
    };
    await Promise.all([runOneByOne(single), ...groups.map(runBatchGroup)]);
  }
  return {
    results,
    done: results.filter((r) => r.outcome === 'done').length,
    failed: results.filter((r) => r.outcome === 'failed').length,
    skipped: results.filter((r) => r.outcome === 'skipped').length,
  };

  /** Runs changes one at a time each, up to `concurrency` at once. */
  async function runOneByOne(runnable: PlannedChange[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < runnable.length) {
        const c = runnable[next++];
        if (options.stopRequested?.()) {
          failedOrSkipped.set(c.id, 'interrupted');
          record({ change: c, outcome: 'skipped', blockedBy: 'interrupted', ms: 0 });
          continue;
        }
        options.onStart?.(c);
        const started = Date.now();
        try {
          const note = await execute(c, options);
          record({ change: c, outcome: 'done', ms: Date.now() - started, ...(note ? { note } : {}) });
        } catch (err) {
          failedOrSkipped.set(c.id, c.id);
          record({ change: c, outcome: 'failed', error: withSource(c, (err as Error).message), ms: Date.now() - started });
        }
      }
    };
    if (runnable.length === 0) return;
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, runnable.length)) }, worker));
  }
}

/** A failure names the manifest it comes from, so that one object of a bulk write is found at once. */
function withSource(c: PlannedChange, message: string): string {
  return c.source ? `${message} (${c.source.file}:${c.source.line}:${c.source.col})` : message;
}

/** Carries out one change; a note says how its outcome was confirmed when the write's own answer was lost. */
async function execute(c: PlannedChange, options: ApplyOptions): Promise<string | undefined> {
  const adapter = options.adapterFor(c.kind);
  if (!adapter) throw new Error(`no adapter for kind ${c.kind}`);
  const ctx = contextFor(options.ctx, adapter);
  const what = `${c.action} ${describeObject(c)}`;
  switch (c.action) {
    case 'prerequisite': {
      const prerequisite = adapter.prerequisite;
      if (!prerequisite) throw new Error(`kind ${c.kind} has no prerequisite step`);
      await withAnswerCheck(ctx, what, (x) => prerequisite.ensure(x, c.space));
      return undefined;
    }
    case 'create':
      return withAnswerCheck(ctx, what, (x) => createConfirmed(x, adapter, c));
    case 'update':
      return withAnswerCheck(ctx, what, (x) => settled(x, adapter, c, () => adapter.update(x, c.resource, c.live, { rotateSecrets: !!options.rotateSecrets })));
    case 'delete':
      return withAnswerCheck(ctx, what, (x) => settled(x, adapter, c, () => adapter.delete(x, c.live)));
  }
}
