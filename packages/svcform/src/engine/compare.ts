import type { KindAdapter, LiveObject } from '../kinds/types.js';
import type { RunScope } from '../kinds/run-scope.js';
import type { Resource } from '../manifest/types.js';
import { alignKeyed, diffSpecs, withoutIgnored, type ResourceDiff } from './diff.js';

/**
 * The one comparison of a manifest with a live object, for the plan and for apply's read-backs
 * alike: both sides normalized by the adapter, ignored pointers and fields the listing did not
 * report left out, set-like arrays compared as sets, secrets masked.
 */
export function compareWithLive(
  adapter: KindAdapter,
  res: Resource,
  live: LiveObject,
  ignore: readonly string[],
  run: RunScope,
  normalizedLive: Record<string, any> = adapter.normalizeLive(live, run),
  desired: Record<string, any> = adapter.normalizeDesired(res, run),
): ResourceDiff {
  const uncompared = [...ignore, ...(adapter.unreported?.(live) ?? []), ...(adapter.chosenByServer?.(res, live) ?? [])];
  return diffSpecs(withoutIgnored(alignKeyed(normalizedLive, desired, adapter.keyedFields), uncompared), withoutIgnored(desired, uncompared), {
    setFields: adapter.setFields,
    keyedFields: adapter.keyedFields,
    secretPointers: res.secretPointers,
  });
}
