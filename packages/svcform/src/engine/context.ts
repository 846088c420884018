import type { ApiRequest, Requester } from '../client/types.js';
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

/**
 * Runs an adapter call whose requests are traced, so that a reply the adapter cannot read (a
 * proxy's page, a body of the wrong shape) fails with the route and status that produced it
 * instead of a bare "Cannot read properties of undefined".
 */
export async function withAnswerCheck<T>(ctx: AdapterContext, what: string, run: (ctx: AdapterContext) => Promise<T>): Promise<T> {
  let last: { req: ApiRequest; status: number } | undefined;
  const traced: AdapterContext = {
    ...ctx,
    api: {
      request: async (req) => {
        const res = await ctx.api.request(req);
        last = { req, status: res.status };
        return res;
      },
    },
  };
  try {
    return await run(traced);
  } catch (err) {
    if (!(err instanceof TypeError || err instanceof SyntaxError || err instanceof RangeError)) throw err;
    const route = last ? `${last.req.method} ${last.req.path} (answered ${last.status})` : 'the server';
    throw new Error(`${what}: the answer from ${route} is not in the shape the API documents (${err.message})`);
  }
}
