import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readQlang } from '../src/qlang/fast.js';
import { parse as parseQlang } from '../src/qlang/qlang.generated.js';
import { language } from '../src/qlang/index.js';
import { QLANG_BROKEN, QLANG_QUERIES } from './qlang-corpus.js';
import { assertReaderFollowsGrammar } from './reader-differential.js';

/**
 * qlang's hand-written reader (src/qlang/fast.ts) against the generated parser (qlang.peggy) on a
 * large corpus: the qlang corpus (every command), and seeded edits of them (truncations, deletions,
 * and insertions of what the grammar treats specially: keywords in any case, operators, strings of
 * every quoting and escape, comments, brackets, numbers and time spans, casts, backquoted names).
 * Where the grammar accepts a query, the reader must build the same tree, or leave it to the grammar
 * only for what it does not read (another source command, SET, a command other than those rules
 * use); where the grammar refuses one or raises its own error, the reader must leave it to the
 * grammar, whose message stands.
 */

const INSERTS = [
  ' ', '\t', '\n', '\r\n', '\f', '\u00a0', '(', ')', '[', ']', '{', '}', ',', '.', ':', '::', '::long', '::', '!', '?', '?p', '|', ' | ', '=', '==', '!=', '=~', '<', '<=', '>', '>=', '+', '-', '*', '/', '%',
  '"', '""', '"""', '"a"', '"""b"""', '\\', '\\n', '\\"', '\\q', '`', '``', '`c d`', 'é', '@a', '_x', '0', '1.5', '2e3', '7e', '3.x', '.5', '5 m', '5m', '3 months', '1 mo', '2 minutes', '4 mon', '1 d2',
  ' and ', ' AND ', ' or ', ' not ', 'NOT ', ' is null', ' IS NOT NULL', ' like ', ' NOT LIKE ', ' rlike ', ' in (1, 2)', ' not in ', ' : "q"', 'null', 'true', 'FALSE',
  ' where ', ' WHERE x == 1', ' by ', ' BY h', ' as ', ' asc', ' DESC', ' nulls first', ' NULLS LAST', ' metadata ', ' METADATA _id', ', _index', 'with', 'on',
  'f(x)', 'COUNT(*)', 'g()', 'f (x)', 'h(a, {"k": 1})', '{"k": [1, 2]}', '[1, 2]',
  '//c\n', '/* c */', '/*', '/*/', '/**/', '*/',
  ' | WHERE a > 1', ' | EVAL b = a + 1', ' | STATS c = COUNT(*) BY d', ' | KEEP a*, `b`', ' | DROP x', ' | SORT a DESC NULLS FIRST', ' | LIMIT 5', ' | LIMIT ?n',
  ' | RENAME a AS b', ' | RENAME b = a', ' | MV_EXPAND a', ' | DISSECT a "%{b}"', ' | GROK a "%{WORD:b}", "%{IP:c}"', ' | INLINE STATS m = MAX(a)', ' | INLINESTATS m = MAX(a) BY b',
  ' | COMPLETION c = p WITH {"inference_id": "m"}', ' | COMPLETION "q"', ' WITH {"k": "v"}', ' | ENRICH p ON a', ' | FROBNICATE x', ' | LOOKUP JOIN j ON a',
];

