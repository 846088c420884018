import type { KindAdapter, LiveObject, Reference } from '../kinds/types.js';
import type { RunScope } from '../kinds/run-scope.js';
import { displayField } from '../manifest/schema.js';
import { describeObject, referenceKinds, type MissingReferencePolicy, type Resource, type SourcePos } from '../manifest/types.js';
import { pairKey, type LiveState } from './live.js';
import { isOwned, type ManageScope } from './ownership.js';
import { placedLater, type PlanError, type PlannedChange } from './changes.js';
import { referenceTarget } from './spaceless.js';

const idOf = (kind: string, space: string, name: string) => `${kind}/${space}/${name}`;

/**
 * The references a live object holds, read through its adapter's manifest form (the same reading
 * export does). An object the adapter cannot turn into a manifest names nothing we can see.
 */
export function liveReferences(live: LiveObject, adapter: KindAdapter, run: RunScope): Reference[] {
  try {
    return adapter.references(adapter.toSpec(live, run).spec);
  } catch {
    return [];
  }
}

/**
 * The (kind, space) pairs still to read before a delete can be checked: every kind that can
 * reference the kind of a planned delete, in that space. Only runs that delete something pay for
 * these reads.
 */
export function referrerPairs(
  live: LiveState,
  declared: Set<string>,
  manage: ManageScope[],
  kinds: readonly string[],
  adapterFor: (kind: string) => KindAdapter | undefined,
): Array<{ kind: string; space: string }> {
  const deleted = new Map<string, { kind: string; space: string }>();
  for (const objects of live.objects.values()) {
    for (const o of objects) if (!declared.has(idOf(o.kind, o.space, o.name)) && isOwned(o, manage)) deleted.set(pairKey(o.kind, o.space), o);
  }
  const read = new Set([...live.objects.keys(), ...live.failures.map((f) => pairKey(f.kind, f.space))]);
  const out = new Map<string, { kind: string; space: string }>();
  for (const { kind: deletedKind, space } of deleted.values()) {
    for (const kind of kinds) {
      const key = pairKey(kind, space);
      if (read.has(key) || out.has(key)) continue;
      if (adapterFor(kind)?.referenceKinds?.includes(deletedKind)) out.set(key, { kind, space });
    }
  }
  return [...out.values()];
}

/**
 * A delete must leave no reference dangling. Every object that remains once `changes` are done
 * is checked: created and updated ones as their manifests say, every other live object (managed
 * or not) as the server holds it. A referrer that is itself deleted, or updated so that it no
 * longer names the object, is fine (graph.ts runs that update before the delete).
 */
export function checkDeletedReferences(
  changes: PlannedChange[],
  live: LiveState,
  resources: Resource[],
  adapterFor: (kind: string) => KindAdapter | undefined,
  errors: PlanError[],
  run: RunScope,
): void {
  const deletes = new Map(changes.filter((c) => c.action === 'delete').map((c) => [c.id, c]));
  if (deletes.size === 0) return;
  const written = new Set<string>();
  const declared = new Map(resources.map((r) => [idOf(r.kind, r.space, r.name), r]));
  const reported = new Set<string>();
  // The place is asked only for a reference found dangling: a manifest's place may cost a parse of its file.
  const check = (referrer: { kind: string; space: string; name: string }, ref: Reference, managed: boolean, place: () => SourcePos | undefined) => {
    const target = referenceKinds(ref)
      .map((kind) => referenceTarget(deletes, kind, referrer.space, ref.name, live.home, (d) => d.action === 'delete' && !!d.live.spaceless))
      .find((t) => t !== undefined);
    const key = `${idOf(referrer.kind, referrer.space, referrer.name)}\u0000${target?.id}`;
    if (!target || reported.has(key)) return;
    reported.add(key);
    const deleted = `${target.kind}/${target.name}`;
    const keep = `keep ${deleted} (restore its manifest, or leave it out of the manage scope)`;
    const message = managed
      ? `its manifest names it at ${displayField(ref.path)}; remove that reference in the same change, or ${keep}`
      : `it names it at ${displayField(ref.path)} and svcform does not manage it; remove that reference on the server first, or ${keep}`;
    errors.push(placedLater({ subject: `${deleted} is used by ${describeObject(referrer)}`, message }, place));
  };

  for (const c of changes) {
    if (c.action !== 'create' && c.action !== 'update') continue;
    written.add(c.id);
    for (const ref of adapterFor(c.kind)?.references(c.resource.spec) ?? []) check(c, ref, true, () => c.resource.posOf(ref.path));
  }
  for (const objects of live.objects.values()) {
    for (const o of objects) {
      const id = idOf(o.kind, o.space, o.name);
      if (deletes.has(id) || written.has(id)) continue;
      const adapter = adapterFor(o.kind);
      if (!adapter) continue;
      const manifest = declared.get(id);
      for (const ref of liveReferences(o, adapter, run)) {
        // Point at the manifest's own mention when there is one.
        const mention = manifest && adapter.references(manifest.spec).find((r) => r.kind === ref.kind && r.name === ref.name);
        check(o, mention ?? ref, !!manifest, () => (mention ? manifest.posOf(mention.path) : manifest?.source));
      }
    }
  }
}

/**
 * What the plan says of a reference to an object that neither the manifests nor the server hold,
 * by what the real server does with the write (Reference.whenMissing): one it refuses is an
 * error; one it accepts is a warning, or an error when svcform.yaml says `references: {missing: error}`.
 */
export function missingReference(ref: Reference, policy: MissingReferencePolicy): { severity: 'error' | 'warning'; message: string } {
  const named = `${displayField(ref.path)} names ${ref.kind} ${JSON.stringify(ref.name)}, which neither the manifests nor the server hold`;
  if (ref.whenMissing === 'refused') return { severity: 'error', message: `${named}; the server refuses the write: declare it, create it on the server first, or remove the reference` };
  if (policy === 'error') return { severity: 'error', message: `${named} (svcform.yaml references.missing: error)` };
  const effect = ref.missingEffect ? `, but ${ref.missingEffect}` : '';
  return { severity: 'warning', message: `${named}; the server accepts this${effect}` };
}
