import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { buildNewRule, exportable, parseRequestBody, resolveActions, ruleParameters, securityError, type Writer } from './build.js';
import { finishUpdate, withEnabled } from './rule-updates.js';
import { alertsFilter, frequency } from './fields.js';
import { array, boolean, enumOf, literal, nonEmptyString, object, optional, string, union } from '../../zod.js';
import { filteredRules, writer } from './crud.js';
import { ruleById, rulesState, saveRule, deleteRule, type StoredRule } from './state.js';
import { exportResponse } from './transfer.js';

/** POST /api/detection_engine/rules/_bulk_action (wire-facts 2.1 and the route's own limits). */

const MAX_IDS = 100;
const MAX_RULES_BY_QUERY = 10_000;

interface EditAction {
  type: string;
  value: any;
  overwrite_data_views?: boolean;
}

interface RuleError {
  message: string;
  status_code: number;
  err_code?: string;
  rule: { id: string; name?: string };
}

class EditFailure extends Error {
  constructor(message: string, readonly status: number, readonly errCode?: string) {
    super(message);
  }
}

/**
 * PerformRulesBulkActionRequestBody (K-DE/rule_management/bulk_actions/bulk_actions_route.gen.ts):
 * a union of one object per action; edits are a union of payloads. Actions added by an edit are
 * NormalizedRuleAction, a strict object without `action_type_id` (the server takes the type from
 * the connector).
 */
const bulkActionBody = (() => {
  const base = { query: optional(string()), ids: optional(array(string(), { min: 1 })) };
  const schedule = string({ regex: /^[1-9]\d*[smh]$/ });
  const normalizedAction = object(
    { group: optional(string()), id: string(), params: object({}, 'open'), frequency: optional(frequency), alerts_filter: optional(alertsFilter) },
    'strict',
  );
  const edit = union([
    object({ type: enumOf(['add_tags', 'delete_tags', 'set_tags']), value: array(string()) }),
    object({ type: enumOf(['add_index_patterns', 'delete_index_patterns', 'set_index_patterns']), value: array(string()), overwrite_data_views: optional(boolean()) }),
    object({ type: enumOf(['add_investigation_fields', 'delete_investigation_fields', 'set_investigation_fields']), value: object({ field_names: array(nonEmptyString(), { min: 1 }) }) }),
    object({ type: literal('set_timeline'), value: object({ timeline_id: string(), timeline_title: string() }) }),
    object({ type: enumOf(['add_rule_actions', 'set_rule_actions']), value: object({ throttle: optional(enumOf(['rule', '1h', '1d', '7d'])), actions: array(normalizedAction) }) }),
    object({ type: literal('set_schedule'), value: object({ interval: schedule, lookback: schedule }) }),
  ]);
  return union([
    ...['delete', 'disable', 'enable', 'export'].map((action) => object({ ...base, action: literal(action) })),
    object({ ...base, action: literal('duplicate'), duplicate: optional(object({ include_exceptions: boolean(), include_expired_exceptions: boolean() })) }),
    object({ ...base, action: literal('run'), run: object({ start_date: string(), end_date: string() }) }),
    object({ ...base, action: literal('edit'), edit: array(edit, { min: 1 }) }),
  ]);
})();

function validateBody(raw: unknown): Record<string, any> {
  const body = parseRequestBody(bulkActionBody, raw);
  if (body.action === 'run') {
    // Manual runs need rule execution, which the emulator does not have.
    throw securityError(400, 'The emulator does not execute rules, so the "run" bulk action is not available');
  }
  return body;
}

const seconds = (d: string) => Number(d.slice(0, -1)) * { s: 1, m: 60, h: 3600, d: 86400 }[d.slice(-1) as 's' | 'm' | 'h' | 'd'];

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));

