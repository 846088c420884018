import { CONNECTOR_TYPES } from '../connectors/types.js';

/**
 * The case configuration request bodies, checked the way the cases plugin checks them: io-ts
 * codecs decoded with `decodeWithExcessOrThrow` (cases common/types/api/configure/v1.ts:
 * ConfigurationRequestRt for POST, ConfigurationPatchRequestRt for PATCH; server/common/
 * runtime_types.ts), so a missing or wrong field and an unknown key are 400s. Messages follow the
 * io-ts reporter the plugin uses (kbn-securitysolution-io-ts-utils formatErrors): a codec's own
 * message, else `Invalid value "<value>" supplied to "<key path>"` with array indices left out of
 * the path, each message once, joined by commas; `invalid keys "<k1>,<k2>"` for excess keys.
 * Field rules from the OpenAPI document at b76003905 (Cases_set_case_configuration_request,
 * Cases_update_case_configuration_request) and the codecs (cases common/schema limitedStringSchema,
 * limitedArraySchema, regexStringRt; common/constants): at most 10 custom fields and 10 templates;
 * keys of a-z, 0-9, `_` and `-` up to 36 characters; labels and template names 1 to 50 characters
 * and template descriptions up to 1,000, each measured trimmed; a template's `caseFields` is
 * required (null for none); at most 10 tags a template, each 1 to 50 characters trimmed.
 */

export const OWNERS = ['cases', 'observability', 'securitySolution'];
export const CLOSURE_TYPES = ['close-by-user', 'close-by-pushing'];
/** `.none` plus every connector type that supports the cases feature (the emulator's connector types). */
export const CASE_CONNECTOR_TYPES = ['.none', ...CONNECTOR_TYPES.filter((t) => t.featureIds.includes('cases')).map((t) => t.id)];
export const MAX_CUSTOM_FIELDS = 10;
/** common/constants: MAX_TEMPLATES_LENGTH, MAX_TAGS_PER_TEMPLATE, MAX_TEMPLATE_TAG_LENGTH. */
export const MAX_TEMPLATES = 10;
export const MAX_TAGS_PER_TEMPLATE = 10;
const KEY = /^[a-z0-9_-]+$/;

type Check = (value: unknown, path: string, errors: string[]) => void;

const shown = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
const fail = (errors: string[], value: unknown, path: string) => errors.push(`Invalid value "${shown(value)}" supplied to "${path}"`);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const str = (opts: { min?: number; max?: number } = {}): Check => (v, path, errors) => {
  if (typeof v !== 'string' || (opts.min !== undefined && v.length < opts.min) || (opts.max !== undefined && v.length > opts.max)) fail(errors, v, path);
};
const oneOf = (values: unknown[]): Check => (v, path, errors) => {
  if (!values.includes(v)) fail(errors, v, path);
};
const bool: Check = (v, path, errors) => {
  if (typeof v !== 'boolean') fail(errors, v, path);
};
/** An array's members are checked at the array's own path: the reporter leaves indices out. */
const arrayOf = (item: Check): Check => (v, path, errors) => {
  if (!Array.isArray(v)) return fail(errors, v, path);
  v.forEach((x) => item(x, path, errors));
};
/** limitedStringSchema: the text's length once trimmed, from min to max, in the codec's own words. */
const limited = (fieldName: string, min: number, max: number): Check => (v, path, errors) => {
  if (typeof v !== 'string') return fail(errors, v, path);
  const trimmed = v.trim();
  if (trimmed.length === 0 && min > 0) errors.push(`The ${fieldName} field cannot be an empty string.`);
  else if (trimmed.length < min) errors.push(`The length of the ${fieldName} is too short. The minimum length is ${min}.`);
  else if (trimmed.length > max) errors.push(`The length of the ${fieldName} is too long. The maximum length is ${max}.`);
};
/** limitedArraySchema: the members first; the length only when they all pass. */
const limitedArray = (item: Check, fieldName: string, max: number): Check => (v, path, errors) => {
  if (!Array.isArray(v)) return fail(errors, v, path);
  const before = errors.length;
  v.forEach((x) => item(x, path, errors));
  if (errors.length === before && v.length > max) errors.push(`The length of the field ${fieldName} is too long. Array must be of length <= ${max}.`);
};
/** A custom field's or template's key: regexStringRt over limitedStringSchema. */
const key: Check = (v, path, errors) => {
  const before = errors.length;
  limited('key', 1, 36)(v, path, errors);
  if (errors.length === before && !KEY.test(v as string)) errors.push("Key must be lower case, a-z, 0-9, '_', and '-' are allowed");
};

interface Field {
  check: Check;
  required?: boolean;
}

/** An exact object: required and optional keys checked, unknown keys collected as excess. */
function exact(fields: Record<string, Field>): Check {
  return (v, path, errors) => {
    if (!isObject(v)) return fail(errors, v, path);
    for (const [key, field] of Object.entries(fields)) {
      const at = path ? `${path},${key}` : key;
      if (v[key] === undefined) {
        if (field.required) fail(errors, undefined, at);
        continue;
      }
      field.check(v[key], at, errors);
    }
  };
}

