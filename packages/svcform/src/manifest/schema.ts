import type { ErrorObject } from 'ajv';
import type { DocPath } from './types.js';
import { parsePointer } from '../common/pointer.js';
import { escapeControls, shortText } from './short-text.js';
import { closest } from '@svcform/query/suggest.js';

export { closest, SUGGEST_MAX_CHARS } from '@svcform/query/suggest.js';

export { packageRoot, schemaValidator } from './validators.js';

export interface SchemaIssue {
  /** Path of the value the message is about (for positions). */
  path: DocPath;
  message: string;
}

/** Longer field paths keep their start and end around an ellipsis. */
const FIELD_PATH_MAX = 200;

/**
 * `spec.actions[0].id` from ['spec', 'actions', 0, 'id']. A very long key is shortened with an
 * ellipsis, and so is the path of a deeply nested value (its start and its end are what locate it).
 */
export function displayField(path: DocPath): string {
  let out = '';
  for (const step of path) {
    if (typeof step === 'number') out += `[${step}]`;
    else out += out ? `.${shortText(step)}` : shortText(step);
    if (out.length > 4 * FIELD_PATH_MAX) break;
  }
  if (out.length > FIELD_PATH_MAX) {
    let tail = '';
    for (let i = path.length - 1; i >= 0 && tail.length < FIELD_PATH_MAX / 2; i--) {
      const step = path[i];
      tail = (typeof step === 'number' ? `[${step}]` : `.${shortText(step)}`) + tail;
    }
    out = `${out.slice(0, FIELD_PATH_MAX / 2)}…${tail}`;
  }
  return out || '(document)';
}

function pointerToPath(pointer: string, value: unknown): DocPath {
  if (!pointer) return [];
  const out: DocPath = [];
  let cur: any = value;
  for (const seg of parsePointer(pointer)) {
    const step: string | number = Array.isArray(cur) && /^\d+$/.test(seg) ? Number(seg) : seg;
    out.push(step);
    cur = cur?.[step as any];
  }
  return out;
}

/**
 * The patterns of schemas/ in words. A regular expression tells a user little; an unknown pattern
 * is still shown as is.
 */
export const PATTERN_WORDS: Record<string, string> = {
  '^[a-z0-9_-]+$': 'lower-case letters, digits, _ and - only',
  '^/spec(/([^~]|~[01])*)+$': 'a JSON Pointer into the manifest starting with /spec/ (e.g. /spec/enabled)',
  '^[0-9]+[smhd]$': 'a duration such as 30s, 5m, 1h or 1d',
  '^[1-9][0-9]*[smhd]$': 'a duration such as 30s, 5m, 1h or 1d',
  '^[1-9][0-9]*[dhms]$': 'a duration such as 30s, 5m, 4h or 1d',
  '^[1-9][0-9]*[dwMy]$': 'an interval such as 1d, 2w, 1M or 1y',
  // An agent policy's duration settings (fleet agent_policy_settings.tsx); the class also holds `|`, as the server's does.
  '^(\\d+[s|m|h])?$': 'a whole number and s, m or h, such as 30s, 5m or 2h, or "" (none)',
  '^(no_actions|rule|[1-9][0-9]*[smhd])$': 'no_actions, rule, or a duration such as 1h',
  '^[^A-Z\\-*\\\\/?"<>| ,#]+$': 'lower-case, without spaces or any of - * \\ / ? " < > | , #',
  '^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$': 'a version such as 1.60.0',
  '^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$': 'a weekday MO, TU, WE, TH, FR, SA or SU, optionally numbered (e.g. +1MO, -1FR)',
  '^\\S+$': 'without spaces',
  '^[Hh][Tt][Tt][Pp][Ss]?://': 'a URL starting with http:// or https://',
  '^#[0-9a-fA-F]{6}$': 'a hex colour such as #0077cc',
  '^#[a-zA-Z0-9]{6}$': '# and 6 letters or digits, a colour such as #BD271E',
  '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$': 'a date and time with a T and a time zone, such as 2026-11-29T01:00:00Z or 2026-11-29T01:00+01:00',
  '^(data:image|$)': "a data URL starting with data:image, or '' (no image)",
  '^(#[0-9a-fA-F]{6})?$': 'a hex colour such as #0077cc, or "" (no avatar)',
  '^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$': 'lower-case letters, digits, _ and -, starting and ending with a letter or digit',
  '^\\./': 'a path starting with ./ (e.g. ./runbooks/paging.md)',
  '^(?:[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?)(?:\\.(?:[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?))*$': 'dot-separated segments of lower-case letters, digits, _ and -, each starting and ending with a letter or digit (e.g. soc.alerts.by_host)',
  '^[A-Za-z_][A-Za-z0-9_]*$': 'letters, digits and _, not starting with a digit',
  '\\S': 'not blank',
  '^(?!.*\\.\\.)[^/]+$': 'without / or ..',
  '^[1-9][0-9]*$': 'a positive whole number',
  '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$': 'text without control characters such as a newline or a tab',
  '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$': 'lower-case letters, digits and - only, starting and ending with a letter or digit',
};

