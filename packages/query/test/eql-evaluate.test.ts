import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { language } from '../src/eql/index.js';
import type { EventDoc, QueryMatch } from '../src/types.js';

/** The eql evaluator against expectations worked out by hand (each test says how). */

function run(query: string, events: EventDoc[], timestampField?: string): QueryMatch[] {
  const parsed = language.parse(query);
  if (!parsed.ok) throw new Error(`${query}: ${parsed.problem.message} at ${parsed.problem.offset}`);
  return parsed.query.run(events, timestampField ? { timestampField } : {});
}
const ids = (matches: QueryMatch[]) => matches.map((m) => m.events.map((e) => e.id as string));
const at = (minute: number) => `2024-01-01T00:${String(minute).padStart(2, '0')}:00Z`;
const ev = (id: string, minute: number, category: string, extra: Record<string, unknown> = {}): EventDoc => ({ id, '@timestamp': at(minute), event: { category }, ...extra });

describe('eql evaluation: event queries', () => {
  const events = [
    ev('e1', 1, 'process', { process: { name: 'CMD.EXE', args: ['/c', 'whoami'], pid: 10 } }),
    ev('e2', 2, 'process', { process: { name: 'powershell.exe', args: ['-enc', 'AAA'], pid: 11 } }),
    ev('e3', 3, 'network', { destination: { ip: '10.1.2.3', port: 22 } }),
    ev('e4', 4, 'network', { destination: { ip: '8.8.8.8', port: 53 } }),
    ev('e5', 5, ['process', 'file'] as unknown as string, { process: { pid: 12 } }),
  ];

  it('== is case-sensitive, : and like~ are not, like is (e1 is "CMD.EXE")', () => {
    assert.deepEqual(ids(run('process where process.name == "cmd.exe"', events)), []);
    assert.deepEqual(ids(run('process where process.name : "cmd.exe"', events)), [['e1']]);
    assert.deepEqual(ids(run('process where process.name like~ "cmd*"', events)), [['e1']]);
    assert.deepEqual(ids(run('process where process.name like "cmd*"', events)), []);
    assert.deepEqual(ids(run('process where process.name in~ ("cmd.exe", "x")', events)), [['e1']]);
  });

  it('a missing field makes a comparison null: neither it nor its negation matches; == null tests absence', () => {
    // e5 has no process.name: `!= "x"` is null for it, and so is `not (== "x")`.
    assert.deepEqual(ids(run('process where process.name != "x"', events)), [['e1'], ['e2']]);
    assert.deepEqual(ids(run('process where not process.name == "x"', events)), [['e1'], ['e2']]);
    assert.deepEqual(ids(run('process where process.name == null', events)), [['e5']]);
  });

  it('reads multi-valued fields (any value) and array positions', () => {
    assert.deepEqual(ids(run('process where process.args : "-ENC"', events)), [['e2']]);
    assert.deepEqual(ids(run('process where process.args[1] == "whoami"', events)), [['e1']]);
    // e5's categories are process and file: it is both.
    assert.deepEqual(ids(run('file where true', events)), [['e5']]);
    // `any` is a keyword only in lower case: `ANY` is a category name like any other.
    assert.deepEqual(ids(run('ANY where true', events)), []);
  });

  it('evaluates functions, arithmetic, cidrMatch and regex', () => {
    assert.deepEqual(ids(run('network where cidrMatch(destination.ip, "10.0.0.0/8")', events)), [['e3']]);
    assert.deepEqual(ids(run('process where process.pid * 2 + 1 == 23', events)), [['e2']]);
    assert.deepEqual(ids(run('process where startsWith~(process.name, "cmd") and length(process.name) == 7', events)), [['e1']]);
    assert.deepEqual(ids(run('process where process.name regex~ "p[a-z]+shell\\\\.exe"', events)), [['e2']]);
    assert.deepEqual(ids(run('any where destination.port in (22, 3389)', events)), [['e3']]);
  });

  it('a call may have a blank before its "(" (wire-facts §16 #14)', () => {
    assert.deepEqual(ids(run('process where stringContains (process.name, "shell") and startsWith~ (process.name, "POWER")', events)), [['e2']]);
  });

  it('regex is Lucene RegExp over the whole value: escaped non-letters are literal, ~ complements (wire-facts §16 #14)', () => {
    // e1 "CMD.EXE", e2 "powershell.exe"; the eql string "\\-" is the pattern's \-.
    assert.deepEqual(ids(run('process where process.args regex "\\\\-[a-z]+"', events)), [['e2']]);
    assert.deepEqual(ids(run('process where process.name regex "~(.*\\\\.exe)"', events)), [['e1']]);
    assert.deepEqual(ids(run('process where process.name regex~ "cmd\\\\.exe" and process.pid regex "<9-10>"', events)), [['e1']]);
    assert.deepEqual(ids(run('process where process.name regex "shell"', events)), [], 'no match of a part of the value');
  });

  it('decides (a+)+b and many-star wildcards over long values at once', () => {
    const long = [ev('x', 1, 'process', { process: { name: 'a'.repeat(60) } })];
    const started = Date.now();
    assert.deepEqual(ids(run('process where process.name regex "(a+)+b"', long)), []);
    assert.deepEqual(ids(run(`process where process.name : "${'*a'.repeat(15)}*b"`, long)), []);
    assert.deepEqual(ids(run(`process where process.name like "${'*a'.repeat(15)}*"`, long)), [['x']]);
    assert.ok(Date.now() - started < 1000);
  });

  it('orders results by timestamp whatever the input order, and head/tail cut them', () => {
    const shuffled = [events[3]!, events[0]!, events[2]!, events[1]!];
    assert.deepEqual(ids(run('any where true', shuffled)), [['e1'], ['e2'], ['e3'], ['e4']]);
    assert.deepEqual(ids(run('any where true | head 2', shuffled)), [['e1'], ['e2']]);
    assert.deepEqual(ids(run('any where true | tail 1', shuffled)), [['e4']]);
  });
});

