import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { buildNewRule, parseRequestBody, requestProblemsError, schemaOptions, securityError, type Writer } from './build.js';
import { patchRule, replaceRule } from './rule-updates.js';
import { FilterError, parseRuleFilter } from './filter.js';
import { createSchema, patchSchema, ruleRequestProblems, typePatchSchema, updateSchema, type RuleType } from './schema.js';
import { formatIssues, parseBody } from '../../zod.js';
import { allRules, deleteRule, ruleById, ruleByRuleId, rulesState, saveRule, type RulesState, type StoredRule } from './state.js';

/** Rule CRUD and _find (service-api.md Detection engine; wire-facts 2.1, 2.2). */

export function writer(req: EmuRequest, ctx: EmulatorContext): Writer {
  return { ctx, space: req.space, user: req.user };
}

interface RuleRef {
  id?: string;
  rule_id?: string;
}

function refFrom(source: Record<string, unknown>): RuleRef {
  const ref: RuleRef = {};
  if (typeof source.id === 'string' && source.id !== '') ref.id = source.id;
  if (typeof source.rule_id === 'string' && source.rule_id !== '') ref.rule_id = source.rule_id;
  if (!ref.id && !ref.rule_id) throw securityError(400, 'either "id" or "rule_id" must be set');
  return ref;
}

function queryRef(req: EmuRequest): RuleRef {
  return refFrom({ id: req.query.get('id') ?? undefined, rule_id: req.query.get('rule_id') ?? undefined });
}

/** The rule a ref names (id wins over rule_id), or the 404 of the real server. */
export function resolveRef(state: RulesState, ref: RuleRef): StoredRule {
  if (ref.id) {
    const rule = ruleById(state, ref.id);
    if (!rule) throw securityError(404, `id: "${ref.id}" not found`);
    return rule;
  }
  const rule = ruleByRuleId(state, ref.rule_id!);
  if (!rule) throw securityError(404, `rule_id: "${ref.rule_id}" not found`);
  return rule;
}

export function createRule(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = parseRequestBody(createSchema(schemaOptions(ctx)), req.body);
  const problems = ruleRequestProblems(body, 'create');
  if (problems.length) throw requestProblemsError(problems);
  const state = rulesState(ctx, req.space);
  if (body.rule_id !== undefined && ruleByRuleId(state, body.rule_id)) throw securityError(409, `rule_id: "${body.rule_id}" already exists`);
  const rule = buildNewRule(writer(req, ctx), body);
  saveRule(state, rule);
  return { body: rule };
}

export function readRule(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  return { body: resolveRef(rulesState(ctx, req.space), queryRef(req)) };
}

export function updateRule(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = parseRequestBody(updateSchema(schemaOptions(ctx)), req.body);
  const problems = ruleRequestProblems(body, 'update');
  if (problems.length) throw requestProblemsError(problems);
  const ref = refFrom(body);
  const state = rulesState(ctx, req.space);
  const next = replaceRule(writer(req, ctx), resolveRef(state, ref), body);
  saveRule(state, next);
  return { body: next };
}

export function patchRuleRoute(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  // The route reads the body as RulePatchProps first (see patchSchema for what that strips) ...
  const body = parseRequestBody(patchSchema(), req.body);
  const ref = refFrom(body);
  const state = rulesState(ctx, req.space);
  const existing = resolveRef(state, ref);
  // ... then as the patch fields of the rule's own type, which refuses another `type`
  // (detection_rules_client/mergers/apply_rule_patch.ts patchTypeSpecificParams: a BadRequestError).
  const typed = parseBody(typePatchSchema(existing.type as RuleType), body);
  if (typed.issues.length) throw securityError(400, formatIssues(typed.issues));
  const next = patchRule(writer(req, ctx), existing, body);
  saveRule(state, next);
  return { body: next };
}

export function deleteRuleRoute(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const state = rulesState(ctx, req.space);
  const rule = resolveRef(state, queryRef(req));
  deleteRule(state, rule);
  return { body: rule };
}

// ---- _find ----

