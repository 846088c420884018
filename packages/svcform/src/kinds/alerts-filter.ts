/**
 * An alerting action's `alerts_filter` holds, beside the `kql` and `filters` written, the search
 * the rules framework builds from them and stores with the query, `dsl` (alerting's
 * add_generated_action_values.ts), which every read returns and which a write may carry: the
 * framework makes it again on each write. It is the server's, so neither side of a comparison holds
 * it and an export does not write it. Detection rules and attack discovery schedules are alerting
 * rules, and their actions share this.
 */
export function withoutGeneratedDsl<T extends Record<string, any>>(action: T): T {
  const filter = action.alerts_filter;
  if (filter === null || typeof filter !== 'object' || filter.query === null || typeof filter.query !== 'object' || !('dsl' in filter.query)) return action;
  const { dsl: _dsl, ...query } = filter.query;
  return { ...action, alerts_filter: { ...filter, query } };
}
