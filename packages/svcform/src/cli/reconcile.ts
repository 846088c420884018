import { applyPlan, type ApplyReport } from '../engine/apply.js';
import type { Plan } from '../engine/plan.js';
import { DriftBaseline, desiredRows, selectForPolicy, type HeldChange, type ReconcilePolicy } from '../engine/reconcile-select.js';
import { adapterFor } from '../kinds/registry.js';
import { describeObject } from '../manifest/types.js';
import { redactor } from '../manifest/redact.js';
import { renderResultLine } from '../report/text.js';
import type { HeldLeases } from '../engine/lease.js';
import { leaseGuard, supplyDeferredSecrets } from './apply.js';
import { colorsFor, concurrencyOf, defaultSpace, readConfig, UsageError, type CommonOptions, type Io, type StopSignal } from './context.js';
import { formatDuration, parseDuration } from './duration.js';
import { loadResources, planFromArgs, type Planned } from './planning.js';
import { parseListen, ReconcileStatus, serveStatus, type CycleRecord } from './reconcile-status.js';

export interface ReconcileCommandOptions extends CommonOptions {
  interval?: string;
  policy?: ReconcilePolicy;
  listen?: string;
  json?: boolean;
  /** The apply policy may delete (and so replace), as apply's --auto-approve. */
  autoApprove?: boolean;
  allowSpaceDelete?: string[];
  lockTimeout?: string;
  lock?: boolean;
  /** Failed cycles in a row /healthz still answers 200 for. */
  failureGrace?: string;
  maxBackoff?: string;
}

/** 9464: the port Prometheus exporters of OpenTelemetry use; nothing of svcform's own listens on it. */
export const DEFAULT_LISTEN = '127.0.0.1:9464';
const DEFAULT_GRACE = 2;
/** The first wait after a failure, when the interval is longer (a server restarting is back soon). */
const FIRST_BACKOFF_MS = 10_000;
const MIN_BACKOFF_CAP_MS = 5 * 60_000;

/**
 * The wait after `failures` failed cycles in a row: doubling from `baseMs`, capped, and drawn at
 * random from its upper half so that many reconcilers that lost one server do not return together.
 */