const SORT_FIELDS: Record<string, (r: StoredRule) => unknown> = {
  created_at: (r) => r.created_at,
  createdAt: (r) => r.created_at,
  updated_at: (r) => r.updated_at,
  updatedAt: (r) => r.updated_at,
  enabled: (r) => r.enabled,
  name: (r) => r.name,
  risk_score: (r) => r.risk_score,
  riskScore: (r) => r.risk_score,
  severity: (r) => r.severity,
  'execution_summary.last_execution.date': (r) => r.execution_summary?.last_execution?.date,
  'execution_summary.last_execution.status': (r) => r.execution_summary?.last_execution?.status,
};

function sortAccessor(field: string): ((r: StoredRule) => unknown) | undefined {
  if (Object.prototype.hasOwnProperty.call(SORT_FIELDS, field)) return SORT_FIELDS[field];
  const metric = /^execution_summary\.last_execution\.metrics\.([a-z_]+)$/.exec(field);
  if (metric) return (r) => r.execution_summary?.last_execution?.metrics?.[metric[1]];
  return undefined;
}

function queryIssue(name: string, message: string): EmuError {
  return new EmuError(400, `[request query]: ${name}: ${message}`, 'platform');
}

function intParam(req: EmuRequest, name: string, fallback: number, min: number): number {
  const raw = req.query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw queryIssue(name, `Expected number, received ${Number.isNaN(n) ? 'nan' : 'float'}`);
  if (n < min) throw queryIssue(name, `Number must be greater than or equal to ${min}`);
  return n;
}

/** Sorts (stably; missing values last in both directions, as the search backend does). */
export function sortRules(rules: StoredRule[], field: string, order: 'asc' | 'desc'): StoredRule[] {
  const get = sortAccessor(field)!;
  const dir = order === 'asc' ? 1 : -1;
  return rules
    .map((rule) => ({ rule, key: get(rule) }))
    .sort((a, b) => {
      const am = a.key === undefined || a.key === null;
      const bm = b.key === undefined || b.key === null;
      if (am || bm) return am === bm ? 0 : am ? 1 : -1;
      const ak = typeof a.key === 'boolean' ? Number(a.key) : (a.key as any);
      const bk = typeof b.key === 'boolean' ? Number(b.key) : (b.key as any);
      return ak < bk ? -dir : ak > bk ? dir : 0;
    })
    .map((x) => x.rule);
}

export function filteredRules(state: RulesState, filter: string | null | undefined): StoredRule[] {
  let predicate;
  try {
    predicate = parseRuleFilter(filter);
  } catch (err) {
    if (err instanceof FilterError) throw securityError(400, `Invalid filter "${filter}": ${err.message}`);
    throw err;
  }
  const rules = allRules(state);
  return filter ? rules.filter(predicate) : rules;
}

const SEARCH_WINDOW = 10_000;

export function findRules(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const page = intParam(req, 'page', 1, 1);
  const perPage = intParam(req, 'per_page', 20, 0);
  const sortField = req.query.get('sort_field');
  const sortOrder = req.query.get('sort_order');
  if (sortField !== null && !sortAccessor(sortField)) {
    throw queryIssue('sort_field', `Invalid enum value. Expected ${Object.keys(SORT_FIELDS).map((f) => `'${f}'`).join(' | ')} | 'execution_summary.last_execution.metrics.*', received '${sortField}'`);
  }
  if (sortOrder !== null && sortOrder !== 'asc' && sortOrder !== 'desc') throw queryIssue('sort_order', `Invalid enum value. Expected 'asc' | 'desc', received '${sortOrder}'`);
  if ((sortField === null) !== (sortOrder === null)) throw securityError(400, 'when "sort_order" and "sort_field" must exist together or not at all');
  if (page * perPage > SEARCH_WINDOW) {
    throw securityError(400, `Result window is too large, page * per_page must be less than or equal to: [${SEARCH_WINDOW}] but was [${page * perPage}]`);
  }
  let rules = filteredRules(rulesState(ctx, req.space), req.query.get('filter'));
  if (sortField !== null) rules = sortRules(rules, sortField, sortOrder as 'asc' | 'desc');
  const start = (page - 1) * perPage;
  let data: StoredRule[] = rules.slice(start, start + perPage);
  const fields = req.query.getAll('fields').flatMap((f) => f.split(',')).filter(Boolean);
  if (fields.length) {
    // The identity always comes back, whatever fields were asked for.
    const keep = new Set(['id', 'rule_id', ...fields]);
    data = data.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => keep.has(k))));
  }
  return { body: { page, perPage, total: rules.length, data } };
}
