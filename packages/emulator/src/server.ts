import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { compress, compressible, negotiatedEncoding } from './compression.js';
import { authenticate, type Credential } from './auth.js';
import { isRealRoute, makeContext, REAL_ROUTES, type EmulatorContext, type Deployment, type EmulatorRuntime, type License, type RealRoute } from './context.js';
export type { EmulatorRuntime };
import { EmuError, errorBody } from './errors.js';
import { Faults } from './faults.js';
import { RequestLog } from './requestlog.js';
import { Router, type EmuRequest, type EmuResponse, type MultipartForm } from './router.js';
import { Store } from './store.js';
import { AREAS } from './areas/index.js';
import { handleControl } from './control.js';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** Persist the whole store to this JSON file after writes, and load it at start. */
  stateFile?: string;
  /** Delay added to every API answer, in ms. */
  latencyMs?: number;
  /** Spaces besides `default`. */
  spaces?: string[];
  /** Credentials the server accepts; none means it runs open. */
  credentials?: Credential[];
  /** Shorthand for one full-privilege API key. */
  apiKey?: string;
  license?: License;
  /** A clock for status derivations (maintenance windows); tests may pin it. */
  now?: () => Date;
  /**
   * Routes that behave as the real server does where it differs from service-api.md (names in
   * REAL_ROUTES, context.ts); every other route follows the document.
   */
  realRoutes?: RealRoute[];
  /** The deployment type (default self-managed, where agentless Fleet calls answer 400). */
  deployment?: Deployment;
  /** Folders of packages (package-spec layout) Fleet's registry reads before its own. */
  packageDirs?: string[];
  /** A package registry to read packages from over HTTP instead of the bundled ones (`xpack.fleet.registryUrl`). */
  registryUrl?: string;
  /** Called as each answer is sent (control routes too): `svcform emulator --verbose` prints them. */
  onAnswered?: (answer: { method: string; path: string; status: number; ms: number }) => void;
}

export interface RunningEmulator {
  url: string;
  port: number;
  store: Store;
  log: RequestLog;
  faults: Faults;
  context: EmulatorContext;
  /** Stops the server and saves pending state. */
  stop(): Promise<void>;
}


