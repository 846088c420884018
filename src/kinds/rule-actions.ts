import type { AdapterContext } from './types.js';

/**
 * The connector types rule actions need. A rule action must carry `action_type_id` (the route
 * schema requires it and the server does not fill it from the connector: wire-facts §15 fact 1),
 * but a manifest names only the connector. The declared Connector is another adapter's business,
 * so the type is read from the server: one connector list per space and per run, shared by every
 * rule write of that run, and read once more on a miss, because a connector created earlier in
 * the same apply is newer than the list.
 */

const CONNECTORS_PATH = '/api/actions/connectors';

/** One reading of a space's connectors, and the ids found missing from it although it was read after they missed. */
interface Listing {
  types: Promise<Map<string, string>>;
  confirmedAbsent: Set<string>;
}

/** One cache per run: the engine gives every run its own bound context object. Keyed by space. */
const byRun = new WeakMap<AdapterContext, Map<string, Listing>>();

async function listConnectorTypes(ctx: AdapterContext, space: string): Promise<Map<string, string>> {
  const res = await ctx.api.request<Array<{ id: string; connector_type_id: string }>>({ method: 'GET', path: CONNECTORS_PATH, space });
  return new Map((res.body ?? []).map((c) => [c.id, c.connector_type_id]));
}

async function connectorType(ctx: AdapterContext, space: string, id: string): Promise<string | undefined> {
  let perSpace = byRun.get(ctx);
  if (!perSpace) byRun.set(ctx, (perSpace = new Map()));
  const fresh = (): Listing => ({ types: listConnectorTypes(ctx, space), confirmedAbsent: new Set() });
  let seen = perSpace.get(space);
  if (!seen) perSpace.set(space, (seen = fresh()));
  const type = (await seen.types).get(id);
  if (type !== undefined || seen.confirmedAbsent.has(id)) return type;
  // A miss reads the list once more; concurrent misses share that one re-read.
  let current = perSpace.get(space)!;
  if (current === seen) perSpace.set(space, (current = fresh()));
  const reread = (await current.types).get(id);
  if (reread === undefined) current.confirmedAbsent.add(id);
  return reread;
}

/**
 * The actions as the server takes them: each with its `action_type_id`, the manifest's when it
 * gives one, else the type of the connector it names.
 */
export async function withActionTypes(ctx: AdapterContext, space: string, ruleId: string, actions: unknown): Promise<unknown> {
  if (!Array.isArray(actions)) return actions;
  return Promise.all(
    actions.map(async (action: Record<string, any>, i: number) => {
      if (typeof action?.action_type_id === 'string' || typeof action?.id !== 'string') return action;
      const type = await connectorType(ctx, space, action.id);
      if (type === undefined) {
        throw new Error(`rule ${ruleId}: actions[${i}] names connector "${action.id}", which space "${space}" does not have (${CONNECTORS_PATH})`);
      }
      return { ...action, action_type_id: type };
    }),
  );
}
