/**
 * When to try a request again and how long to wait first. Pure functions, so the policy can be
 * tested without a server.
 */

import type { AreaPolicy } from './areas.js';

/** Exponential backoff never waits longer than this. */
export const MAX_BACKOFF_MS = 10_000;
/** A Retry-After beyond this is cut down: a run should fail visibly rather than hang for hours. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses a gateway or a busy server answers; the request may or may not have been carried out. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * Whether an answer with this status is worth repeating.
 * - 429: the server refused the request before doing anything: always.
 * - 409 only in areas whose policy says it means "locked" (Fleet, wire-facts 0.5); elsewhere it is
 *   a real conflict (duplicate id, stale `_version`). See areas.ts.
 * - 502, 503, 504 and 500 only when the request is safe to repeat (GET, a full PUT, DELETE, a
 *   create of a client-chosen id): after a gateway error a create may well have been committed,
 *   and repeating it blindly duplicates objects whose identity the server does not enforce.
 */
export function isRetryableStatus(status: number, policy: Pick<AreaPolicy, 'retryConflict'>, idempotent = true): boolean {
  if (status === 429) return true;
  if (status === 409) return policy.retryConflict;
  return idempotent && (GATEWAY_STATUSES.has(status) || status === 500);
}

/** Whether a failed answer to a write that is not safe to repeat leaves its effect unknown. */
export function isAmbiguousStatus(status: number): boolean {
  return GATEWAY_STATUSES.has(status);
}

/**
 * The wait asked for by a Retry-After header, in ms: delta-seconds or an HTTP date. Undefined when
 * the header is missing or unreadable (the caller then backs off on its own); capped at maxMs.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now(), maxMs = MAX_RETRY_AFTER_MS): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(raw)) ms = Number(raw) * 1000;
  else {
    const at = Date.parse(raw);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(Math.max(0, Math.round(ms)), maxMs);
}

/**
 * Exponential backoff with jitter after the given failed attempt (1-based): base, 2*base, 4*base...
 * plus up to half of that again at random, so clients that failed together do not retry together.
 */
export function backoffDelay(failedAttempt: number, baseMs: number, random: () => number = Math.random, maxMs = MAX_BACKOFF_MS): number {
  const exponential = baseMs * 2 ** Math.max(0, failedAttempt - 1);
  const jitter = random() * (exponential / 2);
  return Math.round(Math.min(maxMs, exponential + jitter));
}

/**
 * How a failed attempt that got no answer may be repeated:
 * - `unsent`: the request never left (connection refused, connect timeout): safe for any method;
 * - `ambiguous`: the connection broke or timed out after the request was sent; the server may have
 *   acted on it, so only idempotent requests are repeated;
 * - `fatal`: repeating cannot help (certificate rejected, unknown host, client closed, a bug).
 */
export type FailureKind = 'unsent' | 'ambiguous' | 'fatal';

export interface TransportFailure {
  kind: FailureKind;
  /** Short text for logs and errors: code and message of the underlying error. */
  reason: string;
  /** What the user can do about it (TLS failures point at the certificate options). */
  hint?: string;
}

/** The code of the error for an answer in a content encoding the client did not ask for (compression.ts). */
export const UNREADABLE_ENCODING = 'ERR_SVCFORM_CONTENT_ENCODING';
const UNSENT_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN']);
const AMBIGUOUS_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_|ERR_SSL_/;

function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

export function classifyTransportError(err: unknown): TransportFailure {
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  const reason = code && !message.includes(code) ? `${code}: ${message}` : message;
  if (!code) return { kind: 'fatal', reason };
  if (/ALERT/.test(code)) return { kind: 'fatal', reason, hint: 'the server rejected the TLS handshake; check clientCert and clientKey' };
  if (TLS_CODE.test(code)) return { kind: 'fatal', reason, hint: "the server's certificate was not trusted; pass its CA with caCert (verification stays on)" };
  if (UNSENT_CODES.has(code)) return { kind: 'unsent', reason };
  if (AMBIGUOUS_CODES.has(code)) return { kind: 'ambiguous', reason };
  // An answer that came but cannot be inflated (zlib's codes, or an encoding not asked for): the
  // request reached the server, which may have acted on it.
  if (code.startsWith('Z_') || code === UNREADABLE_ENCODING) return { kind: 'ambiguous', reason };
  return { kind: 'fatal', reason };
}
