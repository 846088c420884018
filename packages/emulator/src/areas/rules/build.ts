import { clone } from '../../json-copy.js';
import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import { findConnector } from '../connectors/index.js';
import { applyTypeDefaults, defaultFrequency, RULE_DEFAULTS } from './defaults.js';
import { isEcsField } from './ecs.js';
import { checkedAlertsFilters, withGeneratedDsl } from './alerts-filter.js';
import { RESPONSE_ONLY_FIELDS, ruleConsistencyProblem, type RuleType, type SchemaOptions } from './schema.js';
import { parseRequest, requestIssuesError, type Issue, type Schema } from '../../zod.js';
import type { StoredRule } from './state.js';

/** Who writes, where, and when: what every rule write needs besides the body. */
export interface Writer {
  ctx: EmulatorContext;
  space: string;
  user: string;
}

/** Fields the server owns; a request never sets them and PUT keeps them from the existing rule. */
export const SERVER_FIELDS = ['id', 'rule_id', 'immutable', 'rule_source', 'created_at', 'created_by', 'updated_at', 'updated_by', 'revision', 'execution_summary'];

/** A rule without its server-owned fields: what requests set (a copy, safe to change). */
export function ruleParameters(rule: StoredRule): Record<string, any> {
  const params: Record<string, any> = {};
  for (const [k, v] of Object.entries(rule)) if (!SERVER_FIELDS.includes(k)) params[k] = clone(v);
  return params;
}

export const securityError = (status: number, message: string) => new EmuError(status, message, 'security');

/** Route-schema failures are platform-shaped even on security routes (wire-facts 0.3). */
export const bodyIssuesError = (issues: Issue[]): EmuError => requestIssuesError(issues);

/** The body as the route schema leaves it (unknown keys stripped), or the route's 400. */
export const parseRequestBody = <T>(schema: Schema<T>, body: unknown): T => parseRequest(schema, body);

/**
 * The route's own checks after the schema answer a security 400 whose message is the list of
 * problems (routes/utils.ts buildSiemResponse: `{message: body, status_code}` with body a string[]).
 */
export function requestProblemsError(problems: string[]): EmuError {
  return new EmuError(400, problems.join(', '), 'security', undefined, problems);
}

/**
 * How strictly the rule schemas read: service-api.md's list of type-specific required fields by
 * default; the server's own (query also required for threshold, threat_match and new_terms) when
 * the emulator runs with the `rules.query-required` real behaviour.
 */
export function schemaOptions(ctx: EmulatorContext): SchemaOptions {
  return { queryRequired: ctx.settings.realRoutes.has('rules.query-required') };
}

export function requireObjectBody(body: unknown): Record<string, any> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new EmuError(400, `[request body]: Expected object, received ${body === undefined ? 'undefined' : Array.isArray(body) ? 'array' : body === null ? 'null' : typeof body}`, 'platform');
  }
  return body as Record<string, any>;
}

/** JSON equality: key order and keys holding undefined do not count (stored rules are JSON data). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => sameJson(x, (b as unknown[])[i]));
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  return keys.length === Object.keys(y).filter((k) => y[k] !== undefined).length && keys.every((k) => sameJson(x[k], y[k]));
}

/**
 * Whether two versions of a rule have the same parameters: what a revision counts (not `enabled`,
 * not server fields, not action uuids). Compared in place: serializing both rules to sorted JSON
 * made every import of 2,068 rules spend a quarter of a second here.
 */
export function sameParameters(a: StoredRule, b: StoredRule): boolean {
  const counted = (rule: StoredRule) => Object.keys(rule).filter((k) => k !== 'enabled' && k !== 'actions' && !SERVER_FIELDS.includes(k) && (rule as Record<string, unknown>)[k] !== undefined);
  const keys = counted(a);
  if (keys.length !== counted(b).length || !keys.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))) return false;
  const actions = (rule: StoredRule) => (rule.actions ?? []).map(({ uuid: _uuid, ...rest }: Record<string, unknown>) => rest);
  return sameJson(actions(a), actions(b));
}

/**
 * Actions as stored: each names a connector of the space (400 otherwise), gets a uuid when it has
 * none and a frequency derived from the rule throttle when it has none. The stored type is the
 * connector's whatever the request said: the alerting framework's denormalizeActions takes
 * `actionTypeId` from the connector it loads (alerting rules_client lib/denormalize_actions.ts).
 */
