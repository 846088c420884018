import { compareText } from '../common/compare-text.js';
import type { KindAdapter } from '../kinds/types.js';
import type { PlanError, PlannedChange } from './changes.js';
import { liveReferences } from './references.js';
import { referenceKinds } from '../manifest/types.js';
import { isSpaceless, referenceTarget } from './spaceless.js';
import type { RunScope } from '../kinds/run-scope.js';

/**
 * Orders a plan: creates and updates in dependency order (a connector before the rules that use
 * it), then deletes in reverse dependency order (the rules before the connector). A delete also
 * waits for the updates of objects that name it today, since those may drop the reference (and
 * `--select` of the delete brings them along). Whether a reference would be left dangling is
 * checked once the plan is selected (references.ts).
 */
export function linkDependencies(changes: PlannedChange[], adapterFor: (kind: string) => KindAdapter | undefined, run: RunScope, home?: string): void {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const target = (kind: string, space: string, name: string) => referenceTarget(byId, kind, space, name, home, (t) => isSpaceless(t, adapterFor));
  for (const c of changes) {
    if (c.action !== 'create' && c.action !== 'update') continue;
    const adapter = adapterFor(c.kind);
    if (!adapter) continue;
    for (const ref of adapter.references(c.resource.spec)) {
      for (const kind of referenceKinds(ref)) {
        const dep = target(kind, c.space, ref.name);
        if (dep && dep.action !== 'delete' && dep.id !== c.id && !c.dependsOn.includes(dep.id)) c.dependsOn.push(dep.id);
      }
    }
  }
  // Deletes: whoever references a deleted object today (and is deleted or updated) goes first,
  // so the deleted object waits for it. Reading an object's references means turning the live
  // object into its manifest form, which a plan of 2,068 updates and no delete paid 80 ms for.
  if (!changes.some((c) => c.action === 'delete')) return;
  for (const c of changes) {
    if (c.action !== 'delete' && c.action !== 'update') continue;
    const adapter = adapterFor(c.kind);
    if (!adapter) continue;
    for (const ref of liveReferences(c.live, adapter, run)) {
      for (const kind of referenceKinds(ref)) {
        const dep = target(kind, c.space, ref.name);
        if (dep?.action === 'delete' && !dep.dependsOn.includes(c.id)) dep.dependsOn.push(c.id);
      }
    }
  }
}

/** Wave numbers from the dependency edges: forward changes first, then deletes. */
export function orderChanges(changes: PlannedChange[], errors: PlanError[]): PlannedChange[] {
  const forward = changes.filter((c) => c.action !== 'delete');
  const backward = changes.filter((c) => c.action === 'delete');
  const first = assignWaves(forward, 0, errors);
  const lastForward = first.reduce((m, c) => Math.max(m, c.wave), -1);
  const second = assignWaves(backward, lastForward + 1, errors);
  // Deletes also wait for every create and update (a rule update may drop its use of a connector being deleted).
  return [...first, ...second].sort((a, b) => a.wave - b.wave || compareText(a.kind, b.kind) || compareText(a.space, b.space) || compareText(a.name, b.name));
}

function assignWaves(changes: PlannedChange[], base: number, errors: PlanError[]): PlannedChange[] {
  const ids = new Set(changes.map((c) => c.id));
  const indegree = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const c of changes) {
    const deps = c.dependsOn.filter((d) => ids.has(d));
    indegree.set(c.id, deps.length);
    for (const d of deps) dependents.set(d, [...(dependents.get(d) ?? []), c.id]);
  }
  const byId = new Map(changes.map((c) => [c.id, c]));
  let frontier = changes.filter((c) => indegree.get(c.id) === 0);
  const ordered: PlannedChange[] = [];
  let wave = base;
  while (frontier.length) {
    const next: PlannedChange[] = [];
    for (const c of frontier) {
      c.wave = wave;
      ordered.push(c);
      for (const d of dependents.get(c.id) ?? []) {
        const left = indegree.get(d)! - 1;
        indegree.set(d, left);
        if (left === 0) next.push(byId.get(d)!);
      }
    }
    frontier = next;
    wave += 1;
  }
  if (ordered.length < changes.length) {
    const stuck = changes.filter((c) => !ordered.includes(c));
    errors.push({ subject: 'dependency cycle', message: `these changes depend on each other in a cycle: ${stuck.map((c) => `${c.kind}/${c.name}`).join(' -> ')}` });
  }
  return ordered;
}
