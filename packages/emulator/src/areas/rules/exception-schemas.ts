import { array, discriminated, enumOf, literal, nonEmptyString, object, optional, string, union, type Schema } from '../../zod.js';
import { LIST_TYPES } from '../lists/values.js';

/**
 * Exception items as the security routes' zod schemas read them, with the field sets of the
 * OpenAPI document at b76003905: `Security_Exceptions_API_CreateRuleExceptionListItemProps` and
 * the entry schemas `Security_Exceptions_API_ExceptionListItemEntry{Match,MatchAny,List,Exists,
 * Nested,MatchWildcard}` (K-EXC/model/exception_list_item_entry.schema.yaml). Objects strip keys
 * they do not know.
 */

const operator = () => enumOf(['excluded', 'included']);

const match = object({ type: literal('match'), field: nonEmptyString(), value: nonEmptyString(), operator: operator() });
const matchAny = object({ type: literal('match_any'), field: nonEmptyString(), value: array(nonEmptyString(), { min: 1 }), operator: operator() });
const exists = object({ type: literal('exists'), field: nonEmptyString(), operator: operator() });

/** An entry, picked by its `type` (a discriminated union). */
export const ExceptionItemEntry: Schema = discriminated('type', {
  match,
  match_any: matchAny,
  list: object({
    type: literal('list'),
    field: nonEmptyString(),
    list: object({ id: nonEmptyString(), type: enumOf(LIST_TYPES) }),
    operator: operator(),
  }),
  exists,
  // The entries of a nested entry are one of match, match_any or exists (a plain union).
  nested: object({ type: literal('nested'), field: nonEmptyString(), entries: array(union([match, matchAny, exists]), { min: 1 }) }),
  wildcard: object({ type: literal('wildcard'), field: nonEmptyString(), value: nonEmptyString(), operator: operator() }),
});

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The fields every created exception item shares (name, description, entries required). */
export const exceptionItemShape = {
  item_id: optional(nonEmptyString()),
  type: literal('simple'),
  name: nonEmptyString(),
  description: string(),
  entries: array(ExceptionItemEntry),
  namespace_type: optional(enumOf(['agnostic', 'single'])),
  os_types: optional(array(enumOf(['linux', 'macos', 'windows']))),
  tags: optional(array(nonEmptyString())),
  meta: optional(object({}, 'open')),
  expire_time: optional(string({ refine: [(s: string) => (ISO_DATE_TIME.test(s) ? undefined : 'Invalid ISO datetime')] })),
  comments: optional(array(object({ comment: nonEmptyString() }))),
};

/** POST /api/detection_engine/rules/{id}/exceptions: `{items: CreateRuleExceptionListItemProps[]}`. */
export const CreateRuleExceptionsBody = object({ items: array(object(exceptionItemShape)) });
