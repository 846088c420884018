import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../bench/generate.js';
import { realisticRule } from '../../bench/realistic.js';
import { ruleQueries } from '../../src/kinds/rule-query.js';
import { readKuery } from '../../src/query/kuery/fast.js';
import { parse as parseKuery } from '../../src/query/kuery/kuery.generated.js';
import { language } from '../../src/query/kuery/index.js';
import { generatedKueries, KUERY_BROKEN, KUERY_HAND_WRITTEN } from './kuery-corpus.js';

/**
 * kuery's hand-written reader (src/query/kuery/fast.ts) against the generated parser (kuery.peggy)
 * on a large corpus: the kuery corpus, the realistic rules' queries, and seeded edits of them
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

function realisticKueries(): string[] {
  const out = new Set<string>();
  for (let i = 0; i < 2068; i++) for (const q of ruleQueries(realisticRule(i).spec)) if (q.language === 'kuery') out.add(q.text);
  return [...out];
}

function edit(text: string, rand: () => number): string {
  const at = Math.floor(rand() * (text.length + 1));
  switch (Math.floor(rand() * 4)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(rand() * 4));
    default:
      return text.slice(0, at) + INSERTS[Math.floor(rand() * INSERTS.length)] + text.slice(at);
  }
}

/** The generated parser's tree, or undefined where it refuses the text. */
function grammarTree(text: string): unknown {
  try {
    return parseKuery(text, {});
  } catch (err) {
    if ((err as { location?: unknown }).location) return undefined;
    throw err;
  }
}

describe('kuery: the hand-written reader and the grammar', () => {
  it('build the same tree for every query the grammar accepts, and the reader leaves every other to the grammar', () => {
    const base = [...KUERY_HAND_WRITTEN, ...generatedKueries(1000), ...KUERY_BROKEN.map(([q]) => q), ...realisticKueries()];
    const rand = seededRandom(20261123);
    const corpus = [...base];
    for (let i = 0; i < 30_000; i++) {
      let text = base[Math.floor(rand() * base.length)];
      for (let edits = 1 + Math.floor(rand() * 3); edits > 0; edits--) text = edit(text, rand);
      corpus.push(text);
    }
    let accepted = 0;
    for (const text of corpus) {
      const expected = grammarTree(text);
      const read = readKuery(text);
      if (expected === undefined) {
        assert.equal(read, undefined, `the reader accepted what the grammar refuses: ${JSON.stringify(text)}`);
        continue;
      }
      accepted++;
      // Everything the grammar accepts is read: a reader that gave up on some would only be slower, and this says so.
      assert.notEqual(read, undefined, `the reader left to the grammar: ${JSON.stringify(text)}`);
      if (JSON.stringify(read) !== JSON.stringify(expected)) assert.deepStrictEqual(read, expected, JSON.stringify(text));
    }
    // Both sides of the corpus are large: edits that keep a query valid and edits that break it.
    assert.ok(accepted > 10_000 && corpus.length - accepted > 10_000, `${accepted} of ${corpus.length} accepted`);
  });

  it('leaves nesting deeper than the stack to the grammar', () => {
    const deep = '('.repeat(100_000) + 'a:b' + ')'.repeat(100_000);
    assert.equal(readKuery(deep), undefined);
    assert.throws(() => language.parse(deep), RangeError);
  });

  it('gives the grammar\'s message for a query it cannot read', () => {
    const outcome = language.parse('a:(b or c');
    assert.ok(!outcome.ok);
    assert.deepEqual({ offset: outcome.problem.offset, message: outcome.problem.message }, { offset: 9, message: 'expected ")"' });
  });
});
