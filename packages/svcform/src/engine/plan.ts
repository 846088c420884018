import { createHash } from 'node:crypto';
import { asSet, canonicalJson, clone } from '../kinds/normalize.js';
import { getAt, hasAt, setAt } from '../common/pointer.js';
import { hashSortedRows } from '../common/sorted-rows.js';
import type { AdapterContext, KindAdapter, LiveObject } from '../kinds/types.js';
import { SENSITIVE } from '../manifest/redact.js';
import { describeObject, referenceKinds, type MissingReferencePolicy, type Resource } from '../manifest/types.js';
import { alignKeyed } from './diff.js';
import { expectListings, fetchLive, mergeLive, pairKey, type LiveState } from './live.js';
import { checkDeletedReferences, missingReference, referrerPairs } from './references.js';
import { isOwned, scopePairs, type ManageScope } from './ownership.js';
import { linkDependencies, orderChanges } from './graph.js';
import { carryIgnored, ignoredPointers, type IgnoreRule } from './ignore.js';
import { compareWithLive } from './compare.js';
import type { Selection } from './selection.js';
import { referenceTarget, rehome } from './spaceless.js';
import { fleetKindsUnread, fleetPicture, integrationWarnings, namesIntegrations, planCoverage, readFleetAhead } from './coverage.js';
import type { CoverageDiff } from '../kinds/rule/coverage.js';
import { checkSpaceDeletes, linkSpaceDependencies, spacesToDelete, type SpaceContents } from './space-objects.js';
import { contextFor } from './context.js';

export type { Action, CreateChange, DeleteChange, PlanError, PlanNotice, PlannedChange, PlanWarning, PrerequisiteChange, UnmanagedObject, UpdateChange } from './changes.js';
import { placedLater, type ChangeBase, type CreateChange, type PlanError, type PlanNotice, type PlannedChange, type PlanWarning, type UnmanagedObject, type UpdateChange } from './changes.js';

export interface Plan {
  changes: PlannedChange[];
  /** Sorted by kind, space and name. Absent in plans saved before the list existed. */
  unmanaged?: UnmanagedObject[];
  errors: PlanError[];
  /** Absent in plans saved before warnings existed. */
  warnings?: PlanWarning[];
  /** Absent in plans saved before notices existed. */
  notices?: PlanNotice[];
  summary: { create: number; update: number; delete: number; unchanged: number; unmanaged: number };
  /**
   * ATT&CK tactics and techniques the plan's rule changes add to or remove from what the enabled
   * live rules cover (engine/coverage.ts). Absent in plans saved before it existed.
   */
  coverage?: CoverageDiff;
  /** Hash of the live state the plan was computed from; a saved plan is refused when it changes. */
  liveFingerprint: string;
  /** Hash of the desired state, secrets left out. */
  desiredFingerprint: string;
}

export interface PlanOptions {
  resources: Resource[];
  manage: ManageScope[];
  adapterFor: (kind: string) => KindAdapter | undefined;
  ctx: AdapterContext;
  /** `--select kind/name`: the selected changes and what they depend on; absent means everything. */
  select?: Selection;
  /** Ignore rules of svcform.yaml, added to each manifest's own metadata.ignore. */
  ignoreRules?: IgnoreRule[];
  rotateSecrets?: boolean;
  /** Spaces the run touches besides the manifests' (the default space). */
  spaces?: string[];
  /** Every kind there is: a planned delete reads the kinds that can reference it (references.ts). */
  kinds?: readonly string[];
  /** Live state read ahead (while the manifests loaded), used where it covers a (kind, space). */
  readAhead?: Promise<LiveState | undefined>;
  /**
   * The kinds the read-ahead lists. Pairs of other kinds are listed at once instead of after it;
   * without this set, every pair waits for the read-ahead.
   */
  readAheadKinds?: ReadonlySet<string>;
  /**
   * Told the kinds the plan lists in the home space before it compares (declared, referenced, and
   * Fleet's for the integration check): a later run may read them ahead (cli/read-ahead-memory.ts).
   */
  listed?: (kinds: ReadonlySet<string>) => void;
  /** svcform.yaml `references.missing`: whether a reference the server accepts to an object nobody holds is a warning (default) or an error. */
  missingReferences?: MissingReferencePolicy;
  /** Spaces the manifests declare (Space) that the server does not hold yet: read as empty. */
  absentSpaces?: readonly string[];
  /** `--allow-space-delete`: the spaces the plan may delete, with everything in them (space-objects.ts). */
  allowSpaceDeletes?: readonly string[];
}

