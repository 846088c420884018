import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { QueryLanguage } from '../src/types.js';

/** A broken query, where its mistake is, and the message (whole, or how it starts). */
export interface Broken {
  query: string;
  offset: number;
  message: string;
}

/**
 * The two checks every language's corpus makes: each realistic query parses; each broken one is
 * refused at its offset with its message (`exact`, or a message that starts so).
 */
export function corpusChecks(language: QueryLanguage, accepted: string[], broken: Broken[], match: 'exact' | 'prefix'): void {
  it(`parses every one of ${accepted.length} realistic queries`, () => {
    const refused = accepted.map((q) => ({ q, r: language.parse(q) })).filter(({ r }) => !r.ok);
    assert.deepEqual(refused.map(({ q, r }) => ({ q, problem: r.ok ? undefined : r.problem })), []);
  });

  for (const { query, offset, message } of broken) {
    it(`refuses ${JSON.stringify(query)} at offset ${offset}`, () => {
      const r = language.parse(query);
      assert.equal(r.ok, false, `${JSON.stringify(query)} parsed`);
      if (r.ok) return;
      assert.equal(r.problem.offset, offset, r.problem.message);
      if (match === 'exact') assert.equal(r.problem.message, message);
      else assert.ok(r.problem.message.startsWith(message), `${r.problem.message} should start with ${message}`);
    });
  }
}
