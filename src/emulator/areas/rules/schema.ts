/**
 * Request-body validation of detection rules, in the wording of the server's zod validators:
 * issues are `path: message` and the route answers a platform 400 `[request body]: <issues>`
 * (wire-facts 0.3). Which fields each rule type takes and requires follows service-api.md.
 */

export const RULE_TYPES = ['query', 'saved_query', 'eql', 'qlang', 'threshold', 'threat_match', 'machine_learning', 'new_terms'] as const;
export type RuleType = (typeof RULE_TYPES)[number];
export const SEVERITIES = ['low', 'medium', 'high', 'critical'];

type Check = (value: unknown, path: string) => string[];

function received(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && Number.isNaN(v)) return 'nan';
  return typeof v;
}

const expected = (what: string, v: unknown, path: string) => [`${path}: Expected ${what}, received ${received(v)}`];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const string: Check = (v, p) => (typeof v === 'string' ? [] : expected('string', v, p));
const nonEmptyString: Check = (v, p) => (typeof v !== 'string' ? expected('string', v, p) : v.length === 0 ? [`${p}: String must contain at least 1 character(s)`] : []);
const bool: Check = (v, p) => (typeof v === 'boolean' ? [] : expected('boolean', v, p));
const anyObject: Check = (v, p) => (isObject(v) ? [] : expected('object', v, p));
const anyArray: Check = (v, p) => (Array.isArray(v) ? [] : expected('array', v, p));

function int(min?: number, max?: number): Check {
  return (v, p) => {
    if (typeof v !== 'number') return expected('number', v, p);
    if (!Number.isInteger(v)) return [`${p}: Expected integer, received float`];
    if (min !== undefined && v < min) return [`${p}: Number must be greater than or equal to ${min}`];
    if (max !== undefined && v > max) return [`${p}: Number must be less than or equal to ${max}`];
    return [];
  };
}

function enumOf(values: readonly string[]): Check {
  return (v, p) => (typeof v === 'string' && values.includes(v) ? [] : [`${p}: Invalid enum value. Expected ${values.map((x) => `'${x}'`).join(' | ')}, received '${String(v)}'`]);
}

function arrayOf(item: Check, min?: number, max?: number): Check {
  return (v, p) => {
    if (!Array.isArray(v)) return expected('array', v, p);
    if (min !== undefined && v.length < min) return [`${p}: Array must contain at least ${min} element(s)`];
    if (max !== undefined && v.length > max) return [`${p}: Array must contain at most ${max} element(s)`];
    return v.flatMap((x, i) => item(x, `${p}.${i}`));
  };
}

/** An object with known keys; unknown keys are refused like zod's strict objects do. */
function shape(fields: Record<string, Check>, required: string[] = [], open = false): Check {
  return (v, p) => {
    if (!isObject(v)) return expected('object', v, p);
    const issues: string[] = [];
    for (const key of required) if (v[key] === undefined) issues.push(`${p}.${key}: Required`);
    for (const [key, value] of Object.entries(v)) {
      if (value === undefined) continue;
      const check = fields[key];
      if (check) issues.push(...check(value, `${p}.${key}`));
      else if (!open) issues.push(`${p}: Unrecognized key(s) in object: '${key}'`);
    }
    return issues;
  };
}

const nullable = (check: Check): Check => (v, p) => (v === null ? [] : check(v, p));
const stringArray = arrayOf(nonEmptyString);
const stringOrStringArray: Check = (v, p) => (Array.isArray(v) ? arrayOf(nonEmptyString, 1)(v, p) : nonEmptyString(v, p));

export const NOTIFY_WHEN = ['onActiveAlert', 'onThrottleInterval', 'onActionGroupChange'];

const action = shape(
  {
    id: nonEmptyString,
    group: string,
    params: anyObject,
    action_type_id: nonEmptyString,
    uuid: nonEmptyString,
    frequency: shape({ summary: bool, notifyWhen: enumOf(NOTIFY_WHEN), throttle: nullable(nonEmptyString) }, ['summary', 'notifyWhen', 'throttle']),
    alerts_filter: anyObject,
  },
  ['id', 'params'],
);

const threatEntry = shape({ id: string, name: string, reference: string }, ['id', 'name', 'reference']);
const threat = shape(
  {
    framework: string,
    tactic: threatEntry,
    technique: arrayOf(shape({ id: string, name: string, reference: string, subtechnique: arrayOf(threatEntry) }, ['id', 'name', 'reference'])),
  },
  ['framework', 'tactic'],
);

const duration = shape({ value: int(1), unit: enumOf(['s', 'm', 'h']) }, ['value', 'unit']);