/** Unknown keys anywhere in the object tree the codecs declare (io-ts exactCheck reports them all at once). */
function excessKeys(value: unknown, shape: Record<string, unknown>): string[] {
  if (!isObject(value)) return [];
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (!(key in shape)) out.push(key);
    else if (isObject(shape[key])) out.push(...excessKeys(v, shape[key] as Record<string, unknown>));
    else if (Array.isArray(shape[key]) && Array.isArray(v)) for (const x of v) out.push(...excessKeys(x, (shape[key] as Record<string, unknown>[])[0]));
  }
  return out;
}

const connector: Check = (v, path, errors) => {
  exact({
    id: { check: str(), required: true },
    name: { check: str(), required: true },
    type: { check: oneOf(CASE_CONNECTOR_TYPES), required: true },
    fields: { check: (f, p, e) => (f === null || isObject(f) ? undefined : fail(e, f, p)) },
  })(v, path, errors);
  // `fields` is required but may be null; the none connector takes nothing else.
  if (isObject(v) && !('fields' in v)) fail(errors, undefined, `${path},fields`);
  if (isObject(v) && v.type === '.none' && v.fields !== null && v.fields !== undefined) fail(errors, v.fields, `${path},fields`);
};

const customField = exact({
  key: { check: key, required: true },
  label: { check: limited('label', 1, 50), required: true },
  type: { check: oneOf(['text', 'toggle']), required: true },
  required: { check: bool, required: true },
  defaultValue: { check: (v, p, e) => (v === null || typeof v === 'string' || typeof v === 'boolean' ? undefined : fail(e, v, p)) },
});

const template = exact({
  key: { check: key, required: true },
  name: { check: limited('name', 1, 50), required: true },
  description: { check: limited('description', 0, 1000) },
  tags: { check: limitedArray(limited("template's tag", 1, 50), "template's tags", MAX_TAGS_PER_TEMPLATE) },
  // Required, null for none: rt.strict({caseFields: rt.union([rt.null, CaseBaseOptionalFieldsRequestRt])}).
  caseFields: { check: (v, p, e) => (v === null || isObject(v) ? undefined : fail(e, v, p)), required: true },
});

const observableType = exact({ key: { check: str({ min: 1 }), required: true }, label: { check: str({ min: 1, max: 50 }), required: true } });

const COMMON: Record<string, Field> = {
  closure_type: { check: oneOf(CLOSURE_TYPES) },
  connector: { check: connector },
  customFields: { check: limitedArray(customField, 'customFields', MAX_CUSTOM_FIELDS) },
  templates: { check: limitedArray(template, 'templates', MAX_TEMPLATES) },
  observableTypes: { check: arrayOf(observableType) },
};

const SHAPE_COMMON = {
  closure_type: true,
  connector: { id: true, name: true, type: true, fields: true },
  customFields: [{ key: true, label: true, type: true, required: true, defaultValue: true }],
  // caseFields is an open object here: its own codec is not modelled key by key.
  templates: [{ key: true, name: true, description: true, tags: true, caseFields: true }],
  observableTypes: [{ key: true, label: true }],
};

export interface ConfigurationBody {
  owner?: string;
  closure_type?: string;
  connector?: { id: string; name: string; type: string; fields: Record<string, unknown> | null };
  customFields?: Array<{ key: string; label: string; type: string; required: boolean; defaultValue?: unknown }>;
  templates?: unknown[];
  observableTypes?: unknown[];
  version?: string;
}

function decode(body: unknown, fields: Record<string, Field>, shape: Record<string, unknown>): ConfigurationBody {
  const errors: string[] = [];
  exact(fields)(body, '', errors);
  if (errors.length === 0) {
    const excess = excessKeys(body, shape);
    if (excess.length) errors.push(`invalid keys "${excess.join(',')}"`);
  }
  if (errors.length) throw new ConfigurationBodyError([...new Set(errors)].join(','));
  const keys = ((body as ConfigurationBody).customFields ?? []).map((f) => f.key);
  const duplicated = keys.filter((k, i) => keys.indexOf(k) !== i);
  if (duplicated.length) throw new ConfigurationBodyError(`Invalid duplicated custom field keys in request: ${[...new Set(duplicated)].join(',')}`);
  return body as ConfigurationBody;
}

export class ConfigurationBodyError extends Error {}

/** POST /api/cases/configure (ConfigurationRequestRt: owner, closure_type and connector required). */
export function decodeCreate(body: unknown): ConfigurationBody {
  return decode(
    body,
    { ...COMMON, owner: { check: str(), required: true }, closure_type: { ...COMMON.closure_type, required: true }, connector: { ...COMMON.connector, required: true } },
    { ...SHAPE_COMMON, owner: true },
  );
}

/** PATCH /api/cases/configure/{id} (ConfigurationPatchRequestRt: everything optional but version; no owner). */
export function decodePatch(body: unknown): ConfigurationBody {
  return decode(body, { ...COMMON, version: { check: str(), required: true } }, { ...SHAPE_COMMON, version: true });
}
