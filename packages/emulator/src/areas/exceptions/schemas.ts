import { array, enumOf, int, nonEmptyString, object, optional, string } from '../../zod.js';
import { exceptionItemShape } from '../rules/exception-schemas.js';

/**
 * Request bodies of /api/exception_lists and /api/exception_lists/items, with the field sets of the
 * OpenAPI document at b76003905 (paths /api/exception_lists and /api/exception_lists/items, schemas
 * Security_Exceptions_API_*). The security routes parse them with generated zod objects, which strip
 * keys they do not know.
 */

/** Security_Exceptions_API_ExceptionListType (wire-facts 4.2). */
export const EXCEPTION_LIST_TYPES = [
  'detection', 'rule_default', 'endpoint', 'endpoint_trusted_apps', 'endpoint_trusted_devices', 'endpoint_events',
  'endpoint_host_isolation_exceptions', 'endpoint_blocklists', 'endpoint_custom_yara_signatures',
];

const namespaceType = () => enumOf(['agnostic', 'single']);
const osTypes = () => array(enumOf(['linux', 'macos', 'windows']));
const meta = () => object({}, 'open');

/** POST /api/exception_lists: required name, description, type. */
export const CreateListBody = object({
  list_id: optional(nonEmptyString()),
  // ExceptionListName and ExceptionListTags are plain strings (list_id is the NonEmptyString).
  name: string(),
  description: string(),
  type: enumOf(EXCEPTION_LIST_TYPES),
  namespace_type: optional(namespaceType()),
  os_types: optional(osTypes()),
  tags: optional(array(string())),
  meta: optional(meta()),
  version: optional(int(1)),
});

/** PUT /api/exception_lists: the create fields plus `id` or `list_id` and `_version`; `type` still required. */
export const UpdateListBody = object({
  ...CreateListBody.shape,
  id: optional(nonEmptyString()),
  _version: optional(string()),
});

/** POST /api/exception_lists/items: an exception item plus its list_id. */
export const CreateItemBody = object({ ...exceptionItemShape, list_id: nonEmptyString() });

/** PUT /api/exception_lists/items: `id` or `item_id`; comments may carry the id of a kept comment. */
export const UpdateItemBody = object({
  ...exceptionItemShape,
  id: optional(nonEmptyString()),
  list_id: optional(nonEmptyString()),
  comments: optional(array(object({ comment: nonEmptyString(), id: optional(nonEmptyString()) }))),
  _version: optional(string()),
});
