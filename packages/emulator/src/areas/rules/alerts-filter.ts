import { language as kuery } from '@svcform/query/kuery/index.js';

/**
 * A rule action's `alerts_filter` as the rules framework takes it. The detection route's own schema
 * leaves the object open (RuleActionAlertsFilter), but the route hands the rule to the rules client,
 * which checks its data first (alerting application/rule/schemas/action_schemas.ts
 * `actionAlertsFilterSchema`, the query's schema from alerts_filter_query: @kbn/config-schema
 * objects, which refuse keys they do not define) and answers `Error validating create data - [path]:
 * ...`. It then stores with the query the search it builds from `kql` and `filters`
 * (rules_client/lib/add_generated_action_values.ts: `dsl`, JSON text; KQL that does not parse is a
 * 400 `Invalid KQL: ...`), and a read returns that `dsl` with the rest.
 */

const FILTER_KEYS = ['query', 'timeframe'];
const QUERY_KEYS = ['kql', 'filters', 'dsl'];
const TIMEFRAME_KEYS = ['days', 'hours', 'timezone'];
const HOURS_KEYS = ['start', 'end'];

const typeName = (v: unknown) => (v === undefined ? 'undefined' : v === null ? 'null' : Array.isArray(v) ? 'Array' : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first problem of the actions' filters, in @kbn/config-schema's words (the path as the rules client names it), or undefined. */
export function alertsFilterProblem(actions: readonly any[]): string | undefined {
  for (const [i, action] of actions.entries()) {
    const filter = action?.alerts_filter;
    if (filter === undefined) continue;
    const at = `actions.${i}.alertsFilter`;
    if (!isObject(filter)) return `[${at}]: expected a plain object value, but found [${typeName(filter)}] instead.`;
    const problem = unknownKey(filter, FILTER_KEYS, at) ?? queryProblem(filter.query, `${at}.query`) ?? timeframeProblem(filter.timeframe, `${at}.timeframe`);
    if (problem) return problem;
  }
  return undefined;
}

function unknownKey(o: Record<string, unknown>, known: readonly string[], at: string): string | undefined {
  const extra = Object.keys(o).find((k) => !known.includes(k));
  return extra === undefined ? undefined : `[${at}.${extra}]: definition for this key is missing`;
}

function expected(type: string, v: unknown, at: string): string {
  return `[${at}]: expected value of type [${type}] but got [${typeName(v)}]`;
}

function queryProblem(query: unknown, at: string): string | undefined {
  if (query === undefined) return undefined;
  if (!isObject(query)) return `[${at}]: expected a plain object value, but found [${typeName(query)}] instead.`;
  const extra = unknownKey(query, QUERY_KEYS, at);
  if (extra) return extra;
  if (typeof query.kql !== 'string') return expected('string', query.kql, `${at}.kql`);
  if (!Array.isArray(query.filters)) return expected('array', query.filters, `${at}.filters`);
  const notObject = query.filters.findIndex((f) => !isObject(f));
  if (notObject >= 0) return `[${at}.filters.${notObject}]: expected a plain object value, but found [${typeName(query.filters[notObject])}] instead.`;
  if (query.dsl !== undefined && typeof query.dsl !== 'string') return expected('string', query.dsl, `${at}.dsl`);
  return undefined;
}

function timeframeProblem(timeframe: unknown, at: string): string | undefined {
  if (timeframe === undefined) return undefined;
  if (!isObject(timeframe)) return `[${at}]: expected a plain object value, but found [${typeName(timeframe)}] instead.`;
  const extra = unknownKey(timeframe, TIMEFRAME_KEYS, at);
  if (extra) return extra;
  if (!Array.isArray(timeframe.days)) return expected('array', timeframe.days, `${at}.days`);
  const badDay = timeframe.days.findIndex((d) => !Number.isInteger(d) || (d as number) < 1 || (d as number) > 7);
  if (badDay >= 0) return `[${at}.days.${badDay}]: types that failed validation: the day must be 1, 2, 3, 4, 5, 6 or 7`;
  const hours = timeframe.hours;
  if (!isObject(hours)) return hours === undefined ? expected('object', hours, `${at}.hours`) : `[${at}.hours]: expected a plain object value, but found [${typeName(hours)}] instead.`;
  const extraHour = unknownKey(hours, HOURS_KEYS, `${at}.hours`);
  if (extraHour) return extraHour;
  for (const key of HOURS_KEYS) if (typeof hours[key] !== 'string') return expected('string', hours[key], `${at}.hours.${key}`);
  if (typeof timeframe.timezone !== 'string') return expected('string', timeframe.timezone, `${at}.timezone`);
  return undefined;
}

/** The parser's message where the filter's KQL does not parse (the rules client answers 400 `Invalid KQL: ...`). */
export function invalidKql(filter: Record<string, any>): string | undefined {
  const query = filter.query;
  if (!isObject(query)) return undefined;
  const outcome = kuery.parse(query.kql as string);
  return outcome.ok ? undefined : outcome.problem.message;
}

/**
 * The stored filter: its query with the `dsl` the framework generates. The emulator's text stands in
 * for the real search (the KQL as a query_string query and the filters as they are): only that it
 * is there, as JSON text, is modelled.
 */
export function withGeneratedDsl(filter: Record<string, any>): Record<string, any> {
  const query = filter.query;
  if (!isObject(query)) return filter;
  const must = (query.kql as string).trim() === '' ? [] : [{ query_string: { query: query.kql } }];
  const dsl = JSON.stringify({ bool: { must, filter: query.filters, should: [], must_not: [] } });
  return { ...filter, query: { ...query, dsl } };
}
