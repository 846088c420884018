import {
  array, boolean, catchall, enumOf, int, literal, nonEmptyString, nullable, number, object, optional, string, union, unknown, withDefault,
  type Schema,
} from '../../zod.js';
import { isValidDateMath } from '@svcform/query/date-math.js';

/**
 * The field schemas of a detection rule request, as the server's generated ones declare them
 * (K-DE/model/rule_schema/common_attributes.gen.ts, rule_schemas.gen.ts and
 * specific_attributes/*.gen.ts; OpenAPI components Security_Detections_API_*). Every object here
 * strips unknown keys, as the generated `z.object`s do; `params` and `meta` keep everything.
 */

export const RULE_TYPES = ['query', 'saved_query', 'eql', 'qlang', 'threshold', 'threat_match', 'machine_learning', 'new_terms'] as const;
export type RuleType = (typeof RULE_TYPES)[number];
export const SEVERITIES = ['low', 'medium', 'high', 'critical'];
export const NOTIFY_WHEN = ['onActiveAlert', 'onThrottleInterval', 'onActionGroupChange'];
export const EXCEPTION_LIST_TYPES = ['detection', 'rule_default', 'endpoint', 'endpoint_trusted_apps', 'endpoint_trusted_devices', 'endpoint_events', 'endpoint_host_isolation_exceptions', 'endpoint_blocklists'];

const opt = optional;
const str = () => string();
const openObject = () => object({}, 'open');

/** RuleIntervalFrom: date math as the server's isValidDateMath takes it (query/date-math.ts). */
const dateMath = () => string({ refine: [(s: string) => (isValidDateMath(s) ? undefined : 'Failed to parse date-math expression')] });

/** RuleActionThrottle: `no_actions`, `rule` or a duration. */
export const THROTTLE_PATTERN = /^[1-9]\d*[smhd]$/;
const throttle = () => union([enumOf(['no_actions', 'rule']), string({ regex: THROTTLE_PATTERN })]);

/**
 * RuleActionAlertsFilter: an open object in the route's schema; the rules client checks it
 * (alerts-filter.ts).
 */
export const alertsFilter = openObject();

export const frequency = object({ summary: boolean(), notifyWhen: enumOf(NOTIFY_WHEN), throttle: nullable(throttle()) });

/** RuleAction: `action_type_id` is required; the server does not fill it from the connector (wire-facts §15 fact 1). */
export const ruleAction = object({
  action_type_id: str(),
  group: opt(str()),
  id: str(),
  params: openObject(),
  uuid: opt(nonEmptyString()),
  alerts_filter: opt(alertsFilter),
  frequency: opt(frequency),
});

const threatEntry = () => object({ id: str(), name: str(), reference: str() });
const threat = object({
  framework: str(),
  tactic: threatEntry(),
  technique: opt(array(object({ id: str(), name: str(), reference: str(), subtechnique: opt(array(threatEntry())) }))),
});

/**
 * Response actions (K-DE/model/rule_response_actions/response_actions.gen.ts; the OpenAPI document's
 * Security_Detections_API_ResponseAction, whose endpoint params lack the newer runscript form). The
 * product's response-action type `.hostquery` is the renamed `.osquery` (wire-facts glossary).
 */
const ecsMapping = () => catchall(object({ field: opt(str()), value: opt(union([str(), array(str())])) }));
const hostQueryQuery = object({
  id: str(), query: str(), ecs_mapping: opt(ecsMapping()), version: opt(str()), platform: opt(str()), removed: opt(boolean()), snapshot: opt(boolean()),
});
const hostQueryParams = object({
  query: opt(str()), ecs_mapping: opt(ecsMapping()), queries: opt(array(hostQueryQuery)), pack_id: opt(str()), saved_query_id: opt(str()), timeout: opt(number()),
});
const runScriptOs = () => opt(object({ scriptId: opt(str()), scriptInput: opt(str()), timeout: opt(int()) }));
export const endpointParams = union([
  object({ command: literal('isolate'), comment: opt(str()) }),
  object({ command: enumOf(['kill-process', 'suspend-process']), comment: opt(str()), config: object({ field: str(), overwrite: withDefault(boolean(), true) }) }),
  object({ command: opt(literal('runscript')), comment: opt(str()), config: opt(object({ linux: runScriptOs(), macos: runScriptOs(), windows: runScriptOs() })) }),
]);
const responseAction = union([
  object({ action_type_id: literal('.hostquery'), params: hostQueryParams }),
  object({ action_type_id: literal('.endpoint'), params: endpointParams }),
]);

/** BaseRequiredFields, then BaseOptionalFields, then BaseDefaultableFields: zod reports in this order. */
export const BASE_REQUIRED: Record<string, Schema> = {
  name: string({ min: 1 }),
  description: string({ min: 1 }),
  risk_score: int(0, 100),
  severity: enumOf(SEVERITIES),
};

export const BASE_OPTIONAL: Record<string, Schema> = {
  rule_name_override: opt(str()),
  timestamp_override: opt(str()),
  timestamp_override_fallback_disabled: opt(boolean()),
  timeline_id: opt(str()),
  timeline_title: opt(str()),
  outcome: opt(enumOf(['exactMatch', 'aliasMatch', 'conflict'])),
  alias_target_id: opt(str()),
  alias_purpose: opt(enumOf(['savedObjectConversion', 'savedObjectImport'])),
  license: opt(str()),
  note: opt(str()),
  building_block_type: opt(str()),
  output_index: opt(str()),
  namespace: opt(str()),
  meta: opt(openObject()),
  investigation_fields: opt(object({ field_names: array(nonEmptyString(), { min: 1 }) })),
  throttle: opt(throttle()),
  response_actions: opt(array(responseAction)),
};

