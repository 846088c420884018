import { STATUS_CODES } from 'node:http';

/**
 * The server answered with a status that is neither 2xx nor one the caller accepts. The message
 * reads `POST /s/soc/api/lists -> 409 Conflict: list id: "x" already exists` and carries only the
 * method, the path (no query string), the status and the server's own message: never request
 * bodies, header values or credentials.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly method: string;
  /** The URL path as sent (base path and space prefix included, query string left out). */
  readonly path: string;
  readonly status: number;
  /** The `message` of either error shape, or a short excerpt of a non-JSON answer. */
  readonly serverMessage: string;
  /**
   * The known fields of the error body (`errorBodyOf`), or undefined when it was not a JSON object:
   * nothing else the server sent (an echo of the request, a stack) is kept to be printed.
   */
  readonly body: ErrorBody | undefined;
  /** How many attempts were made before giving up (1 when the status is not retried). */
  readonly attempts: number;
  /**
   * A write that is not safe to repeat got a gateway status (502, 503, 504): the server may have
   * carried it out. The caller must look before writing again (engine/apply.ts does).
   */
  readonly ambiguous: boolean;

  constructor(init: { method: string; path: string; status: number; serverMessage: string; body: ErrorBody | undefined; attempts: number; reason: string; ambiguous?: boolean }) {
    const detail = init.serverMessage ? `: ${init.serverMessage}` : '';
    const tries = init.attempts > 1 ? ` (after ${init.attempts} attempts)` : '';
    super(`${init.method} ${init.path} -> ${init.status} ${init.reason}${detail}${tries}`);
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.body = init.body;
    this.attempts = init.attempts;
    this.ambiguous = init.ambiguous ?? false;
  }
}

/** No answer came back: connection refused or reset, TLS failure, timeout (after any retries). */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly method: string;
  readonly path: string;
  override readonly cause: unknown;
  readonly attempts: number;
  /** The request may have reached the server and been carried out (a write not safe to repeat). */
  readonly ambiguous: boolean;

  constructor(init: { method: string; path: string; reason: string; cause: unknown; attempts: number; hint?: string; ambiguous?: boolean }) {
    const tries = init.attempts > 1 ? ` (after ${init.attempts} attempts)` : '';
    const hint = init.hint ? `; ${init.hint}` : '';
    super(`${init.method} ${init.path} failed: ${init.reason}${tries}${hint}`, { cause: init.cause });
    this.method = init.method;
    this.path = init.path;
    this.cause = init.cause;
    this.attempts = init.attempts;
    this.ambiguous = init.ambiguous ?? false;
  }
}

/** The server's answer could not be used: too large, or not the shape the route documents. */
export class ResponseError extends Error {
  override readonly name = 'ResponseError';
}

/** A space named by the manifests or the command line does not exist on the target. */
export class SpaceNotFoundError extends Error {
  override readonly name = 'SpaceNotFoundError';
  /** The first missing space, in the order the caller gave them. */
  readonly space: string;
  /** Every missing space. */
  readonly spaces: string[];

  constructor(missing: string[], target: string) {
    const others = missing.length > 1 ? ` (also missing: ${missing.slice(1).map((s) => `"${s}"`).join(', ')})` : '';
    super(`space "${missing[0]}" does not exist on ${target}${others}`);
    this.space = missing[0];
    this.spaces = missing;
  }
}

const MAX_TEXT_EXCERPT = 300;

