import { EmuError } from './errors.js';

/**
 * A small request-body parser that behaves the way the server's generated zod (v4) schemas do on
 * the security routes, so that the emulator accepts, strips and rejects exactly what they do:
 *
 * - plain objects STRIP keys they do not know (the rule schemas are `z.object`, never strict:
 *   K-DE/model/rule_schema/rule_request_schema.test.ts "strips any unknown values"); `strict`
 *   objects refuse them; `open` objects keep them (`z.object({}).catchall(z.unknown())`);
 * - a missing required key is parsed as `undefined`, so its message is the field's own type error;
 * - a union answers with its first option that parses, else with every option's issues, whose
 *   paths are relative to the union (as zod v4 reports `invalid_union` errors);
 * - messages are zod v4's English ones; the route joins them as `path: message` and keeps five
 *   (kbn-zod-helpers/v4/stringify_zod_error.ts).
 *
 * A parser returns the parsed (stripped) value; the issues it found go into the list it is given.
 */

export type Path = Array<string | number>;
export interface Issue {
  path: Path;
  message: string;
  /** A failed check or refinement, after which zod goes on (`continue: true`); type errors abort. */
  soft?: boolean;
}

export interface Schema<T = any> {
  parse(value: unknown, path: Path, issues: Issue[]): T;
  /** Whether an object may leave the key out. */
  readonly optional?: boolean;
}

export type Refinement = (value: any) => string | undefined;

export function received(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN';
  return typeof v;
}

const quote = (v: unknown) => (typeof v === 'string' ? `"${v}"` : String(v));
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeIssue(issues: Issue[], path: Path, expected: string, v: unknown): void {
  issues.push({ path, message: `Invalid input: expected ${expected}, received ${received(v)}` });
}

/** Runs refinements after the type checks, as superRefine does. */
function refined<T>(value: T, path: Path, issues: Issue[], refinements: Refinement[]): T {
  for (const refine of refinements) {
    const message = refine(value);
    if (message) issues.push({ path, message, soft: true });
  }
  return value;
}

export function string(opts: { min?: number; regex?: RegExp; refine?: Refinement[] } = {}): Schema<string> {
  return {
    parse(v, path, issues) {
      if (typeof v !== 'string') return (typeIssue(issues, path, 'string', v), v as any);
      if (opts.min !== undefined && v.length < opts.min) issues.push({ path, message: `Too small: expected string to have >=${opts.min} characters`, soft: true });
      if (opts.regex && !opts.regex.test(v)) issues.push({ path, message: `Invalid string: must match pattern ${opts.regex}`, soft: true });
      return refined(v, path, issues, opts.refine ?? []);
    },
  };
}

/** kbn-zod-helpers NonEmptyString: at least one character, and not only whitespace. */
export const nonEmptyString = () => string({ min: 1, refine: [(s: string) => (s.trim() === '' ? 'No empty strings allowed' : undefined)] });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuid = (): Schema<string> => string({ refine: [(s: string) => (UUID.test(s) ? undefined : 'Invalid UUID')] });

export function number(opts: { int?: boolean; min?: number; max?: number } = {}): Schema<number> {
  return {
    parse(v, path, issues) {
      if (typeof v !== 'number' || Number.isNaN(v)) return (typeIssue(issues, path, 'number', v), v as any);
      if (opts.int && !Number.isInteger(v)) {
        typeIssue(issues, path, 'int', v);
        return v;
      }
      if (opts.min !== undefined && v < opts.min) issues.push({ path, message: `Too small: expected number to be >=${opts.min}`, soft: true });
      if (opts.max !== undefined && v > opts.max) issues.push({ path, message: `Too big: expected number to be <=${opts.max}`, soft: true });
      return v;
    },
  };
}

export const int = (min?: number, max?: number) => number({ int: true, min, max });

export const boolean = (): Schema<boolean> => ({
  parse(v, path, issues) {
    if (typeof v !== 'boolean') typeIssue(issues, path, 'boolean', v);
    return v as boolean;
  },
});

export function literal(value: string): Schema<string> {
  return {
    parse(v, path, issues) {
      if (v !== value) issues.push({ path, message: `Invalid input: expected ${quote(value)}` });
      return v as string;
    },
  };
}

export function enumOf(values: readonly string[]): Schema<string> {
  return {
    parse(v, path, issues) {
      if (typeof v !== 'string' || !values.includes(v)) issues.push({ path, message: `Invalid option: expected one of ${values.map(quote).join('|')}` });
      return v as string;
    },
  };
}

export function array<T>(item: Schema<T>, opts: { min?: number; max?: number } = {}): Schema<T[]> {
  return {
    parse(v, path, issues) {
      if (!Array.isArray(v)) return (typeIssue(issues, path, 'array', v), v as any);
      if (opts.min !== undefined && v.length < opts.min) issues.push({ path, message: `Too small: expected array to have >=${opts.min} items`, soft: true });
      if (opts.max !== undefined && v.length > opts.max) issues.push({ path, message: `Too big: expected array to have <=${opts.max} items`, soft: true });
      return v.map((x, i) => item.parse(x, [...path, i], issues));
    },
  };
}

/** Anything (`z.unknown()`), kept as sent. */
export const unknown = (): Schema => ({ parse: (v) => v });