const COMMON_FIELDS: Record<string, Check> = {
  name: nonEmptyString,
  description: nonEmptyString,
  severity: enumOf(SEVERITIES),
  risk_score: int(0, 100),
  type: enumOf(RULE_TYPES),
  rule_id: nonEmptyString,
  actions: arrayOf(action),
  author: stringArray,
  building_block_type: string,
  enabled: bool,
  exceptions_list: arrayOf(shape({ id: nonEmptyString, list_id: nonEmptyString, type: nonEmptyString, namespace_type: enumOf(['agnostic', 'single']) }, ['id', 'list_id', 'type', 'namespace_type'])),
  false_positives: arrayOf(string),
  from: nonEmptyString,
  interval: nonEmptyString,
  investigation_fields: shape({ field_names: arrayOf(nonEmptyString, 1) }, ['field_names']),
  license: string,
  max_signals: int(1),
  meta: anyObject,
  namespace: string,
  note: string,
  output_index: string,
  references: arrayOf(string),
  related_integrations: arrayOf(shape({ package: nonEmptyString, version: nonEmptyString, integration: nonEmptyString }, ['package', 'version'])),
  required_fields: arrayOf(shape({ name: nonEmptyString, type: nonEmptyString, ecs: bool }, ['name', 'type'])),
  response_actions: arrayOf(shape({ action_type_id: enumOf(['.hostquery', '.endpoint']), params: anyObject }, ['action_type_id', 'params'])),
  risk_score_mapping: arrayOf(shape({ field: string, operator: enumOf(['equals']), value: string, risk_score: int(0, 100) }, ['field', 'operator', 'value'])),
  rule_name_override: string,
  setup: string,
  severity_mapping: arrayOf(shape({ field: string, operator: enumOf(['equals']), value: string, severity: enumOf(SEVERITIES) }, ['field', 'operator', 'value', 'severity'])),
  tags: arrayOf(string),
  threat: arrayOf(threat),
  throttle: nonEmptyString,
  timeline_id: string,
  timeline_title: string,
  timestamp_override: string,
  timestamp_override_fallback_disabled: bool,
  to: nonEmptyString,
  version: int(1),
  fields: arrayOf(string),
};

const TYPE_FIELDS: Record<string, Check> = {
  index: arrayOf(string),
  data_view_id: string,
  filters: anyArray,
  query: string,
  language: enumOf(['kuery', 'lucene', 'eql', 'qlang']),
  saved_id: string,
  alert_suppression: anyObject,
  event_category_override: string,
  tiebreaker_field: string,
  timestamp_field: string,
  threshold: shape(
    { field: (v, p) => (Array.isArray(v) ? arrayOf(string)(v, p) : string(v, p)), value: int(1), cardinality: arrayOf(shape({ field: string, value: int(0) }, ['field', 'value'])) },
    ['field', 'value'],
  ),
  threat_index: arrayOf(string),
  threat_query: string,
  threat_mapping: arrayOf(shape({ entries: arrayOf(shape({ field: nonEmptyString, type: enumOf(['mapping']), value: nonEmptyString, negate: bool }, ['field', 'type', 'value']), 1) }, ['entries']), 1),
  threat_filters: anyArray,
  threat_indicator_path: string,
  threat_language: enumOf(['kuery', 'lucene']),
  concurrent_searches: int(1),
  items_per_search: int(1),
  machine_learning_job_id: stringOrStringArray,
  anomaly_threshold: int(0),
  new_terms_fields: arrayOf(nonEmptyString, 1, 3),
  history_window_start: nonEmptyString,
};

const QUERY_LIKE = ['index', 'data_view_id', 'filters', 'query', 'language', 'alert_suppression'];

/** Type-specific fields each rule type accepts. */
export const TYPE_ALLOWED: Record<RuleType, string[]> = {
  query: [...QUERY_LIKE, 'saved_id'],
  saved_query: [...QUERY_LIKE, 'saved_id'],
  eql: [...QUERY_LIKE, 'event_category_override', 'tiebreaker_field', 'timestamp_field'],
  qlang: ['query', 'language', 'alert_suppression'],
  threshold: [...QUERY_LIKE, 'saved_id', 'threshold'],
  threat_match: [...QUERY_LIKE, 'saved_id', 'threat_index', 'threat_query', 'threat_mapping', 'threat_filters', 'threat_indicator_path', 'threat_language', 'concurrent_searches', 'items_per_search'],
  machine_learning: ['machine_learning_job_id', 'anomaly_threshold', 'alert_suppression'],
  new_terms: [...QUERY_LIKE, 'new_terms_fields', 'history_window_start'],
};