describe('eql evaluation: sequences', () => {
  it('joins steps by key; keys progress independently (h1 and h2 interleave)', () => {
    // h1: a@1, b@4 -> [a1, b1]. h2: a@2, b@3 -> [a2, b2]. Each key has its own partial sequence,
    // so b2 (h2) at 3 does not complete h1's sequence. Results by their first event's time.
    const events = [
      ev('a1', 1, 'process', { host: { id: 'h1' } }),
      ev('a2', 2, 'process', { host: { id: 'h2' } }),
      ev('b2', 3, 'network', { host: { id: 'h2' } }),
      ev('b1', 4, 'network', { host: { id: 'h1' } }),
    ];
    assert.deepEqual(ids(run('sequence by host.id [process where true] [network where true]', events.reverse())), [['a1', 'b1'], ['a2', 'b2']]);
  });

  it('without by, the latest partial sequence at a stage is the one a new event extends', () => {
    // a@1, a@2 (replaces a@1 at stage 1), b@3 -> [a@2, b@3].
    const events = [ev('a1', 1, 'process'), ev('a2', 2, 'process'), ev('b', 3, 'network')];
    assert.deepEqual(ids(run('sequence [process where true] [network where true]', events)), [['a2', 'b']]);
  });

  it('drops partial sequences older than maxspan (first to last event, inclusive)', () => {
    // h1: a@0, b@5 -> span 5 min, within 5m. h2: a@0, b@6 -> span 6 min, dropped.
    const events = [
      ev('a1', 0, 'process', { host: { id: 'h1' } }),
      ev('a2', 0, 'process', { host: { id: 'h2' } }),
      ev('b1', 5, 'network', { host: { id: 'h1' } }),
      ev('b2', 6, 'network', { host: { id: 'h2' } }),
    ];
    assert.deepEqual(ids(run('sequence by host.id with maxspan=5m [process where true] [network where true]', events)), [['a1', 'b1']]);
  });

  it('until ends the partial sequences of its key only', () => {
    // h1: a@1, end@2, b@3 -> ended before b. h2: a@1, b@3 -> matches (h1's end does not touch h2).
    const events = [
      ev('a1', 1, 'process', { host: { id: 'h1' } }),
      ev('a2', 1, 'process', { host: { id: 'h2' } }),
      ev('end1', 2, 'process', { host: { id: 'h1' }, event: { category: 'process', type: 'end' } }),
      ev('b1', 3, 'network', { host: { id: 'h1' } }),
      ev('b2', 3, 'network', { host: { id: 'h2' } }),
    ];
    // a1 and a2 have no event.type (`!= "end"` would be null for them), hence `== null`.
    const q = 'sequence by host.id [process where event.type == null] [network where true] until [process where event.type == "end"]';
    assert.deepEqual(ids(run(q, events)), [['a2', 'b2']]);
  });

  it('joins on per-step keys of different fields', () => {
    // File created (file.path) then executed (process.executable) with the same path.
    const events = [
      ev('f1', 1, 'file', { file: { path: '/tmp/x' } }),
      ev('f2', 2, 'file', { file: { path: '/tmp/y' } }),
      ev('p1', 3, 'process', { process: { executable: '/tmp/y' } }),
    ];
    assert.deepEqual(ids(run('sequence [file where true] by file.path [process where true] by process.executable', events)), [['f2', 'p1']]);
  });

  it('repeats a step with runs=N', () => {
    // Three failures then a success for one user: runs=3 needs three failures in a row of the key.
    const fail = (id: string, m: number) => ev(id, m, 'authentication', { user: { name: 'u' }, event: { category: 'authentication', outcome: 'failure' } });
    const ok = ev('s', 9, 'authentication', { user: { name: 'u' }, event: { category: 'authentication', outcome: 'success' } });
    const q = 'sequence by user.name [authentication where event.outcome == "failure"] with runs=3 [authentication where event.outcome == "success"]';
    assert.deepEqual(ids(run(q, [fail('f1', 1), fail('f2', 2), fail('f3', 3), ok])), [['f1', 'f2', 'f3', 's']]);
    assert.deepEqual(ids(run(q, [fail('f1', 1), fail('f2', 2), ok])), []);
  });

  it('rejects a sequence when a missing-event step occurs between its neighbours', () => {
    // h1: a@1, c@2, b@3 -> c sits between a and b: rejected. h2: a@1, b@3 -> kept.
    const events = [
      ev('a1', 1, 'process', { host: { id: 'h1' }, process: { name: 'a' } }),
      ev('c1', 2, 'process', { host: { id: 'h1' }, process: { name: 'c' } }),
      ev('b1', 3, 'process', { host: { id: 'h1' }, process: { name: 'b' } }),
      ev('a2', 1, 'process', { host: { id: 'h2' }, process: { name: 'a' } }),
      ev('b2', 3, 'process', { host: { id: 'h2' }, process: { name: 'b' } }),
    ];
    const q = 'sequence by host.id with maxspan=10m [process where process.name == "a"] ![process where process.name == "c"] [process where process.name == "b"]';
    assert.deepEqual(ids(run(q, events)), [['a2', 'b2']]);
  });

  it('reads the category from the field the options name, and breaks time ties by the tiebreaker field', () => {
    // Both events at t=1: by input order a2 comes first; by tiebreaker seq, a1 (seq 1) does.
    const events = [
      { id: 'a2', t: 1, seq: 2, kind: 'process' },
      { id: 'a1', t: 1, seq: 1, kind: 'process' },
      { id: 'b', t: 2, seq: 3, kind: 'network' },
    ];
    const q = 'sequence [process where true] [network where true]';
    const parsed = language.parse(q);
    assert.ok(parsed.ok);
    if (!parsed.ok) return;
    assert.deepEqual(ids(parsed.query.run(events, { timestampField: 't', eventCategoryField: 'kind' })), [['a1', 'b']]);
    assert.deepEqual(ids(parsed.query.run(events, { timestampField: 't', eventCategoryField: 'kind', tiebreakerField: 'seq' })), [['a2', 'b']]);
  });

  it('orders by the timestamp field given in the options', () => {
    const events = [
      { id: 'b', t: 2, event: { category: 'network' } },
      { id: 'a', t: 1, event: { category: 'process' } },
    ];
    assert.deepEqual(ids(run('sequence [process where true] [network where true]', events, 't')), [['a', 'b']]);
  });
});

describe('eql evaluation: samples', () => {
  it('takes, per join key, one event per step regardless of order', () => {
    // h1 has a network event before its process event: still a sample. h2 has no network event.
    const events = [
      ev('n1', 1, 'network', { host: { id: 'h1' } }),
      ev('p1', 2, 'process', { host: { id: 'h1' } }),
      ev('p2', 3, 'process', { host: { id: 'h2' } }),
    ];
    assert.deepEqual(ids(run('sample by host.id [process where true] [network where true]', events)), [['p1', 'n1']]);
  });
});
