import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiRequest, ApiResponse, Requester } from '../../src/client/types.js';
import { listAllPages } from '../../src/kinds/paging.js';

/**
 * A page's items are taken out as the page arrives, not once every page has (src/kinds/paging.ts):
 * what a listing does with them then (rule/list.ts: sharing the manifests' long texts) happens
 * while the later pages are still on their way, before they all sit in memory at once.
 */
describe('listAllPages', () => {
  /** Three pages of two items; page 1 answers at once, page n after n x 30 ms. Events in order. */
  function pagedServer(events: string[]): Requester {
    return {
      async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
        const page = Number(req.query?.page);
        await new Promise((resolve) => setTimeout(resolve, page === 1 ? 0 : page * 30));
        events.push(`answer ${page}`);
        return { status: 200, body: { total: 6, items: [`${page}a`, `${page}b`] } as T, text: '', headers: {} };
      },
    };
  }

  it('takes each page\'s items out as it arrives, in page order in the result', async () => {
    const events: string[] = [];
    const items = await listAllPages<string>(pagedServer(events), {
      path: '/things',
      space: 'default',
      sizeParam: 'per_page',
      pageSize: 2,
      expected: 6,
      items: (body) => {
        events.push(`items ${body.items[0][0]}`);
        return body.items;
      },
      total: (body) => body.total,
    });
    assert.deepEqual(items, ['1a', '1b', '2a', '2b', '3a', '3b']);
    assert.deepEqual(events, ['answer 1', 'items 1', 'answer 2', 'items 2', 'answer 3', 'items 3']);
  });

  it('names the page whose answer holds no list, as before', async () => {
    const server: Requester = {
      async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
        const page = Number(req.query?.page);
        return { status: 200, body: (page === 2 ? { total: 4 } : { total: 4, items: ['x', 'y'] }) as T, text: '', headers: {} };
      },
    };
    await assert.rejects(
      listAllPages<string>(server, { path: '/things', space: 'default', sizeParam: 'per_page', pageSize: 2, expected: 4, items: (b) => b.items, total: (b) => b.total }),
      /GET \/things: page 2 of the answer holds no list of items/,
    );
  });
});
