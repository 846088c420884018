import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { language } from '../src/qlang/index.js';
import type { FieldUse, QueryProblem } from '../src/types.js';

/**
 * The 9.x syntax of wire-facts §16 #13, each in a construct of our own: what it reads from the
 * source (the fields), what it makes (columns later commands may name without being source
 * fields), and what svcform cannot judge (notes: a warning, the server decides). The grammar facts
 * come from the search backend's EsqlBaseParser.g4, parser/Expression.g4 and parser/Join.g4.
 */

function parsed(query: string): { fields: FieldUse[]; notes: QueryProblem[] } {
  const r = language.parse(query);
  if (!r.ok) throw new Error(`${query}: ${r.problem.message} at ${r.problem.offset}`);
  return { fields: r.query.fields, notes: r.query.notes ?? [] };
}

const names = (query: string) => parsed(query).fields.map((f) => f.name);

describe('qlang 9.x syntax: fields and columns', () => {
  it('joins backquoted name parts into the dotted field name, in expressions and in KEEP (wire-facts §16 #13)', () => {
    const q = 'FROM l | STATS v = VALUES(source.`as`.organization.name) BY user.name | KEEP source.`as`.number';
    assert.deepEqual(parsed(q).fields, [
      { name: 'source.as.organization.name', offset: 26 },
      { name: 'user.name', offset: 60 },
      { name: 'source.as.number', offset: 77 },
    ]);
  });

  it('INLINE STATS reads its arguments and BY keys and makes its aggregations columns; the other columns stay', () => {
    assert.deepEqual(names('FROM l | INLINE STATS n = COUNT_DISTINCT(host.id) WHERE host.id IS NOT NULL BY user.name | WHERE n > 2 AND process.name == "x"'), [
      'host.id',
      'host.id',
      'user.name',
      'process.name',
    ]);
  });

  it('COMPLETION reads its prompt and makes its target column, `completion` when unnamed', () => {
    assert.deepEqual(names('FROM l | COMPLETION answer = message WITH {"inference_id": "m"} | WHERE answer LIKE "*yes*"'), ['message']);
    assert.deepEqual(names('FROM l | COMPLETION message WITH {"inference_id": "m"} | KEEP completion'), ['message']);
  });

  it('LOOKUP JOIN reads the fields it joins on; in `a == b` only the left side is a source field (parser/Join.g4 joinPredicate)', () => {
    assert.deepEqual(names('FROM l | LOOKUP JOIN owners ON host.name, user.name'), ['host.name', 'user.name']);
    assert.deepEqual(names('FROM l | LOOKUP JOIN owners ON host.name == owner.host'), ['host.name']);
  });

  it('FORK reads the fields of every branch; the columns of any branch, and _fork, are columns after it', () => {
    assert.deepEqual(names('FROM l | FORK (WHERE a > 1 | EVAL made = 1) (WHERE b < 1) | KEEP made, _fork, c'), ['a', 'b', 'c']);
  });

  it('CHANGE_POINT reads its value and key and makes its two columns, `type` and `pvalue` unless named', () => {
    assert.deepEqual(names('FROM l | CHANGE_POINT cpu ON @timestamp AS kind, p | KEEP kind, p'), ['cpu', '@timestamp']);
    assert.deepEqual(names('FROM l | CHANGE_POINT cpu | KEEP type, pvalue'), ['cpu']);
  });

  it('RERANK reads its fields and makes its target; URI_PARTS reads its input and makes `<name>.*` columns', () => {
    assert.deepEqual(names('FROM l | RERANK s = "login" ON message, title WITH {"inference_id": "r"} | KEEP s'), ['message', 'title']);
    assert.deepEqual(names('FROM l | URI_PARTS u = url.original | KEEP u.domain, u.path, url.path'), ['url.original', 'url.path']);
  });

  it('SAMPLE, FUSE, SET and TS read no field of their own', () => {
    assert.deepEqual(names('SET x = 1; TS m | SAMPLE 0.5 | STATS c = COUNT(*) BY host.name'), ['host.name']);
    assert.deepEqual(names('FROM l METADATA _id, _index, _score | FORK (LIMIT 1) (LIMIT 2) | FUSE rrf SCORE BY _score KEY BY _id GROUP BY _fork'), []);
  });

  it('reads `5m` as five minutes and options maps after the arguments (EsqlDataTypeConverter INTERVALS: M is minute)', () => {
    assert.deepEqual(names('FROM l | EVAL w = DATE_TRUNC(5m, @timestamp) | WHERE MATCH(message, "x", {"fuzziness": 1, "lenient": true})'), ['@timestamp', 'message']);
  });

  it('reads every spelling of a month as a time span, not `1` and a stray word (EsqlDataTypeConverter INTERVALS: MONTH, MONTHS, MO)', () => {
    for (const unit of ['month', 'months', 'mo', 'MONTH', 'min', 'm', 'ms']) {
      const r = language.parse(`FROM l | WHERE @timestamp > NOW() - 3 ${unit}`);
      assert.ok(r.ok, `3 ${unit}: ${r.ok ? '' : r.problem.message}`);
    }
    assert.ok(!language.parse('FROM l | WHERE @timestamp > NOW() - 3 mon').ok, 'mon is no unit');
  });

  it('reads NOT, BY and an aggregation\'s WHERE followed at once by a parenthesis: each is a token of its own (lexer/Expression.g4), as in a hunting query of the detection-rules repository (`WHERE NOT(`)', () => {
    assert.deepEqual(names('FROM l | WHERE NOT(a == 1 OR b IS NULL)'), ['a', 'b']);
    assert.deepEqual(names('FROM l | WHERE NOT(a == 1) AND NOT`b` == 2'), ['a', 'b']);
    assert.deepEqual(names('FROM l | STATS c = COUNT(*) WHERE(a > 1) BY(h)'), ['a', 'h']);
    assert.deepEqual(names('FROM l | INLINE STATS m = MAX(v) BY(h)'), ['v', 'h']);
    const spaced = language.parse('FROM l | WHERE NOT (a == 1)');
    const joined = language.parse('FROM l | WHERE NOT(a == 1)');
    assert.ok(spaced.ok && joined.ok);
    assert.deepEqual(joined.query.fields.map((f) => f.name), spaced.query.fields.map((f) => f.name));
    // A word that only starts with the keyword is a field, as before.
    assert.deepEqual(names('FROM l | WHERE notes == 1 | STATS c = COUNT(*) BY bytes'), ['notes', 'bytes']);
  });

  it('names a backslash escape a "..." string does not know, at the backslash (lexer/Expression.g4 ESCAPE_SEQUENCE), as a hunting query\'s RLIKE `(/|\\?|$)` has it', () => {
    const q = 'FROM l | WHERE url.path RLIKE ".*(/|\\?|$).*"';
    const r = language.parse(q);
    assert.ok(!r.ok);
    assert.equal(r.problem.offset, q.indexOf('\\'));
    assert.match(r.problem.message, /^\\\? is not an escape of a "\.\.\." string/);
    assert.ok(language.parse('FROM l | WHERE url.path RLIKE """.*(/|\\?|$).*"""').ok);
    assert.ok(language.parse('FROM l | WHERE url.path RLIKE ".*(/|\\\\?|$).*"').ok);
    // A backslash at the end of the line leaves the string open, as before.
    assert.match((language.parse('FROM l | WHERE a == "x\\\n"') as { problem: QueryProblem }).problem.message, /^unterminated string/);
  });

  it('says `==` where a WHERE condition is followed by `=`, at the `=`, as a hunting query of the detection-rules repository has it (`event.provider = "..."`)', () => {
    const q = 'FROM l | WHERE a == 1 AND b = "x" | KEEP a';
    const r = language.parse(q);
    assert.ok(!r.ok);
    assert.deepEqual({ offset: r.problem.offset, message: r.problem.message }, { offset: q.indexOf(' = ') + 1, message: '`=` names a column (EVAL, STATS); a condition compares with `==`' });
    assert.ok(language.parse('FROM l | WHERE a == 1 AND b =~ "x" | EVAL c = a | STATS d = COUNT(*) WHERE a == 1').ok);
  });

  it('knows JSON_EXTRACT and the registry aliases: no note', () => {
    assert.deepEqual(parsed('FROM l | EVAL a = json_extract(body, "$.a"), b = TO_INT(x), c = TO_DBL(x), d = TO_STR(x), e = TO_BOOL(x), f = TO_DT(x), g = TO_UL(x), h = BIN(x, 10)').notes, []);
  });
});

