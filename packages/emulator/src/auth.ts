import type { IncomingHttpHeaders } from 'node:http';

export interface Credential {
  type: 'apiKey' | 'basic' | 'bearer';
  /** ApiKey: the encoded key string as sent after `ApiKey `; bearer: the token; basic: `user:password`. */
  secret: string;
  /** Principal name reported in created_by / updated_by. */
  user: string;
  /** A read-only principal gets 403 on every route that needs `all`. */
  readOnly?: boolean;
}

export type AuthResult =
  | { ok: true; user: string; readOnly: boolean }
  | { ok: false; message: string };

/**
 * With no credentials configured the emulator runs open (local development, as the document
 * allows); otherwise the one `Authorization` header must carry a known credential.
 */
export function authenticate(headers: IncomingHttpHeaders, credentials: Credential[], path: string): AuthResult {
  if (credentials.length === 0) return { ok: true, user: 'elastic', readOnly: false };
  const header = headers.authorization;
  const unauthorized = (who: string): AuthResult => ({
    ok: false,
    message: `[security_exception]: unable to authenticate ${who} for REST request [${path}]`,
  });
  if (!header) return unauthorized('request with missing credentials');
  const space = header.indexOf(' ');
  const scheme = (space > 0 ? header.slice(0, space) : header).toLowerCase();
  const value = space > 0 ? header.slice(space + 1).trim() : '';
  let wanted: Credential['type'];
  let secret = value;
  if (scheme === 'apikey') wanted = 'apiKey';
  else if (scheme === 'bearer') wanted = 'bearer';
  else if (scheme === 'basic') {
    wanted = 'basic';
    secret = Buffer.from(value, 'base64').toString('utf8');
  } else return unauthorized('request with an unsupported authorization scheme');
  const found = credentials.find((c) => c.type === wanted && c.secret === secret);
  if (!found) {
    const who = wanted === 'basic' ? `user [${secret.split(':')[0]}]` : 'api key';
    return unauthorized(who);
  }
  return { ok: true, user: found.user, readOnly: !!found.readOnly };
}