const MAX_BODY = 64 * 1024 * 1024;
/** How much of a body over MAX_BODY is read and dropped before the connection is cut instead. */
const MAX_DRAINED = 1024 * 1024 * 1024;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const store = new Store(options.stateFile, options.spaces ?? []);
  const realRoutes = options.realRoutes ?? [];
  const unknown = realRoutes.filter((r) => !isRealRoute(r));
  if (unknown.length) throw new Error(`unknown real route(s) ${unknown.join(', ')}; known: ${Object.keys(REAL_ROUTES).join(', ')}`);
  const context = makeContext(store, { license: options.license ?? 'platinum', selfManaged: (options.deployment ?? 'self-managed') === 'self-managed', realRoutes: new Set(realRoutes), packages: { dirs: [...(options.packageDirs ?? [])], ...(options.registryUrl ? { registryUrl: options.registryUrl } : {}) } }, options.now);
  const router = new Router();
  for (const area of AREAS) area.register(router);
  const log = new RequestLog();
  const faults = new Faults();
  const credentials = [...(options.credentials ?? [])];
  if (options.apiKey) credentials.push({ type: 'apiKey', secret: options.apiKey, user: 'svcform' });
  const runtime: EmulatorRuntime = { latencyMs: options.latencyMs ?? 0, credentials, initialRealRoutes: [...realRoutes] };
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    if (options.onAnswered) {
      const started = Date.now();
      const notify = options.onAnswered;
      res.once('finish', () => notify({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0], status: res.statusCode, ms: Date.now() - started }));
    }
    void handle(req, res).catch((err) => {
      if (!res.headersSent) void reply(res, { status: 500, body: errorBody(500, `emulator error: ${(err as Error).message}`, 'platform') });
    });
  });
  server.keepAliveTimeout = 65_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = (req.method ?? 'GET').toUpperCase();
    const rawBody = await readBody(req);
    if (rawBody === undefined) {
      // The server's own answer to a body over its payload limit (hapi's 413, server.maxPayload).
      return reply(res, { status: 413, body: { statusCode: 413, error: 'Request Entity Too Large', message: `Payload content length greater than maximum allowed: ${MAX_BODY}` } });
    }
    if (url.pathname.startsWith('/__emulator/')) {
      // Control routes reset state, inject faults and dump state with secrets: they take the same
      // credentials as the API (design.md), and a read-only key may only read. The health route
      // stays open for service-container checks; it reveals nothing.
      if (url.pathname !== '/__emulator/health') {
        const auth = authenticate(req.headers, runtime.credentials, url.pathname);
        if (!auth.ok) return reply(res, { status: 401, body: errorBody(401, auth.message, 'platform') });
        if (auth.readOnly && method !== 'GET') return reply(res, { status: 403, body: errorBody(403, 'this key may not change the emulator', 'platform') });
      }
      const out = handleControl(method, url, rawBody, { store, log, faults, runtime, context });
      return reply(res, out);
    }

    let space = 'default';
    let path = url.pathname;
    const spaced = /^\/s\/([^/]+)(\/.*)$/.exec(path);
    if (spaced) {
      space = decodeURIComponent(spaced[1]);
      path = spaced[2];
    }
    const match = router.match(method, path);
    const entry = log.add({
      time: new Date().toISOString(),
      method,
      path: url.pathname,
      query: url.search,
      space,
      route: match?.route.pattern ?? '',
      status: 0,
    });

    const fault = faults.decide(method, url.pathname, { query: url.search, body: rawBody, contentType: req.headers['content-type'] });
    if (fault?.kind === 'drop') {
      entry.status = -1;
      req.socket.destroy();
      return;
    }
    const delay = runtime.latencyMs + (fault?.kind === 'delay' ? fault.ms : 0);
    if (delay > 0) await sleep(delay);
    if (fault?.kind === 'status') {
      entry.status = fault.status;
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      return reply(res, { status: fault.status, body: errorBody(fault.status, `injected fault ${fault.status}`, 'platform'), headers });
    }

    const out = await serve(method, path, space, url, req, rawBody, match);
    entry.status = out.status ?? 200;
    const error = entry.status >= 400 ? errorMessageOf(out.body) : undefined;
    if (error !== undefined) entry.error = error;
    if (fault?.kind === 'dropAfterServe') {
      entry.status = -1;
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'statusAfterServe') {
      entry.status = fault.status;
      return reply(res, { status: fault.status, body: errorBody(fault.status, `injected fault ${fault.status} after serving`, 'platform') });
    }
    return reply(res, out);
  }

  async function serve(
    method: string,
    path: string,
    space: string,
    url: URL,
    req: IncomingMessage,
    rawBody: Buffer,
    match: ReturnType<Router['match']>,
  ): Promise<EmuResponse> {
    const family = match?.route.errors ?? 'platform';
    const fail = (status: number, message: string | string[], fam = family, attributes?: Record<string, unknown>): EmuResponse => ({
      status,
      body: errorBody(status, message, fam, attributes),
    });
    const auth = authenticate(req.headers, runtime.credentials, url.pathname);
    if (!auth.ok) return fail(401, auth.message, 'platform');
    if (method !== 'GET' && method !== 'HEAD' && !req.headers['kbn-xsrf'] && !req.headers['kbn-version']) {
      return fail(400, 'Request must contain a kbn-xsrf header.', 'platform');
    }
    if (!store.hasSpace(space)) return fail(404, `Space "${space}" not found`, 'platform');
    if (!match) {
      if (router.hasPath(path)) return fail(405, `Method ${method} is not allowed on ${path}`, 'platform');
      return fail(404, 'Not Found', 'platform');
    }
    if (match.route.access === 'all' && auth.readOnly) {
      return fail(403, `API [${method} ${url.pathname}] is unauthorized for user, this action is granted by the svc privileges [all]`, 'platform');
    }
    let parsed: Pick<EmuRequest, 'body' | 'file' | 'form'>;
    try {
      parsed = await parseBody(req, rawBody, url);
    } catch (err) {
      return fail(400, (err as Error).message, 'platform');
    }
    const emuReq: EmuRequest = {
      method,
      path,
      space,
      params: match.params,
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      user: auth.user,
      readOnly: auth.readOnly,
      ...parsed,
    };
    try {
      const out = await match.route.handler(emuReq, context);
      if (method !== 'GET') store.touch();
      return out;
    } catch (err) {
      if (err instanceof EmuError) {
        const fam = err.family ?? family;
        return fail(err.status, fam === 'security' && err.messages ? err.messages : err.message, fam, err.attributes);
      }
      return fail(500, `An internal server error occurred: ${(err as Error).message}`, family);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  return {
    url: `http://${host}:${port}`,
    port,
    store,
    log,
    faults,
    context,
    async stop() {
      store.flush();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

/** The message of either error family's body (wire-facts 0.3), as one string. */
function errorMessageOf(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | undefined)?.message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return typeof message === 'string' ? message : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The body, or undefined when it is over MAX_BODY: the rest is read and dropped (so the client,
 * still sending, gets the 413 rather than a reset), up to a bound past which the connection is cut.
 */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        chunks.length = 0;
        if (size > MAX_DRAINED) req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function parseBody(req: IncomingMessage, raw: Buffer, url: URL): Promise<Pick<EmuRequest, 'body' | 'file' | 'form'>> {
  // The media type is case-insensitive, but its boundary parameter is not (RFC 2046 5.1.1): a
  // lower-cased `----JustAnotherBoundary` no longer matches the body it delimits.
  const header = String(req.headers['content-type'] ?? '');
  const type = header.toLowerCase();
  if (raw.length === 0) return { body: undefined };
  if (type.startsWith('multipart/form-data')) {
    // The platform's own multipart parser: a Request built from the raw bytes.
    const form = await new Request(url.toString(), { method: 'POST', headers: { 'content-type': header }, body: new Uint8Array(raw) }).formData();
    const all: MultipartForm = { fields: {}, files: {} };
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') (all.fields[name] ??= []).push(value);
      else all.files[name] ??= { filename: value.name, contentType: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    const part = form.get('file');
    if (part && typeof part !== 'string') return { body: undefined, file: { name: part.name, content: await part.text() }, form: all };
    if (typeof part === 'string') return { body: undefined, file: { name: 'file', content: part }, form: all };
    return { body: undefined, form: all };
  }
  if (type === '' || type.includes('json')) {
    try {
      return { body: JSON.parse(raw.toString('utf8')) };
    } catch {
      throw new Error('[request body]: Unexpected token in JSON');
    }
  }
  return { body: undefined };
}

function reply(res: ServerResponse, out: EmuResponse): Promise<void> | void {
  const status = out.status ?? 200;
  const headers = { ...(out.headers ?? {}) };
  if (status === 204) {
    res.writeHead(204, headers);
    res.end();
    return;
  }
  if (out.bytes !== undefined) {
    res.writeHead(status, { 'content-type': out.contentType ?? 'application/octet-stream', 'content-length': out.bytes.length, ...headers });
    res.end(out.bytes);
    return;
  }
  if (out.text !== undefined) return answer(res, status, out.contentType ?? 'text/plain; charset=utf-8', Buffer.from(out.text), headers);
  // Encoded once: measuring the text and then writing it read a listing of rules twice.
  return answer(res, status, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(out.body ?? {})), headers);
}

/** Writes an answer's bytes, compressed when the request asks for it and the answer qualifies (compression.ts). */
async function answer(res: ServerResponse, status: number, contentType: string, bytes: Buffer, headers: Record<string, string>): Promise<void> {
  const encoding = compressible(contentType, bytes.length) ? negotiatedEncoding(res.req.headers['accept-encoding']) : undefined;
  if (encoding) {
    const body = await compress(bytes, encoding);
    res.writeHead(status, { 'content-type': contentType, 'content-encoding': encoding, vary: 'accept-encoding', ...headers });
    res.end(body);
    return;
  }
  res.writeHead(status, { 'content-type': contentType, 'content-length': bytes.length, ...headers });
  res.end(bytes);
}
