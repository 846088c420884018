import type { AdapterContext, LiveObject } from '../types.js';
import { listAllPages } from '../paging.js';

/** Large pages, and ten of them still fit the search window (page × pageSize ≤ 10 000). */
const PAGE_SIZE = 1000;

/**
 * The objects of one host-query listing (packs, saved queries) as live objects: both are saved
 * objects the API pages alike (`data`, `total`) and addresses by `saved_object_id`.
 */
export async function listHostQueryObjects(
  ctx: AdapterContext,
  space: string,
  of: { kind: string; path: string; name: (body: Record<string, any>) => string; readOnly: (body: Record<string, any>) => string | undefined },
): Promise<LiveObject[]> {
  const items = await listAllPages<Record<string, any>>(ctx.api, {
    path: of.path,
    space,
    // A fixed order so that pages fetched together neither overlap nor skip.
    query: { sort: 'createdAt', sortOrder: 'asc' },
    sizeParam: 'pageSize',
    pageSize: PAGE_SIZE,
    items: (body) => body?.data ?? [],
    total: (body) => body?.total ?? 0,
  });
  return items.map((body) => ({ kind: of.kind, space, name: of.name(body), serverId: body.saved_object_id, body, readOnly: of.readOnly(body) }));
}
