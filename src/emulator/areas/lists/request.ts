import { EmuError } from '../../errors.js';

// Route-schema failures come back in the platform shape (wire-facts 0.3), worded as zod words them.
const bodyError = (message: string) => new EmuError(400, `[request body]: ${message}`, 'platform');
const queryError = (message: string) => new EmuError(400, `[request query]: ${message}`, 'platform');

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function bodyObject(body: unknown): Record<string, any> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bodyError(`Expected object, received ${typeName(body)}`);
  return body as Record<string, any>;
}

export function requiredString(body: Record<string, any>, name: string): string {
  const v = body[name];
  if (v === undefined) throw bodyError(`${name}: Required`);
  if (typeof v !== 'string') throw bodyError(`${name}: Expected string, received ${typeName(v)}`);
  if (v.length === 0) throw bodyError(`${name}: String must contain at least 1 character(s)`);
  return v;
}

export function optionalString(body: Record<string, any>, name: string): string | undefined {
  return body[name] === undefined ? undefined : requiredString(body, name);
}

export function optionalMeta(body: Record<string, any>): Record<string, unknown> | undefined {
  const v = body.meta;
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bodyError(`meta: Expected object, received ${typeName(v)}`);
  return v;
}

export function optionalVersion(body: Record<string, any>): number | undefined {
  const v = body.version;
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw bodyError(`version: Expected integer, received ${typeName(v)}`);
  if (v < 1) throw bodyError('version: Number must be greater than or equal to 1');
  return v;
}

export function optionalRefresh(body: Record<string, any>): void {
  const v = body.refresh;
  if (v !== undefined && v !== 'true' && v !== 'false' && v !== 'wait_for') {
    throw bodyError(`refresh: Invalid enum value. Expected 'true' | 'false' | 'wait_for', received '${String(v)}'`);
  }
}

export function rejectUnknownKeys(body: Record<string, any>, allowed: string[]): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length) throw bodyError(`Unrecognized key(s) in object: ${extra.map((k) => `'${k}'`).join(', ')}`);
}

export function requiredQuery(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  if (v === null) throw queryError(`${name}: Required`);
  if (v === '') throw queryError(`${name}: String must contain at least 1 character(s)`);
  return v;
}

export function optionalQuery(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null || v === '' ? undefined : v;
}

/** Boolean query flags are the strings `true` and `false` on the wire. */
export function queryFlag(q: URLSearchParams, ...names: string[]): boolean {
  for (const name of names) {
    const v = q.get(name);
    if (v === null) continue;
    if (v !== 'true' && v !== 'false') throw queryError(`${name}: Invalid enum value. Expected 'true' | 'false', received '${v}'`);
    return v === 'true';
  }
  return false;
}