export type Shape = Record<string, Schema>;
export type UnknownKeys = 'strip' | 'strict' | 'open';

export interface ObjectSchema extends Schema<Record<string, any>> {
  readonly shape: Shape;
}

/** An object of known keys; what happens to other keys depends on `unknownKeys` (see the top). */
export function object(shape: Shape, unknownKeys: UnknownKeys = 'strip'): ObjectSchema {
  return {
    shape,
    parse(v, path, issues) {
      if (!isPlainObject(v)) return (typeIssue(issues, path, 'object', v), v as any);
      const out: Record<string, any> = {};
      for (const [key, schema] of Object.entries(shape)) {
        const value = v[key];
        if (value === undefined && schema.optional) continue;
        const parsed = schema.parse(value, [...path, key], issues);
        if (parsed !== undefined) out[key] = parsed;
      }
      const extra = Object.keys(v).filter((k) => !(k in shape));
      if (unknownKeys === 'open') for (const k of extra) out[k] = v[k];
      if (unknownKeys === 'strict' && extra.length) {
        issues.push({ path, message: `Unrecognized key${extra.length > 1 ? 's' : ''}: ${extra.map(quote).join(', ')}` });
      }
      return out;
    },
  };
}

/** Every key of the shape made optional (zod's `.partial()`). */
export const partial = (shape: Shape): Shape => Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, optional(s)]));

export function optional<T>(schema: Schema<T>): Schema<T | undefined> {
  if (schema.optional) return schema;
  return { optional: true, parse: (v, path, issues) => (v === undefined ? undefined : schema.parse(v, path, issues)) };
}

/** `.optional().default(value)`: a value left out parses as the default. */
export function withDefault<T>(schema: Schema<T>, value: T): Schema<T> {
  return { parse: (v, path, issues) => (v === undefined ? structuredClone(value) : schema.parse(v, path, issues)) };
}

/** `z.object({}).catchall(schema)`: any key, each value parsed by `schema`. */
export function catchall<T>(schema: Schema<T>): Schema<Record<string, T>> {
  return {
    parse(v, path, issues) {
      if (!isPlainObject(v)) return (typeIssue(issues, path, 'object', v), v as any);
      return Object.fromEntries(Object.entries(v).map(([key, value]) => [key, schema.parse(value, [...path, key], issues)]));
    },
  };
}

export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  return { optional: schema.optional, parse: (v, path, issues) => (v === null ? null : schema.parse(v, path, issues)) };
}

/**
 * zod v4's union: the first option that parses without issues; else, when exactly one option failed
 * only on checks it could go on past (no type error), that option's issues at their full paths;
 * else every option's issues, with paths relative to the union, which is how stringifyZodError
 * prints an `invalid_union`'s inner errors.
 */
export function union(options: Schema[]): Schema {
  return {
    parse(v, path, issues) {
      const results: Array<{ value: unknown; issues: Issue[] }> = [];
      for (const option of options) {
        const own: Issue[] = [];
        const value = option.parse(v, [], own);
        if (own.length === 0) return value;
        results.push({ value, issues: own });
      }
      const softOnly = results.filter((r) => r.issues.every((i) => i.soft));
      if (softOnly.length === 1) {
        issues.push(...softOnly[0].issues.map((i) => ({ ...i, path: [...path, ...i.path] })));
        return softOnly[0].value;
      }
      issues.push(...results.flatMap((r) => r.issues));
      return v;
    },
  };
}

/** A union picked by the value of one key (`z.discriminatedUnion`). */
export function discriminated(key: string, options: Record<string, Schema>): Schema {
  return {
    parse(v, path, issues) {
      if (!isPlainObject(v)) return (typeIssue(issues, path, 'object', v), v);
      const tag = v[key];
      const option = typeof tag === 'string' && Object.prototype.hasOwnProperty.call(options, tag) ? options[tag] : undefined;
      if (!option) {
        issues.push({ path: [...path, key], message: 'Invalid input' });
        return v;
      }
      return option.parse(v, path, issues);
    },
  };
}

const MAX_ISSUES = 5;

/** The route's message: `path: message` joined by ", ", five at most then "and N more". */
export function formatIssues(issues: Issue[]): string {
  const lines = issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  if (lines.length > MAX_ISSUES) return [...lines.slice(0, MAX_ISSUES), `and ${lines.length - MAX_ISSUES} more`].join(', ');
  return lines.join(', ');
}

/** Parses a whole body; returns the parsed value or the formatted issues. */
export function parseBody<T>(schema: Schema<T>, body: unknown): { value: T; issues: Issue[] } {
  const issues: Issue[] = [];
  const value = schema.parse(body, [], issues);
  return { value, issues };
}

/**
 * A route-schema failure: a platform-shaped 400 even on security routes (wire-facts 0.3), its
 * message prefixed with the request part (`[request body]: name: ...`).
 */
export function requestIssuesError(issues: Issue[], namespace = 'request body'): EmuError {
  return new EmuError(400, `[${namespace}]: ${formatIssues(issues)}`, 'platform');
}

/** A request part as the route schema leaves it (unknown keys stripped), or the route's 400. */
export function parseRequest<T>(schema: Schema<T>, value: unknown, namespace = 'request body'): T {
  const { value: parsed, issues } = parseBody(schema, value);
  if (issues.length) throw requestIssuesError(issues, namespace);
  return parsed;
}
