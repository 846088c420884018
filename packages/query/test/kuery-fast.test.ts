import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readKuery } from '../src/kuery/fast.js';
import { parse as parseKuery } from '../src/kuery/kuery.generated.js';
import { language } from '../src/kuery/index.js';
import { generatedKueries, KUERY_BROKEN, KUERY_HAND_WRITTEN } from './kuery-corpus.js';
import { assertReaderFollowsGrammar } from './reader-differential.js';

/**
 * kuery's hand-written reader (src/kuery/fast.ts) against the generated parser (kuery.peggy)
 * on a large corpus: the kuery corpus, and seeded edits of them
 * (truncations, deletions, and insertions of the characters and words the grammar treats
 * specially: escapes, keywords in any case, quotes, brackets, operators, white space of every
 * kind). Where the grammar accepts a query, the reader must build the same tree; where it
 * refuses one, the reader must leave it to the grammar, whose message stands.
 */

const INSERTS = [
  ' ', '\t', '\r\n', '\n', '\u00a0', '\u2028', '\f', '(', ')', '{', '}', ':', '<', '>', '<=', '>=', '=', '"', '*', '\\', 'n', 'N', 'é', '日本',
  'or', 'OR', 'and', 'AnD', 'not', 'NOT', ' or ', ' and ', ' not ', 'not ', ' OR\n', '\\or', '\\AND', '\\not', '\\n', '\\t', '\\r', '\\ ', '\\\t',
  '\\u0041', '\\u00e', '\\uZZZZ', '\\*', '\\"', '\\\\', '\\:', '\\(', '\\{', 'x:', ':*', ':(a or b)', ':{ c:d }', ' >= 10', '"q"',
];

describe('kuery: the hand-written reader and the grammar', () => {
  it('build the same tree for every query the grammar accepts, and the reader leaves every other to the grammar', () => {
    const base = [...KUERY_HAND_WRITTEN, ...generatedKueries(1000), ...KUERY_BROKEN.map(([q]) => q)];
    const { accepted, total } = assertReaderFollowsGrammar({ base, inserts: INSERTS, edits: 30_000, read: readKuery, grammar: parseKuery });
    // Both sides of the corpus are large: edits that keep a query valid and edits that break it.
    assert.ok(accepted > 10_000 && total - accepted > 10_000, `${accepted} of ${total} accepted`);
  });

  it('leaves nesting deeper than the stack to the grammar, whose problem names it', () => {
    const deep = '('.repeat(100_000) + 'a:b' + ')'.repeat(100_000);
    assert.equal(readKuery(deep), undefined);
    const outcome = language.parse(deep);
    assert.ok(!outcome.ok);
    assert.deepEqual({ offset: outcome.problem.offset, message: outcome.problem.message }, { offset: 0, message: 'nested too deeply to read' });
  });

  it('gives the grammar\'s message for a query it cannot read', () => {
    const outcome = language.parse('a:(b or c');
    assert.ok(!outcome.ok);
    assert.deepEqual({ offset: outcome.problem.offset, message: outcome.problem.message }, { offset: 9, message: 'expected ")"' });
  });
});