describe('qlang open world: what svcform does not know is a note, never an error', () => {
  it('an unknown function is a note with a suggestion, at the name; its arguments are still fields', () => {
    const r = parsed('FROM l | EVAL x = TO_LOWR(process.name)');
    assert.deepEqual(r.notes, [{ offset: 18, length: 7, message: 'unknown function TO_LOWR; did you mean TO_LOWER?' }]);
    assert.deepEqual(r.fields, [{ name: 'process.name', offset: 26 }]);
  });

  it('an unknown function far from every known one is a note without a suggestion', () => {
    assert.deepEqual(parsed('FROM l | WHERE FROBULATE(a) > 1').notes, [{ offset: 15, length: 9, message: 'unknown function FROBULATE' }]);
  });

  it('an unknown command is a note; nothing in it, nor after it, is taken for a source field', () => {
    const r = parsed('FROM l | WHERE a > 1 | FROBNICATE b (c | d) "e|f" | WHERE made_by_it > 1 | WHRE x');
    assert.deepEqual(r.notes, [
      { offset: 23, length: 10, message: 'unknown command FROBNICATE' },
      { offset: 75, length: 4, message: 'unknown command WHRE; did you mean WHERE?' },
    ]);
    assert.deepEqual(r.fields, [{ name: 'a', offset: 15 }]);
  });

  it('an unknown command in a FORK branch hides the fields after it in that branch and after FORK, not in the other branches', () => {
    const r = parsed('FROM l | FORK (FROBNICATE x (1) | WHERE b) (WHERE c) | KEEP d');
    assert.deepEqual(r.notes, [{ offset: 15, length: 10, message: 'unknown command FROBNICATE' }]);
    assert.deepEqual(r.fields, [{ name: 'c', offset: 50 }]);
  });

  it('a known command with a malformed body stays an error, where the body goes wrong', () => {
    const r = language.parse('FROM l | WHERE a == | FROBNICATE');
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.problem.offset, 20);
  });
});