export const changeId = (kind: string, space: string, name: string) => `${kind}/${space}/${name}`;

/** The adapters of the kinds the run declares manifests of, once each. */
function declaredKinds(resources: readonly Resource[], adapterFor: (kind: string) => KindAdapter | undefined): KindAdapter[] {
  return [...new Set(resources.map((r) => r.kind))].flatMap((kind) => adapterFor(kind) ?? []);
}

export async function computePlan(options: PlanOptions): Promise<Plan> {
  const { adapterFor, ctx } = options;
  const home = options.spaces?.[0] ?? 'default';
  const resources = rehome(options.resources, adapterFor, home);
  const runSpaces = [...new Set([...(options.spaces ?? []), ...resources.map((r) => r.space)])];
  const creating = new Set(resources.map((r) => pairKey(r.kind, r.space)));
  // Referenced kinds are read too, so a reference to an object that exists nowhere is caught while
  // planning even when no manifest of that kind is in the run.
  const referenced = resources.flatMap((r) => (adapterFor(r.kind)?.references(r.spec) ?? []).filter((ref) => ref.whenMissing !== 'installed').map((ref) => ({ kind: ref.kind, space: r.space })));
  const pairs = [...resources.map((r) => ({ kind: r.kind, space: r.space })), ...referenced, ...scopePairs(options.manage, runSpaces)];
  // How many manifests each (kind, space) has: a listing sized to it starts with pages that fit.
  const declaredPerPair = new Map<string, number>();
  for (const r of resources) declaredPerPair.set(pairKey(r.kind, r.space), (declaredPerPair.get(pairKey(r.kind, r.space)) ?? 0) + 1);
  const expected = (kind: string, space: string) => declaredPerPair.get(pairKey(kind, space));
  // A declared space the server does not hold yet has nothing in it: its pairs are not read
  // (the server would answer 404), and its prerequisites are not in place.
  const absent = new Set(options.absentSpaces ?? []);
  const inAbsent = (p: { kind: string; space: string }) => absent.has(p.space) && !adapterFor(p.kind)?.spaceless;
  const needed = (kind: string, space: string) => creating.has(pairKey(kind, space));
  const wanted = pairs.filter((p) => !inAbsent(p));
  const aheadKinds = options.readAhead ? options.readAheadKinds : undefined;
  // Only a plan with an enabled rule that names integrations asks Fleet what it collects; it asks
  // now, beside the listings, rather than after the plan is made.
  const fleetKinds = resources.some(namesIntegrations) ? fleetKindsUnread(pairs, home) : [];
  const fleetAhead = fleetKinds.length ? readFleetAhead(ctx, fleetKinds, adapterFor, home, aheadKinds && { kinds: aheadKinds, state: options.readAhead! }) : undefined;
  options.listed?.(new Set([...wanted.filter((p) => p.space === home).map((p) => p.kind), ...fleetKinds]));
  // Kinds the read-ahead does not list (the timeline templates and exception lists that rules
  // name, when no manifest declares one) are listed at once, not after its pages (issue 29). The
  // listings it makes are announced first, so that a listing built on one of them waits for it.
  const waits = (p: { kind: string }) => !aheadKinds || aheadKinds.has(p.kind);
  if (aheadKinds) expectListings(ctx, wanted.filter(waits), adapterFor);
  const [afterAhead, atOnce] = await Promise.all([
    (async () => fetchLive(ctx, wanted.filter(waits), adapterFor, needed, await options.readAhead, expected, home))(),
    fetchLive(ctx, wanted.filter((p) => !waits(p)), adapterFor, needed, undefined, expected, home),
  ]);
  const live = mergeLive(afterAhead, atOnce);
  for (const p of pairs.filter(inAbsent)) {
    live.objects.set(pairKey(p.kind, p.space), []);
    if (adapterFor(p.kind)?.prerequisite) live.prerequisites.set(pairKey(p.kind, p.space), false);
  }
  // What kinds read beyond their own listings for their comparison (an agent policy's Elastic Defend).
  const objectsOf = (kind: string, space: string) => live.objects.get(pairKey(kind, space));
  await Promise.all(declaredKinds(resources, adapterFor).filter((a) => a.readForPlan).map((a) => a.readForPlan!(contextFor(ctx, a), resources, objectsOf)));
  const declared = new Set(resources.map((r) => changeId(r.kind, r.space, r.name)));
  const referrers = referrerPairs(live, declared, options.manage, options.kinds ?? [], adapterFor);
  if (referrers.length) {
    const more = await fetchLive(ctx, referrers, adapterFor, () => false, undefined, undefined, home);
    for (const [key, objects] of more.objects) if (!live.objects.has(key)) live.objects.set(key, objects);
    live.failures.push(...more.failures);
  }
  // A space the plan deletes takes everything in it along: every kind is read there, so the plan
  // can say what (a kind that cannot be read there is named, not a plan error).
  const doomed = spacesToDelete(live.objects.values(), declared, options.manage, adapterFor);
  if (doomed.length > 0) {
    const inside = (options.kinds ?? []).filter((kind) => !adapterFor(kind)?.containsSpaces && !adapterFor(kind)?.spaceless);
    const read = await fetchLive(ctx, doomed.flatMap((space) => inside.map((kind) => ({ kind, space }))), adapterFor, () => false, undefined, undefined, home);
    live.spaceContents = new Map(doomed.map((space) => [space, {
      objects: inside.flatMap((kind) => read.objects.get(pairKey(kind, space)) ?? []),
      unread: read.failures.filter((f) => f.space === space).map((f) => ({ kind: f.kind, error: f.error })),
    }]));
  }
  const plan = planFromLive({ ...options, resources }, live);
  if (fleetAhead) {
    const fleet = fleetPicture(live, resources, plan.changes, await fleetAhead);
    plan.warnings = [...(plan.warnings ?? []), ...integrationWarnings(resources, fleet, plan.changes)];
  }
  return plan;
}

