/**
 * The HTTP client every kind adapter and the engine talk to the server through (the `Requester`
 * of src/client/types.ts), built on an undici Agent with keep-alive connections.
 *
 * - Target: `url` may carry a base path (a reverse proxy); `/s/{space}` goes immediately before the
 *   first `/api/` of the full path, none for the default space (wire-facts 0.1).
 * - Auth: exactly one Authorization header, by precedence API key, basic, bearer (service-api.md
 *   Authentication 1). An `id:secret` API key pair is base64-encoded; an encoded key is sent as is.
 * - TLS: verification is always on. `caCert` replaces the trusted roots with the given bundle (as
 *   curl's --cacert does); `clientCert` + `clientKey` present a client certificate. PEM files are
 *   read once, at construction.
 * - Headers: `kbn-xsrf: true` on every write (wire-facts 0.2), JSON bodies as application/json,
 *   `multipart` as multipart/form-data with one file part.
 * - Answers: 2xx and the statuses in `accept` resolve with the parsed JSON body (when the answer is
 *   JSON) and the raw text; anything else throws ApiError with the server's message from either
 *   error shape (wire-facts 0.3). No answer throws TransportError.
 * - Retries, up to `maxAttempts` in all: 429 always, honouring Retry-After (seconds or HTTP date,
 *   capped at 60 s); 409 in areas whose policy says so (Fleet's lock contention, wire-facts 0.5;
 *   see areas.ts); 500, 502, 503 and 504 and broken connections only for requests safe to repeat
 *   (GET, PUT, DELETE, or `idempotent: true`). A write that is not safe to repeat and got no clear
 *   answer fails with `ambiguous` set: the server may have carried it out, and the caller must look
 *   before writing again. A connection that was never established is retried whatever the method.
 *   Backoff is exponential from `retryBaseMs` with up to 50 % jitter, capped at 10 s.
 * - Bounds: each attempt (connect, headers, whole body) within `timeoutMs`, a timed-out attempt
 *   repeated once at most, nothing past `deadline`, and no answer read beyond `maxResponseBytes`.
 * - Concurrency: at most `concurrency` requests in flight, and at most the area policy's limit of
 *   one area (areas.ts), granted first come first served. A request waiting out a backoff holds no slot.
 * - Errors never carry credentials (any secret a server echoes is redacted), request bodies or
 *   header values.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent } from 'undici';
import type { ApiRequest, ApiResponse, HttpMethod, QueryValue, Requester } from './types.js';
import { ApiError, ResponseError, TransportError, errorBodyOf, reasonOf, redact, serverMessageOf } from './errors.js';
import { backoffDelay, classifyTransportError, isAmbiguousStatus, isRetryableStatus, parseRetryAfter } from './retry.js';
import { Limiter } from './limiter.js';
import { AreaPolicies, type AreaOverrides } from './areas.js';
import { withSpacePrefix } from './spaces.js';
import { ACCEPTED_ENCODING, decodedBody, isLoopbackHost } from './compression.js';

export { ApiError, ResponseError, TransportError, SpaceNotFoundError } from './errors.js';
export { validateSpaces } from './spaces.js';

export interface ClientOptions {
  /** Base URL, may include a base path (reverse proxy). */
  url: string;
  /** Encoded key string, or an `id:secret` pair (then base64-encoded by the client). */
  apiKey?: string;
  username?: string;
  password?: string;
  /** Bearer token. */
  token?: string;
  /** PEM file paths, read at construction. */
  caCert?: string;
  clientCert?: string;
  clientKey?: string;
  /** Max requests in flight overall, default 8. */
  concurrency?: number;
  /** Overrides of the per-area policies of areas.ts (in-flight limits, 409 retries). */
  areas?: AreaOverrides;
  /** Per attempt: connect, headers and the whole body; default 30000. */
  timeoutMs?: number;
  /**
   * The whole run's deadline (epoch ms): no attempt starts, and no retry waits, past it. Absent:
   * none (each attempt is still bounded by timeoutMs).
   */
  deadline?: number;
  /** Largest answer read, default 512 MiB; a larger one fails instead of filling memory. */
  maxResponseBytes?: number;
  /** Attempts in all, default 5. */
  maxAttempts?: number;
  /** First backoff, default 250 ms (exponential with jitter, capped at 10 s). */
  retryBaseMs?: number;
  userAgent?: string;
  /** Whether to ask for compressed answers (compression.ts); default: unless the server is on a loopback address. */
  compressed?: boolean;
  onRetry?: (info: RetryInfo) => void;
  /**
   * Applied to what the server says in an error (its message, its reason, a non-JSON answer)
   * before the message is made and cut to length: the CLI passes its redactor, which knows every
   * secret of the run in every encoding. The client's own credentials are redacted in any case.
   */
  redact?: (text: string) => string;
}