/** What svcform reads of an error body: the fields of both error families (wire-facts 0.3) and of a bulk action's answer (wire-facts 2.1). */
export interface ErrorBody {
  statusCode?: number;
  status_code?: number;
  error?: string | { type?: string; reason?: string };
  message?: string | string[];
  success?: boolean;
  rules_count?: number;
  attributes?: {
    code?: string;
    agents?: string[];
    errors?: Array<{ message?: string; status_code?: number; err_code?: string; rules?: Array<{ id?: string; name?: string }> }>;
    results?: Partial<Record<'created' | 'updated' | 'deleted' | 'skipped', Array<{ id?: string; name?: string; skip_reason?: string }>>>;
    summary?: Partial<Record<'failed' | 'skipped' | 'succeeded' | 'total', number>>;
  };
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const stringIn = (o: Json, k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
const numberIn = (o: Json, k: string) => (typeof o[k] === 'number' ? (o[k] as number) : undefined);
/** The named fields of a record, each kept when its reader accepts it; absent ones left out. */
function pick<T>(o: Json, readers: Record<string, (o: Json, k: string) => unknown>): T {
  const out: Json = {};
  for (const [k, read] of Object.entries(readers)) {
    const v = read(o, k);
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}
const listOf = (readers: Record<string, (o: Json, k: string) => unknown>) => (o: Json, k: string) =>
  Array.isArray(o[k]) ? (o[k] as unknown[]).filter(isRecord).map((m) => pick(m, readers)) : undefined;
const objectOf = (readers: Record<string, (o: Json, k: string) => unknown>) => (o: Json, k: string) => (isRecord(o[k]) ? pick(o[k] as Json, readers) : undefined);
const RULE_REF = { id: stringIn, name: stringIn, skip_reason: stringIn };

/**
 * An error body reduced to the fields svcform knows (ErrorBody). Servers and proxies put other
 * things in error bodies (the request they refused, with its secrets; a stack trace): those are
 * dropped here, where the body is read, so no later code can print them.
 */
export function errorBodyOf(body: unknown): ErrorBody | undefined {
  if (!isRecord(body)) return undefined;
  return pick<ErrorBody>(body, {
    statusCode: numberIn,
    status_code: numberIn,
    error: (o, k) => (typeof o[k] === 'string' ? o[k] : isRecord(o[k]) ? pick(o[k] as Json, { type: stringIn, reason: stringIn }) : undefined),
    message: (o, k) => (typeof o[k] === 'string' ? o[k] : Array.isArray(o[k]) ? (o[k] as unknown[]).filter((m) => typeof m === 'string') : undefined),
    success: (o, k) => (typeof o[k] === 'boolean' ? o[k] : undefined),
    rules_count: numberIn,
    attributes: objectOf({
      code: stringIn,
      agents: (o, k) => (Array.isArray(o[k]) ? (o[k] as unknown[]).filter((a) => typeof a === 'string') : undefined),
      errors: listOf({ message: stringIn, status_code: numberIn, err_code: stringIn, rules: listOf(RULE_REF) }),
      results: objectOf({ created: listOf(RULE_REF), updated: listOf(RULE_REF), deleted: listOf(RULE_REF), skipped: listOf(RULE_REF) }),
      summary: objectOf({ failed: numberIn, skipped: numberIn, succeeded: numberIn, total: numberIn }),
    }),
  });
}

/**
 * The server's message from either error family (wire-facts 0.3): platform
 * `{statusCode, error, message}` and security app `{message, status_code}`; search-backend errors
 * nested as `{error: {reason}}` are read too. A non-JSON answer (a proxy's HTML page) is cut short,
 * after `redact`: a secret the cut would halve is then hidden whole, not printed in part.
 */
export function serverMessageOf(body: ErrorBody | undefined, text: string, redact: (text: string) => string = (t) => t): string {
  if (body) {
    if (typeof body.message === 'string' && body.message) return redact(body.message);
    // Security routes answer a list of problems as the message itself (rule request validation).
    if (Array.isArray(body.message)) return redact(body.message.join(', '));
    if (typeof body.error === 'object' && body.error.reason !== undefined) return redact(body.error.reason);
    return '';
  }
  const trimmed = redact(text.trim().replace(/\s+/g, ' '));
  return trimmed.length > MAX_TEXT_EXCERPT ? `${trimmed.slice(0, MAX_TEXT_EXCERPT)}...` : trimmed;
}

/** The reason phrase: the platform body's `error` when it has one, else the standard phrase. */
export function reasonOf(status: number, body: ErrorBody | undefined): string {
  const error = body?.error;
  if (typeof error === 'string' && error) return error;
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * Replaces every occurrence of a secret with `(redacted)`: servers and proxies sometimes echo an
 * Authorization header or a token back in their message, and errors end up in CI logs.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && out.includes(secret)) out = out.split(secret).join('(redacted)');
  }
  return out;
}

/**
 * A failure after which the server may or may not hold the write: no answer, a server error or
 * 429, or any failure of a request that was tried more than once (an earlier try may have landed).
 * Such a write is settled by reading back (engine/confirm.ts, a bulk write's read-back).
 */
export function outcomeUnknown(err: unknown): boolean {
  if (err instanceof TransportError) return true;
  return err instanceof ApiError && (err.ambiguous || err.status >= 500 || err.status === 429 || err.attempts > 1);
}
