import type { QueryValue, Requester } from '../client/types.js';
import { ResponseError } from '../client/errors.js';

export interface PagedListSpec<T> {
  path: string;
  space: string;
  /** Extra query parameters sent with every page. */
  query?: Record<string, QueryValue>;
  pageParam?: string;
  sizeParam: string;
  pageSize: number;
  /** The items of one page, taken out as the page arrives (what a listing does with them happens then: rule/list.ts). */
  items(body: any): T[];
  /** The total the server reports. */
  total(body: any): number;
  /**
   * About how many objects the caller expects (the manifests declare that many): the pages that
   * many objects fill are requested at once, with the first, instead of after it.
   */
  expected?: number;
}

/** Pages requested at once: enough to keep the connection pool busy, few enough to stay small. */
const PAGE_BATCH = 32;

/**
 * Reads every page of a paginated list: the first page tells the total, the remaining pages are
 * requested in batches (the client bounds how many are in flight). ceil(total / pageSize)
 * requests. A total that is not a count, or pages that come back empty before the total is
 * reached, stop the listing with an error naming the route instead of requesting pages forever.
 */
export async function listAllPages<T>(api: Requester, spec: PagedListSpec<T>): Promise<T[]> {
  const pageParam = spec.pageParam ?? 'page';
  // Each page's items are taken out as it arrives (see `items`), not once all have.
  const fetchPage = async (page: number) => {
    const res = await api.request({
      method: 'GET',
      path: spec.path,
      space: spec.space,
      query: { ...(spec.query ?? {}), [pageParam]: page, [spec.sizeParam]: spec.pageSize },
    });
    const items = spec.items(res.body);
    if (!Array.isArray(items)) throw new ResponseError(`GET ${spec.path}: page ${page} of the answer holds no list of items`);
    return { body: res.body as unknown, items };
  };
  const guessed = Math.min(PAGE_BATCH, Math.max(1, Math.ceil((spec.expected ?? 0) / spec.pageSize)));
  const early = Array.from({ length: guessed }, (_, i) => fetchPage(i + 1));
  // Pages asked for early are awaited (and their failures seen) even when the total makes them unneeded.
  const settled = Promise.allSettled(early);
  const first = await early[0];
  const out = [...first.items];
  const total = spec.total(first.body);
  if (!Number.isSafeInteger(total) || total < 0) throw new ResponseError(`GET ${spec.path}: the server reported ${JSON.stringify(total)} objects, which is not a count`);
  const pages = Math.ceil(total / spec.pageSize);
  const outcomes = await settled;
  for (let page = 2; page <= Math.min(pages, guessed); page++) {
    const o = outcomes[page - 1];
    if (o.status === 'rejected') throw o.reason;
    const items = o.value.items;
    if (items.length === 0) {
      throw new ResponseError(`GET ${spec.path}: the server reported ${total} objects but page ${page} is empty (the list changed while it was read, or the total is wrong); run again`);
    }
    out.push(...items);
  }
  for (let start = guessed + 1; start <= pages; start += PAGE_BATCH) {
    const numbers = Array.from({ length: Math.min(PAGE_BATCH, pages - start + 1) }, (_, i) => start + i);
    const read = await Promise.all(numbers.map(fetchPage));
    for (const [i, { items }] of read.entries()) {
      if (items.length === 0) {
        throw new ResponseError(`GET ${spec.path}: the server reported ${total} objects but page ${numbers[i]} is empty (the list changed while it was read, or the total is wrong); run again`);
      }
      out.push(...items);
    }
  }
  return out;
}
