/**
 * kuery queries of detection rules covering every construct the grammar has (field:value, value
 * lists, and/or/not in any case, quoted phrases, wildcards, ranges, exists, nested queries,
 * escapes): hand-written ones, and generated ones of the same shapes.
 */

const FIELDS = ['process.name', 'event.category', 'user.name', 'host.os.type', 'source.ip', 'file.path', 'dns.question.name', 'winlog.event_data.ServiceName'];
const VALUES = ['cmd.exe', '"C:\\\\Windows\\\\System32\\\\cmd.exe"', 'powershell*', '*.ps1', '"quoted phrase with and or not"', '10.0.0.1', '4769', 'true', 'a\\:b', 'x\\(1\\)', '\\*literal', 'say\\ hi', 'tab\\there', '\\"q\\"', 'ends\\\\', 'unicode\\u00e9'];

export const KUERY_HAND_WRITTEN = [
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

export function generatedKueries(count: number): string[] {
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

/** Broken queries: where the grammar stops and what it says. */
export const KUERY_BROKEN: Array<[string, number, string]> = [
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
