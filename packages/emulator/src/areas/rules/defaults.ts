import type { RuleType } from './schema.js';

/**
 * Defaults the server fills on create and on PUT (wire-facts 2.3, applyRuleDefaults). `rule_id`,
 * `immutable` and `rule_source` are set where rules are built; `enabled` is false, as in the code
 * (the schema text claims true).
 */
export const RULE_DEFAULTS: Record<string, unknown> = {
  enabled: false,
  max_signals: 100,
  interval: '5m',
  from: 'now-6m',
  to: 'now',
  version: 1,
  risk_score_mapping: [],
  severity_mapping: [],
  exceptions_list: [],
  false_positives: [],
  actions: [],
  related_integrations: [],
  required_fields: [],
  setup: '',
  references: [],
  threat: [],
  tags: [],
  author: [],
  output_index: '',
};

export const DEFAULT_INDICATOR_PATH = 'threat.indicator';

/** Per-type defaults and normalisations (wire-facts 2.3 "Defaults per rule type"), applied in place. */
export function applyTypeDefaults(rule: Record<string, any>, type: RuleType): void {
  if (type === 'query') {
    rule.language ??= 'kuery';
    rule.query ??= '';
  }
  if (type === 'saved_query' || type === 'threshold' || type === 'threat_match' || type === 'new_terms') rule.language ??= 'kuery';
  if (type === 'threat_match') rule.threat_indicator_path ??= DEFAULT_INDICATOR_PATH;
  normalizeTypeFields(rule);
}

/** Shape normalisations that also apply to patched values. */
export function normalizeTypeFields(rule: Record<string, any>): void {
  if (rule.threshold && typeof rule.threshold.field === 'string') {
    rule.threshold = { ...rule.threshold, field: rule.threshold.field === '' ? [] : [rule.threshold.field] };
  }
  if (typeof rule.machine_learning_job_id === 'string') rule.machine_learning_job_id = [rule.machine_learning_job_id];
}

/**
 * An action's frequency when the request gives none: derived from the deprecated rule-level
 * `throttle` (a duration throttles per interval; `rule`, `no_actions` or nothing notify on every run).
 */
export function defaultFrequency(throttle: unknown): { summary: boolean; notifyWhen: string; throttle: string | null } {
  if (typeof throttle === 'string' && /^[1-9][0-9]*[smhd]$/.test(throttle)) return { summary: true, notifyWhen: 'onThrottleInterval', throttle };
  return { summary: true, notifyWhen: 'onActiveAlert', throttle: null };
}
