import type { AdapterContext, LiveObject } from './types.js';
import { RunKey } from './run-scope.js';

/**
 * Something a write needs from another kind's objects (a connector's type, an exception list's
 * id), read with one listing per space and per run and shared by every write of that run, instead
 * of one request per object. A miss reads the listing once more (an object created earlier in the
 * same apply is newer than it); concurrent misses share that one re-read, and a key still missing
 * after it is not read for again. When the run listed the kind in the space already (the plan's
 * live state), that listing is the first reading: a plan and apply then list each space once.
 */

/** Where a lookup may start from: the run's listing of a kind, read into the lookup's map. */
export interface ListingSeed<V> {
  kind: string;
  from(objects: readonly LiveObject[]): Map<string, V>;
}

/** One reading of a space, and the keys found missing from it although it was read after they missed. */
interface Listing<V> {
  values: Promise<Map<string, V>>;
  confirmedAbsent: Set<string>;
}

export function runLookup<V>(read: (ctx: AdapterContext, space: string) => Promise<Map<string, V>>, seed?: ListingSeed<V>): (ctx: AdapterContext, space: string, key: string) => Promise<V | undefined> {
  /** One cache per run (the context's run scope, whatever area or tracing wraps it), keyed by space. */
  const listings = new RunKey('run lookup listings', () => new Map<string, Listing<V>>());
  return async (ctx, space, key) => {
    const perSpace = ctx.run.get(listings);
    const fresh = (): Listing<V> => ({ values: read(ctx, space), confirmedAbsent: new Set() });
    let seen = perSpace.get(space);
    if (!seen) {
      const listed = seed && (ctx.run.listing(seed.kind, space) as readonly LiveObject[] | undefined);
      perSpace.set(space, (seen = listed ? { values: Promise.resolve(seed.from(listed)), confirmedAbsent: new Set() } : fresh()));
    }
    const value = (await seen.values).get(key);
    if (value !== undefined || seen.confirmedAbsent.has(key)) return value;
    let current = perSpace.get(space)!;
    if (current === seen) perSpace.set(space, (current = fresh()));
    const reread = (await current.values).get(key);
    if (reread === undefined) current.confirmedAbsent.add(key);
    return reread;
  };
}
