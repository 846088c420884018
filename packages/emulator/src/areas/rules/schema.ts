import { BASE_DEFAULTABLE, BASE_OPTIONAL, BASE_REQUIRED, RULE_TYPES, typeFields, type RuleType } from './fields.js';
import {
  array, boolean, discriminated, int, nonEmptyString, object, optional, partial, string, union, unknown, uuid,
  type Issue, type Schema,
} from '../../zod.js';

export { RULE_TYPES, SEVERITIES, NOTIFY_WHEN, isRuleType, type RuleType } from './fields.js';

/**
 * The request bodies of the rule routes, built from the field schemas the way the server composes
 * its own (K-DE/model/rule_schema/rule_schemas.gen.ts; import_rules/rule_to_import.ts):
 * RuleCreateProps and RuleUpdateProps are unions discriminated by `type`; RulePatchProps is a plain
 * union whose first member that parses wins; RuleToImport is create props AND the response fields.
 * Unknown keys are stripped everywhere, never refused (rule_request_schema.test.ts "strips any
 * unknown values").
 */

export interface SchemaOptions {
  /** Whether threshold, threat_match and new_terms need `query` (the server) or not (service-api.md). */
  queryRequired: boolean;
}

const shared = (type: RuleType, o: SchemaOptions) => ({ ...BASE_REQUIRED, ...BASE_OPTIONAL, ...BASE_DEFAULTABLE, ...typeFields(type, o.queryRequired) });
const byType = (make: (type: RuleType) => Schema) => Object.fromEntries(RULE_TYPES.map((t) => [t, make(t)]));

export const createSchema = (o: SchemaOptions) => discriminated('type', byType((t) => object({ ...shared(t, o), rule_id: optional(string()) })));

/**
 * RulePreviewRequestBody: each type's create props merged with the preview parameters, discriminated
 * by `type` (K-DE rule_preview/rule_preview_request_body.ts; OAS Security_Detections_API_RulePreviewParams).
 */
export const previewSchema = (o: SchemaOptions, previewParams: Record<string, Schema>) =>
  discriminated('type', byType((t) => object({ ...shared(t, o), rule_id: optional(string()), ...previewParams })));

export const updateSchema = (o: SchemaOptions) =>
  discriminated('type', byType((t) => object({ ...shared(t, o), id: optional(uuid()), rule_id: optional(string()) })));

/** The order of RulePatchProps: EQL first, so a body without `type` is read as an EQL patch. */
const PATCH_ORDER: RuleType[] = ['eql', 'query', 'saved_query', 'threshold', 'threat_match', 'machine_learning', 'new_terms', 'qlang'];

/** The fields a patch of one rule type takes, all optional (`<Type>RulePatchFields`). */
export const typePatchSchema = (type: RuleType) => object(partial(typeFields(type, true)));

/**
 * RulePatchProps. On 9.4.3 a patch without `type` matches the EQL member first, which strips the
 * fields EQL rules do not have: such a patch of `threshold` or `new_terms_fields` is a silent no-op
 * (elastic/kibana#287579, fixed after 9.4.3 by #288917).
 */
export const patchSchema = () =>
  union(
    PATCH_ORDER.map((t) =>
      object({ ...partial(BASE_REQUIRED), ...BASE_OPTIONAL, ...BASE_DEFAULTABLE, id: optional(uuid()), rule_id: optional(string()), ...typePatchSchema(t).shape }),
    ),
  );

/** ResponseFields.partial() as RuleToImport takes them, with a required rule_id. */
const IMPORT_RESPONSE_FIELDS: Record<string, Schema> = {
  id: optional(uuid()),
  rule_id: string(),
  immutable: optional(boolean()),
  rule_source: optional(object({ type: string(), is_customized: optional(boolean()) }, 'open')),
  updated_at: optional(string()),
  updated_by: optional(string()),
  created_at: optional(string()),
  created_by: optional(string()),
  revision: optional(int(0)),
  required_fields: optional(array(object({ name: nonEmptyString(), type: nonEmptyString() }))),
  execution_summary: optional(unknown()),
};

/** RuleToImport: the create props and the response fields together; all issues of both parts. */
export function importSchema(o: SchemaOptions): Schema {
  const ruleSchema = createSchema(o);
  const responseFields = object(IMPORT_RESPONSE_FIELDS);
  return {
    parse(v, path, issues) {
      const rule = ruleSchema.parse(v, path, issues);
      const response = responseFields.parse(v, path, issues);
      return { ...rule, ...response };
    },
  };
}

/** The response fields an import line may carry; the server ignores them when it imports. */
export const RESPONSE_ONLY_FIELDS = [
  'id', 'created_at', 'created_by', 'updated_at', 'updated_by', 'revision', 'immutable', 'rule_source',
  'execution_summary', 'outcome', 'alias_target_id', 'alias_purpose',
];

/**
 * The route's checks after the schema (crud/create_rule/request_schema_validation.ts and the
 * update one): answered as a security 400 whose `message` is the list of problems. An imported
 * rule gets the timeline and threshold checks (import_rules/rule_to_import_validation.ts).
 */
export function ruleRequestProblems(body: Record<string, any>, mode: 'create' | 'update' | 'import'): string[] {
  const problems: string[] = [];
  if (mode === 'update') {
    if (body.id != null && body.rule_id != null) problems.push('both "id" and "rule_id" cannot exist, choose one or the other');
    else if (body.id == null && body.rule_id == null) problems.push('either "id" or "rule_id" must be set');
  }
  if (body.timeline_id != null) {
    if (body.timeline_title == null) problems.push('when "timeline_id" exists, "timeline_title" must also exist');
    else if (body.timeline_id === '') problems.push('"timeline_id" cannot be an empty string');
  }
  if (body.timeline_title != null) {
    if (body.timeline_id == null) problems.push('when "timeline_title" exists, "timeline_id" must also exist');
    else if (body.timeline_title === '') problems.push('"timeline_title" cannot be an empty string');
  }
  if (mode === 'create' && body.type === 'threat_match') {
    if (body.concurrent_searches != null && body.items_per_search == null) problems.push('when "concurrent_searches" exists, "items_per_search" must also exist');
    if (body.concurrent_searches == null && body.items_per_search != null) problems.push('when "items_per_search" exists, "concurrent_searches" must also exist');
  }
  if (body.type === 'threshold' && body.threshold) {
    const { field, cardinality } = body.threshold;
    if (cardinality?.length && field?.includes?.(cardinality[0].field)) problems.push('Cardinality of a field that is being aggregated on is always 1');
  }
  return problems;
}

/** Checks on a whole rule that are not about one field: answered as security-shaped 400s. */
export function ruleConsistencyProblem(rule: Record<string, unknown>): string | undefined {
  // service-api.md Detection engine: "data_view_id | cannot be combined with index".
  if (rule.data_view_id !== undefined && rule.index !== undefined) {
    return 'data_view_id and index cannot be combined: a rule searches either a data view or index patterns';
  }
  return undefined;
}

export type { Issue };
