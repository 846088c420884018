import type { Requester } from '../client/types.js';
import type { AdapterContext, KindAdapter } from '../kinds/types.js';

const bound = new WeakMap<AdapterContext, Map<string, AdapterContext>>();

/**
 * The context an adapter runs in: the run's context with every request tagged with the adapter's
 * area, so the area's in-flight limit and retry policy apply without the adapter naming it.
 */
export function contextFor(ctx: AdapterContext, adapter: Pick<KindAdapter, 'area'>): AdapterContext {
  let perArea = bound.get(ctx);
  if (!perArea) bound.set(ctx, (perArea = new Map()));
  let out = perArea.get(adapter.area.name);
  if (!out) {
    const api: Requester = { request: (req) => ctx.api.request({ ...req, area: adapter.area.name }) };
    out = { ...ctx, api };
    perArea.set(adapter.area.name, out);
  }
  return out;
}
