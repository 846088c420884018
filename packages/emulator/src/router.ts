import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorFamily } from './errors.js';
import type { EmulatorContext } from './context.js';

/** What the privilege check needs: `read` routes serve read-only keys, `all` routes need full access. */
export type Access = 'none' | 'read' | 'all';

export interface EmuRequest {
  method: string;
  /** Path without the `/s/{space}` prefix, e.g. `/api/actions/connectors`. */
  path: string;
  space: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: any;
  rawBody: Buffer;
  /** The `file` part of a multipart/form-data body, when there is one. */
  file?: { name: string; content: string };
  /**
   * Every part of a multipart/form-data body: text fields by name (a repeated name keeps each
   * value, in order), file parts with their bytes. Routes that take more than one file import
   * (the scripts library) read it.
   */
  form?: MultipartForm;
  /** Authenticated principal name (or 'anonymous' when the emulator runs open). */
  user: string;
  /** Whether the principal holds read privileges only (privilege reports depend on it). */
  readOnly: boolean;
}

export interface MultipartForm {
  fields: Record<string, string[]>;
  files: Record<string, { filename: string; contentType: string; bytes: Buffer }>;
}

export interface EmuResponse {
  status?: number;
  body?: unknown;
  /** A non-JSON body (NDJSON export, text). */
  text?: string;
  /** A binary body (a file download). */
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Handler = (req: EmuRequest, ctx: EmulatorContext) => EmuResponse | Promise<EmuResponse>;

export interface RouteOptions {
  /** Privilege needed; writes default to `all`, reads to `read`. */
  access?: Access;
  /** Error body shape of this route (default platform). */
  errors?: ErrorFamily;
}

export interface Route extends Required<RouteOptions> {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler;
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/**
 * Routes are matched segment by segment; a literal segment beats a `:param` at the same place, so
 * `/api/lists/_find` wins over `/api/lists/:id` whatever the registration order. A last segment
 * `:name*` takes the rest of the path (the server's `{name*}`).
 */
export class Router {
  private readonly byMethod = new Map<string, Route[]>();

  add(method: string, pattern: string, handler: Handler, options: RouteOptions = {}): void {
    const m = method.toUpperCase();
    const route: Route = {
      method: m,
      pattern,
      segments: pattern.split('/').filter(Boolean),
      handler,
      access: options.access ?? (m === 'GET' || m === 'HEAD' ? 'read' : 'all'),
      errors: options.errors ?? 'platform',
    };
    const list = this.byMethod.get(m) ?? [];
    list.push(route);
    // Most literal segments first so that literals win over parameters.
    list.sort((a, b) => literalScore(b) - literalScore(a));
    this.byMethod.set(m, list);
  }

  get(pattern: string, handler: Handler, options?: RouteOptions) { this.add('GET', pattern, handler, options); }
  post(pattern: string, handler: Handler, options?: RouteOptions) { this.add('POST', pattern, handler, options); }
  put(pattern: string, handler: Handler, options?: RouteOptions) { this.add('PUT', pattern, handler, options); }
  patch(pattern: string, handler: Handler, options?: RouteOptions) { this.add('PATCH', pattern, handler, options); }
  delete(pattern: string, handler: Handler, options?: RouteOptions) { this.add('DELETE', pattern, handler, options); }

  match(method: string, path: string): Match | undefined {
    const parts = path.split('/').filter(Boolean);
    const routes = this.byMethod.get(method.toUpperCase()) ?? [];
    for (const route of routes) {
      const params = matchSegments(route.segments, parts);
      if (params) return { route, params };
    }
    return undefined;
  }

  /** Whether any method serves this path (for 405 versus 404). */
  hasPath(path: string): boolean {
    const parts = path.split('/').filter(Boolean);
    for (const routes of this.byMethod.values()) {
      if (routes.some((r) => matchSegments(r.segments, parts))) return true;
    }
    return false;
  }
}

function literalScore(route: Route): number {
  // Weight earlier literal segments higher so `/a/_find` beats `/a/:id`; a route taking the rest
  // of the path comes after every route of fixed length it could shadow.
  let score = route.segments.at(-1)?.endsWith('*') ? -100 : 0;
  route.segments.forEach((s, i) => {
    if (!s.startsWith(':')) score += 1 + 1 / (i + 2);
  });
  return score;
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  const last = pattern[pattern.length - 1];
  // `:name*` as the last segment takes the rest of the path, one segment or more (`{filePath*}`).
  const rest = last?.startsWith(':') && last.endsWith('*');
  if (rest ? parts.length < pattern.length : pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (rest && i === pattern.length - 1) {
      try {
        params[p.slice(1, -1)] = parts.slice(i).map(decodeURIComponent).join('/');
      } catch {
        return undefined;
      }
    } else if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(parts[i]);
      } catch {
        return undefined;
      }
    } else if (p !== parts[i]) {
      return undefined;
    }
  }
  return params;
}
