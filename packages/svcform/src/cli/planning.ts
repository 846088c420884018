import { computePlan, type Plan, type PlannedChange } from '../engine/plan.js';
import { pairKey, type LiveState } from '../engine/live.js';
import { canonicalJson } from '../kinds/normalize.js';
import { getAt, hasAt } from '../common/pointer.js';
import type { RunScope } from '../kinds/run-scope.js';
import { SHARED_TEXTS } from '../kinds/shared-texts.js';
import { adapterFor, knownKinds } from '../kinds/registry.js';
import { hasErrors, loadAndValidate } from '../manifest/validate.js';
import { formatDiagnostics } from '../manifest/diagnostic-lines.js';
import { ReadAhead } from './read-ahead.js';
import { ReadAheadMemory } from './read-ahead-memory.js';
import { DiskCache } from '../common/disk-cache.js';
import { missingSpaces } from '../client/spaces.js';
import { declaredSpaces } from '../engine/space-objects.js';
import { redactor } from '../manifest/redact.js';
import { subjectOf, type Resource } from '../manifest/types.js';
import { spacePathOf } from '../manifest/fan-out.js';
import { displayField } from '../manifest/schema.js';
import { SpaceNotFoundError } from '../client/errors.js';
import type { SvcformConfig } from './config.js';
import { liveReadProgress } from './progress.js';
import { setUpValidation } from './validation-setup.js';
import { cacheLocation } from './cache-location.js';
import { chosenTarget, defaultSpace, openTarget, readConfig, rootOf, selectionOf, UsageError, type CommonOptions, type Io, type Target } from './context.js';

export interface Planned {
  plan: Plan;
  target: Target;
  config: SvcformConfig;
  resources: Resource[];
  /**
   * Changes of the plan that would revert what another apply did while this run waited for the
   * lease: this run read the object before waiting, the other apply changed it, and the plan, made
   * from what was read under the lease, would put it back. apply asks about these, or refuses them
   * without a terminal.
   */
  changedWhileWaiting: PlannedChange[];
  /** Once the plan is shown (its warnings' places are read then): ValidationSetup.finishPlan. */
  finishPlan(): void;
}

/**
 * The plan's changes that undo a change made to their object since `seen` was read (before the
 * lease): recreating what was deleted, deleting what was created, or setting a field back to the
 * value it had. A change that carries on in the same direction (the other apply ran the same
 * manifests and did part of the work) reverts nothing.
 */
function revertsSince(plan: Plan, seen: LiveState | undefined, run: RunScope): PlannedChange[] {
  if (!seen) return [];
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  return plan.changes.filter((c) => {
    if (c.action === 'prerequisite') return false;
    const objects = seen.objects.get(pairKey(c.kind, c.space));
    if (!objects) return false;
    const before = objects.find((o) => o.name === c.name);
    if (c.action === 'create') return !!before;
    if (c.action === 'delete') return !before;
    if (!before || same(before.body, c.live.body)) return false;
    const adapter = adapterFor(c.kind);
    if (!adapter) return false;
    let was: Record<string, unknown>;
    try {
      was = adapter.normalizeLive(before, run);
    } catch {
      return false;
    }
    return c.fields.some((f) => {
      const old = hasAt(was, f.pointer) ? getAt(was, f.pointer) : undefined;
      if (f.added || f.removed) {
        const members = Array.isArray(old) ? old : [];
        return (f.added ?? []).some((m) => members.some((x) => same(x, m))) || (f.removed ?? []).some((m) => !members.some((x) => same(x, m)));
      }
      return old === undefined ? !('after' in f) : 'after' in f && same(old, f.after);
    });
  });
}

/**
 * Loads and validates manifests, printing every diagnostic; throws (exit 1) when any is an error.
 * With `readAhead`, live state is read while the files are parsed.
 */
export async function loadResources(paths: string[], opts: CommonOptions, io: Io, config: SvcformConfig, readAhead?: ReadAhead, keepManifests = true, printed?: Set<string>): Promise<LoadedResources> {
  const setup = await setUpValidation(opts, config, io, keepManifests);
  const result = await loadAndValidate(paths, setup.options, readAhead && ((kinds, share) => readAhead.start(kinds, share)));
  for (const line of formatDiagnostics(result.diagnostics)) {
    // promote validates once per environment: a finding both share is shown once.
    if (printed?.has(line)) continue;
    printed?.add(line);
    io.err(redactor.redact(line));
  }
  setup.finish();
  if (hasErrors(result.diagnostics)) {
    const n = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw new UsageError(`${n} error${n === 1 ? '' : 's'} in the manifests; nothing was sent to the server`);
  }
  return { resources: result.resources, finishPlan: () => setup.finishPlan() };
}

/** Valid resources, and what to call once a plan of them is made (ValidationSetup.finishPlan). */
export interface LoadedResources {
  resources: Resource[];
  finishPlan(): void;
}

/**
 * Names the manifest that asks for a missing space, at the field that names it (metadata.space, or
 * the item of metadata.spaces), as validation names a bad value. The run's default space
 * (--space, svcform.yaml) is no manifest's doing: its error stays as it was.
 */
