import type { Requester } from './types.js';
import { SpaceNotFoundError } from './errors.js';

export { SpaceNotFoundError };

/** The space that needs no prefix. */
export const DEFAULT_SPACE = 'default';

/**
 * Puts `/s/{space}` immediately before the first `/api/` of a full URL path, so a reverse-proxy
 * base path in front of it is kept (wire-facts 0.1): `/proxy/api/lists` in space `soc` becomes
 * `/proxy/s/soc/api/lists`. No prefix for the default space or none. A path without `/api/`
 * gets the prefix at `boundary`, the end of the base path.
 */
export function withSpacePrefix(fullPath: string, space: string | undefined, boundary = 0): string {
  if (!space || space === DEFAULT_SPACE) return fullPath;
  const prefix = `/s/${encodeURIComponent(space)}`;
  const at = fullPath.indexOf('/api/');
  const cut = at >= 0 ? at : boundary;
  return fullPath.slice(0, cut) + prefix + fullPath.slice(cut);
}

/**
 * Checks that every space exists before anything is read or written in it: one
 * `GET /api/spaces/space/{id}` per distinct space, in parallel (the client bounds how many are in
 * flight). Throws SpaceNotFoundError naming the first missing space in the order given; other
 * errors (401, 403, unreachable server) propagate as they are.
 */
export async function validateSpaces(client: Requester, spaces: string[]): Promise<void> {
  const missing = await missingSpaces(client, spaces);
  if (missing.length > 0) {
    const target = (client as { target?: unknown }).target;
    throw new SpaceNotFoundError(missing, typeof target === 'string' ? target : 'the server');
  }
}

/** The spaces of `spaces` the server does not have, in the order given (one GET per space). */
export async function missingSpaces(client: Requester, spaces: string[]): Promise<string[]> {
  const distinct = [...new Set(spaces.map((s) => s || DEFAULT_SPACE))];
  const found = await Promise.all(
    distinct.map(async (space) => {
      const res = await client.request({
        method: 'GET',
        path: `/api/spaces/space/${encodeURIComponent(space)}`,
        area: 'spaces',
        accept: [404],
      });
      return res.status !== 404;
    }),
  );
  return distinct.filter((_, i) => !found[i]);
}
