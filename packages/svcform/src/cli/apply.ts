import { applyPlan, type ApplyReport } from '../engine/apply.js';
import { adapterFor } from '../kinds/registry.js';
import { redactor } from '../manifest/redact.js';
import { resolveDeferred } from '../manifest/interpolate.js';
import { formatDiagnostics } from '../manifest/diagnostic-lines.js';
import { describeObject, subjectOf, type Diagnostic } from '../manifest/types.js';
import type { Plan, PlannedChange } from '../engine/plan.js';
import { changesToJson, changeToJson, planToJson } from '../report/plan-json.js';
import { renderApplySummary, renderPlanText, renderResultLine, warningLines } from '../report/text.js';
import { colorsFor, concurrencyOf, SIGNAL_EXIT, UsageError, type CommonOptions, type Io, type StopSignal, type Target } from './context.js';
import { planFromArgs, type LiveStateGuard } from './planning.js';
import { hostname, userInfo } from 'node:os';
import { acquireLeases, LeaseHeldError, observeLease, untouchedSince, type HeldLeases, type LeaseObservation } from '../engine/lease.js';
import { connectorLeaseStore } from '../kinds/connector/lease-store.js';
import { AREAS } from '../client/areas.js';
import { readSavedPlan, resolveInputs, type SavedPlan } from './saved-plan.js';
import { approveDeletes } from './approval.js';
import type { RunScope } from '../kinds/run-scope.js';
import { planDifferences, readReviewedPlan, unreviewedChanges, type ReviewedPlan } from './reviewed-plan.js';

export interface ApplyCommandOptions extends CommonOptions {
  plan?: string;
  /** Reviewed plans: apply a fresh plan only if each of its changes is one of theirs (reviewed-plan.ts). */
  ifMatches?: string[];
  json?: boolean;
  rotateSecrets?: boolean;
  /** Spaces the plan may delete with everything in them. */
  allowSpaceDelete?: string[];
  /** Seconds to wait for another apply's lease (default 0: fail at once). */
  lockTimeout?: string;
  /** `--no-lock` sets this false. */
  lock?: boolean;
  /** Apply deletes without asking (approval.ts). */
  autoApprove?: boolean;
}

/** A lease not renewed for this long is free (a crashed apply holds it no longer). */
const LEASE_TTL_MS = 120_000;

/**
 * The apply lease of every space the run may write (engine/lease.ts), as the guard of the live
 * state the plan reads. Live state read ahead while the manifests load is kept only when the
 * leases seen before that read show no other apply in between (untouchedSince); else it is read
 * again under the lease. Nothing is written (the lease is not taken) before the manifests are valid.
 */
export function leaseGuard(opts: Pick<ApplyCommandOptions, 'lock' | 'lockTimeout' | 'quiet'>, io: Io, leases: { held?: HeldLeases }): LiveStateGuard {
  const storeOf = (target: Target) => connectorLeaseStore({ request: (req) => target.client.request({ ...req, area: AREAS.actions.name }) });
  let seen: Promise<LeaseObservation[] | undefined> | undefined;
  return {
    async observe(target, spaces) {
      if (opts.lock === false) return;
      const observing = Promise.all(spaces.map((space) => observeLease(storeOf(target), space)));
      seen = observing.catch(() => undefined);
      await observing;
    },
    async take(target, spaces) {
      // --no-lock: the user vouches that no other apply runs.
      if (opts.lock === false) return true;
      const wait = opts.lockTimeout === undefined ? 0 : Number(opts.lockTimeout);
      if (!Number.isFinite(wait) || wait < 0) throw new UsageError(`--lock-timeout must be a number of seconds, not ${JSON.stringify(opts.lockTimeout)}`);
      let told = false;
      const observed = await seen;
      try {
        leases.held = await acquireLeases(storeOf(target), spaces, {
          lastSeenFree: new Map((observed ?? []).filter((o) => !o.inForce).map((o) => [o.space, o.newest])),
          holder: `${userInfo().username}@${hostname()} pid ${process.pid}${io.env.GITHUB_RUN_ID ? ` run ${io.env.GITHUB_RUN_ID}` : ''}`,
          waitMs: wait * 1000,
          ttlMs: LEASE_TTL_MS,
          onWait: (held, space) => {
            if (!told && !opts.quiet) io.err(`Waiting for the apply of ${held.holder} in space ${space} (since ${held.since})...`);
            told = true;
          },
        });
      } catch (err) {
        if (err instanceof LeaseHeldError) throw new UsageError(`${err.message} Nothing was applied.`);
        throw err;
      }
      return !!observed && observed.every((o) => untouchedSince(o, leases.held!));
    },
  };
}

