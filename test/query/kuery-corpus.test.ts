import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { corpusChecks } from './corpus-harness.js';
import { language } from '../../src/query/kuery/index.js';

/**
 * kuery corpus: realistic rule queries covering every construct the grammar has (field:value,
 * value lists, and/or/not in any case, quoted phrases, wildcards, ranges, exists, nested queries,
 * escapes) parse; broken ones fail at the asserted place with the asserted message.
 */

const FIELDS = ['process.name', 'event.category', 'user.name', 'host.os.type', 'source.ip', 'file.path', 'dns.question.name', 'winlog.event_data.ServiceName'];
const VALUES = ['cmd.exe', '"C:\\\\Windows\\\\System32\\\\cmd.exe"', 'powershell*', '*.ps1', '"quoted phrase with and or not"', '10.0.0.1', '4769', 'true', 'a\\:b', 'x\\(1\\)', '\\*literal', 'say\\ hi', 'tab\\there', '\\"q\\"', 'ends\\\\', 'unicode\\u00e9'];

const HAND_WRITTEN = [
  '',
  '   ',
  'event.category:process and event.type:start',
  'event.category:(authentication or network) and not user.name:root',
  'process.name:(powershell.exe or pwsh.exe) and process.args:(-enc or -EncodedCommand)',
  'NOT process.name:svchost.exe AND process.parent.name:winword.exe',
  'Event.Category:process Or user.name:admin',
  'file.path:/etc/cron.d/* or file.path:(/var/spool/cron/* or /etc/crontab)',
  'destination.port >= 1024 and destination.port < 49152',
  'event.duration > 1000000 and event.duration <= 9000000',
  '@timestamp >= "2024-01-01T00:00:00Z"',
  'source.ip:* and not destination.ip:*',
  'process.*:mimikatz*',
  'threat.enrichments:{ matched.field:source.ip and indicator.type:ipv4-addr }',
  'user:{ name:admin and not domain:CORP }',
  'message:"Failed password for invalid user"',
  'registry.path:HKLM\\\\SOFTWARE\\\\Microsoft\\\\Windows\\\\CurrentVersion\\\\Run*',
  'process.command_line:*\\(\\)*',
  'url.original:http\\://example.com/*',
  'x:\\<script\\>',
  'not (a:1 or b:2) and (c:3 or not d:4)',
  '((a:1))',
  'mimikatz',
  '"free text phrase"',
  'process.name : cmd.exe',
  'winlog.event_data.ServiceName:(krbtgt or *$)',
  'host.name:web-01 and tags:(prod and linux)',
  'a:(b or c and not d)',
  'field:\\or',
  'field:\\and\\not',
  'event.code:"4769" and winlog.event_data.TicketEncryptionType:"0x17"',
  '"quoted.field.name":value',
  'process.args:-enc\\ *',
  'count > 5 or count < -3',
  'a:b\nand\tc:d',
];

function generated(count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const f = FIELDS[i % FIELDS.length]!;
    const v = VALUES[(i * 7) % VALUES.length]!;
    const g = FIELDS[(i * 3 + 1) % FIELDS.length]!;
    const w = VALUES[(i * 5 + 2) % VALUES.length]!;
    const shapes = [
      `${f}:${v}`,
      `${f}:(${v} or ${w})`,
      `${f}:${v} and not ${g}:${w}`,
      `(${f}:${v} OR ${g}:${w}) and ${g}:*`,
      `${f} >= ${i} and ${g} < ${i * 10}`,
      `${f}:{ ${g}:${v} }`,
      `not ${f}:(${v} and not ${w})`,
    ];
    out.push(shapes[i % shapes.length]!);
  }
  return out;
}

const BROKEN: Array<[string, number, string]> = [
  ['event.category:(authentication and', 34, 'expected ")"'],
  ['event.category:(authentication', 30, 'expected ")"'],
  ['(a:b', 4, 'expected ")"'],
  ['a:{b:c', 6, 'expected "}"'],
  ['a:"unterminated', 15, 'expected a closing quote'],
  ['a:)', 2, 'expected a value, "{" or "(", found ")"'],
  ['a:b )', 4, 'expected and, or or the end of the query, found ")"'],
  ['a < ', 4, 'expected a value'],
  [':value', 0, 'expected not, a value or the end of the query, found ":"'],
  ['a:b and (c:d', 12, 'expected ")"'],
  ['a:(b or c', 9, 'expected ")"'],
  ['a:"x" and :', 10, 'expected not, a value or "(", found ":"'],
  ['a:{ b:c } }', 10, 'expected the end of the query, found "}"'],
  ['a >= (1)', 5, 'expected a value, found "("'],
];

describe('kuery corpus', () => {
  it('reads a trailing and/or as part of an unquoted value, as the server does (a:b and is the value "b and")', () => {
    const r = language.parse('a:b and');
    assert.ok(r.ok);
    assert.equal(r.query.run([{ a: 'b and' }, { a: 'b' }]).length, 1);
  });

  corpusChecks(language, [...HAND_WRITTEN, ...generated(1000)], BROKEN.map(([query, offset, message]) => ({ query, offset, message })), 'exact');

  it('reports the fields a query names with their offsets, nested ones prefixed', () => {
    const r = language.parse('event.category:x and user:{ name:a } and not "host.name":b and c >= 1 and d:*');
    assert.ok(r.ok);
    assert.deepEqual(r.query.fields, [
      { name: 'event.category', offset: 0 },
      { name: 'user', offset: 21 },
      { name: 'user.name', offset: 28 },
      { name: 'host.name', offset: 45 },
      { name: 'c', offset: 63 },
      { name: 'd', offset: 74 },
    ]);
  });
});