/** service-api.md Detection engine: "Type-specific required fields". */
export const TYPE_REQUIRED: Record<RuleType, string[]> = {
  query: [],
  saved_query: ['saved_id'],
  eql: ['query', 'language'],
  qlang: ['query', 'language'],
  threshold: ['threshold'],
  threat_match: ['threat_index', 'threat_query', 'threat_mapping'],
  machine_learning: ['machine_learning_job_id', 'anomaly_threshold'],
  new_terms: ['new_terms_fields', 'history_window_start'],
};

const TYPE_LANGUAGES: Record<RuleType, string[]> = {
  query: ['kuery', 'lucene'],
  saved_query: ['kuery', 'lucene'],
  eql: ['eql'],
  qlang: ['qlang'],
  threshold: ['kuery', 'lucene'],
  threat_match: ['kuery', 'lucene'],
  machine_learning: [],
  new_terms: ['kuery', 'lucene'],
};

export const REQUIRED_ON_CREATE = ['name', 'description', 'severity', 'risk_score', 'type'];

/** Fields a rule response carries that an import file may hold; they are ignored on import. */
export const RESPONSE_ONLY_FIELDS = [
  'id', 'created_at', 'created_by', 'updated_at', 'updated_by', 'revision', 'immutable', 'rule_source',
  'execution_summary', 'outcome', 'alias_target_id', 'alias_purpose',
];

export type BodyMode = 'create' | 'update' | 'patch' | 'import';

export function isRuleType(v: unknown): v is RuleType {
  return typeof v === 'string' && (RULE_TYPES as readonly string[]).includes(v);
}

/**
 * Field-level issues of a rule body for the given rule type (the body's own type, or the existing
 * rule's for a patch). Empty when the body is acceptable.
 */
export function ruleBodyIssues(body: Record<string, unknown>, mode: BodyMode, type: RuleType | undefined): string[] {
  const issues: string[] = [];
  if (mode !== 'patch') {
    for (const key of REQUIRED_ON_CREATE) if (body[key] === undefined) issues.push(`${key}: Required`);
  }
  if (body.type !== undefined && !isRuleType(body.type)) {
    issues.push(`type: Invalid discriminator value. Expected ${RULE_TYPES.map((t) => `'${t}'`).join(' | ')}`);
  }
  const ignored = new Set<string>(mode === 'import' ? [...RESPONSE_ONLY_FIELDS] : mode === 'create' ? [] : ['id', 'rule_id']);
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    // A patch names what to keep with null or absence alike (wire-facts 2.2 PATCH semantics).
    if (value === undefined || (mode === 'patch' && value === null) || ignored.has(key) || key === 'type') continue;
    const check = COMMON_FIELDS[key] ?? TYPE_FIELDS[key];
    if (!check || (TYPE_FIELDS[key] && type && !TYPE_ALLOWED[type].includes(key))) {
      unknown.push(key);
      continue;
    }
    issues.push(...check(value, key));
  }
  if (unknown.length) issues.push(`Unrecognized key(s) in object: ${unknown.map((k) => `'${k}'`).join(', ')}`);
  if (type) {
    if (mode !== 'patch') for (const key of TYPE_REQUIRED[type]) if (body[key] === undefined) issues.push(`${key}: Required`);
    const language = body.language;
    if (typeof language === 'string' && TYPE_ALLOWED[type].includes('language') && !TYPE_LANGUAGES[type].includes(language)) {
      issues.push(`language: Invalid enum value. Expected ${TYPE_LANGUAGES[type].map((x) => `'${x}'`).join(' | ')}, received '${language}'`);
    }
    if (isObject(body.alert_suppression)) issues.push(...alertSuppressionIssues(body.alert_suppression, type));
  }
  return issues;
}

function alertSuppressionIssues(value: Record<string, unknown>, type: RuleType): string[] {
  // Threshold rules suppress by their own threshold fields, so they take a duration only.
  if (type === 'threshold') return shape({ duration }, ['duration'])(value, 'alert_suppression');
  return shape(
    { group_by: arrayOf(nonEmptyString, 1, 3), duration, missing_fields_strategy: enumOf(['doNotSuppress', 'suppress']) },
    ['group_by'],
  )(value, 'alert_suppression');
}

/** Checks on a whole rule that are not about one field: answered as security-shaped 400s. */
export function ruleConsistencyProblem(rule: Record<string, unknown>): string | undefined {
  if (rule.data_view_id !== undefined && rule.index !== undefined) {
    return 'data_view_id and index cannot be combined: a rule searches either a data view or index patterns';
  }
  return undefined;
}
