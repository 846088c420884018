import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { language as kuery } from '../src/kuery/index.js';
import { language as lucene } from '../src/lucene/index.js';
import { runThreshold } from '../src/threshold.js';
import type { CompiledQuery, EventDoc, QueryLanguage } from '../src/types.js';

/** Offline evaluation, each expectation worked out by hand from the documented semantics. */

function compiled(lang: QueryLanguage, text: string): CompiledQuery {
  const r = lang.parse(text);
  assert.ok(r.ok, `${text}: ${r.ok ? '' : r.problem.message}`);
  return r.query;
}

/** Indices of the events the query matches. */
function matching(lang: QueryLanguage, text: string, events: EventDoc[]): number[] {
  return compiled(lang, text).run(events).map((m) => events.indexOf(m.events[0]!));
}

const PROCS: EventDoc[] = [
  { process: { name: 'cmd.exe', pid: 10 }, user: { name: 'alice' }, tags: ['a', 'b'] }, // 0
  { process: { name: 'CMD.EXE', pid: 20 }, user: { name: 'root' } }, // 1
  { 'process.name': 'powershell.exe', 'process.pid': 30, user: { name: 'bob' } }, // 2
  { process: { name: 'cmd.exe arg' }, message: 'cmd.exe' }, // 3
  { process: { pid: '40' }, user: { name: 'root admin' } }, // 4
];

describe('kuery evaluation', () => {
  it('matches whole values case-sensitively, as keyword fields', () => {
    assert.deepEqual(matching(kuery, 'process.name:cmd.exe', PROCS), [0]);
    assert.deepEqual(matching(kuery, 'process.name:"cmd.exe arg"', PROCS), [3]);
  });

  it('wildcards match across the whole value; a quoted * is literal', () => {
    assert.deepEqual(matching(kuery, 'process.name:cmd*', PROCS), [0, 3]);
    assert.deepEqual(matching(kuery, 'process.name:*.exe', PROCS), [0, 2]);
    assert.deepEqual(matching(kuery, 'process.name:"cmd*"', PROCS), []);
  });

  it('and, or, not and value lists combine as boolean logic', () => {
    // not user.name:root: 0 (alice), 2 (bob), 3 (no user), 4 ("root admin" is not "root")
    assert.deepEqual(matching(kuery, 'not user.name:root', PROCS), [0, 2, 3, 4]);
    assert.deepEqual(matching(kuery, 'process.name:(cmd.exe or powershell.exe) and not user.name:bob', PROCS), [0]);
    assert.deepEqual(matching(kuery, 'tags:(a and b)', PROCS), [0]);
  });

  it('ranges compare numbers as numbers (numeric strings too) and exists needs a value', () => {
    // pids 10, 20, 30, (none), "40"
    assert.deepEqual(matching(kuery, 'process.pid >= 20', PROCS), [1, 2, 4]);
    assert.deepEqual(matching(kuery, 'process.pid < 20', PROCS), [0]);
    assert.deepEqual(matching(kuery, 'process.pid:*', PROCS), [0, 1, 2, 4]);
    assert.deepEqual(matching(kuery, 'process.pid:30', PROCS), [2]);
  });

  it('a value without a field matches any field; field patterns match any field fitting them', () => {
    assert.deepEqual(matching(kuery, 'cmd.exe', PROCS), [0, 3]); // 3 through message
    assert.deepEqual(matching(kuery, 'process.*:powershell.exe', PROCS), [2]);
  });

  it('compares ISO dates as instants', () => {
    const events = [{ '@timestamp': '2024-01-01T10:00:00Z' }, { '@timestamp': '2024-01-01T12:00:00+01:00' }, { '@timestamp': '2023-12-31T23:00:00Z' }];
    // 12:00+01:00 is 11:00Z
    assert.deepEqual(matching(kuery, '@timestamp > "2024-01-01T10:30:00Z"', events), [1]);
  });

  it('nested queries hold for one object of the array, not across objects', () => {
    const events = [
      { threat: { enrichments: [{ matched: { field: 'source.ip' }, indicator: { type: 'url' } }, { matched: { field: 'url.full' }, indicator: { type: 'ipv4-addr' } }] } },
      { threat: { enrichments: [{ matched: { field: 'source.ip' }, indicator: { type: 'ipv4-addr' } }] } },
    ];
    assert.deepEqual(matching(kuery, 'threat.enrichments:{ matched.field:source.ip and indicator.type:ipv4-addr }', events), [1]);
    // Without the nesting the fields are flattened, and the first event matches too.
    assert.deepEqual(matching(kuery, 'threat.enrichments.matched.field:source.ip and threat.enrichments.indicator.type:ipv4-addr', events), [0, 1]);
  });

  it('escaped characters are literal', () => {
    const events = [{ path: 'C:\\Windows' }, { path: 'a*b' }, { path: 'axb' }, { f: '(x)' }];
    assert.deepEqual(matching(kuery, 'path:C\\:\\\\Windows', events), [0]);
    assert.deepEqual(matching(kuery, 'path:a\\*b', events), [1]);
    assert.deepEqual(matching(kuery, 'f:\\(x\\)', events), [3]);
  });
});