/** Above this many changes a terminal gets progress lines instead of a line per change. */
const PROGRESS_THRESHOLD = 40;

export async function applyCommand(paths: string[], opts: ApplyCommandOptions, io: Io): Promise<number> {
  let saved: SavedPlan | undefined;
  if (opts.plan) {
    saved = readSavedPlan(opts.plan);
    if (paths.length > 0) throw new UsageError('apply --plan FILE takes no PATH arguments: the saved plan names its manifests');
    const inputs = resolveInputs(saved, opts.plan, opts.config);
    paths = inputs.paths;
    // The plan's environment decides its target and overlays: another one would apply it elsewhere.
    if (opts.env !== undefined && opts.env !== saved.inputs.environment) {
      throw new UsageError(`--env ${opts.env}: the plan in ${opts.plan} was made ${saved.inputs.environment === undefined ? 'without --env' : `for environment ${saved.inputs.environment}`}; nothing was applied`);
    }
    opts = { ...opts, env: saved.inputs.environment, url: opts.url ?? saved.inputs.url, space: opts.space ?? saved.inputs.space, config: inputs.config, root: opts.root ?? inputs.fileRoot, select: saved.inputs.select, rotateSecrets: saved.inputs.rotate_secrets, allowSpaceDelete: saved.inputs.allow_space_delete };
  } else if (paths.length === 0) paths = ['.'];
  // Read first: a reviewed plan that cannot be read stops the run before the server is asked anything.
  const reviewed = opts.ifMatches?.map(readReviewedPlan);
  const col = colorsFor(opts, io, 'out');
  const errCol = colorsFor(opts, io, 'err');
  const leases: { held?: HeldLeases } = {};
  // apply keeps no manifest documents in the cache: it reads those the plan before it kept.
  const { plan, target, config, changedWhileWaiting } = await planFromArgs(paths, opts, io, leaseGuard(opts, io, leases), false).catch(async (err) => {
    await leases.held?.release();
    throw err;
  });
  const planJson = () => planToJson(plan, { url: target.url, embedded: target.embedded }, target.ctx.run);
  const nothingApplied = { results: [], done: 0, failed: 0, skipped: 0 };
  // --json keeps its promise of one JSON document on stdout whenever a plan was made: a run that
  // refuses to apply says why in `refused` (the message itself is on stderr), with no results.
  const refuse = (reason: RefusalReason): number => {
    if (opts.json) io.out(JSON.stringify({ ...resultJson(nothingApplied, target.ctx.run), refused: reason, plan: planJson() }, null, 2));
    return 1;
  };
  try {
    if (saved) {
      const { fingerprint: before, changes: savedChanges } = saved.plan;
      // What the fresh plan does that the saved one did not, and the reverse, named.
      const differences = () => {
        const { now, gone } = planDifferences(savedChanges, changesToJson(plan, target.ctx.run));
        return [...now.map((c) => `now ${c.action} ${describeObject(c)}`), ...gone.map((c) => `no longer ${c.action} ${describeObject(c)}`)];
      };
      if (before.live !== plan.liveFingerprint) {
        const named = differences();
        const what = named.length ? `; applied now, the plan would differ: ${named.join(', ')}` : '; its changes are still the same, but objects they depend on or sit beside changed';
        refuse('live_state_changed');
        throw new UsageError(`the live state changed since the plan in ${opts.plan} was made${what}; nothing was applied. Run plan again and review the new plan.`);
      }
      if (before.desired !== plan.desiredFingerprint) {
        refuse('manifests_changed');
        throw new UsageError(`the manifests changed since the plan in ${opts.plan} was made; nothing was applied. Run plan again and review the new plan.`);
      }
      // The fingerprints cover the live objects and the manifests, not what else decides the plan:
      // svcform.yaml (a wider manage scope deletes more, an ignore rule updates less) or another
      // svcform. Whatever moved, what is applied is what was saved.
      const named = differences();
      if (named.length) {
        refuse('plan_changed');
        throw new UsageError(`the same live state and manifests plan other changes than the plan in ${opts.plan} (svcform.yaml or the svcform version changed since it was made): applied now, the plan would differ: ${named.join(', ')}; nothing was applied. Run plan again and review the new plan.`);
      }
    }
    if (plan.errors.length) {
      if (!opts.json) io.out(renderPlanText(plan, col));
      io.err('The plan has errors; nothing was applied.');
      return refuse('plan_errors');
    }
    if (changedWhileWaiting.length && !(await approveOverwrites(plan, changedWhileWaiting, io, col))) return refuse('changed_while_waiting');
    if (reviewed && !matchesReviewed(plan, reviewed, { url: target.url, embedded: target.embedded }, target.ctx.run, io, col, !!opts.json)) return refuse('not_reviewed');
    supplyDeferredSecrets(plan.changes, io);
    if (!opts.json && !opts.quiet) io.out(renderPlanText(plan, col));
    else for (const line of warningLines(plan, errCol)) io.err(line);
    if (plan.changes.length === 0) {
      if (opts.json) io.out(JSON.stringify({ ...resultJson(nothingApplied, target.ctx.run), plan: planJson() }, null, 2));
      else if (!opts.quiet) io.out('Nothing to apply.');
      return 0;
    }
    // A saved plan was reviewed when it was made, and its fingerprints held: it is the approval; so
    // are reviewed plans that show every change.
    if (!saved && !reviewed && !(await approveDeletes(plan, opts, io, opts.json || opts.quiet ? errCol : col))) return refuse('deletes_not_approved');
    const total = plan.changes.length;
    // On a terminal, long runs report progress every tenth instead of a line per change; failures
    // and skips are always printed as they happen.
    const progress = io.errTty && !opts.json && !opts.quiet && total > PROGRESS_THRESHOLD;
    let lastTenth = 0;
    if (!opts.json && !opts.quiet) io.out('');
    let stopped: StopSignal | undefined;
    const unsubscribe = io.onSignal?.((signal) => {
      stopped = signal;
      io.err(`${signal}: finishing the changes in flight and starting no new ones (send it again to stop at once)`);
    });
    const report = await applyPlan(plan.changes, {
      ctx: target.ctx,
      adapterFor,
      concurrency: concurrencyOf(opts, config),
      rotateSecrets: opts.rotateSecrets,
      stopRequested: () => stopped !== undefined,
      onResult: (r, finished) => {
        if (opts.json || opts.quiet) {
          if (opts.quiet && r.outcome === 'failed') io.err(renderResultLine(r, errCol));
          return;
        }
        if (!progress || r.outcome !== 'done') io.out(renderResultLine(r, col));
        const tenth = Math.floor((finished * 10) / total);
        if (progress && tenth > lastTenth) {
          lastTenth = tenth;
          io.err(progressLine(finished, total));
        }
      },
    });
    unsubscribe?.();
    if (opts.json) io.out(JSON.stringify({ ...resultJson(report, target.ctx.run), ...(stopped ? { interrupted: stopped } : {}), plan: planJson() }, null, 2));
    else io.out(renderApplySummary(report, col));
    if (stopped) {
      if (!opts.json) io.err(`Interrupted by ${stopped}: the summary above is what the server now holds; run apply again to finish.`);
      return SIGNAL_EXIT[stopped];
    }
    if (report.failed && !opts.json) io.err('Some changes failed; fix the cause and run apply again: it picks up where this run stopped.');
    return report.failed > 0 ? 1 : 0;
  } finally {
    await leases.held?.release();
    await target.close();
  }
}

