import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { listRules } from '../../src/kinds/rule/list.js';
import { fetchRequester } from '../helpers/requester.js';

/**
 * Where the listing of a space past `_find`'s 10,000 window splits (src/kinds/rule/list.ts): the
 * first page's rule_ids suggest a shared start and the characters after it, counts confirm them,
 * and what none of those characters start is split by the rest of the alphabet. Here the first
 * 1,000 rules created start `acme-a-` and the 10,500 after them `acme-b-`: the first page suggests
 * more than all share, and only `a` after `acme-`.
 */
describe('rules past the search window, split where their ids say', () => {
  let emu: RunningEmulator;
  const ids = [...Array.from({ length: 1000 }, (_, i) => `acme-a-${String(i).padStart(4, '0')}`), ...Array.from({ length: 10_500 }, (_, i) => `acme-b-${String(i).padStart(5, '0')}`)];
  before(async () => {
    emu = await emulator();
    const api = fetchRequester(emu.url);
    // Created in order, 500 at a time: the listing's first page (by creation) is the `acme-a-` rules.
    for (let at = 0; at < ids.length; at += 500) {
      const lines = ids.slice(at, at + 500).map((id) => JSON.stringify({ rule_id: id, name: id, description: 'd', type: 'query', query: 'a:b', language: 'kuery', severity: 'low', risk_score: 1 }));
      const res = await api.request({ method: 'POST', path: '/api/detection_engine/rules/_import', multipart: { field: 'file', filename: 'rules.ndjson', content: `${lines.join('\n')}\n`, contentType: 'application/ndjson' } });
      assert.equal(res.body.success_count, lines.length, JSON.stringify(res.body.errors?.slice(0, 2)));
    }
  });
  after(async () => emu.stop());

  it('reads every rule once, with the shared start found by counts and the rest split by the alphabet', async () => {
    emu.log.clear();
    const rules = await listRules(fetchRequester(emu.url), 'default', ids.length);
    assert.equal(rules.length, ids.length);
    assert.deepEqual(new Set(rules.map((r) => r.rule_id)), new Set(ids));
    const filters = emu.log.all().filter((r) => r.path === '/api/detection_engine/rules/_find').map((r) => new URLSearchParams(r.query).get('filter') ?? '');
    const counted = (start: string) => filters.includes(`alert.attributes.params.ruleId: ${start}*`);
    assert.ok(counted('acme-') && counted('acme-a') && counted('acme-b-0'), filters.join('\n'));
    // `acme-` is split by the `a` its first page shows, then the rest by every other character.
    assert.ok(filters.includes('alert.attributes.params.ruleId: acme-* AND NOT (alert.attributes.params.ruleId: acme-a*)'));
    assert.ok(filters.some((f) => f.startsWith('alert.attributes.params.ruleId: acme-* AND NOT (alert.attributes.params.ruleId: acme-a* OR alert.attributes.params.ruleId: acme-0*')));
    // One character at a time, each with a query per character of the alphabet, this was hundreds.
    assert.ok(filters.length < 120, `${filters.length} requests`);
  });
});