export interface RetryInfo {
  method: string;
  /** The URL path as sent (base path and space prefix included). */
  path: string;
  /** The number of the attempt about to be made (2 for the first retry). */
  attempt: number;
  /** How long the client waits before it. */
  delayMs: number;
  /** Why: `503 Service Unavailable`, `ECONNRESET: socket hang up`, `timeout after 60000 ms`, ... */
  reason: string;
}

export interface ClientStats {
  /** Calls of request(), each counted once however many attempts it took. */
  requests: number;
  /** Attempts beyond the first (so attempts on the wire = requests + retries). */
  retries: number;
  /** Calls of request() per area. */
  byArea: Record<string, number>;
}

// undici's entry point also loads fetch, websockets, cookies and mocks: about 55 ms of every run's
// start (measured: 86 ms against 31 ms). The client needs only the Agent class and the request
// method, which the entry point copies onto every dispatcher; both are taken from where the entry
// point takes them (the locked version's layout; every integration test goes through them).
const requireCjs = createRequire(import.meta.url);
const Agent: typeof UndiciAgent = requireCjs('undici/lib/dispatcher/agent.js');
const agentRequest: UndiciAgent['request'] = requireCjs('undici/lib/api/api-request.js');

const DEFAULTS = { concurrency: 8, timeoutMs: 30_000, maxAttempts: 5, retryBaseMs: 250, userAgent: 'svcform', maxResponseBytes: 512 * 1024 * 1024 };
/** A timed-out attempt is repeated at most this often: a server that hangs once usually hangs again. */
const MAX_TIMEOUT_RETRIES = 1;
const IDEMPOTENT_METHODS = new Set<HttpMethod>(['GET', 'PUT', 'DELETE']);
const JSON_CONTENT_TYPE = /^\s*(application|text)\/([\w.-]+\+)?json\s*(;|$)/i;
// Characters that may appear raw in a URL path; anything else is percent-encoded on the way out.
const UNSAFE_PATH_CHARS = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu;

type Attempt = { kind: 'answer'; response: ApiResponse } | { kind: 'failure'; error: unknown; timedOut: boolean; deadlineCut?: boolean } | { kind: 'tooLarge'; status: number };

export class SvcClient implements Requester {
  readonly stats: ClientStats = { requests: 0, retries: 0, byArea: {} };
  /** The base URL without any credentials, for messages ("space x does not exist on <target>"). */
  readonly target: string;
  /** Whether answers are asked for compressed (compression.ts). */
  readonly compressed: boolean;

  private readonly origin: string;
  private readonly basePath: string;
  private readonly agent: UndiciAgent;
  private readonly limiter: Limiter;
  private readonly areas: AreaPolicies;
  private readonly authorization?: string;
  private readonly secrets: string[];
  private readonly redactText: (text: string) => string;
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly deadline?: number;
  private readonly maxResponseBytes: number;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly onRetry?: (info: RetryInfo) => void;
  private closed = false;