export const FORMAT_WORDS: Record<string, string> = {
  uri: 'a full URL such as https://example.com/path',
  'date-time': 'a date and time with a time zone, such as 2026-11-29T01:00:00Z',
  date: 'a date such as 2026-11-29',
  email: 'an email address',
  hostname: 'a host name',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  'time-zone': 'an IANA time zone such as Europe/Berlin, America/New_York or UTC',
};

const TYPE_WORDS: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  null: 'null',
};

const ITEM_WORDS: Record<string, string> = { object: 'mappings', array: 'lists', string: 'strings', integer: 'integers', number: 'numbers', boolean: 'booleans' };

/** "a, b or c". */
function either(words: string[]): string {
  return words.length > 2 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words.join(' or ');
}

/**
 * A mapping that names none of a form's fields is not that form: its errors (every field of the
 * form missing) would not say what is wrong, the list of forms does.
 */
function strangerTo(form: any, held: unknown): boolean {
  if (form?.type !== 'object' || !form.properties || !held || typeof held !== 'object' || Array.isArray(held)) return false;
  return !Object.keys(held).some((key) => key in form.properties);
}

/** How a form of an anyOf or oneOf reads in a message: its types, a list's item type, a mapping's required fields. */
function formWords(form: any): string[] {
  const types: unknown[] = Array.isArray(form?.type) ? form.type : [form?.type];
  return types.flatMap((type) => {
    if (typeof type !== 'string') return [];
    if (type === 'array' && typeof form.items?.type === 'string') return [`a list of ${ITEM_WORDS[form.items.type] ?? form.items.type}`];
    if (type === 'object' && Array.isArray(form.required) && form.required.length) return [`a mapping of ${form.required.join(' and ')}`];
    return [TYPE_WORDS[type] ?? type];
  });
}

export interface DescribeOptions {
  /** The root schema the errors come from: lets messages name the rule type (or connector type) a `then` branch applies to. */
  schema?: unknown;
  /** Whether the value at a path came from ${env:...} or ${file:...}: such values are never shown. */
  isSecret?(path: DocPath): boolean;
}

interface SchemaShape {
  /** Fields that select a branch (`if: {properties: {type: {const: ...}}}`), e.g. `type`, `connector_type_id`. */
  discriminators: string[];
  /** $defs used only inside `then` branches: their errors belong to the selected type too. */
  branchDefs: Set<string>;
}

const shapes = new WeakMap<object, SchemaShape>();

function shapeOf(schema: unknown): SchemaShape | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  let shape = shapes.get(schema);
  if (shape) return shape;
  const discriminators = new Set<string>();
  const inBranch = new Set<string>();
  const outside = new Set<string>();
  const defs = ((schema as any).$defs ?? {}) as Record<string, unknown>;
  const walk = (node: unknown, branch: boolean, seen: Set<string>) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'if' && child && typeof child === 'object') {
        for (const [field, cond] of Object.entries((child as any).properties ?? {})) if (cond && typeof cond === 'object' && 'const' in cond) discriminators.add(field);
      } else if (key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')) {
        const name = child.slice('#/$defs/'.length);
        (branch ? inBranch : outside).add(name);
        if (!seen.has(name)) walk(defs[name], branch, new Set([...seen, name]));
      } else if (key !== '$defs') walk(child, branch || key === 'then', seen);
    }
  };
  walk(schema, false, new Set());
  shape = { discriminators: [...discriminators], branchDefs: new Set([...inBranch].filter((d) => !outside.has(d))) };
  shapes.set(schema, shape);
  return shape;
}

