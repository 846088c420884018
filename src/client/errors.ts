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
  /** The parsed response body (or undefined when it was not JSON). */
  readonly body: unknown;
  /** How many attempts were made before giving up (1 when the status is not retried). */
  readonly attempts: number;
  /**
   * A write that is not safe to repeat got a gateway status (502, 503, 504): the server may have
   * carried it out. The caller must look before writing again (engine/apply.ts does).
   */
  readonly ambiguous: boolean;

  constructor(init: { method: string; path: string; status: number; serverMessage: string; body: unknown; attempts: number; reason: string; ambiguous?: boolean }) {
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

/**
 * The server's message from either error family (wire-facts 0.3): platform
 * `{statusCode, error, message}` and security app `{message, status_code}`; search-backend errors
 * nested as `{error: {reason}}` are read too. A non-JSON answer (a proxy's HTML page) is cut short.
 */
export function serverMessageOf(body: unknown, text: string): string {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.message === 'string' && record.message) return record.message;
    // Security routes answer a list of problems as the message itself (rule request validation).
    if (Array.isArray(record.message) && record.message.every((m) => typeof m === 'string')) return record.message.join(', ');
    const error = record.error;
    if (error && typeof error === 'object' && typeof (error as Record<string, unknown>).reason === 'string') {
      return (error as Record<string, string>).reason;
    }
    return '';
  }
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > MAX_TEXT_EXCERPT ? `${trimmed.slice(0, MAX_TEXT_EXCERPT)}...` : trimmed;
}

/** The reason phrase: the platform body's `error` when it has one, else the standard phrase. */
export function reasonOf(status: number, body: unknown): string {
  const error = body && typeof body === 'object' ? (body as Record<string, unknown>).error : undefined;
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
