import { language as kuery } from '@svcform/query/kuery/index.js';
import { checkValue, formatIssue, schema } from '../../config-schema.js';
import { EmuError } from '../../errors.js';

/**
 * A rule action's `alerts_filter` as the rules framework takes it. The detection route's own schema
 * leaves the object open (RuleActionAlertsFilter), but the route hands the rule to the rules client,
 * which checks its data first (alerting application/rule/schemas/action_schemas.ts
 * `actionAlertsFilterSchema`, the query's schema from alerts_filter_query) and answers
 * `Error validating create data - [path]: ...`. It then stores with the query the search it builds
 * from `kql` and `filters` (rules_client/lib/add_generated_action_values.ts: `dsl`, JSON text; KQL
 * that does not parse is a 400 `Invalid KQL: ...`), and a read returns that `dsl` with the rest.
 * Attack discovery schedules are alerting rules too, and take their actions' filters the same way.
 */

const DAYS = [1, 2, 3, 4, 5, 6, 7].map((day) => schema.literal(day));
const alertsFilter = schema.object({
  query: schema.maybe(schema.object({ kql: schema.string(), filters: schema.arrayOf(schema.recordOf(schema.any())), dsl: schema.maybe(schema.string()) })),
  timeframe: schema.maybe(schema.object({ days: schema.arrayOf(schema.oneOf(DAYS)), hours: schema.object({ start: schema.string(), end: schema.string() }), timezone: schema.string() })),
});

const securityError = (message: string) => new EmuError(400, message, 'security');

/**
 * The actions with their filters as the rules client validated (and converted) them; a 400
 * `Error validating <write> data - [actions.N.alertsFilter...]: ...` at the first problem.
 */
export function checkedAlertsFilters<A extends { alerts_filter?: unknown }>(actions: readonly A[], write: 'create' | 'update'): A[] {
  return actions.map((action, i) => {
    if (action?.alerts_filter === undefined) return action;
    const outcome = checkValue(alertsFilter, action.alerts_filter);
    if (outcome.issue) throw securityError(`Error validating ${write} data - ${formatIssue(outcome.issue, `actions.${i}.alertsFilter`)}`);
    return { ...action, alerts_filter: outcome.value };
  });
}

/**
 * The stored filter: its query with the `dsl` the framework generates, or a 400 `Invalid KQL` where
 * the query does not parse. The emulator's text stands in for the real search (the KQL as a
 * query_string query and the filters as they are): only that it is there, as JSON text, is modelled.
 */
export function withGeneratedDsl(filter: Record<string, any>): Record<string, any> {
  const query = filter.query;
  if (query === undefined) return filter;
  const outcome = kuery.parse(query.kql);
  if (!outcome.ok) throw securityError(`Invalid KQL: ${outcome.problem.message}`);
  const must = query.kql.trim() === '' ? [] : [{ query_string: { query: query.kql } }];
  const dsl = JSON.stringify({ bool: { must, filter: query.filters, should: [], must_not: [] } });
  return { ...filter, query: { ...query, dsl } };
}
