import type { AdapterContext, KindAdapter, LiveObject } from '../kinds/types.js';
import type { Resource } from '../manifest/types.js';

/**
 * Objects that belong to no space (an adapter's `spaceless`, e.g. agnostic exception lists): the
 * one place that knows how the engine treats them. They are read once per run, planned once in
 * the run's home space (its first space, where the default space's manifests go), and a
 * reference from any space finds them there.
 */

type AdapterFor = (kind: string) => KindAdapter | undefined;

const idOf = (kind: string, space: string, name: string) => `${kind}/${space}/${name}`;

/** Manifests of spaceless objects moved to the home space, so that one object is one change. */
export function rehome(resources: Resource[], adapterFor: AdapterFor, home: string): Resource[] {
  return resources.map((r) => (r.space !== home && adapterFor(r.kind)?.spaceless?.declared(r.spec) ? { ...r, space: home } : r));
}

/** Whether a change or live object is of a spaceless object (as its manifest or its listing says). */
export function isSpaceless(subject: { kind: string; live?: LiveObject; resource?: Resource }, adapterFor: AdapterFor): boolean {
  if (subject.resource) return !!adapterFor(subject.kind)?.spaceless?.declared(subject.resource.spec);
  return !!subject.live?.spaceless;
}

/**
 * What a reference from `space` names: the object of that space, else a spaceless object of the
 * same kind and name in the home space.
 */
export function referenceTarget<T>(index: Map<string, T>, kind: string, space: string, name: string, home: string | undefined, spaceless: (t: T) => boolean): T | undefined {
  const own = index.get(idOf(kind, space, name));
  if (own !== undefined || home === undefined || home === space) return own;
  const shared = index.get(idOf(kind, home, name));
  return shared !== undefined && spaceless(shared) ? shared : undefined;
}

/** Reads each spaceless kind among `kinds` once, through the home space, marking what it returns. */
export async function listSpaceless(kinds: Iterable<string>, adapterFor: AdapterFor, home: string, read: (adapter: KindAdapter) => Promise<LiveObject[]>): Promise<Map<string, LiveObject[]>> {
  const out = new Map<string, LiveObject[]>();
  for (const kind of new Set(kinds)) {
    const adapter = adapterFor(kind);
    if (!adapter?.spaceless) continue;
    const objects = await read(adapter);
    out.set(kind, objects.map((o) => ({ ...o, space: home, spaceless: true })));
  }
  return out;
}

/** The objects of the change's kind where its object lives: the space's own, or those of no space (for read-backs). */
export function listWhere(ctx: AdapterContext, adapter: KindAdapter, change: { space: string; resource?: Resource; live?: LiveObject }): Promise<LiveObject[]> {
  const shared = change.resource ? adapter.spaceless?.declared(change.resource.spec) : change.live?.spaceless;
  return shared && adapter.spaceless ? adapter.spaceless.list(ctx, change.space) : adapter.list(ctx, change.space);
}
