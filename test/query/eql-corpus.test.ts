import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { language } from '../../src/query/eql/index.js';
import { EQL_BROKEN, EQL_QUERIES } from './eql-corpus.js';

describe('eql corpus', () => {
  it(`accepts every one of ${EQL_QUERIES.length} realistic rule queries`, () => {
    const refused = EQL_QUERIES.map((q) => ({ q, r: language.parse(q) })).filter(({ r }) => !r.ok);
    assert.deepEqual(refused.map(({ q, r }) => ({ q, problem: r.ok ? undefined : r.problem })), []);
  });

  for (const { query, offset, message } of EQL_BROKEN) {
    it(`refuses ${JSON.stringify(query)} at offset ${offset}`, () => {
      const r = language.parse(query);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.problem.offset, offset, r.problem.message);
      assert.ok(r.problem.message.startsWith(message), `${r.problem.message} should start with ${message}`);
    });
  }

  it('names the fields a query uses, with their offsets (an optional field after its "?")', () => {
    const r = language.parse('sequence by host.id [process where ?process.name == "a" and startsWith(`user name`.x, "b")] [file where true]');
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual(r.query.fields, [
      { name: 'host.id', offset: 12 },
      { name: 'process.name', offset: 36 },
      { name: 'user name.x', offset: 71 },
    ]);
  });
});
