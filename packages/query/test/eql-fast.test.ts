import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readEql } from '../src/eql/fast.js';
import { parse as parseEql } from '../src/eql/eql.generated.js';
import { language } from '../src/eql/index.js';
import { EQL_BROKEN, EQL_QUERIES } from './eql-corpus.js';
import { assertReaderFollowsGrammar } from './reader-differential.js';

/**
 * eql's hand-written reader (src/eql/fast.ts) against the generated parser (eql.peggy) on a
 * large corpus: the eql corpus (every construct), and seeded edits
 * of them (truncations, deletions, and insertions of what the grammar treats specially: keywords,
 * operators and their `~` forms, strings of every quoting and escape, comments, brackets, numbers).
 * Where the grammar accepts a query, the reader must build the same tree; where it refuses one or
 * raises its own error, the reader must leave it to the grammar, whose message stands.
 */

const INSERTS = [
  ' ', '\t', '\n', '\r\n', '(', ')', '[', ']', '{', '}', ',', '.', ':', '~', '!', '?', '|', '=', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%',
  '"', "'", '`', '``', '"""', '\\', '\\n', '\\"', '\\u{41}', '\\u{0001F600}', '\\u{110000}', '\\u{123456789}', '\\u{}', '\\q', 'é', '@a', '_x', '0', '1.5', '2e3', '7e', '3.x',
  ' and ', ' or ', ' not ', 'not ', ' in ', ' in~ ', ' like ', ' like~ ', ' regex~ ', ' : ', 'where', 'any', 'by ', ' by a', 'with maxspan=5m', ' with runs=2',
  'sequence', 'sample', 'until ', '[any where true]', '![process where a == 1]', ' | head 5', '| tail', 'true', 'false', 'null', 'f(x)', 'f~(', 'g()', 'f (x)', 'f~ (', 'g /* c */ ()',
  '//c\n', '/* c */', '/*', '/*/', '/**/', '*/', '"a"', "'s'", '"""t"""', '`b c`', 'x[0]', 'x[ 1 ]', '?y',
];

/**
 * Corners the edits rarely reach: a unit that starts with `@`, doubled backquotes, strings side by
 * side among a pipe's arguments (where `"""x"` and a line break is the grammar's own error, not
 * an empty string and another), a number run into a name.
 */
const CORNERS = [
  'sequence with maxspan=5@s [process where true] [file where true]',
  'process where `a``b`.c == 1 and `x```.y == 2',
  'process where true | head """x"\n',
  `process where true | head ""  "x" 'y' """z"""`,
  'process where true | head 1 2_',
  'process where true | head 1 _2',
];

describe('eql: the hand-written reader and the grammar', () => {
  it('build the same tree for every query the grammar accepts, and the reader leaves every other to the grammar', () => {
    const base = [...EQL_QUERIES, ...EQL_BROKEN.map((b) => b.query), ...CORNERS];
    const { accepted, total } = assertReaderFollowsGrammar({ base, inserts: INSERTS, edits: 30_000, read: readEql, grammar: parseEql });
    assert.ok(accepted > 5_000 && total - accepted > 10_000, `${accepted} of ${total} accepted`);
  });

  it('reads a WHERE right before a parenthesis itself, to the grammar\'s tree (EqlBase.g4: WHERE is a token of its own, so the search backend takes `where(`)', () => {
    for (const text of ['process where(process.name == "a" or process.pid == 1)', 'sequence by host.id [process where(true)] [file where(file.path : "x") and true]']) {
      const tree = readEql(text);
      assert.notEqual(tree, undefined, text);
      assert.deepEqual(tree, parseEql(text, {}), text);
    }
  });

  it('leaves nesting deeper than the stack to the grammar, whose problem names it', () => {
    const deep = `process where ${'('.repeat(100_000)}true${')'.repeat(100_000)}`;
    assert.equal(readEql(deep), undefined);
    const outcome = language.parse(deep);
    assert.ok(!outcome.ok);
    assert.deepEqual({ offset: outcome.problem.offset, message: outcome.problem.message }, { offset: 0, message: 'nested too deeply to read' });
  });

  it('a flat chain of 20,000 or terms (a tree 20,000 deep) is the same positioned problem in eql and qlang, not an internal error', async () => {
    const terms = Array.from({ length: 20_000 }, (_, i) => `process.name == "p${i}"`).join(' or ');
    const qlang = (await import('../src/qlang/index.js')).language;
    for (const outcome of [language.parse(`process where ${terms}`), qlang.parse(`FROM logs | WHERE ${terms}`)]) {
      assert.ok(!outcome.ok);
      assert.deepEqual({ offset: outcome.problem.offset, message: outcome.problem.message }, { offset: 0, message: 'nested too deeply to read' });
    }
  });

  it('leaves a string the grammar refuses with its own message to the grammar', () => {
    for (const [text, message] of [
      ['process where a == "open', 'unterminated string: expected a closing "'],
      ['process where a == """x\ny"""', 'a """ string cannot span lines'],
    ]) {
      assert.equal(readEql(text), undefined);
      const outcome = language.parse(text);
      assert.ok(!outcome.ok);
      assert.equal(outcome.problem.message, message);
    }
  });
});
