import type { AdapterContext } from '../types.js';
import { runLookup } from '../run-lookup.js';

/**
 * The connector types rule actions need. A rule action must carry `action_type_id` (the route
 * schema requires it and the server does not fill it from the connector: wire-facts §15 fact 1),
 * but a manifest names only the connector. The declared Connector is another adapter's business,
 * so the type is read from the server through one connector list per space and per run
 * (run-lookup.ts).
 */

const CONNECTORS_PATH = '/api/actions/connectors';

async function listConnectorTypes(ctx: AdapterContext, space: string): Promise<Map<string, string>> {
  const res = await ctx.api.request<Array<{ id: string; connector_type_id: string }>>({ method: 'GET', path: CONNECTORS_PATH, space });
  return new Map((res.body ?? []).map((c) => [c.id, c.connector_type_id]));
}

const connectorType = runLookup(listConnectorTypes, {
  kind: 'Connector',
  from: (connectors) => new Map(connectors.map((c) => [c.name, c.body.connector_type_id as string])),
});

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

/**
 * An action as both sides of the comparison hold it: without the server's `uuid` and
 * `action_type_id`, and without `alerts_filter.query.dsl`, the search the rules framework builds
 * from the filter's `kql` and `filters` and stores with it (alerting's
 * add_generated_action_values.ts), which a read returns and a write may carry: it is the server's
 * to make, so a live rule whose filter has one is not a change, and an export does not write it.
 */
export function comparableAction({ uuid: _u, action_type_id: _t, ...action }: Record<string, any>): Record<string, any> {
  const filter = action.alerts_filter;
  if (filter === null || typeof filter !== 'object' || filter.query === null || typeof filter.query !== 'object' || !('dsl' in filter.query)) return action;
  const { dsl: _d, ...query } = filter.query;
  return { ...action, alerts_filter: { ...filter, query } };
}