export function planFromLive(options: PlanOptions, live: LiveState): Plan {
  const { resources, adapterFor } = options;
  const run = options.ctx.run;
  const errors: PlanError[] = live.failures.map((f) => ({ subject: `${f.kind} in space ${f.space}`, message: `cannot read live state: ${f.error.message}` }));
  const changes: PlannedChange[] = [];
  const warnings: PlanWarning[] = [];
  const notices: PlanNotice[] = [];
  // Only the last object's normalized copy is kept (the comparison and the update it makes use
  // it twice): a copy of every live object kept to the end of the plan was about 3 KB per rule
  // held at the run's peak (bench:memory).
  let last: { o: LiveObject; n: Record<string, any> } | undefined;
  const normalizeLive = (o: LiveObject): Record<string, any> => {
    if (last?.o !== o) {
      const adapter = adapterFor(o.kind);
      last = { o, n: adapter ? adapter.normalizeLive(o, run) : o.body };
    }
    return last.n;
  };
  let unchanged = 0;
  const unmanaged: UnmanagedObject[] = [];

  const declared = new Set(resources.map((r) => changeId(r.kind, r.space, r.name)));
  // Declared objects, each with whether it is of no space (a reference from another space may name those).
  const declaredSpaceless = new Map(resources.map((r) => [changeId(r.kind, r.space, r.name), !!adapterFor(r.kind)?.spaceless?.declared(r.spec)]));
  const liveIndex = new Map<string, LiveObject[]>();
  for (const objects of live.objects.values()) {
    for (const o of objects) {
      const id = changeId(o.kind, o.space, o.name);
      const list = liveIndex.get(id);
      if (list) list.push(o);
      else liveIndex.set(id, [o]);
    }
  }

  for (const res of resources) {
    const adapter = adapterFor(res.kind)!;
    const id = changeId(res.kind, res.space, res.name);
    const subject = describeObject(res);
    const ignore = ignoredPointers(res, options.ignoreRules ?? []);
    if (live.failures.some((f) => f.kind === res.kind && f.space === res.space)) continue;
    const matches = liveIndex.get(id) ?? [];
    if (matches.length > 1) {
      errors.push({ subject, source: res.source, message: `${matches.length} live objects share this identity; svcform will not guess which one is meant (ids: ${matches.map((m) => m.serverId ?? m.name).join(', ')})` });
      continue;
    }
    const current = matches[0];
    // What the target offers (connector types) is the authority on what it can hold.
    const offered = adapter.offers ? live.offers?.get(pairKey(res.kind, res.space)) : undefined;
    const unoffered = offered === undefined ? undefined : adapter.offers!.check(res, offered);
    if (unoffered) {
      errors.push({ subject, source: res.posOf(unoffered.path), message: unoffered.message });
      continue;
    }
    for (const ref of adapter.references(res.spec)) {
      // Only a kind the plan could read tells whether the object exists.
      if (ref.whenMissing === 'installed' || !live.objects.has(pairKey(ref.kind, res.space))) continue;
      const kinds = referenceKinds(ref);
      const isDeclared = kinds.some((kind) => referenceTarget(declaredSpaceless, kind, res.space, ref.name, live.home, (shared) => shared) !== undefined);
      const isLive = kinds.some((kind) => referenceTarget(liveIndex, kind, res.space, ref.name, live.home, (objects) => objects.every((o) => o.spaceless)) !== undefined);
      if (isDeclared || isLive) continue;
      const finding = missingReference(ref, options.missingReferences ?? 'warn');
      (finding.severity === 'error' ? errors : warnings).push(placedLater({ subject, message: finding.message }, () => res.posOf(ref.path)));
    }
    if (!current) {
      const create: CreateChange = { ...baseChange(res), action: 'create', resource: res, ignore };
      changes.push(Object.defineProperty(create, 'normalized', { value: () => adapter.normalizeDesired(res, run) }));
      continue;
    }
    if (current.readOnly) {
      errors.push({ subject, source: res.source, message: `the live object is ${current.readOnly}; svcform never writes it (remove the manifest)` });
      continue;
    }
    for (const message of adapter.notices?.(res, current) ?? []) notices.push({ subject, message });
    // Fields the listing did not report are left out of the comparison (but not carried from the
    // live side like ignored ones: the update writes the manifest's value).
    let diff;
    let desired: Record<string, any>;
    try {
      desired = adapter.normalizeDesired(res, run);
      diff = compareWithLive(adapter, res, current, ignore, run, normalizeLive(current), desired);
    } catch (err) {
      errors.push({ subject, source: res.source, message: `cannot compare with the live object: ${(err as Error).message}` });
      continue;
    }
    const update = (): UpdateChange => ({
      ...baseChange(res),
      action: 'update',
      // What the update writes: the manifest with ignored fields as the server holds them.
      resource: { ...res, spec: ignore.length === 0 ? res.spec : carryIgnored(res.spec, ignore, alignKeyed(normalizeLive(current), desired, adapter.keyedFields)) },
      live: current,
      ignore,
    });
    if (!diff.equal) {
      const replaced = adapter.replacedOnUpdate?.(res, current);
      const change = { ...update(), fields: diff.fields, ...(replaced ? { reason: `replace: ${replaced}` } : {}) };
      const found = diff;
      changes.push(Object.defineProperty(change, 'patch', { enumerable: true, get: () => found.patch }));
    }
    else if (options.rotateSecrets && adapter.hasWriteOnly?.(res, run)) changes.push({ ...update(), reason: 'rotate secrets' });
    else unchanged += 1;
  }

  for (const objects of live.objects.values()) {
    for (const o of objects) {
      const id = changeId(o.kind, o.space, o.name);
      if (declared.has(id)) continue;
      if (isOwned(o, options.manage)) {
        changes.push({ id, action: 'delete', kind: o.kind, space: o.space, name: o.name, fields: [], patch: [], dependsOn: [], wave: 0, live: o });
      } else {
        unmanaged.push({
          kind: o.kind,
          space: o.space,
          name: o.name,
          ...(o.serverId !== undefined && o.serverId !== o.name ? { id: o.serverId } : {}),
          ...(o.serverOwned ? { kept: o.serverOwned } : {}),
        });
      }
    }
  }

  // A kind's prerequisite (value lists: the space's list data streams) is a step of its own that
  // every create of that kind in the space waits for.
  for (const [key, ready] of live.prerequisites) {
    if (ready) continue;
    const [kind, space] = key.split('\u0000');
    const creates = changes.filter((c) => c.action === 'create' && c.kind === kind && c.space === space);
    if (creates.length === 0) continue;
    const adapter = adapterFor(kind)!;
    const id = `${kind}/${space}/(prerequisite)`;
    changes.push({ id, action: 'prerequisite', kind, space, name: adapter.prerequisite!.description, reason: `ensure ${adapter.prerequisite!.description}`, fields: [], patch: [], dependsOn: [], wave: 0 });
    for (const c of creates) c.dependsOn.push(id);
  }

  linkDependencies(changes, adapterFor, run, live.home);
  linkSpaceDependencies(changes, adapterFor);
  if (options.select?.narrowed) {
    // What the plan could touch: every manifest, and every live object a manage scope owns.
    const candidates = [...resources, ...changes.filter((c) => c.action === 'delete')];
    for (const pattern of options.select.unmatched(candidates)) {
      errors.push({ subject: `--select ${JSON.stringify(pattern)}`, message: "matches no manifest and no managed live object in this run's kinds and spaces" });
    }
  }
  const selected = options.select?.narrowed ? selectChanges(changes, options.select) : changes;
  checkDeletedReferences(selected, live, resources, adapterFor, errors, run);
  checkSpaceDeletes(selected, (space) => contentsOf(live, space), options.allowSpaceDeletes ?? [], adapterFor, errors, notices);
  // Changes of one wave do not depend on each other and may run in parallel; a cycle is an error
  // naming its members, and its changes are left out.
  const ordered = orderChanges(selected, errors);
  // Warnings of kinds that need the whole plan (an agent policy's tamper protection, which other
  // manifests' integrations decide). A manifest whose live object could not be read, or matched
  // two, is not known to be created.
  const liveOf = (r: Resource) => {
    const matches = liveIndex.get(changeId(r.kind, r.space, r.name)) ?? [];
    return live.failures.some((f) => f.kind === r.kind && f.space === r.space) || matches.length > 1 ? 'unknown' : matches[0];
  };
  // A probe with no name and no tags: owned only by a scope that no selector narrows.
  const ownsUnnamed = (kind: string, space: string) => isOwned({ kind, space, name: '', body: {} }, options.manage);
  // A listing that failed is no listing: what is in it is not known.
  const liveIn = (kind: string, space: string) => (live.failures.some((f) => f.kind === kind && f.space === space) ? undefined : live.objects.get(pairKey(kind, space)));
  for (const adapter of declaredKinds(resources, adapterFor)) {
    for (const w of adapter.planWarnings?.(resources, ordered, liveOf, ownsUnnamed, liveIn) ?? []) {
      warnings.push(placedLater({ subject: describeObject(w.resource), message: w.message }, () => w.resource.posOf(w.path)));
    }
  }
  const summary = {
    create: ordered.filter((c) => c.action === 'create').length,
    update: ordered.filter((c) => c.action === 'update').length,
    delete: ordered.filter((c) => c.action === 'delete').length,
    unchanged,
    unmanaged: unmanaged.length,
  };
  const byName = (a: UnmanagedObject, b: UnmanagedObject) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.space < b.space ? -1 : a.space > b.space ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  unmanaged.sort(byName);
  // Set-like arrays count as sets: a listing that answers them in another order changes nothing.
  const comparableLive = (o: LiveObject): Record<string, any> => {
    const n = normalizeLive(o);
    const sets = (adapterFor(o.kind)?.setFields ?? []).filter((p) => Array.isArray(getAt(n, p)));
    if (sets.length === 0) return n;
    const copy = clone(n);
    for (const p of sets) setAt(copy, p, asSet(getAt(copy, p) as unknown[]));
    return copy;
  };
  return withFingerprints({ changes: ordered, unmanaged, errors, warnings, notices, summary, coverage: planCoverage(ordered, live) }, () => fingerprintLive(live, comparableLive), () => fingerprintDesired(resources));
}