/** Corners the edits rarely reach: strings the grammar reads in a way of its own, time units of every spelling, nested casts. */
const CORNERS = [
  'FROM l | WHERE a == """x',
  'FROM l | WHERE a == """x""""',
  'FROM l | WHERE a == "x\\qy"',
  'FROM l | WHERE a == "x\ny"',
  'FROM l | EVAL d = NOW() - 1 month, e = 2 MONTHS, f = 3mo, g = 5 minutes, h = 10 ms, i = 1 yr',
  'FROM l | EVAL d = NOW() - 1 mon',
  'FROM l | EVAL x = a::long::string, y = -b::double, z = +c, w = - - d',
  'FROM l | WHERE `a``b`.c == 1 AND `x```.y == 2',
  'FROM l | DISSECT a "%{b}" APPEND_SEPARATOR = "-" | DISSECT c "%{d}" append_separator="+"',
  'FROM l METADATA _id | STATS c = COUNT(*) WHERE a > 1, d = MAX(b) BY e',
  'FROM l | SORT a ASC, b DESC NULLS LAST, c NULLS FIRST',
  'FROM l /* c */ | /* d */ WHERE /* e */ a // f\n > 1',
  'SET a = 1; FROM l',
  'ROW a = 1',
  'TS m | LIMIT 1',
  'FROM metadata-x',
  'FROM l | COMPLETION a = b WITH {"inference_id": "m"} | COMPLETION CONCAT("x", c) | COMPLETION d == e',
  'FROM a/b, c/*d*/, e//f\n',
];

/** Queries that use what the reader leaves to the grammar: another source, SET before it, a command rules do not use. */
const READ_COMMANDS = new Set(['where', 'eval', 'stats', 'inline_stats', 'keep', 'drop', 'rename', 'limit', 'sort', 'mv_expand', 'dissect', 'grok', 'completion']);

function leftToGrammar(tree: unknown, text: string): boolean {
  const { source, commands } = tree as { source: { command: string; timeSeries?: boolean; offset: number }; commands: Array<{ command: string }> };
  return source.command !== 'from' || source.timeSeries === true || /set/i.test(text.slice(0, source.offset)) || commands.some((c) => !READ_COMMANDS.has(c.command));
}

describe('qlang: the hand-written reader and the grammar', () => {
  it('build the same tree for every query the grammar accepts, and the reader leaves every other to the grammar', () => {
    const base = [...QLANG_QUERIES, ...QLANG_BROKEN.map((b) => b.query), ...CORNERS];
    const { accepted, total } = assertReaderFollowsGrammar({ base, inserts: INSERTS, edits: 30_000, read: readQlang, grammar: parseQlang, leftToGrammar });
    assert.ok(accepted > 8_000 && total - accepted > 8_000, `${accepted} of ${total} accepted`);
  });

  it('reads every query of the corpus that uses only the commands rules use', () => {
    const read = QLANG_QUERIES.filter((q) => readQlang(q) !== undefined).length;
    const eligible = QLANG_QUERIES.filter((q) => !leftToGrammar(parseQlang(q, {}), q)).length;
    assert.equal(read, eligible);
    assert.ok(eligible > QLANG_QUERIES.length / 2, `${eligible} of ${QLANG_QUERIES.length}`);
  });

  it('reads NOT, BY and an aggregation\'s WHERE right before a parenthesis itself, to the grammar\'s tree (lexer/Expression.g4: each is a token of its own)', () => {
    const text = 'FROM l | WHERE NOT(a == 1) AND NOT`b` AND NOT/* c */(c) | STATS n = COUNT(*) WHERE(a > 1) BY(h) | INLINE STATS m = MAX(v) BY(w)';
    const tree = readQlang(text);
    assert.notEqual(tree, undefined);
    assert.deepEqual(tree, parseQlang(text, {}));
  });

  it('leaves nesting deeper than the stack to the grammar, whose problem names it', () => {
    const deep = `FROM l | WHERE ${'('.repeat(100_000)}true${')'.repeat(100_000)}`;
    assert.equal(readQlang(deep), undefined);
    const outcome = language.parse(deep);
    assert.ok(!outcome.ok);
    assert.deepEqual({ offset: outcome.problem.offset, message: outcome.problem.message }, { offset: 0, message: 'nested too deeply to read' });
  });

  it('leaves a string the grammar refuses with its own message to the grammar', () => {
    const text = 'FROM l | WHERE a == "open';
    assert.equal(readQlang(text), undefined);
    const outcome = language.parse(text);
    assert.ok(!outcome.ok);
    assert.equal(outcome.problem.message, 'unterminated string: expected a closing "');
  });
});
