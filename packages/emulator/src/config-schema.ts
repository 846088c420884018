import { badRequest } from './errors.js';

/**
 * A small model of the server's route validation library (the one Fleet and platform routes declare
 * their body schemas with), so the emulator refuses exactly what those schemas refuse and says so in
 * the same words. Behaviour reproduced here, read from the library's source
 * (src/platform/packages/shared/kbn-config-schema: types/*_type.ts, errors/validation_error.ts):
 *
 * - Every key is required unless wrapped in `maybe`; objects refuse keys they do not define
 *   ("definition for this key is missing").
 * - Validation stops at the first problem. An object checks its defined keys in declaration order
 *   first and only then looks for unknown keys.
 * - A union that no branch matches reports every branch: "types that failed validation:", then one
 *   line per branch with the branch index inserted into the path at the union's depth. A branch that
 *   failed in a union of its own keeps its children's paths as they were (no index for them).
 * - A union of a single type reports that type's problem directly.
 * - Each value of a record is validated on its own (internals/index.ts, `record` entries rule), so
 *   the record puts its path and the key in front of the problem's path; the branches of a union
 *   that failed inside a record value keep paths relative to that value.
 * - Numbers also take numeric strings, booleans the strings "true"/"false" (converted), and objects,
 *   arrays and records a JSON string of one (parsed).
 * - The route prefixes paths with its namespace: `[request body.x]: ...`.
 */

export type Schema =
  | { kind: 'string'; minLength?: number; maxLength?: number; check?: (v: string) => string | undefined }
  | { kind: 'number'; min?: number; max?: number; check?: (v: number) => string | undefined }
  | { kind: 'boolean' }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'any'; check?: (v: unknown) => string | undefined }
  | { kind: 'maybe'; inner: Schema }
  | { kind: 'oneOf'; options: Schema[] }
  | { kind: 'array'; items: Schema; minSize?: number; maxSize?: number; check?: (v: unknown[]) => string | undefined }
  | { kind: 'record'; values: Schema; check?: (v: Record<string, unknown>) => string | undefined }
  | { kind: 'object'; props: Record<string, Schema>; check?: (v: Record<string, any>) => string | undefined };

/** Builders named after the library's own, so a schema here reads like the route's declaration. */
export const schema = {
  string: (o: { minLength?: number; maxLength?: number; check?: (v: string) => string | undefined } = {}): Schema => ({ kind: 'string', ...o }),
  number: (o: { min?: number; max?: number; check?: (v: number) => string | undefined } = {}): Schema => ({ kind: 'number', ...o }),
  boolean: (): Schema => ({ kind: 'boolean' }),
  literal: (value: string | number | boolean | null): Schema => ({ kind: 'literal', value }),
  /** `check` is the declaration's `validate`: a value it returns a message for is refused with it. */
  any: (o: { check?: (v: unknown) => string | undefined } = {}): Schema => ({ kind: 'any', ...o }),
  maybe: (inner: Schema): Schema => ({ kind: 'maybe', inner }),
  oneOf: (options: Schema[]): Schema => ({ kind: 'oneOf', options }),
  /** `T | null`: the library builds it as the union [T, null]. */
  nullable: (inner: Schema): Schema => ({ kind: 'oneOf', options: [inner, { kind: 'literal', value: null }] }),
  arrayOf: (items: Schema, o: { minSize?: number; maxSize?: number; check?: (v: unknown[]) => string | undefined } = {}): Schema => ({ kind: 'array', items, ...o }),
  recordOf: (values: Schema, o: { check?: (v: Record<string, unknown>) => string | undefined } = {}): Schema => ({ kind: 'record', values, ...o }),
  /** An object of these keys only; `check` is the declaration's `validate`, run on the whole validated object. */
  object: (props: Record<string, Schema>, o: { check?: (v: Record<string, any>) => string | undefined } = {}): Schema => ({ kind: 'object', props, ...o }),
};

export interface SchemaIssue {
  message: string;
  path: string[];
  /** One per branch of a union that nothing matched. */
  branches?: SchemaIssue[];
}

type Outcome = { value: unknown; issue?: undefined } | { issue: SchemaIssue; value?: undefined };

/** What the library calls the type of a value in its messages (`Object`, `Array`, `null`, `string`, ...). */
export function typeDetect(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  if (typeof v === 'object') return 'Object';
  return typeof v;
}

const fail = (message: string, path: string[]): Outcome => ({ issue: { message, path } });

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function literalText(v: unknown): string {
  return String(v);
}

function checkUnion(options: Schema[], value: unknown, path: string[]): Outcome {
  if (value === undefined) return fail('expected at least one defined value but got [undefined]', path);
  const failures: SchemaIssue[] = [];
  for (const option of options) {
    const outcome = check(option, value, path);
    if (!outcome.issue) return outcome;
    failures.push(outcome.issue);
  }
  if (failures.length === 1) return { issue: failures[0] };
  const branches = failures.map((f, i) => ({ ...f, path: [...f.path.slice(0, path.length), String(i), ...f.path.slice(path.length)] }));
  return { issue: { message: 'types that failed validation:', path, branches } };
}

/** Objects, arrays and records also take their JSON text (the library parses it). */
function parsedJson(value: unknown, what: 'object' | 'array' | 'record', path: string[]): Outcome {
  if (typeof value !== 'string') return { value };
  try {
    return { value: JSON.parse(value) };
  } catch {
    return fail(`could not parse ${what} value from json input`, path);
  }
}