export function resolveActions(w: Writer, actions: any[] | undefined, throttle: unknown, write: 'create' | 'update' = 'update'): any[] {
  const out: any[] = [];
  const missing: string[] = [];
  for (const action of checkedAlertsFilters(actions ?? [], write)) {
    const connector = findConnector(w.ctx, w.space, action.id);
    if (!connector) {
      missing.push(action.id);
      continue;
    }
    const resolved: Record<string, unknown> = { action_type_id: connector.connector_type_id };
    if (action.group !== undefined) resolved.group = action.group;
    resolved.id = action.id;
    resolved.params = action.params;
    resolved.uuid = action.uuid ?? w.ctx.uuid();
    resolved.frequency = action.frequency ?? defaultFrequency(throttle);
    if (action.alerts_filter !== undefined) resolved.alerts_filter = action.alerts_filter;
    out.push(resolved);
  }
  if (missing.length) throw securityError(400, `Failed to validate actions due to the following error: Invalid connectors: ${missing.join(', ')}`);
  // After the connectors, as the rules client adds its generated values after validating the actions.
  for (const action of out) if (action.alerts_filter !== undefined) action.alerts_filter = withGeneratedDsl(action.alerts_filter);
  return out;
}

function withoutUndefined(o: Record<string, any>): Record<string, any> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** Body fields as parameters: server fields and identity removed, defaults filled (create and PUT). */
export function parametersFromBody(body: Record<string, any>): Record<string, any> {
  const params: Record<string, any> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined || SERVER_FIELDS.includes(k) || RESPONSE_ONLY_FIELDS.includes(k)) continue;
    params[k] = clone(v);
  }
  for (const [k, v] of Object.entries(RULE_DEFAULTS)) if (params[k] === undefined) params[k] = clone(v);
  applyTypeDefaults(params, params.type as RuleType);
  return params;
}

function computeRequiredFields(fields: any[] | undefined): any[] | undefined {
  return fields?.map((f) => ({ name: f.name, type: f.type, ecs: isEcsField(f.name, f.type) }));
}

export function executionSummary(w: Writer) {
  return { last_execution: { date: w.ctx.now().toISOString(), status: 'succeeded', status_order: 0, message: '', metrics: {} } };
}

/**
 * The rule's schedule as the alerting framework checks it when the rules client creates or updates
 * the rule (createRuleDataSchema / updateRuleDataSchema: `schedule.interval` validated by
 * validateDurationSchema, lib/parse_duration.ts): a whole number without a leading zero and s, m,
 * h or d. The detection route's own schema takes any text (RuleInterval: a string).
 */
const DURATION = /^[1-9][0-9]*[smhd]$/;

/** Finishes parameters into a stored rule: the schedule check, actions, required_fields.ecs, the whole-rule checks. */
export function finishParameters(w: Writer, params: Record<string, any>, write: 'create' | 'update' = 'create'): Record<string, any> {
  if (typeof params.interval === 'string' && !DURATION.test(params.interval)) {
    throw securityError(400, `Error validating ${write} data - [schedule.interval]: string is not a valid duration: ${params.interval}`);
  }
  params.actions = resolveActions(w, params.actions, params.throttle, write);
  if (params.required_fields) params.required_fields = computeRequiredFields(params.required_fields);
  const problem = ruleConsistencyProblem(params);
  if (problem) throw securityError(400, problem);
  return withoutUndefined(params);
}

export interface NewRuleOptions {
  immutable?: boolean;
  ruleSource?: Record<string, unknown>;
}

/** A new rule from a validated create (or import) body. */
export function buildNewRule(w: Writer, body: Record<string, any>, options: NewRuleOptions = {}): StoredRule {
  const params = finishParameters(w, parametersFromBody(body));
  const now = w.ctx.now().toISOString();
  const rule: StoredRule = {
    id: w.ctx.uuid(),
    rule_id: body.rule_id ?? w.ctx.uuid(),
    ...params,
    immutable: options.immutable ?? false,
    rule_source: options.ruleSource ?? { type: 'internal' },
    created_at: now,
    created_by: w.user,
    updated_at: now,
    updated_by: w.user,
    revision: 0,
  };
  if (rule.enabled) rule.execution_summary = executionSummary(w);
  return rule;
}

/** The rule as exported and imported: the response without its run-time state. */
export function exportable(rule: StoredRule): Record<string, unknown> {
  const { execution_summary: _summary, ...rest } = rule;
  return rest;
}