export const OVERWRITE_QUESTION = "Apply these changes over what the other apply just wrote? Only 'yes' will be accepted: ";

/**
 * Another apply held the lease while this one waited, and changed objects this plan changes again:
 * applied as planned, this run would revert them without anyone having seen it. On a terminal the
 * plan and those objects are shown and only `yes` goes on; without one nothing is applied
 * (--auto-approve does not cover it: no one saw this plan), and the objects are named.
 */
async function approveOverwrites(plan: Plan, changed: PlannedChange[], io: Io, col: ReturnType<typeof colorsFor>): Promise<boolean> {
  const names = changed.map((c) => `${c.action} ${describeObject(c)}`);
  if (!io.stdinTty || !io.prompt) {
    io.err(`Another apply changed ${changed.length === 1 ? 'an object' : `${changed.length} objects`} while this run waited for the lease, and this plan would change ${changed.length === 1 ? 'it' : 'them'} back: ${names.join(', ')}. Nothing was applied. Run plan again on the current manifests and review it.`);
    return false;
  }
  io.err(renderPlanText(plan, col));
  io.err(`\nAnother apply changed these while this run waited for the lease; this plan would change them back:\n${names.map((n) => `  ${n}`).join('\n')}`);
  if ((await io.prompt(OVERWRITE_QUESTION)).trim() === 'yes') return true;
  io.err('Apply cancelled: nothing was applied.');
  return false;
}