/** Applies one edit to the rule's parameters; returns false when it changes nothing (skip). */
function applyEdit(w: Writer, p: Record<string, any>, edit: EditAction): boolean {
  const v = edit.value;
  switch (edit.type) {
    case 'add_tags': {
      const tags: string[] = p.tags ?? [];
      if (v.every((t: string) => tags.includes(t))) return false;
      p.tags = [...new Set([...tags, ...v])];
      return true;
    }
    case 'delete_tags': {
      const tags: string[] = p.tags ?? [];
      if (!v.some((t: string) => tags.includes(t))) return false;
      p.tags = tags.filter((t) => !v.includes(t));
      return true;
    }
    case 'set_tags':
      if (sameSet(p.tags ?? [], v)) return false;
      p.tags = [...new Set<string>(v)];
      return true;
    case 'add_index_patterns':
    case 'delete_index_patterns':
    case 'set_index_patterns':
      return applyIndexEdit(p, edit);
    case 'add_investigation_fields':
    case 'delete_investigation_fields':
    case 'set_investigation_fields': {
      const have: string[] = p.investigation_fields?.field_names ?? [];
      const want: string[] = v?.field_names ?? [];
      if (edit.type === 'add_investigation_fields') {
        if (want.every((f) => have.includes(f))) return false;
        p.investigation_fields = { field_names: [...new Set([...have, ...want])] };
      } else if (edit.type === 'delete_investigation_fields') {
        if (!want.some((f) => have.includes(f))) return false;
        const left = have.filter((f) => !want.includes(f));
        if (left.length) p.investigation_fields = { field_names: left };
        else delete p.investigation_fields;
      } else {
        p.investigation_fields = { field_names: want };
      }
      return true;
    }
    case 'set_timeline':
      if (v.timeline_id) p.timeline_id = v.timeline_id;
      else delete p.timeline_id;
      if (v.timeline_title) p.timeline_title = v.timeline_title;
      else delete p.timeline_title;
      return true;
    case 'set_schedule':
      p.interval = v.interval;
      // The look-back becomes part of `from` and is remembered in meta.from (as the real server does).
      p.from = `now-${seconds(v.interval) + seconds(v.lookback)}s`;
      p.meta = { ...(p.meta ?? {}), from: v.lookback };
      return true;
    case 'add_rule_actions':
    case 'set_rule_actions': {
      // Every action added this way gets a new uuid, so these edits are never idempotent.
      const added = resolveActions(w, (v?.actions ?? []).map(({ uuid: _u, ...a }: any) => a), v?.throttle);
      p.actions = edit.type === 'add_rule_actions' ? [...(p.actions ?? []), ...added] : added;
      return true;
    }
    default:
      return false;
  }
}

function applyIndexEdit(p: Record<string, any>, edit: EditAction): boolean {
  const verb = edit.type === 'add_index_patterns' ? 'added' : edit.type === 'delete_index_patterns' ? 'deleted' : 'overwritten';
  if (p.type === 'machine_learning') throw new EditFailure(`Index patterns can't be ${verb}. Machine learning rule doesn't have index patterns property`, 500, 'MACHINE_LEARNING_INDEX_PATTERN');
  if (p.type === 'qlang') throw new EditFailure(`Index patterns can't be ${verb}. qlang rule doesn't have index patterns property`, 500, 'ESQL_INDEX_PATTERN');
  const index: string[] | undefined = p.index;
  const values: string[] = edit.value;
  // A rule on a data view keeps it unless the edit says to overwrite data views.
  if (p.data_view_id !== undefined && !edit.overwrite_data_views) return false;
  if (edit.type === 'add_index_patterns' && values.every((x) => index?.includes(x))) return false;
  if (edit.type === 'delete_index_patterns' && !edit.overwrite_data_views && values.every((x) => !index?.includes(x))) return false;
  if (edit.overwrite_data_views) delete p.data_view_id;
  if (edit.type === 'add_index_patterns') p.index = [...new Set([...(index ?? []), ...values])];
  else if (edit.type === 'delete_index_patterns') p.index = (index ?? []).filter((x) => !values.includes(x));
  else p.index = values;
  if (p.index.length === 0) throw new EditFailure("Mutated params invalid: Index patterns can't be empty", 500);
  return true;
}

interface Outcome {
  bucket: 'updated' | 'created' | 'deleted' | 'skipped';
  rule: StoredRule;
  next?: StoredRule;
}

function editRule(w: Writer, rule: StoredRule, edits: EditAction[]): Outcome {
  const p = ruleParameters(rule);
  let changed = false;
  for (const edit of edits) if (applyEdit(w, p, edit)) changed = true;
  if (!changed) return { bucket: 'skipped', rule };
  // Bulk edits bump the content version of custom rules (never of prebuilt ones: upgrades rely on it).
  if (!rule.immutable) p.version = (p.version ?? 1) + 1;
  return { bucket: 'updated', rule, next: finishUpdate(w, rule, p) };
}

function duplicate(w: Writer, rule: StoredRule, includeExceptions: boolean): StoredRule {
  const p = ruleParameters(rule);
  p.name = `${rule.name} [Duplicate]`;
  p.enabled = false;
  p.actions = (p.actions ?? []).map(({ uuid: _uuid, ...a }: any) => a);
  if (!includeExceptions) p.exceptions_list = [];
  return buildNewRule(w, p);
}

