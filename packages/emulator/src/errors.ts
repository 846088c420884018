// The real server answers errors in two shapes: the platform shape on core, connector, Fleet and
// maintenance-window routes, and the security-app shape on rules and value lists (wire-facts 0.3).
export type ErrorFamily = 'platform' | 'security';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'Error';
}

/** Thrown by handlers; the server turns it into the body of the route's error family. */
export class EmuError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly family?: ErrorFamily,
    readonly attributes?: Record<string, unknown>,
    /** A security route that answers a list of problems sends them as `message` itself. */
    readonly messages?: string[],
  ) {
    super(message);
  }
}

export function errorBody(status: number, message: string | string[], family: ErrorFamily, attributes?: Record<string, unknown>): unknown {
  if (family === 'security') return { message, status_code: status };
  const body: Record<string, unknown> = { statusCode: status, error: reasonPhrase(status), message };
  if (attributes) body.attributes = attributes;
  return body;
}

export const badRequest = (message: string, family?: ErrorFamily) => new EmuError(400, message, family);
export const notFound = (message: string, family?: ErrorFamily) => new EmuError(404, message, family);
export const conflict = (message: string, family?: ErrorFamily) => new EmuError(409, message, family);
export const forbidden = (message: string) => new EmuError(403, message, 'platform');