/** The JSON value at a JSON-Schema-style path such as `#/properties/spec/allOf/4/if`. */
function schemaAt(schema: unknown, schemaPath: string): any {
  let node: any = schema;
  for (const seg of parsePointer(schemaPath.replace(/^#/, ''))) {
    if (seg === '') continue;
    node = node?.[seg];
  }
  return node;
}

/**
 * Turns ajv's errors into one message per problem, naming the field as a user wrote it. Wrapper
 * errors (if/then, allOf) are dropped; the concrete errors underneath them say what is wrong.
 */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, value: unknown, options: DescribeOptions = {}): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const seen = new Set<string>();
  const push = (path: DocPath, message: string) => {
    const key = `${JSON.stringify(path)}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ path, message });
  };
  const all = errors ?? [];
  const shape = shapeOf(options.schema);
  const spec = (value as any)?.spec;
  const valueAt = (path: DocPath): unknown => path.reduce<any>((v, step) => v?.[step], value);
  const secret = (path: DocPath) => options.isSecret?.(path) ?? false;
  const shown = (path: DocPath): string => {
    if (secret(path)) return '(sensitive)';
    const v = valueAt(path);
    // JSON.stringify leaves DEL, C1 controls and line separators as they are.
    if (typeof v === 'string') return escapeControls(JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v));
    if (Array.isArray(v)) return 'a list';
    if (v && typeof v === 'object') return 'a mapping';
    return String(v);
  };

  // For `then` branches and the $defs only they use: " for type threshold", " for connector_type_id .webhook".
  const branchNote = (e: ErrorObject, path: DocPath, fromDefs = true): string => {
    if (path[0] !== 'spec' || !spec || typeof spec !== 'object') return '';
    const then = e.schemaPath.indexOf('/then/');
    if (then >= 0 && options.schema) {
      const cond = schemaAt(options.schema, e.schemaPath.slice(0, then) + '/if');
      for (const [field, c] of Object.entries((cond?.properties ?? {}) as Record<string, any>)) {
        if (c && typeof c === 'object' && 'const' in c) return ` for ${field} ${String(c.const)}`;
        // A condition on one of several values names the one the object holds (command kill-process).
        const held = valueAt([...path, field]);
        if (c && typeof c === 'object' && Array.isArray(c.enum) && c.enum.includes(held)) return ` for ${field} ${String(held)}`;
      }
      // A branch inside a definition is about that object, not about the spec's type.
      if (e.schemaPath.startsWith('#/$defs/')) return '';
    }
    const def = /^#\/\$defs\/([^/]+)\//.exec(e.schemaPath)?.[1];
    if (fromDefs && def && shape?.branchDefs.has(def)) {
      const field = shape.discriminators.find((d) => typeof spec[d] === 'string');
      if (field) return ` for ${field} ${spec[field]}`;
    }
    return '';
  };

  // anyOf/oneOf: keep the errors of the alternative whose type fits the value (its other errors
  // say what is wrong); when none fits, one message lists the types that would.
  const hidden = new Set<ErrorObject>();
  const alternatives = new Map<ErrorObject, string>();
  for (const e of all) {
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') continue;
    const prefix = `${e.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const sub of all) {
      if (sub === e || !sub.schemaPath.startsWith(prefix) || !sub.instancePath.startsWith(e.instancePath)) continue;
      const branch = sub.schemaPath.slice(prefix.length).split('/')[0];
      branches.set(branch, [...(branches.get(branch) ?? []), sub]);
      hidden.add(sub);
    }
    if (branches.size === 0) continue;
    const held = valueAt(pointerToPath(e.instancePath, value));
    const forms = Array.isArray(e.schema) ? (e.schema as unknown[]) : [];
    const fitting = [...branches.entries()].find(([branch, subs]) => !subs.some((s) => s.keyword === 'type' && s.instancePath === e.instancePath) && !strangerTo(forms[Number(branch)], held))?.[1];
    if (fitting) {
      for (const s of fitting) hidden.delete(s);
      hidden.add(e);
    } else {
      const types = forms.flatMap(formWords);
      if (types.length > 0) alternatives.set(e, either([...new Set(types)]));
    }
  }

  for (const e of all) {
    if (hidden.has(e)) continue;
    const path = pointerToPath(e.instancePath, value);
    const field = displayField(path);
    const p = e.params as Record<string, any>;
    switch (e.keyword) {
      case 'if':
      case 'allOf':
      case 'propertyNames': // the nested error on the name says what is wrong
        break;
      case 'required': {
        push(path, `${displayField([...path, p.missingProperty])} is required${branchNote(e, path)}`);
        break;
      }
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        const prop = p.additionalProperty ?? p.unevaluatedProperty;
        const known = Object.keys((e.parentSchema as any)?.properties ?? {});
        const at = [...path, prop];
        if (known.length === 0 && (e.parentSchema as any)?.additionalProperties === false) {
          push(at, `${displayField(at)} is not allowed: ${field} takes no fields${branchNote(e, path)}`);
        } else {
          const hint = closest(prop, known);
          // A short list of what is allowed helps where there is no likely typo to point at.
          const list = !hint && known.length > 0 && known.length <= 8 ? ` (known fields: ${known.join(', ')})` : '';
          push(at, `${displayField(at)} is not a known field${branchNote(e, path)}${hint ? ` (did you mean ${hint}?)` : list}`);
        }
        break;
      }
      case 'enum': {
        // The empty string is shown as "" (else the list has a hole), and never suggested.
        const allowed = (p.allowedValues as unknown[]).map((v) => (v === '' ? '""' : String(v)));
        const v = valueAt(path);
        const hint = typeof v === 'string' && !secret(path) ? closest(v, (p.allowedValues as unknown[]).filter((c) => c !== '').map(String)) : undefined;
        const choices = allowed.length <= 3 ? allowed.join(', ').replace(/, ([^,]*)$/, ' or $1') : `one of: ${allowed.join(', ')}`;
        push(path, `${field} must be ${choices}${branchNote(e, path, false)}, not ${shown(path)}${hint ? ` (did you mean ${hint}?)` : ''}`);
        break;
      }
      case 'const':
        push(path, `${field} must be ${JSON.stringify(p.allowedValue)}${branchNote(e, path, false)}, not ${shown(path)}`);
        break;
      case 'type':
        push(path, `${field} must be ${String(p.type).split(',').map((t) => TYPE_WORDS[t] ?? t).join(' or ')}, not ${shown(path)}`);
        break;
      case 'maximum':
      case 'minimum':
      case 'exclusiveMaximum':
      case 'exclusiveMinimum':
        push(path, `${field} must be ${p.comparison} ${p.limit}`);
        break;
      case 'minLength':
        push(path, p.limit === 1 ? `${field} must not be empty` : `${field} must be at least ${p.limit} characters`);
        break;
      case 'maxLength':
        push(path, `${field} must be at most ${p.limit} characters`);
        break;
      case 'pattern': {
        const words = PATTERN_WORDS[p.pattern as string];
        push(path, `${field} must be ${words ?? `text matching ${p.pattern}`}, not ${shown(path)}`);
        break;
      }
      case 'format':
        push(path, `${field} must be ${FORMAT_WORDS[p.format as string] ?? `a valid ${p.format}`}, not ${shown(path)}`);
        break;
      case 'minItems':
        push(path, p.limit === 1 ? `${field} must not be empty` : `${field} must have at least ${p.limit} items`);
        break;
      case 'maxItems':
        push(path, `${field} must have at most ${p.limit} item${p.limit === 1 ? '' : 's'}`);
        break;
      case 'uniqueItems': {
        // ajv reports the later copy as i and the earlier one as j: point at the repetition.
        const later = Math.max(p.i, p.j);
        const earlier = Math.min(p.i, p.j);
        push([...path, later], `${displayField([...path, later])} repeats ${displayField([...path, earlier])}: the items of ${field} must be unique`);
        break;
      }
      case 'minProperties':
      case 'maxProperties': {
        const names = Object.keys((e.parentSchema as any)?.properties ?? {});
        if (p.limit === 1 && names.length > 1) {
          push(path, `${field} must set ${e.keyword === 'maxProperties' ? 'only ' : ''}one of: ${names.join(', ')}`);
        } else if (e.keyword === 'minProperties') {
          push(path, p.limit === 1 ? `${field} must not be empty` : `${field} must have at least ${p.limit} entries`);
        } else push(path, `${field} must have at most ${p.limit} entr${p.limit === 1 ? 'y' : 'ies'}`);
        break;
      }
      case 'not': {
        const together = (e.schema as any)?.required as string[] | undefined;
        const target = valueAt(path);
        if (together && (!target || typeof target !== 'object' || together.some((k) => !(k in (target as object))))) {
          break; // `required` holds vacuously for a non-object: the type error says what is wrong
        }
        if (together && together.length > 1) {
          push([...path, together[1]], `${together.map((k) => displayField([...path, k])).join(' and ')} cannot be used together${branchNote(e, path)}`);
        } else push(path, `${field} is not allowed here`);
        break;
      }
      case 'false schema': {
        const note = branchNote(e, path);
        push(path, `${field} is not allowed${note || ' here'}`);
        break;
      }
      case 'dependentRequired':
        push(path, `${displayField([...path, p.property])} requires ${displayField([...path, p.missingProperty])}`);
        break;
      case 'anyOf':
      case 'oneOf': {
        const types = alternatives.get(e);
        push(path, types ? `${field} must be ${types}, not ${shown(path)}` : `${field} does not match any of the allowed forms`);
        break;
      }
      default:
        push(path, `${field} ${e.message ?? 'is invalid'}`);
    }
  }
  return out;
}
