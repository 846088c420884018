export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | undefined | null | Array<string | number>;

export interface ApiRequest {
  method: HttpMethod;
  /** Path from the API root, e.g. `/api/actions/connectors` (the space prefix is added by the client). */
  path: string;
  /** Space of the call; `default` (or absent) adds no prefix. */
  space?: string;
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /** A multipart/form-data body with one file part (imports): its content as text (sent as UTF-8) or as the bytes to send. */
  multipart?: { field: string; filename: string; content: string | Buffer; contentType?: string };
  /**
   * A multipart/form-data body of text parts (in order; a value is sent as is) and an optional file
   * part: the scripts library's create and update.
   */
  form?: { fields: Array<[string, string]>; file?: { field: string; filename: string; content: string | Buffer; contentType?: string } };
  /**
   * Whether repeating the request after a lost answer is safe. Defaults: GET, PUT and DELETE yes;
   * POST and PATCH no. Creates whose identity the client chose pass true (a repeat gets 409).
   */
  idempotent?: boolean;
  /** Bucket for the per-area concurrency limit (e.g. `fleet`); defaults to the second path segment. */
  area?: string;
  /** Statuses that are answers, not errors (e.g. [404] for a read that may miss). */
  accept?: number[];
  /** Extra request headers (internal routes' `elastic-api-version`); never authorization. */
  headers?: Record<string, string>;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  /** The raw body text (NDJSON exports, plain text). */
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What kind adapters need from the HTTP client. */
export interface Requester {
  request<T = any>(req: ApiRequest): Promise<ApiResponse<T>>;
}