  constructor(options: ClientOptions) {
    let base: URL;
    try {
      base = new URL(options.url);
    } catch {
      throw new TypeError(`invalid server URL "${stripCredentials(options.url)}"`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(`server URL must be http or https, got ${base.protocol}`);
    const urlUser = base.username ? decodeURIComponent(base.username) : undefined;
    const urlPassword = base.password ? decodeURIComponent(base.password) : undefined;
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.target = this.origin + this.basePath;

    const auth = authorizationFor({
      ...options,
      username: nonEmpty(options.username) ?? urlUser,
      password: nonEmpty(options.username) !== undefined ? options.password : urlPassword,
    });
    this.authorization = auth.header;
    this.secrets = auth.secrets;
    const outer = options.redact ?? ((t: string) => t);
    this.redactText = (text) => outer(redact(text, this.secrets));

    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULTS.timeoutMs);
    this.deadline = options.deadline;
    this.maxResponseBytes = positive('maxResponseBytes', options.maxResponseBytes ?? DEFAULTS.maxResponseBytes);
    this.maxAttempts = positiveInteger('maxAttempts', options.maxAttempts ?? DEFAULTS.maxAttempts);
    this.retryBaseMs = nonNegative('retryBaseMs', options.retryBaseMs ?? DEFAULTS.retryBaseMs);
    this.userAgent = options.userAgent ?? DEFAULTS.userAgent;
    this.compressed = options.compressed ?? !isLoopbackHost(base.hostname);
    this.onRetry = options.onRetry;
    this.areas = new AreaPolicies(options.areas);
    this.limiter = new Limiter(options.concurrency ?? DEFAULTS.concurrency, this.areas.concurrencyLimits());

    if (!!options.clientCert !== !!options.clientKey) throw new TypeError('clientCert and clientKey go together: give both or neither');
    this.agent = new Agent({
      // undici's own limits stay above ours, so the per-attempt timer decides and says so.
      headersTimeout: this.timeoutMs + 1000,
      bodyTimeout: this.timeoutMs + 1000,
      connect: {
        timeout: Math.min(this.timeoutMs, 10_000),
        ca: options.caCert ? readPem('caCert', options.caCert) : undefined,
        cert: options.clientCert ? readPem('clientCert', options.clientCert) : undefined,
        key: options.clientKey ? readPem('clientKey', options.clientKey) : undefined,
        rejectUnauthorized: true,
      },
    });
  }

  async request<T = any>(req: ApiRequest): Promise<ApiResponse<T>> {
    const method = req.method;
    const area = req.area ?? defaultArea(req.path);
    const { pathname, pathAndQuery } = this.urlPath(req);
    const { body, contentType } = encodeBody(req);
    const idempotent = req.idempotent ?? IDEMPOTENT_METHODS.has(method);
    const headers: Record<string, string> = { ...extraHeaders(req.headers), 'user-agent': this.userAgent };
    if (this.authorization) headers.authorization = this.authorization;
    if (method !== 'GET') headers['kbn-xsrf'] = 'true';
    if (contentType) headers['content-type'] = contentType;
    if (this.compressed) headers['accept-encoding'] = ACCEPTED_ENCODING;

    this.stats.requests += 1;
    this.stats.byArea[area] = (this.stats.byArea[area] ?? 0) + 1;

    let timeouts = 0;
    for (let attempt = 1; ; attempt += 1) {
      const release = await this.limiter.acquire(area);
      let outcome: Attempt;
      try {
        outcome = await this.send(method, pathAndQuery, headers, body);
      } finally {
        release();
      }

      let delayMs: number;
      let reason: string;
      if (outcome.kind === 'tooLarge') {
        throw new ResponseError(`${method} ${pathname} -> ${outcome.status}: the answer is larger than ${Math.round(this.maxResponseBytes / 1048576)} MiB; svcform stopped reading it`);
      }
      if (outcome.kind === 'answer') {
        const res = outcome.response;
        if ((res.status >= 200 && res.status <= 299) || req.accept?.includes(res.status)) return res as ApiResponse<T>;
        const errorBody = errorBodyOf(res.body);
        const reasonText = this.redactText(reasonOf(res.status, errorBody));
        const statusText = `${res.status} ${reasonText}`;
        const retryAfter = parseRetryAfter(res.headers['retry-after']);
        delayMs = retryAfter ?? backoffDelay(attempt, this.retryBaseMs);
        if (!isRetryableStatus(res.status, this.areas.of(area), idempotent) || attempt >= this.maxAttempts || this.pastDeadline(delayMs)) {
          throw new ApiError({
            method,
            path: pathname,
            status: res.status,
            reason: reasonText,
            serverMessage: serverMessageOf(errorBody, res.text, this.redactText),
            body: errorBody,
            attempts: attempt,
            ambiguous: !idempotent && isAmbiguousStatus(res.status),
          });
        }
        reason = retryAfter !== undefined ? `${statusText} (Retry-After ${res.headers['retry-after']})` : statusText;
      } else {
        const failure = classifyTransportError(outcome.error);
        const timeoutText = outcome.deadlineCut ? 'the run reached its --deadline' : `no complete answer within ${this.timeoutMs / 1000} s (--timeout)`;
        reason = this.redactText(outcome.timedOut ? timeoutText : failure.reason);
        const kind = outcome.timedOut ? 'ambiguous' : failure.kind;
        if (outcome.timedOut) timeouts += 1;
        const repeatable = (kind === 'unsent' || (kind === 'ambiguous' && idempotent)) && timeouts <= MAX_TIMEOUT_RETRIES;
        delayMs = backoffDelay(attempt, this.retryBaseMs);
        if (!repeatable || attempt >= this.maxAttempts || this.pastDeadline(delayMs)) {
          const hint =
            failure.hint ??
            (kind === 'ambiguous' && !idempotent ? 'not retried: the request is not idempotent and may have reached the server' : undefined);
          throw new TransportError({ method, path: pathname, reason, cause: outcome.error, attempts: attempt, hint, ambiguous: kind === 'ambiguous' && !idempotent });
        }
      }

      this.stats.retries += 1;
      this.onRetry?.({ method, path: pathname, attempt: attempt + 1, delayMs, reason });
      await sleep(delayMs);
    }
  }

  /** Waits for requests in flight to finish, then closes the connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.agent.close();
  }

  /** Whether waiting `delayMs` and trying again would end past the run's deadline (then the last answer stands). */
  private pastDeadline(delayMs: number): boolean {
    return this.deadline !== undefined && Date.now() + delayMs >= this.deadline;
  }

  private async send(method: HttpMethod, path: string, headers: Record<string, string>, body: string | Buffer | undefined): Promise<Attempt> {
    const controller = new AbortController();
    let timedOut = false;
    const budget = this.deadline !== undefined ? Math.max(1, Math.min(this.timeoutMs, this.deadline - Date.now())) : this.timeoutMs;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, budget);
    try {
      const res = await agentRequest.call(this.agent, { origin: this.origin, path, method, headers, body, signal: controller.signal });
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.maxResponseBytes) {
        controller.abort();
        return { kind: 'tooLarge', status: res.statusCode };
      }
      // An answer without a body has nothing to inflate, whatever its headers say.
      const bodiless = res.statusCode === 204 || res.statusCode === 304;
      const decoded = decodedBody(res.body, bodiless ? undefined : res.headers['content-encoding']);
      if (decoded instanceof Error) {
        controller.abort();
        return { kind: 'failure', error: decoded, timedOut: false };
      }
      // The limit holds for what the answer inflates to, not only for what came on the wire.
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of decoded) {
        size += (chunk as Buffer).length;
        if (size > this.maxResponseBytes) {
          controller.abort();
          return { kind: 'tooLarge', status: res.statusCode };
        }
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const type = res.headers['content-type'];
      return {
        kind: 'answer',
        response: { status: res.statusCode, body: parseJson(text, Array.isArray(type) ? type[0] : type), text, headers: res.headers },
      };
    } catch (error) {
      return { kind: 'failure', error, timedOut, deadlineCut: timedOut && budget < this.timeoutMs };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Base path + space prefix + request path, and the query string (arrays repeated, nulls skipped). */
  private urlPath(req: ApiRequest): { pathname: string; pathAndQuery: string } {
    const [rawPath, inlineQuery] = splitOnce(req.path.startsWith('/') ? req.path : `/${req.path}`, '?');
    const safePath = rawPath.replace(UNSAFE_PATH_CHARS, (c) => encodeURIComponent(c)).replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
    const pathname = withSpacePrefix(this.basePath + safePath, req.space, this.basePath.length);
    const query = encodeQuery(req.query);
    const search = [inlineQuery, query].filter((q) => q).join('&');
    return { pathname, pathAndQuery: search ? `${pathname}?${search}` : pathname };
  }
}

function authorizationFor(o: ClientOptions): { header?: string; secrets: string[] } {
  const apiKey = nonEmpty(o.apiKey)?.replace(/^apikey\s+/i, '');
  if (apiKey) {
    const encoded = apiKey.includes(':') ? Buffer.from(apiKey, 'utf8').toString('base64') : apiKey;
    return { header: `ApiKey ${encoded}`, secrets: secretsOf(apiKey, encoded, ...apiKey.split(':').slice(1)) };
  }
  const username = nonEmpty(o.username);
  if (username !== undefined) {
    const password = o.password ?? '';
    const encoded = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
    return { header: `Basic ${encoded}`, secrets: secretsOf(encoded, password) };
  }
  const token = nonEmpty(o.token);
  if (token) return { header: `Bearer ${token}`, secrets: secretsOf(token) };
  return { secrets: [] };
}

/** Longest first, so a secret that contains another is redacted whole. */
function secretsOf(...values: string[]): string[] {
  return [...new Set(values.filter((v) => v.length > 0))].sort((a, b) => b.length - a.length);
}

function encodeBody(req: ApiRequest): { body?: string | Buffer; contentType?: string } {
  if (req.multipart || req.form) {
    const boundary = `----svcform${randomBytes(12).toString('hex')}`;
    // Quotes and line breaks in names are percent-encoded, as browsers do for form data.
    const quote = (s: string) => s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
    const parts: Buffer[] = [];
    for (const [name, value] of req.form?.fields ?? []) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`, 'utf8'));
    }
    const file = req.multipart ?? req.form?.file;
    if (file) {
      const head =
        `--${boundary}\r\n` +
        `Content-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\n` +
        `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
      parts.push(Buffer.from(head, 'utf8'), typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content, Buffer.from('\r\n', 'utf8'));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
    return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
  }
  if (req.body !== undefined) return { body: JSON.stringify(req.body), contentType: 'application/json' };
  return {};
}

function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  // URLSearchParams writes spaces as '+'; '%20' reads the same to every server (a literal '+' is %2B).
  return params.toString().replace(/\+/g, '%20');
}

function parseJson(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  const looksJson = contentType ? JSON_CONTENT_TYPE.test(contentType) : /^\s*[[{]/.test(text);
  if (!looksJson) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The area a request counts against: the second path segment (`/api/fleet/...` is `fleet`). */
function defaultArea(path: string): string {
  const segments = path.split('?')[0].split('/').filter(Boolean);
  return segments[1] ?? segments[0] ?? 'root';
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}

function readPem(option: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`cannot read ${option} file ${path}: ${(err as Error).message}`);
  }
}

function stripCredentials(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${name} must be a number >= 0, got ${value}`);
  return value;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** A request's own headers, without any that the client itself owns. */
function extraHeaders(given: Record<string, string> | undefined): Record<string, string> {
  const owned = new Set(['authorization', 'user-agent', 'kbn-xsrf', 'content-type', 'content-length', 'host', 'accept-encoding']);
  return Object.fromEntries(Object.entries(given ?? {}).filter(([k]) => !owned.has(k.toLowerCase())));
}