function placeMissingSpace(err: SpaceNotFoundError, resources: Resource[], defaultSpace: string): void {
  const asking = resources.find((r) => r.space === err.space && (r.fanOut || r.space !== defaultSpace));
  if (!asking) return;
  const path = spacePathOf(asking);
  const pos = asking.posOf(path);
  err.message = `${pos.file}:${pos.line}:${pos.col}: ${subjectOf(asking)}: ${displayField(path)}: ${err.message}, and no Space manifest declares it`;
}

/**
 * How apply keeps other applies out of the live state it plans from (its lease, apply.ts).
 * `observe` runs once the target is open, before live state is read ahead of the manifests being
 * valid; `take` runs once they are valid and the target is open, and resolves whether what was
 * read ahead still stands. When it does not, live state is read again.
 */
export interface LiveStateGuard {
  observe(target: Target, spaces: string[]): Promise<void>;
  take(target: Target, spaces: string[]): Promise<boolean>;
}

/** Where reading ahead is remembered between runs (read-ahead-memory.ts): the cache directory, none with --no-cache. */
function readAheadMemory(opts: CommonOptions, config: SvcformConfig, io: Io, space: string, paths: string[]): ReadAheadMemory | undefined {
  const location = cacheLocation(opts, rootOf(opts, config), io.env);
  const cache = DiskCache.open(location.dir, location);
  return cache && new ReadAheadMemory(cache, chosenTarget(opts, config, io), space, paths);
}

/** validate -> open the target -> read live state -> plan. The caller closes the target. */
export async function planFromArgs(
  paths: string[],
  opts: CommonOptions & { rotateSecrets?: boolean; allowSpaceDelete?: string[] },
  io: Io,
  /** apply's lease: taken once the manifests are valid, before the plan uses any live state. */
  guard?: LiveStateGuard,
  /** Whether files parsed are kept in the cache (manifest-cache.ts); apply only reads it. */
  keepManifests = true,
): Promise<Planned> {
  const config = readConfig(opts, paths);
  const space = defaultSpace(opts, config);
  const readAhead = ReadAhead.applies(opts, config, io) ? new ReadAhead(opts, config, io, space, guard && ((target, spaces) => guard.observe(target, spaces)), readAheadMemory(opts, config, io, space, paths)) : undefined;
  // One progress display for every listing, those read ahead included (their lines held like the rest).
  const progress = liveReadProgress(readAhead?.heldIo ?? io, opts, adapterFor);
  readAhead?.readThrough(progress.adapterFor);
  readAhead?.open();
  let loaded: LoadedResources;
  try {
    loaded = await loadResources(paths, opts, io, config, readAhead, keepManifests);
  } catch (err) {
    progress.done();
    await readAhead?.abandon();
    throw err;
  }
  const { resources } = loaded;
  // Listings still to be read hold the manifests' long texts rather than copies of them (shared-texts.ts).
  const offerTexts = (t: Target) => {
    const texts = t.ctx.run.get(SHARED_TEXTS);
    for (const r of resources) texts.offer(r.spec);
  };
  readAhead?.whenOpen(offerTexts);
  const spaces = [...new Set([space, ...resources.map((r) => r.space), ...config.manage.flatMap((m) => m.spaces ?? [])])];
  // A space a Space manifest declares need not exist yet: the plan creates it first and reads
  // what is in it as empty. Every other space must exist (and the embedded emulator makes those).
  const declared = declaredSpaces(resources, adapterFor);
  const required = spaces.filter((s) => !declared.has(s));
  let target: Target;
  try {
    target = readAhead ? await readAhead.target(required) : await openTarget(opts, config, io, required);
    if (!readAhead) offerTexts(target);
  } catch (err) {
    progress.done();
    if (err instanceof SpaceNotFoundError) placeMissingSpace(err, resources, space);
    throw err;
  }
  try {
    const absent = new Set(await missingSpaces(target.client, spaces.filter((s) => declared.has(s))));
    // No lease can be taken in a space that does not exist; its Space is created under the home space's.
    const aheadStands = guard ? await guard.take(target, spaces.filter((s) => !absent.has(s))) : true;
    const plan = await computePlan({
      resources,
      manage: config.manage,
      adapterFor: progress.adapterFor,
      ctx: target.ctx,
      select: selectionOf(opts.select),
      ignoreRules: config.ignore,
      rotateSecrets: opts.rotateSecrets,
      spaces: [space],
      kinds: knownKinds(),
      readAhead: aheadStands ? readAhead?.live() : undefined,
      readAheadKinds: readAhead?.kinds(),
      listed: (kinds) => readAhead?.remember(kinds),
      missingReferences: config.references?.missing,
      absentSpaces: [...absent],
      allowSpaceDeletes: opts.allowSpaceDelete,
    });
    progress.done();
    const changedWhileWaiting = aheadStands ? [] : revertsSince(plan, await readAhead?.live(), target.ctx.run);
    return { plan, target, config, resources, changedWhileWaiting, finishPlan: loaded.finishPlan };
  } catch (err) {
    progress.done();
    await target.close();
    throw err;
  }
}
