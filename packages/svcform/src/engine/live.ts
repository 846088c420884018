import type { AdapterContext, KindAdapter, LiveObject } from '../kinds/types.js';
import { contextFor, withAnswerCheck } from './context.js';
import { listSpaceless } from './spaceless.js';
import type { SpaceContents } from './space-objects.js';

export interface LiveState {
  /** Objects per `kind\0space`. */
  objects: Map<string, LiveObject[]>;
  /** Per `kind\0space` of kinds with a prerequisite: whether it is in place. */
  prerequisites: Map<string, boolean>;
  /**
   * Per `kind\0space` of kinds with `offers`: what the target offers there (connector types), read
   * with the listing where manifests of the kind are; absent when the target could not be asked.
   */
  offers?: Map<string, unknown>;
  /** Pairs that could not be read, with the error. */
  failures: Array<{ kind: string; space: string; error: Error }>;
  /** The run's home space, where objects of no space are placed (spaceless.ts). */
  home?: string;
  /** What is in each space the plan deletes (space-objects.ts), read from every kind. */
  spaceContents?: Map<string, SpaceContents>;
}

export const pairKey = (kind: string, space: string) => `${kind}\u0000${space}`;

/** Live state that holds nothing yet, for the run's home space. */
export const emptyLive = (home: string): LiveState => ({ objects: new Map(), prerequisites: new Map(), offers: new Map(), failures: [], home });

/**
 * Reads every (kind, space) pair at once; the client bounds how many requests are in flight. Each
 * adapter lists with its area's list endpoint, so the cost is one request per page, never per object.
 */
export async function fetchLive(
  ctx: AdapterContext,
  pairs: Array<{ kind: string; space: string }>,
  adapterFor: (kind: string) => KindAdapter | undefined,
  needPrerequisite: (kind: string, space: string) => boolean,
  /** What was read already (plan reads while manifests load): pairs read without failure are taken from it. */
  ahead?: LiveState,
  /** About how many objects of a pair the manifests declare (see ListOptions). */
  expected?: (kind: string, space: string) => number | undefined,
  /** The run's home space, where objects of no space are placed (spaceless.ts). */
  home = 'default',
): Promise<LiveState> {
  const unique = new Map(pairs.map((p) => [pairKey(p.kind, p.space), p]));
  const state = emptyLive(home);
  // What was read ahead for the same home space, without a failure of the kind, holds objects of no space already placed there.
  const aheadAt = (key: string, adapter: KindAdapter) =>
    adapter.spaceless && (ahead?.home !== home || ahead.failures.some((f) => f.kind === adapter.kind)) ? undefined : ahead?.objects.get(key);
  const spacelessKinds = [...new Set(pairs.map((p) => p.kind))].filter((kind) => {
    const adapter = adapterFor(kind);
    return adapter?.spaceless && !aheadAt(pairKey(kind, home), adapter);
  });
  // Objects of no space are read once, whatever the number of spaces, and placed in the home space.
  const spaceless = listSpaceless(spacelessKinds, adapterFor, home, (adapter) =>
    withAnswerCheck(contextFor(ctx, adapter), `listing ${adapter.kind} of every space`, (c) => adapter.spaceless!.list(c, home)),
  ).catch((err: Error) => err);
  expectListings(ctx, unique.values(), adapterFor);
  await Promise.all(
    [...unique.entries()].map(async ([key, { kind, space }]) => {
      const adapter = adapterFor(kind);
      if (!adapter) return;
      const read = aheadAt(key, adapter);
      const wantsOffer = !!adapter.offers && needPrerequisite(kind, space);
      if (read && (!adapter.prerequisite || ahead!.prerequisites.has(key)) && (!wantsOffer || ahead!.offers?.has(key))) {
        state.objects.set(key, read);
        if (!adapter.spaceless) ctx.run.recordListing(kind, space, read);
        if (adapter.prerequisite) state.prerequisites.set(key, ahead!.prerequisites.get(key)!);
        if (wantsOffer) state.offers!.set(key, ahead!.offers!.get(key));
        return;
      }
      try {
        const bound = contextFor(ctx, adapter);
        const [objects, prereq, offer] = await Promise.all([
          withAnswerCheck(bound, `listing ${kind} in space ${space}`, (c) => adapter.list(c, space, { expected: expected?.(kind, space) })),
          adapter.prerequisite && needPrerequisite(kind, space) ? withAnswerCheck(bound, `checking ${adapter.prerequisite.description}`, (c) => adapter.prerequisite!.check(c, space)) : Promise.resolve(true),
          wantsOffer ? readOffer(bound, adapter, space) : Promise.resolve(undefined),
        ]);
        state.objects.set(key, objects);
        if (!adapter.spaceless) ctx.run.recordListing(kind, space, objects);
        if (adapter.prerequisite) state.prerequisites.set(key, prereq);
        if (offer !== undefined) state.offers!.set(key, offer);
      } catch (err) {
        state.failures.push({ kind, space, error: err as Error });
        if (!adapter.spaceless) ctx.run.recordListing(kind, space, undefined);
      }
    }),
  );
  const shared = await spaceless;
  if (shared instanceof Error) {
    for (const kind of spacelessKinds) state.failures.push({ kind, space: home, error: shared });
  } else {
    for (const [kind, objects] of shared) state.objects.set(pairKey(kind, home), [...(state.objects.get(pairKey(kind, home)) ?? []), ...objects]);
  }
  // What writes look up later in the run (a rule action's connector type) starts from these.
  for (const { kind, space } of unique.values()) {
    const objects = state.objects.get(pairKey(kind, space));
    if (objects) ctx.run.recordListing(kind, space, objects);
  }
  return state;
}

