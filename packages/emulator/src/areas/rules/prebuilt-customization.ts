import { buildNewRule, ruleParameters, type Writer } from './build.js';
import { assetAt } from './prebuilt-catalog.js';
import type { StoredRule } from './state.js';

/**
 * `rule_source` of a prebuilt rule as the real server computes it after every write
 * (K-DE/rule_management/logic/detection_rules_client/mergers/rule_source/calculate_is_customized.ts):
 * the rule is compared field by field with the asset of its own version (its base) with defaults
 * applied; any difference in a customisable field makes it customised, and the differing fields
 * are reported by their diffable names (data_source for index, rule_schedule for interval...).
 * Without a base version the rule counts as customised.
 */

/** Fields that are not rule content (convert_rule_to_diffable.ts leaves them out of the diffable rule). */
const NOT_CONTENT = new Set(['rule_id', 'enabled', 'actions', 'exceptions_list', 'response_actions', 'author', 'license', 'meta', 'namespace', 'output_index', 'throttle', 'version', 'outcome', 'alias_target_id', 'alias_purpose']);

/** Arrays compared without regard to order. */
const SET_LIKE = new Set(['tags', 'index', 'references', 'false_positives']);

const GROUPED: Record<string, string> = {
  index: 'data_source',
  data_view_id: 'data_source',
  interval: 'rule_schedule',
  from: 'rule_schedule',
  to: 'rule_schedule',
  timeline_id: 'timeline_template',
  timeline_title: 'timeline_template',
  building_block_type: 'building_block',
};

const QUERY_FIELDS = new Set(['query', 'language', 'filters', 'saved_id']);

/** The diffable field a rule field belongs to. */
export function diffableFieldName(field: string, type: string): string {
  if (QUERY_FIELDS.has(field)) return type === 'eql' ? 'eql_query' : type === 'esql' || type === 'qlang' ? 'esql_query' : 'kql_query';
  return GROUPED[field] ?? field;
}

function comparable(field: string, value: unknown): string {
  if (SET_LIKE.has(field) && Array.isArray(value)) return JSON.stringify([...value].map((v) => JSON.stringify(v)).sort());
  return stable(value);
}

function stable(v: unknown): string {
  const sort = (x: any): any => {
    if (Array.isArray(x)) return x.map(sort);
    if (x && typeof x === 'object') return Object.fromEntries(Object.keys(x).sort().filter((k) => x[k] !== undefined).map((k) => [k, sort(x[k])]));
    return x;
  };
  return JSON.stringify(sort(v) ?? null);
}

/** The rule fields (not diffable names) in which `params` differs from `base`. */
export function changedContentFields(base: Record<string, any>, params: Record<string, any>): string[] {
  const keys = new Set([...Object.keys(base), ...Object.keys(params)]);
  return [...keys].filter((k) => !NOT_CONTENT.has(k) && comparable(k, base[k]) !== comparable(k, params[k])).sort();
}

/** A prebuilt asset as the stored rule it would install (server defaults filled in). */
export function assetAsRule(w: Writer, asset: Record<string, any>): Record<string, any> {
  return ruleParameters(buildNewRule(w, asset));
}

export function prebuiltRuleSource(w: Writer, rule: StoredRule): Record<string, unknown> {
  const asset = assetAt(rule.rule_id, rule.version);
  if (!asset) return { type: 'external', is_customized: true, customized_fields: [], has_base_version: false };
  const fields = changedContentFields(assetAsRule(w, asset), ruleParameters(rule));
  const names = [...new Set(fields.map((f) => diffableFieldName(f, rule.type)))].sort();
  return { type: 'external', is_customized: names.length > 0, customized_fields: names.map((field_name) => ({ field_name })), has_base_version: true };
}

/** The source of a freshly installed prebuilt rule (equal to its base). */
export const pristineSource = () => ({ type: 'external', is_customized: false, customized_fields: [], has_base_version: true });