function checkObject(props: Record<string, Schema>, raw: unknown, path: string[], validate?: (v: Record<string, any>) => string | undefined): Outcome {
  const parsed = parsedJson(raw, 'object', path);
  if (parsed.issue) return parsed;
  const value = parsed.value;
  if (!isPlainObject(value)) return fail(`expected a plain object value, but found [${typeDetect(value)}] instead.`, path);
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(props)) {
    const outcome = check(prop, value[key], [...path, key]);
    if (outcome.issue) return outcome;
    if (outcome.value !== undefined) out[key] = outcome.value;
  }
  for (const key of Object.keys(value)) {
    if (!(key in props)) return fail('definition for this key is missing', [...path, key]);
  }
  const problem = validate?.(out);
  return problem ? fail(problem, path) : { value: out };
}

function check(s: Schema, value: unknown, path: string[]): Outcome {
  switch (s.kind) {
    case 'maybe':
      return value === undefined ? { value } : check(s.inner, value, path);
    case 'any': {
      if (value === undefined) return fail('expected value of type [any] but got [undefined]', path);
      const problem = s.check?.(value);
      return problem ? fail(problem, path) : { value };
    }
    case 'literal':
      return value === s.value ? { value } : fail(`expected value to equal [${literalText(s.value)}]`, path);
    case 'string': {
      if (typeof value !== 'string') return fail(`expected value of type [string] but got [${typeDetect(value)}]`, path);
      if (s.minLength !== undefined && value.length < s.minLength) {
        return fail(`value has length [${value.length}] but it must have a minimum length of [${s.minLength}].`, path);
      }
      if (s.maxLength !== undefined && value.length > s.maxLength) {
        return fail(`value has length [${value.length}] but it must have a maximum length of [${s.maxLength}].`, path);
      }
      const problem = s.check?.(value);
      return problem ? fail(problem, path) : { value };
    }
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || Number.isNaN(n)) return fail(`expected value of type [number] but got [${typeDetect(value)}]`, path);
      if (s.min !== undefined && n < s.min) return fail(`Value must be equal to or greater than [${s.min}].`, path);
      if (s.max !== undefined && n > s.max) return fail(`Value must be equal to or lower than [${s.max}].`, path);
      const problem = s.check?.(n);
      return problem ? fail(problem, path) : { value: n };
    }
    case 'boolean': {
      const b = typeof value === 'string' ? ({ true: true, false: false } as Record<string, boolean>)[value.toLowerCase()] ?? value : value;
      return typeof b === 'boolean' ? { value: b } : fail(`expected value of type [boolean] but got [${typeDetect(value)}]`, path);
    }
    case 'oneOf':
      return checkUnion(s.options, value, path);
    case 'array': {
      const parsed = parsedJson(value, 'array', path);
      if (parsed.issue) return parsed;
      value = parsed.value;
      if (!Array.isArray(value)) return fail(`expected value of type [array] but got [${typeDetect(value)}]`, path);
      const out: unknown[] = [];
      for (const [i, item] of value.entries()) {
        const outcome = check(s.items, item, [...path, String(i)]);
        if (outcome.issue) return outcome;
        out.push(outcome.value);
      }
      if (s.minSize !== undefined && value.length < s.minSize) return fail(`array size is [${value.length}], but cannot be smaller than [${s.minSize}]`, path);
      if (s.maxSize !== undefined && value.length > s.maxSize) return fail(`array size is [${value.length}], but cannot be greater than [${s.maxSize}]`, path);
      const problem = s.check?.(out);
      return problem ? fail(problem, path) : { value: out };
    }
    case 'record': {
      const parsed = parsedJson(value, 'record', path);
      if (parsed.issue) return parsed;
      value = parsed.value;
      if (!isPlainObject(value)) return fail(`expected value of type [object] but got [${typeDetect(value)}]`, path);
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        // Validated on its own: only the top problem gets the record's path and the key.
        const outcome = check(s.values, item, []);
        if (outcome.issue) return { issue: { ...outcome.issue, path: [...path, key, ...outcome.issue.path] } };
        out[key] = outcome.value;
      }
      const problem = s.check?.(out);
      return problem ? fail(problem, path) : { value: out };
    }
    case 'object':
      return checkObject(s.props, value, path, s.check);
  }
}

/** The message the route answers with, as the library's ValidationError words it. */
export function formatIssue(issue: SchemaIssue, namespace: string, level = 0): string {
  let message = issue.message;
  if (issue.branches) {
    const lines = issue.branches.map((b) => `${' '.repeat(level)}- ${formatIssue(b, namespace, level + 1)}`);
    message = `${message}\n${lines.join('\n')}`;
  }
  return `[${[namespace, ...issue.path].join('.')}]: ${message}`;
}

/** The validated (converted) value, or the issue; for callers that try several schemas themselves. */
export function checkValue(s: Schema, value: unknown): Outcome {
  return check(s, value, []);
}

/** Validates a request part the way the route does: the converted value, or a 400 in the route's words. */
export function validateRequest<T = Record<string, any>>(s: Schema, value: unknown, namespace = 'request body'): T {
  const outcome = check(s, value, []);
  if (outcome.issue) throw badRequest(formatIssue(outcome.issue, namespace));
  return outcome.value as T;
}
