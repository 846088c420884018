import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiRequest, ApiResponse, Requester } from '../../src/client/types.js';
import { listRules, pageSizeFor, SEARCH_WINDOW } from '../../src/kinds/rule/list.js';

/**
 * The rule listing's page size (src/kinds/rule/list.ts): a space of about 2,000 rules comes in
 * eight or more pages, not three of 1,000, so that the plan decodes the first pages while the
 * server still answers the others; a listing of unknown size, and parts past the search window,
 * keep pages of 1,000.
 */
describe('rule listing page size', () => {
  it('is the largest of 250, 500 and 1,000 that still makes 8 pages, and 1,000 when nothing is expected', () => {
    assert.equal(pageSizeFor(undefined), 1000);
    assert.equal(pageSizeFor(0), 250);
    assert.equal(pageSizeFor(2068), 250);
    assert.equal(pageSizeFor(3999), 250);
    assert.equal(pageSizeFor(4000), 500);
    assert.equal(pageSizeFor(7999), 500);
    assert.equal(pageSizeFor(8000), 1000);
    assert.equal(pageSizeFor(SEARCH_WINDOW), 1000);
  });

  it('never has a page reach past the search window (page x per_page <= 10,000)', () => {
    for (const expected of [undefined, 0, 2068, 4000, 8000]) assert.equal(SEARCH_WINDOW % pageSizeFor(expected), 0, String(expected));
  });

  it('asks for all nine pages of 2,068 expected rules at once, 250 rules each', async () => {
    const asked: string[] = [];
    let answered = 0;
    const server: Requester = {
      async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
        asked.push(`${req.query?.page}/${req.query?.per_page} after ${answered}`);
        const page = Number(req.query?.page);
        const size = Number(req.query?.per_page);
        await new Promise((resolve) => setImmediate(resolve));
        answered += 1;
        const data = Array.from({ length: Math.max(0, Math.min(size, 2068 - (page - 1) * size)) }, (_, i) => ({ id: `r${(page - 1) * size + i}`, rule_id: `r${(page - 1) * size + i}` }));
        return { status: 200, body: { page, perPage: size, total: 2068, data } as T, text: '', headers: {} };
      },
    };
    const rules = await listRules(server, 'default', 2068);
    assert.equal(rules.length, 2068);
    assert.equal(new Set(rules.map((r) => r.id)).size, 2068);
    assert.deepEqual(asked, Array.from({ length: 9 }, (_, i) => `${i + 1}/250 after 0`));
  });
});