export function backoffMs(failures: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const full = Math.min(capMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}

interface CycleResult {
  plan?: Plan;
  report?: ApplyReport;
  held: HeldChange[];
  interrupted?: StopSignal;
}

/**
 * `svcform reconcile`: plan every interval and apply per policy (engine/reconcile-select.ts), under
 * apply's lease, serving /healthz and /metrics, until SIGINT or SIGTERM.
 */
export async function reconcileCommand(paths: string[], opts: ReconcileCommandOptions, io: Io): Promise<number> {
  const policy = opts.policy ?? 'report';
  const interval = parseDuration('--interval', opts.interval ?? '5m', 1000);
  const cap = opts.maxBackoff !== undefined ? parseDuration('--max-backoff', opts.maxBackoff, 1000) : Math.max(interval, MIN_BACKOFF_CAP_MS);
  const base = Math.min(interval, FIRST_BACKOFF_MS, cap);
  const grace = opts.failureGrace === undefined ? DEFAULT_GRACE : Number(opts.failureGrace);
  if (!Number.isInteger(grace) || grace < 0) throw new UsageError(`--failure-grace must be a whole number of cycles >= 0, not ${JSON.stringify(opts.failureGrace)}`);
  const listen = parseListen(opts.listen ?? DEFAULT_LISTEN);
  // Bad manifests at start are the user's to fix now, as with plan: exit 1 before serving anything.
  // Later cycles re-read them (a git-sync may bring a broken commit): that is a failed cycle.
  await loadResources(paths, opts, io, readConfig(opts, paths));

  const status = new ReconcileStatus(grace);
  const server = await serveStatus(status, listen);
  if (!opts.quiet) io.err(`svcform reconcile: policy ${policy}, every ${formatDuration(interval)}; /healthz and /metrics on ${server.url}`);
  let stopped: StopSignal | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = io.onSignal?.((signal) => {
    stopped = signal;
    io.err(`${signal}: stopping after the current cycle (send it again to stop at once)`);
    wake?.();
  });
  const baseline = new DriftBaseline();
  const col = colorsFor(opts, io, 'err');
  try {
    for (let n = 1; !stopped; n++) {
      const started = Date.now();
      let result: CycleResult = { held: [] };
      let error: string | undefined;
      try {
        // The target is named once, at the first cycle, not in every cycle's log.
        result = await cycle(n === 1 || opts.verbose ? opts : { ...opts, quiet: true });
        // A signal during the cycle: no change started after it; the summary says so.
        result.interrupted = stopped;
        if (result.plan?.errors.length) error = `the plan has ${result.plan.errors.length} error(s): ${result.plan.errors.map((e) => `${e.subject}: ${e.message}`).join('; ')}`;
        else if (result.report?.failed) error = `${result.report.failed} change(s) failed to apply`;
      } catch (err) {
        error = redactor.redact((err as Error).message ?? String(err));
      }
      const record: CycleRecord = { ok: !error, at: Date.now(), ms: Date.now() - started, error, drift: result.plan && driftOf(result.plan), applied: result.report?.done, failed: result.report?.failed };
      status.record(record);
      const next = stopped ? undefined : error ? backoffMs(status.failuresInARow, base, cap) : interval;
      emit(n, record, result, next);
      if (next !== undefined) await sleep(next);
    }
  } finally {
    unsubscribe?.();
    await server.close();
  }
  if (!opts.quiet) io.err(`svcform reconcile stopped (${stopped})`);
  return 0;

  async function cycle(opts: ReconcileCommandOptions): Promise<CycleResult> {
    const first = await planFromArgs(paths, opts, io);
    let open: Planned | undefined = first;
    let rows = desiredRows(first.resources, adapterFor, defaultSpace(opts, first.config));
    const select = (p: Planned, refused?: Map<string, string>) =>
      selectForPolicy(p.plan.changes, policy, { isDrift: (c) => baseline.isDrift(c, rows), allowDeletes: !!opts.autoApprove, refused });
    try {
      if (first.plan.errors.length) return { plan: first.plan, held: [] };
      let selection = select(first);
      if (selection.apply.length === 0 || stopped) {
        baseline.record(rows, first.plan.changes.map((c) => c.id));
        return { plan: first.plan, held: selection.held };
      }
      // Something to write: plan again under the lease, as apply does, so no other apply's work is
      // undone unseen. A cycle with nothing to write takes no lease (no writes every interval).
      open = undefined;
      await first.target.close();
      const leases: { held?: HeldLeases } = {};
      const planned = (open = await planFromArgs(paths, opts, io, leaseGuard(opts, io, leases), false).catch(async (err) => {
        await leases.held?.release();
        throw err;
      }));
      try {
        rows = desiredRows(planned.resources, adapterFor, defaultSpace(opts, planned.config));
        if (planned.plan.errors.length) return { plan: planned.plan, held: [] };
        const refused = new Map(planned.changedWhileWaiting.map((c) => [c.id, 'another apply changed it while this cycle waited for the lease'] as const));
        selection = select(planned, refused);
        supplyDeferredSecrets(selection.apply, io);
        const report = await applyPlan(selection.apply, {
          ctx: planned.target.ctx,
          adapterFor,
          concurrency: concurrencyOf(opts, planned.config),
          stopRequested: () => stopped !== undefined,
          onResult: (r) => {
            if (r.outcome !== 'done' || opts.verbose) io.err(renderResultLine(r, col));
          },
        });
        const done = new Set(report.results.filter((r) => r.outcome === 'done').map((r) => r.change.id));
        baseline.record(rows, planned.plan.changes.filter((c) => !done.has(c.id)).map((c) => c.id));
        return { plan: planned.plan, report, held: selection.held };
      } finally {
        await leases.held?.release();
      }
    } finally {
      await open?.target.close();
    }
  }

  function emit(n: number, record: CycleRecord, result: CycleResult, nextMs: number | undefined): void {
    const changes = result.plan?.changes ?? [];
    if (opts.json) {
      io.out(
        JSON.stringify(
          redactor.redactValue({
            time: new Date(record.at).toISOString(),
            cycle: n,
            policy,
            ok: record.ok,
            ms: record.ms,
            ...(result.plan ? { plan: result.plan.summary, drift: changes.map((c) => ({ action: c.action, kind: c.kind, space: c.space, name: c.name })) } : {}),
            ...(result.report ? { applied: { done: result.report.done, failed: result.report.failed, skipped: result.report.skipped } } : {}),
            held: result.held.map((h) => ({ action: h.change.action, kind: h.change.kind, space: h.change.space, name: h.change.name, why: h.why })),
            ...(record.error ? { error: record.error } : {}),
            ...(result.interrupted ? { interrupted: result.interrupted } : {}),
            ...(nextMs !== undefined ? { next_ms: nextMs } : {}),
          }),
        ),
      );
      return;
    }
    if (opts.quiet && record.ok && changes.length === 0) return;
    const parts = [`${new Date(record.at).toISOString()} cycle ${n} (${policy})`];
    if (result.plan) parts.push(changes.length === 0 ? 'no drift' : `drift: ${changes.length} change${changes.length === 1 ? '' : 's'} (${countByKind(result.plan)})`);
    if (result.report) parts.push(`applied: ${result.report.done} done, ${result.report.failed} failed, ${result.report.skipped} skipped`);
    if (result.held.length) parts.push(`held: ${result.held.length}`);
    if (result.interrupted) parts.push(`interrupted by ${result.interrupted}`);
    if (record.error) parts.push(`failed: ${record.error}`);
    parts.push(`${record.ms} ms`);
    if (nextMs !== undefined) parts.push(`next in ${formatDuration(nextMs)}`);
    io.out(parts.join('; '));
    if (opts.verbose) for (const h of result.held) io.err(`held: ${h.change.action} ${describeObject(h.change)}: ${h.why}`);
  }

  /** Waits, or less when a signal comes. */
  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }
}

function driftOf(plan: Plan): Map<string, { kind: string; space: string; count: number }> {
  const drift = new Map<string, { kind: string; space: string; count: number }>();
  for (const c of plan.changes) {
    const key = `${c.kind}\u0000${c.space}`;
    const d = drift.get(key) ?? { kind: c.kind, space: c.space, count: 0 };
    d.count++;
    drift.set(key, d);
  }
  return drift;
}

function countByKind(plan: Plan): string {
  const counts = new Map<string, number>();
  for (const c of plan.changes) counts.set(`${c.action} ${c.kind}`, (counts.get(`${c.action} ${c.kind}`) ?? 0) + 1);
  return [...counts].map(([what, n]) => `${n} ${what}`).join(', ');
}