/**
 * The plan with its fingerprints computed when first read: only a saved or JSON plan needs them
 * (hashing every normalized object costs as much as the comparison itself).
 */
function withFingerprints(plan: Omit<Plan, 'liveFingerprint' | 'desiredFingerprint'>, live: () => string, desired: () => string): Plan {
  let liveHash: string | undefined;
  let desiredHash: string | undefined;
  return Object.defineProperties(plan, {
    liveFingerprint: { enumerable: true, get: () => (liveHash ??= live()) },
    desiredFingerprint: { enumerable: true, get: () => (desiredHash ??= desired()) },
  }) as Plan;
}

/** What the plan saw in a space: the objects it read there anyway and those read because the space goes. */
function contentsOf(live: LiveState, space: string): SpaceContents {
  const seen = new Map<string, LiveObject>();
  for (const objects of live.objects.values()) for (const o of objects) if (o.space === space && !o.spaceless) seen.set(`${o.kind}/${o.name}`, o);
  const extra = live.spaceContents?.get(space);
  for (const o of extra?.objects ?? []) seen.set(`${o.kind}/${o.name}`, o);
  return { objects: [...seen.values()], unread: extra?.unread ?? [] };
}

function baseChange(res: Resource): ChangeBase {
  return { id: changeId(res.kind, res.space, res.name), kind: res.kind, space: res.space, name: res.name, fields: [], patch: [], dependsOn: [], wave: 0, source: res.source, ...(res.fanOut ? { fanOut: res.fanOut } : {}) };
}

