import { coverageDiff, isEnabled, relatedIntegrations, versionInRange, type CoverageDiff } from '../kinds/rule/coverage.js';
import type { AdapterContext, KindAdapter, LiveObject } from '../kinds/types.js';
import { describeObject, type Resource } from '../manifest/types.js';
import { placedLater, type PlannedChange, type PlanWarning } from './changes.js';
import { emptyLive, fetchLive, mergeLive, pairKey, type LiveState } from './live.js';

/**
 * What a plan does to the deployment's detection coverage: the ATT&CK tactics and techniques its
 * changes add or remove (enabled rules before the plan against after it), and the enabled rules no
 * installed, collecting integration feeds. Computed from the plan's own live state and changes.
 */

const RULE = 'Rule';
const PACKAGE = 'IntegrationPackage';
const POLICY = 'PackagePolicy';

/**
 * Before: every live rule the plan read (managed or not, in every space it read rules in). After:
 * the same with the plan's changes made. Coverage counts the deployment as a whole, whatever space
 * a rule runs in.
 */
export function planCoverage(changes: PlannedChange[], live: LiveState): CoverageDiff {
  const before = new Map<string, Record<string, any>>();
  for (const [key, objects] of live.objects) {
    if (!key.startsWith(RULE + '\u0000')) continue;
    for (const o of objects) before.set(`${o.space}/${o.name}`, o.body);
  }
  const after = new Map(before);
  for (const c of changes) {
    if (c.kind !== RULE) continue;
    if (c.action === 'delete') after.delete(`${c.space}/${c.name}`);
    else if (c.action === 'create' || c.action === 'update') after.set(`${c.space}/${c.name}`, c.resource.spec);
  }
  return coverageDiff(before.values(), after.values());
}

/** Whether a package is there after the plan, and whether some package policy collects with it. */
export interface FleetPicture {
  /** Package name -> the version installed (undefined where not known). */
  installed: Map<string, string | undefined>;
  collected: Set<string>;
}

/** Whether a manifest is an enabled rule that names integrations: only then does a plan ask Fleet what it collects. */
export function namesIntegrations(r: Resource): boolean {
  return r.kind === RULE && r.spec.enabled === true && Array.isArray(r.spec.related_integrations) && r.spec.related_integrations.length > 0;
}

/** The Fleet kinds fleetPicture needs that the plan's `pairs` do not read in the home space (install state is deployment-wide). */
export function fleetKindsUnread(pairs: Array<{ kind: string; space: string }>, home: string): string[] {
  return [PACKAGE, POLICY].filter((kind) => !pairs.some((p) => p.kind === kind && p.space === home));
}

/**
 * Starts reading `kinds` (fleetKindsUnread) in the home space: what fleetPicture needs besides the
 * plan's live state. A kind the run read ahead (`ahead`, while the manifests loaded) is taken from
 * that reading, its failure included (a target that refused it once is not asked again); the
 * others are read at once. Never fails: a target that will not show Fleet (no privilege, no Fleet)
 * leaves the kind's failure in the answer.
 */
export function readFleetAhead(
  ctx: AdapterContext,
  kinds: string[],
  adapterFor: (kind: string) => KindAdapter | undefined,
  home: string,
  ahead?: { kinds: ReadonlySet<string>; state: Promise<LiveState | undefined> },
): Promise<LiveState | undefined> {
  const read = (of: string[]) => (of.length ? fetchLive(ctx, of.map((kind) => ({ kind, space: home })), adapterFor, () => false, undefined, undefined, home) : undefined);
  const fromAhead = async (of: string[]): Promise<LiveState | undefined> => {
    const state = await ahead!.state;
    const taken = emptyLive(home);
    const missed: string[] = [];
    for (const kind of of) {
      const objects = state?.objects.get(pairKey(kind, home));
      const failures = state?.failures.filter((f) => f.kind === kind) ?? [];
      if (objects) taken.objects.set(pairKey(kind, home), objects);
      else if (failures.length) taken.failures.push(...failures);
      else missed.push(kind);
    }
    const more = await read(missed);
    return more ? mergeLive(taken, more) : taken;
  };
  const aheadKinds = kinds.filter((kind) => ahead?.kinds.has(kind));
  const atOnce = kinds.filter((kind) => !ahead?.kinds.has(kind));
  return Promise.all([aheadKinds.length ? fromAhead(aheadKinds) : undefined, read(atOnce)])
    .then(([a, b]) => (a && b ? mergeLive(a, b) : (a ?? b)))
    .catch(() => undefined);
}

/**
 * The Fleet side after the plan: packages installed (live, or declared) and packages some package
 * policy uses, less what the plan deletes. What the plan's live state does not hold comes from
 * `readAhead` (readFleetAhead); a kind that could not be read there leaves the check out (undefined):
 * it must never fail a plan.
 */