/**
 * Announces the listings of `pairs` to the run: an adapter whose listing builds on another kind's
 * (a note per package policy) waits for that read instead of making it again. Spaceless kinds are
 * recorded once placed, at the end of fetchLive.
 */
export function expectListings(ctx: AdapterContext, pairs: Iterable<{ kind: string; space: string }>, adapterFor: (kind: string) => KindAdapter | undefined): void {
  for (const { kind, space } of pairs) {
    const adapter = adapterFor(kind);
    if (adapter && !adapter.spaceless) ctx.run.expectListing(kind, space);
  }
}

/** Two readings of disjoint pairs (the same run, the same home space) as one. */
export function mergeLive(a: LiveState, b: LiveState): LiveState {
  for (const [key, objects] of b.objects) a.objects.set(key, objects);
  for (const [key, inPlace] of b.prerequisites) a.prerequisites.set(key, inPlace);
  if (b.offers) for (const [key, offer] of b.offers) a.offers!.set(key, offer);
  a.failures.push(...b.failures);
  return a;
}

/**
 * What the target offers for a kind in a space, or undefined when it cannot say (an older or
 * restricted target): the check is then left to the server's answer at apply, not a plan failure.
 */
async function readOffer(ctx: AdapterContext, adapter: KindAdapter, space: string): Promise<unknown> {
  try {
    return await adapter.offers!.read(ctx, space);
  } catch (err) {
    ctx.log(`could not read the ${adapter.offers!.description} of space ${space} (${(err as Error).message}); the server checks them at apply`);
    return undefined;
  }
}

/**
 * For export: each listed object completed by its adapter where the listing leaves fields out (a
 * pack's shards). Failures are reported per pair like listing failures.
 */
export async function completeLive(ctx: AdapterContext, live: LiveState, adapterFor: (kind: string) => KindAdapter | undefined): Promise<void> {
  await Promise.all(
    [...live.objects.entries()].map(async ([key, objects]) => {
      const adapter = adapterFor(objects[0]?.kind ?? '');
      if (!adapter?.complete) return;
      try {
        live.objects.set(key, await Promise.all(objects.map((o) => adapter.complete!(contextFor(ctx, adapter), o))));
      } catch (err) {
        const [kind, space] = key.split('\u0000');
        live.failures.push({ kind, space, error: err as Error });
      }
    }),
  );
}
