import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { language } from '../../src/query/qlang/index.js';
import { QLANG_BROKEN, QLANG_QUERIES } from './qlang-corpus.js';

describe('qlang corpus', () => {
  it(`accepts every one of ${QLANG_QUERIES.length} realistic queries`, () => {
    const refused = QLANG_QUERIES.map((q) => ({ q, r: language.parse(q) })).filter(({ r }) => !r.ok);
    assert.deepEqual(refused.map(({ q, r }) => ({ q, problem: r.ok ? undefined : r.problem })), []);
  });

  for (const { query, offset, message } of QLANG_BROKEN) {
    it(`refuses ${JSON.stringify(query)} at offset ${offset}`, () => {
      const r = language.parse(query);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.problem.offset, offset, r.problem.message);
      assert.ok(r.problem.message.startsWith(message), `${r.problem.message} should start with ${message}`);
    });
  }

  it('names the source fields a query reads, not the columns it creates, and its FROM patterns', () => {
    const r = language.parse('FROM logs-a, logs-b METADATA _id | EVAL n = LENGTH(user.name) | STATS c = COUNT(*) BY n, host.name | WHERE c > 1 | KEEP c, _id');
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual(r.query.fields, [
      { name: 'user.name', offset: 51 },
      { name: 'host.name', offset: 89 },
    ]);
    assert.deepEqual(r.query.indices, ['logs-a', 'logs-b']);
  });
});