export function fleetPicture(
  live: LiveState,
  resources: Resource[],
  changes: PlannedChange[],
  readAhead: LiveState | undefined,
): FleetPicture | undefined {
  const objectsOf = (kind: string): LiveObject[] | undefined => {
    const held = [...live.objects].filter(([key]) => key.startsWith(kind + '\u0000')).flatMap(([, objects]) => objects);
    if (live.objects.has(pairKey(kind, live.home ?? 'default'))) return held;
    const read = readAhead?.objects.get(pairKey(kind, readAhead.home ?? 'default'));
    if (!read || readAhead!.failures.some((f) => f.kind === kind)) return undefined;
    return [...held, ...read];
  };
  const [packages, policies] = [objectsOf(PACKAGE), objectsOf(POLICY)];
  if (!packages || !policies) return undefined;
  const deleted = new Set(changes.filter((c) => c.action === 'delete').map((c) => `${c.kind}/${c.name}`));
  const installed = new Map<string, string | undefined>();
  const collected = new Set<string>();
  for (const o of packages) if (!deleted.has(`${PACKAGE}/${o.name}`)) installed.set(o.name, o.body.installationInfo?.version ?? o.body.version);
  for (const o of policies) if (!deleted.has(`${POLICY}/${o.name}`) && typeof o.body.package?.name === 'string') collected.add(o.body.package.name);
  for (const r of resources) {
    if (r.kind === PACKAGE) installed.set(r.name, typeof r.spec.version === 'string' ? r.spec.version : undefined);
    if (r.kind === POLICY && typeof r.spec.package?.name === 'string') {
      // The server installs the package a new policy names (wire-facts §16 #9).
      if (!installed.has(r.spec.package.name)) installed.set(r.spec.package.name, r.spec.package.version);
      collected.add(r.spec.package.name);
    }
  }
  return { installed, collected };
}

/**
 * One warning per declared enabled rule that names related integrations none of which is both
 * installed and in a package policy, kept to what the change is about so it stays actionable:
 * - only where the deployment has Fleet data (a package installed or declared): a deployment that
 *   feeds its indices some other way (Logstash, Beats, another cluster) would otherwise get a
 *   warning for every rule, which nobody can act on;
 * - only for rules the plan creates or updates (enabling one is an update), and rules whose
 *   package or package policy the plan deletes: a rule left as it was, in a deployment left as it
 *   was, is not news in every plan (with the 2,068 real rules all enabled, against a deployment
 *   with one package, every plan would repeat 2,004 warnings).
 * The text and Markdown plans group warnings of one message, so many rules of one missing package
 * read as one line.
 */
export function integrationWarnings(resources: Resource[], fleet: FleetPicture | undefined, changes: PlannedChange[]): PlanWarning[] {
  if (!fleet || fleet.installed.size === 0) return [];
  const changed = new Set(changes.filter((c) => c.kind === RULE && (c.action === 'create' || c.action === 'update')).map((c) => c.id));
  const lost = new Set<string>();
  for (const c of changes) {
    if (c.action !== 'delete') continue;
    if (c.kind === PACKAGE) lost.add(c.name);
    if (c.kind === POLICY && typeof c.live.body.package?.name === 'string') lost.add(c.live.body.package.name);
  }
  const warnings: PlanWarning[] = [];
  for (const r of resources) {
    if (r.kind !== RULE || !isEnabled(r.spec)) continue;
    const related = relatedIntegrations(r.spec);
    const packages = [...new Set(related.map((i) => i.package))];
    const serves = (i: { package: string; version?: string }) => fleet.installed.has(i.package) && fleet.collected.has(i.package) && versionInRange(fleet.installed.get(i.package), i.version);
    if (related.length === 0 || related.some(serves)) continue;
    if (!changed.has(`${RULE}/${r.space}/${r.name}`) && !packages.some((p) => lost.has(p))) continue;
    const names = packages.join(', ');
    const installedOnly = packages.filter((p) => fleet.installed.has(p));
    const collectedOnly = installedOnly.filter((p) => fleet.collected.has(p));
    const message = collectedOnly.length
      ? `enabled, but its related integrations ask for other versions (${[...new Set(related.filter((i) => collectedOnly.includes(i.package)).map((i) => `${i.package} ${i.version}`))].join(', ')}) than the installed ${collectedOnly.map((p) => `${p} ${fleet.installed.get(p)}`).join(', ')}: it may not fire; install a version in range`
      : installedOnly.length
        ? `enabled, but no package policy collects with its related integration${packages.length === 1 ? '' : 's'} (${names}): it cannot fire; add a PackagePolicy of ${installedOnly.join(' or ')} to an agent policy`
        : `enabled, but none of its related integrations (${names}) is installed: it cannot fire; declare an IntegrationPackage (and a PackagePolicy) of ${packages.join(' or ')}`;
    warnings.push(placedLater({ subject: describeObject(r), message }, () => r.posOf(['spec', 'related_integrations'])));
  }
  return warnings;
}