describe('lucene evaluation', () => {
  it('applies the classic parser roles: a OR NOT b is a -b', () => {
    const events = [{ a: 1, b: 2 }, { a: 1 }, { b: 3 }, {}];
    assert.deepEqual(matching(lucene, 'a:1 OR NOT b:2', events), [1]);
    // a AND b OR c: AND makes a and b required; c is optional
    assert.deepEqual(matching(lucene, 'a:1 AND b:2 OR c:3', [{ a: 1, b: 2 }, { a: 1, c: 3 }, { c: 3 }]), [0]);
    // a OR b AND c: b and c required, a optional
    assert.deepEqual(matching(lucene, 'a:1 OR b:2 AND c:3', [{ a: 1 }, { b: 2, c: 3 }, { a: 1, b: 2 }]), [1]);
    // only prohibited clauses: everything they leave
    assert.deepEqual(matching(lucene, '-a:1', events), [2, 3]);
    assert.deepEqual(matching(lucene, '+a:1 -b:2', events), [1]);
  });

  it('field groups, phrases, ? and * wildcards, fuzzy terms and regexes', () => {
    const events = [{ user: { name: 'admin' } }, { user: { name: 'admn' } }, { user: { name: 'root' } }, { user: { name: 'Administrator' } }];
    assert.deepEqual(matching(lucene, 'user.name:(root admin)', events), [0, 2]);
    assert.deepEqual(matching(lucene, 'user.name:adm?n', events), [0]);
    assert.deepEqual(matching(lucene, 'user.name:Adm*', events), [3]);
    assert.deepEqual(matching(lucene, 'user.name:admin~1', events), [0, 1]);
    assert.deepEqual(matching(lucene, 'user.name:/ad.*n/', events), [0, 1]);
    assert.deepEqual(matching(lucene, 'user.name:"root"', events), [2]);
  });

  it('regexes are Lucene RegExp as query_string reads them: \\- literal, ~ a plain character, whole values', () => {
    const events = [{ a: 'x-1' }, { a: '~x' }, { a: 'yx-1' }];
    assert.deepEqual(matching(lucene, 'a:/x\\-<1-5>/', events), [0]);
    assert.deepEqual(matching(lucene, 'a:/~x/', events), [1]);
  });

  it('many-star wildcards over long values finish at once (kuery and lucene)', () => {
    const events = [{ a: 'a'.repeat(60) }];
    const started = Date.now();
    assert.deepEqual(matching(lucene, `a:${'*a'.repeat(15)}*b`, events), []);
    assert.deepEqual(matching(kuery, `a:${'*a'.repeat(15)}*`, events), [0]);
    assert.ok(Date.now() - started < 1000);
  });

  it('ranges: inclusive, exclusive, open, and comparisons', () => {
    const events = [{ port: 22 }, { port: 80 }, { port: 443 }, { port: 1024 }];
    assert.deepEqual(matching(lucene, 'port:[80 TO 443]', events), [1, 2]);
    assert.deepEqual(matching(lucene, 'port:{80 TO 443]', events), [2]);
    assert.deepEqual(matching(lucene, 'port:[443 TO *]', events), [2, 3]);
    assert.deepEqual(matching(lucene, 'port:<80', events), [0]);
    assert.deepEqual(matching(lucene, 'port:>=443', events), [2, 3]);
  });

  it('_exists_ needs a non-null value', () => {
    assert.deepEqual(matching(lucene, '_exists_:user.name', [{ user: { name: 'x' } }, { user: { name: null } }, {}]), [0]);
  });
});

describe('threshold evaluation', () => {
  const failures = (ip: string, user: string, outcome = 'failure') => ({ event: { outcome }, source: { ip }, user: { name: user } });
  const events = [
    failures('10.0.0.1', 'a'), failures('10.0.0.1', 'b'), failures('10.0.0.1', 'a'), failures('10.0.0.1', 'c'), // 4 failures, 3 users
    failures('10.0.0.2', 'a'), failures('10.0.0.2', 'a'), failures('10.0.0.2', 'a'), // 3 failures, 1 user
    failures('10.0.0.3', 'a', 'success'), failures('10.0.0.3', 'b', 'success'), failures('10.0.0.3', 'c', 'success'), failures('10.0.0.3', 'd', 'success'),
    { event: { outcome: 'failure' }, user: { name: 'z' } }, // no source.ip: in no group
  ];
  const query = compiled(kuery, 'event.outcome:failure');

  it('groups matching events by the field and alerts on groups of at least value', () => {
    const alerts = runThreshold(query, events, { field: ['source.ip'], value: 3 });
    assert.deepEqual(alerts.map((a) => a.row), [{ 'source.ip': '10.0.0.1', count: 4 }, { 'source.ip': '10.0.0.2', count: 3 }]);
    assert.deepEqual(runThreshold(query, events, { field: 'source.ip', value: 4 }).map((a) => a.row), [{ 'source.ip': '10.0.0.1', count: 4 }]);
  });

  it('a cardinality condition counts distinct values within each group', () => {
    // 10.0.0.1 has users a, b, c (3 distinct); 10.0.0.2 only a
    const alerts = runThreshold(query, events, { field: ['source.ip'], value: 3, cardinality: [{ field: 'user.name', value: 3 }] });
    assert.deepEqual(alerts.map((a) => a.row), [{ 'source.ip': '10.0.0.1', count: 4, cardinality: 3 }]);
    assert.equal(alerts[0]!.events.length, 4);
    assert.deepEqual(runThreshold(query, events, { field: ['source.ip'], value: 3, cardinality: [{ field: 'user.name', value: 4 }] }), []);
  });

  it('several fields group by every combination; no field is one group of all matches', () => {
    const alerts = runThreshold(query, events, { field: ['source.ip', 'user.name'], value: 2 });
    assert.deepEqual(alerts.map((a) => a.row), [{ 'source.ip': '10.0.0.1', 'user.name': 'a', count: 2 }, { 'source.ip': '10.0.0.2', 'user.name': 'a', count: 3 }]);
    // 8 failures in all (4 + 3 + the one without source.ip)
    assert.deepEqual(runThreshold(query, events, { field: [], value: 8 }).map((a) => a.row), [{ count: 8 }]);
  });
});