function perform(w: Writer, rule: StoredRule, body: Record<string, any>): Outcome {
  switch (body.action) {
    case 'enable':
      return { bucket: 'updated', rule, next: rule.enabled ? rule : withEnabled(w, rule, true) };
    case 'disable':
      return { bucket: 'updated', rule, next: rule.enabled ? withEnabled(w, rule, false) : rule };
    case 'delete':
      return { bucket: 'deleted', rule };
    case 'duplicate':
      return { bucket: 'created', rule, next: duplicate(w, rule, !!body.duplicate?.include_exceptions) };
    default:
      return editRule(w, rule, body.edit);
  }
}

function groupErrors(errors: RuleError[]) {
  const byMessage = new Map<string, { message: string; status_code: number; err_code?: string; rules: Array<{ id: string; name?: string }> }>();
  for (const e of errors) {
    const entry = byMessage.get(e.message) ?? { message: e.message, status_code: e.status_code, ...(e.err_code ? { err_code: e.err_code } : {}), rules: [] };
    entry.rules.push(e.rule);
    byMessage.set(e.message, entry);
  }
  return [...byMessage.values()];
}

export function bulkAction(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = validateBody(req.body);
  const dryRun = req.query.get('dry_run') === 'true';
  if (body.ids && body.ids.length > MAX_IDS) throw securityError(400, `More than ${MAX_IDS} ids sent for bulk edit action.`);
  if (body.ids && body.query !== undefined) throw securityError(400, 'Both query and ids are sent. Define either ids or query in request payload.');
  if (body.action === 'export' && dryRun) throw securityError(400, "Export action doesn't support dry_run mode");

  const state = rulesState(ctx, req.space);
  const errors: RuleError[] = [];
  let rules: StoredRule[];
  if (body.ids) {
    rules = [];
    for (const id of body.ids as string[]) {
      const rule = ruleById(state, id);
      if (rule) rules.push(rule);
      else errors.push({ message: 'Rule not found', status_code: 404, rule: { id } });
    }
  } else {
    rules = filteredRules(state, body.query);
    if (rules.length > MAX_RULES_BY_QUERY) throw securityError(400, `More than ${MAX_RULES_BY_QUERY} rules matched the filter query. Try to narrow it down.`);
  }
  if (body.action === 'export') return exportResponse(ctx, req.space, rules.map(exportable), [], false, 'rules_export.ndjson');

  const w = writer(req, ctx);
  const results = { updated: [] as StoredRule[], created: [] as StoredRule[], deleted: [] as StoredRule[], skipped: [] as Array<{ id: string; name: string; skip_reason: string }> };
  for (const rule of rules) {
    let outcome: Outcome;
    try {
      outcome = perform(w, rule, body);
    } catch (err) {
      if (err instanceof EditFailure) {
        errors.push({ message: err.message, status_code: err.status, ...(dryRun && err.errCode ? { err_code: err.errCode } : {}), rule: { id: rule.id, name: rule.name } });
        continue;
      }
      if (err instanceof EmuError) {
        errors.push({ message: err.message, status_code: err.status, rule: { id: rule.id, name: rule.name } });
        continue;
      }
      throw err;
    }
    if (outcome.bucket === 'skipped') {
      results.skipped.push({ id: rule.id, name: rule.name, skip_reason: 'RULE_NOT_MODIFIED' });
      continue;
    }
    if (dryRun) {
      // A dry run validates only: what would change is reported unchanged.
      results.updated.push(rule);
      continue;
    }
    if (outcome.bucket === 'deleted') {
      deleteRule(state, rule);
      results.deleted.push(rule);
    } else {
      saveRule(state, outcome.next!);
      results[outcome.bucket].push(outcome.next!);
    }
  }
  const succeeded = results.updated.length + results.created.length + results.deleted.length;
  const summary = { failed: errors.length, skipped: results.skipped.length, succeeded, total: succeeded + errors.length + results.skipped.length };
  if (errors.length > 0) {
    return {
      status: 500,
      body: { message: succeeded > 0 ? 'Bulk edit partially failed' : 'Bulk edit failed', status_code: 500, attributes: { errors: groupErrors(errors), results, summary } },
    };
  }
  return { body: { success: true, rules_count: summary.total, attributes: { results, summary } } };
}