/**
 * `--select Kind/name` keeps the matching changes plus whatever they depend on that is itself
 * changing, so a selected rule still gets the connector it needs.
 */
function selectChanges(changes: PlannedChange[], selection: Selection): PlannedChange[] {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const keep = new Set<string>();
  const visit = (c: PlannedChange) => {
    if (keep.has(c.id)) return;
    keep.add(c.id);
    for (const dep of c.dependsOn) {
      const d = byId.get(dep);
      if (d) visit(d);
    }
  };
  for (const c of changes) if (selection.matches(c.kind, c.name)) visit(c);
  return changes.filter((c) => keep.has(c.id));
}

/** Hashes the normalized live state, so values the server derives at read time (a window's status) do not count. */
function fingerprintLive(live: LiveState, normalizeLive: (o: LiveObject) => Record<string, any>): string {
  const hash = createHash('sha256');
  // Per kind and space: the key, then each object's `name NUL canonical JSON` in order.
  for (const key of [...live.objects.keys()].sort()) {
    const objects = live.objects.get(key)!;
    hash.update(objects.length === 0 ? `${key}\n\n` : `${key}\n`);
    hashSortedRows(hash, objects, (o) => o.name, (o) => canonicalJson(normalizeLive(o)));
  }
  for (const key of [...live.prerequisites.keys()].sort()) hash.update(`${key}=${live.prerequisites.get(key)}\n`);
  return hash.digest('hex');
}

function fingerprintDesired(resources: Resource[]): string {
  const hash = createHash('sha256');
  hashSortedRows(hash, resources, (r) => changeId(r.kind, r.space, r.name), desiredContent);
  return hash.digest('hex');
}

/**
 * One manifest as the desired fingerprint counts it (id, ignore rules, spec with secrets masked):
 * also what `reconcile --policy heal-drift` remembers to tell a manifest edit from drift.
 */
export function desiredRow(r: Resource): string {
  return `${changeId(r.kind, r.space, r.name)}\u0000${desiredContent(r)}`;
}

function desiredContent(r: Resource): string {
  let spec = canonicalJson(r.spec);
  if (r.secretPointers.size > 0) spec = canonicalJson(maskSecrets(r.spec, r.secretPointers));
  return `${canonicalJson(r.ignore)}\u0000${spec}`;
}

function maskSecrets(spec: Record<string, any>, pointers: Set<string>): Record<string, any> {
  const copy = clone(spec);
  for (const p of pointers) if (hasAt(copy, p)) setAt(copy, p, SENSITIVE);
  return copy;
}
