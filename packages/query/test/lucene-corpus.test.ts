import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { corpusChecks } from './corpus-harness.js';
import { language } from '../src/lucene/index.js';

/**
 * lucene corpus: realistic query-string rule queries covering every construct (fields, AND/OR/NOT,
 * && || !, + and -, phrases, ? and * wildcards, fuzzy, ranges inclusive, exclusive and open,
 * comparisons, _exists_, groups, field groups, regexes, boosts, escapes) parse; broken ones fail at
 * the asserted place with the asserted message.
 */

const HAND_WRITTEN = [
  '',
  'event.category:process AND event.type:start',
  'process.name:(powershell.exe OR pwsh.exe) AND NOT user.name:SYSTEM',
  'process.name:cmd.exe && !process.parent.name:explorer.exe || user.name:admin',
  '+event.category:authentication -event.outcome:success',
  'user.name:adm?n* AND host.name:web-0?',
  'message:"Failed password for invalid user" AND source.ip:10.0.0.1',
  'destination.port:[1024 TO 49151]',
  'destination.port:{0 TO 1024}',
  'event.duration:[1000 TO *]',
  '@timestamp:[2024-01-01T00:00:00Z TO 2024-12-31T23:59:59Z}',
  'bytes:[* TO 100]',
  'count:>10 AND count:<=100',
  'count:>=5',
  '_exists_:user.name AND NOT _exists_:user.domain',
  '(a:1 OR b:2) AND (c:3 OR NOT d:4)',
  'process.command_line:/.*[Ii]nvoke-[Mm]imikatz.*/',
  'file.path:\\/etc\\/cron.d\\/*',
  'registry.path:HKLM\\\\SOFTWARE\\\\Microsoft*',
  'url.original:http\\:\\/\\/evil.example\\/*',
  'process.args:\\-enc',
  'user.name:jhon~1',
  'user.name:jhon~',
  'message:"quick fox"~3',
  'event.category:process^2 AND process.name:cmd.exe^0.5',
  'mimikatz',
  '"free text phrase"',
  'process.*:mimikatz',
  'a:b c:d e:f',
  'tags:(prod linux) AND NOT tags:test',
  'NOT a:b',
  '-a:b',
  'a:"with \\"escaped\\" quotes"',
  'process.name : cmd.exe',
  'host.name:web-01 AND host.ip:10.0.0.0\\/8',
  'a:b\nAND\tc:d',
  'field:foo-bar+baz',
  'x:(a AND (b OR c))',
];

function generated(count: number): string[] {
  const fields = ['process.name', 'user.name', 'host.name', 'event.code', 'source.ip', 'file.extension'];
  const values = ['cmd.exe', '"a phrase"', 'pow*ell', 'adm?n', '4624', '10.0.0.1', '\\(x\\)', 'exe~1'];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const f = fields[i % fields.length]!;
    const g = fields[(i * 5 + 1) % fields.length]!;
    const v = values[(i * 3) % values.length]!;
    const w = values[(i * 7 + 1) % values.length]!;
    const shapes = [
      `${f}:${v}`,
      `${f}:(${v} OR ${w})`,
      `${f}:${v} AND NOT ${g}:${w}`,
      `+${f}:${v} -${g}:${w}`,
      `${f}:[${i} TO ${i + 10}]`,
      `(${f}:${v} || ${g}:${w}) && _exists_:${g}`,
      `${f}:>${i}`,
    ];
    out.push(shapes[i % shapes.length]!);
  }
  return out;
}

const BROKEN: Array<[string, number, string]> = [
  ['event.category:(authentication AND', 34, 'expected a field name, a term or "+"'],
  ['(a:b', 4, 'expected ")"'],
  ['a:"unterminated', 15, 'expected a closing quote'],
  ['a:[1 TO 5', 9, 'expected ] or }'],
  ['a:[1 TO', 7, 'expected a range bound'],
  ['a:/unterminated', 15, 'expected the closing /'],
  // Lucene RegExp syntax (lucene/core .../util/automaton/RegExp.java), placed where the fault is.
  ['a:/(/', 3, 'invalid regular expression: "(" is never closed'],
  ['a:/x[a-/', 6, 'invalid regular expression: the pattern ends where a character was expected'],
  ['a:/x]y)/', 6, 'invalid regular expression: unmatched ")"'],
  ['a:/\\t/', 3, 'invalid regular expression: unknown escape "\\t": before a letter only \\d \\D \\s \\S \\w \\W are known (a backslash before any other character makes it literal)'],
  ['a:)', 2, 'expected a term, "(" or ">=", found ")"'],
  ['a:b OR', 6, 'expected a field name, a term or "+"'],
  ['a:b )', 4, 'expected AND or OR, a field name or a term, found ")"'],
  ['AND a:b', 0, 'expected a term, the end of the query or "+", found "A"'],
];

describe('lucene corpus', () => {
  corpusChecks(language, [...HAND_WRITTEN, ...generated(1000)], BROKEN.map(([query, offset, message]) => ({ query, offset, message })), 'exact');

  it('reports fields with offsets, _exists_ naming its field', () => {
    const r = language.parse('a:1 AND _exists_:b.c AND g:(x y) AND -h:[1 TO 2]');
    assert.ok(r.ok);
    assert.deepEqual(r.query.fields, [
      { name: 'a', offset: 0 },
      { name: 'b.c', offset: 17 },
      { name: 'g', offset: 25 },
      { name: 'h', offset: 38 },
    ]);
  });
});
