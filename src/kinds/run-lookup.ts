import type { AdapterContext } from './types.js';

/**
 * Something a write needs from another kind's objects (a connector's type, an exception list's
 * id), read with one listing per space and per run and shared by every write of that run, instead
 * of one request per object. A miss reads the listing once more (an object created earlier in the
 * same apply is newer than it); concurrent misses share that one re-read, and a key still missing
 * after it is not read for again.
 */

/** One reading of a space, and the keys found missing from it although it was read after they missed. */
interface Listing<V> {
  values: Promise<Map<string, V>>;
  confirmedAbsent: Set<string>;
}

export function runLookup<V>(read: (ctx: AdapterContext, space: string) => Promise<Map<string, V>>): (ctx: AdapterContext, space: string, key: string) => Promise<V | undefined> {
  /** One cache per run: the engine gives every run its own bound context object. Keyed by space. */
  const byRun = new WeakMap<AdapterContext, Map<string, Listing<V>>>();
  return async (ctx, space, key) => {
    let perSpace = byRun.get(ctx);
    if (!perSpace) byRun.set(ctx, (perSpace = new Map()));
    const fresh = (): Listing<V> => ({ values: read(ctx, space), confirmedAbsent: new Set() });
    let seen = perSpace.get(space);
    if (!seen) perSpace.set(space, (seen = fresh()));
    const value = (await seen.values).get(key);
    if (value !== undefined || seen.confirmedAbsent.has(key)) return value;
    let current = perSpace.get(space)!;
    if (current === seen) perSpace.set(space, (current = fresh()));
    const reread = (await current.values).get(key);
    if (reread === undefined) current.confirmedAbsent.add(key);
    return reread;
  };
}
