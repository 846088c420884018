import type { QueryValue, Requester } from '../client/types.js';

export interface PagedListSpec<T> {
  path: string;
  space: string;
  /** Extra query parameters sent with every page. */
  query?: Record<string, QueryValue>;
  pageParam?: string;
  sizeParam: string;
  pageSize: number;
  /** The items of one page. */
  items(body: any): T[];
  /** The total the server reports. */
  total(body: any): number;
}

/**
 * Reads every page of a paginated list: the first page tells the total, the remaining pages are
 * requested together (the client bounds how many are in flight). ceil(total / pageSize) requests.
 */
export async function listAllPages<T>(api: Requester, spec: PagedListSpec<T>): Promise<T[]> {
  const pageParam = spec.pageParam ?? 'page';
  const fetchPage = async (page: number) => {
    const res = await api.request({
      method: 'GET',
      path: spec.path,
      space: spec.space,
      query: { ...(spec.query ?? {}), [pageParam]: page, [spec.sizeParam]: spec.pageSize },
    });
    return res.body;
  };
  const first = await fetchPage(1);
  const out = [...spec.items(first)];
  const total = spec.total(first);
  const pages = Math.ceil(total / spec.pageSize);
  if (pages > 1) {
    const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => fetchPage(i + 2)));
    for (const body of rest) out.push(...spec.items(body));
  }
  return out;
}