export const BASE_DEFAULTABLE: Record<string, Schema> = {
  version: opt(int(1)),
  tags: opt(array(str())),
  enabled: opt(boolean()),
  risk_score_mapping: opt(array(object({ field: str(), operator: literal('equals'), value: str(), risk_score: opt(int(0, 100)) }))),
  severity_mapping: opt(array(object({ field: str(), operator: literal('equals'), severity: enumOf(SEVERITIES), value: str() }))),
  interval: opt(str()),
  from: opt(dateMath()),
  to: opt(str()),
  actions: opt(array(ruleAction)),
  exceptions_list: opt(array(object({ id: nonEmptyString(), list_id: nonEmptyString(), type: enumOf(EXCEPTION_LIST_TYPES), namespace_type: enumOf(['agnostic', 'single']) }))),
  author: opt(array(str())),
  false_positives: opt(array(str())),
  references: opt(array(str())),
  max_signals: opt(int(1)),
  threat: opt(array(threat)),
  setup: opt(str()),
  related_integrations: opt(array(object({ package: nonEmptyString(), version: nonEmptyString(), integration: opt(nonEmptyString()) }))),
  // RequiredFieldInput: `ecs` is computed by the server, so a sent one is stripped.
  required_fields: opt(array(object({ name: nonEmptyString(), type: nonEmptyString() }))),
};

const suppressionDuration = () => object({ value: int(1), unit: enumOf(['s', 'm', 'h']) });
const alertSuppression = () =>
  object({ group_by: array(str(), { min: 1, max: 3 }), duration: opt(suppressionDuration()), missing_fields_strategy: opt(enumOf(['doNotSuppress', 'suppress'])) });
const kqlLanguage = () => enumOf(['kuery', 'lucene']);

const threshold = object({
  field: union([str(), array(str(), { max: 5 })]),
  value: int(1),
  cardinality: opt(array(object({ field: str(), value: int(0) }))),
});

const threatMapping = array(
  object({ entries: array(object({ field: nonEmptyString(), type: literal('mapping'), value: nonEmptyString(), negate: opt(boolean()) })) }),
  { min: 1 },
);

const searchFields = () => ({ index: opt(array(str())), data_view_id: opt(str()), filters: opt(array(unknown())) });

/**
 * Each type's own fields in the order of its Required, Optional and Defaultable parts. `query`
 * of threshold, threat_match and new_terms is required by the server; `queryRequired: false`
 * follows service-api.md instead, whose list of type-specific required fields leaves it out.
 */
export function typeFields(type: RuleType, queryRequired: boolean): Record<string, Schema> {
  const query = queryRequired ? str() : opt(str());
  switch (type) {
    case 'eql':
      return { type: literal('eql'), query: str(), language: literal('eql'), ...searchFields(), event_category_override: opt(str()), tiebreaker_field: opt(str()), timestamp_field: opt(str()), alert_suppression: opt(alertSuppression()) };
    case 'query':
      return { type: literal('query'), ...searchFields(), saved_id: opt(str()), alert_suppression: opt(alertSuppression()), query: opt(str()), language: opt(kqlLanguage()) };
    case 'saved_query':
      return { type: literal('saved_query'), saved_id: str(), ...searchFields(), alert_suppression: opt(alertSuppression()), query: opt(str()), language: opt(kqlLanguage()) };
    case 'threshold':
      // Threshold rules suppress by their own threshold fields, so they take a duration only.
      return { type: literal('threshold'), query, threshold, ...searchFields(), saved_id: opt(str()), alert_suppression: opt(object({ duration: suppressionDuration() })), language: opt(kqlLanguage()) };
    case 'threat_match':
      return {
        type: literal('threat_match'), query, threat_query: str(), threat_mapping: threatMapping, threat_index: array(str()), ...searchFields(), saved_id: opt(str()),
        threat_filters: opt(array(unknown())), threat_indicator_path: opt(str()), threat_language: opt(kqlLanguage()), concurrent_searches: opt(int(1)), items_per_search: opt(int(1)),
        alert_suppression: opt(alertSuppression()), language: opt(kqlLanguage()),
      };
    case 'machine_learning':
      return { type: literal('machine_learning'), anomaly_threshold: int(0), machine_learning_job_id: union([str(), array(str(), { min: 1 })]), alert_suppression: opt(alertSuppression()) };
    case 'new_terms':
      return { type: literal('new_terms'), query, new_terms_fields: array(str(), { min: 1, max: 3 }), history_window_start: nonEmptyString(), ...searchFields(), alert_suppression: opt(alertSuppression()), language: opt(kqlLanguage()) };
    case 'qlang':
      return { alert_suppression: opt(alertSuppression()), type: literal('qlang'), language: literal('qlang'), query: str() };
  }
}

export function isRuleType(v: unknown): v is RuleType {
  return typeof v === 'string' && (RULE_TYPES as readonly string[]).includes(v);
}