/**
 * `--if-matches`: whether every change of the fresh plan is one a reviewed plan shows, made against
 * the same target. When not, the fresh plan is printed (in text, or in the refusal's JSON) with
 * the changes no one reviewed, and nothing is applied.
 */
function matchesReviewed(plan: Plan, reviewed: ReviewedPlan[], target: { url: string; embedded: boolean }, run: RunScope, io: Io, col: ReturnType<typeof colorsFor>, json: boolean): boolean {
  for (const r of reviewed) {
    if (r.target && (r.target.url !== target.url || r.target.embedded !== target.embedded)) {
      throw new UsageError(`the reviewed plan in ${r.file} was made against ${r.target.url}, not ${target.url}; nothing was applied`);
    }
  }
  const unreviewed = unreviewedChanges(plan, reviewed, run);
  if (unreviewed.length === 0) return true;
  // Under --json the plan is in the refusal's JSON document instead: stdout stays one document.
  if (!json) io.out(renderPlanText(plan, col));
  for (const c of unreviewed) io.err(`not reviewed: ${c.action} ${describeObject(c)}`);
  const files = reviewed.map((r) => r.file).join(', ');
  io.err(`${unreviewed.length} of the ${plan.changes.length} changes of this plan ${unreviewed.length === 1 ? 'is' : 'are'} not in the reviewed plan (${files}); nothing was applied. Review the plan above (plan --out saves it) and apply that.`);
  return false;
}

/**
 * Resolves the write-only secrets that could not be read with the manifests (Resource.deferred),
 * for the objects this apply creates or updates and for no other: an apply that leaves a
 * connector alone never needs its secret. Any still missing is an error at its place, naming the
 * field and the variable or file, before anything is written.
 */
export function supplyDeferredSecrets(changes: PlannedChange[], io: Io): void {
  const missing: Diagnostic[] = [];
  for (const c of changes) {
    if ((c.action !== 'create' && c.action !== 'update') || !c.resource.deferred?.length) continue;
    const subject = subjectOf({ kind: c.kind, name: c.name });
    const resolved = resolveDeferred(c.resource, io.env, redactor, subject);
    if (resolved.diagnostics.length === 0) {
      c.resource = { ...c.resource, spec: resolved.spec, deferred: undefined };
      continue;
    }
    for (const d of resolved.diagnostics) missing.push({ ...d, message: `${d.message}; this apply ${c.action}s ${subject} and must send it` });
  }
  if (missing.length === 0) return;
  for (const line of formatDiagnostics(missing)) io.err(redactor.redact(line));
  throw new UsageError(`${missing.length} secret${missing.length === 1 ? '' : 's'} the changes need ${missing.length === 1 ? 'is' : 'are'} not set; nothing was applied`);
}

function progressLine(done: number, total: number): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} changes`;
}

/** Why an apply with a plan wrote nothing (`refused` in `apply --json`; docs/plan-format.md). */
type RefusalReason = 'plan_errors' | 'live_state_changed' | 'manifests_changed' | 'plan_changed' | 'changed_while_waiting' | 'not_reviewed' | 'deletes_not_approved';

function resultJson(report: ApplyReport, run: RunScope) {
  return redactor.redactValue({
    summary: { done: report.done, failed: report.failed, skipped: report.skipped },
    results: report.results.map((r) => ({ ...changeToJson(r.change, run), outcome: r.outcome, ...(r.error ? { error: r.error } : {}), ...(r.note ? { note: r.note } : {}), ...(r.blockedBy ? { blocked_by: r.blockedBy } : {}), ms: r.ms })),
  });
}
