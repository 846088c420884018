import type { AdapterContext } from '../types.js';
import { runLookup } from '../run-lookup.js';
import { withoutGeneratedDsl } from '../alerts-filter.js';

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
 * `action_type_id`, and without the `dsl` the server adds to its alerts filter (alerts-filter.ts).
 */
export function comparableAction({ uuid: _u, action_type_id: _t, ...action }: Record<string, any>): Record<string, any> {
  return withoutGeneratedDsl(action);
}
