import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/** `svcform test` through the real CLI entry point: passing and failing cases, --json, JUnit XML, bad test files. */

const RULE = [
  'apiVersion: svcform/v1',
  'kind: Rule',
  'metadata: {name: whoami}',
  'spec:',
  '  type: query',
  '  name: whoami',
  '  description: d',
  '  severity: low',
  '  risk_score: 1',
  "  query: 'process.name:whoami.exe and not user.name:SYSTEM'",
  '---',
  'apiVersion: svcform/v1',
  'kind: Rule',
  'metadata: {name: brute}',
  'spec:',
  '  type: threshold',
  '  name: brute',
  '  description: d',
  '  severity: low',
  '  risk_score: 1',
  "  query: 'event.outcome:failure'",
  '  threshold: {field: [source.ip], value: 2, cardinality: [{field: user.name, value: 2}]}',
  '',
].join('\n');

const PASSING = `rule: whoami
cases:
  - name: whoami by a person alerts
    events:
      - {process: {name: whoami.exe}, user: {name: alice}}
      - {process: {name: whoami.exe}, user: {name: SYSTEM}}
    expect: {alerts: 1, matching: [0]}
---
rule: brute
cases:
  - name: two users from one address
    events:
      - {event: {outcome: failure}, source: {ip: 10.0.0.1}, user: {name: a}}
      - {event: {outcome: failure}, source: {ip: 10.0.0.1}, user: {name: b}}
      - {event: {outcome: failure}, source: {ip: 10.0.0.2}, user: {name: a}}
      - {event: {outcome: failure}, source: {ip: 10.0.0.2}, user: {name: a}}
    expect:
      alerts: 1
      groups: [{source.ip: 10.0.0.1, count: 2, cardinality: 2}]
`;

const FAILING = `rule: whoami
cases:
  - name: expects the SYSTEM event too
    events:
      - {process: {name: whoami.exe}, user: {name: alice}}
      - {process: {name: whoami.exe}, user: {name: SYSTEM}}
    expect: {alerts: 2}
  - name: still fine
    events: [{process: {name: whoami.exe}}]
    expect: {matching: [0]}
`;

describe('svcform test', () => {
  it('runs passing cases: exit 0, a line per case and a summary', async () => {
    const dir = repo({ 'rules/r.yaml': RULE, 'rules/tests/r.test.yaml': PASSING });
    const r = await cli(['test', dir]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Rule\/whoami \(.*r\.test\.yaml:1\)\n {2}ok {4}whoami by a person alerts/);
    assert.match(r.out, /ok {4}two users from one address/);
    assert.match(r.out, /2 rules, 2 cases: 2 passed, 0 failed$/);
  });

  it('fails with the first difference and exit 1; --json and --junit carry the same results', async () => {
    const dir = repo({ 'rules/r.yaml': RULE, 'rules/whoami.test.yaml': FAILING });
    const junit = join(dir, 'junit.xml');
    const r = await cli(['test', dir, '--junit', junit]);
    assert.equal(r.code, 1);
    assert.match(r.out, /FAIL {2}expects the SYSTEM event too\n {8}expected 2 alerts, got 1 \(\[0\]\)/);
    assert.match(r.out, /1 rule, 2 cases: 1 passed, 1 failed$/);
    const xml = readFileSync(junit, 'utf8');
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="svcform test" tests="2" failures="1" errors="0">/);
    assert.match(xml, /<testsuite name="Rule\/whoami" tests="2" failures="1" errors="0" skipped="0" file="[^"]*whoami\.test\.yaml">/);
    assert.match(xml, /<testcase classname="Rule\/whoami" name="expects the SYSTEM event too" file="[^"]*" line="3">\n {6}<failure message="expected 2 alerts, got 1 \(\[0\]\)" type="assertion">/);
    assert.match(xml, /<testcase classname="Rule\/whoami" name="still fine" file="[^"]*" line="8"\/>/);
    const json = await cli(['test', dir, '--json']);
    assert.equal(json.code, 1);
    const parsed = JSON.parse(json.out);
    assert.equal(parsed.passed, false);
    assert.equal(parsed.failed, 1);
    assert.deepEqual(
      parsed.rules[0].cases.map((c: { name: string; passed: boolean }) => [c.name, c.passed]),
      [['expects the SYSTEM event too', false], ['still fine', true]],
    );
  });

  it('names file, line and field of a mistake in a test file, and runs nothing', async () => {
    const dir = repo({ 'r.yaml': RULE, 'bad.test.yaml': 'rule: whoami\ncases:\n  - name: x\n    events: [{a: 1}]\n    expect: {alerts: -1, matching: [3]}\n' });
    const r = await cli(['test', dir]);
    assert.equal(r.code, 1);
    assert.match(r.err, /bad\.test\.yaml:5:14: cases\[0\]\.expect\.alerts: must be a whole number >= 0/);
    assert.match(r.err, /bad\.test\.yaml:5:26: cases\[0\]\.expect\.matching: must be a list of event indices \(0 to 0\)/);
    assert.match(r.err, /no test was run/);
  });

  it('a test of a rule no manifest declares fails; a directory without test files is an error', async () => {
    const missing = await cli(['test', repo({ 'r.yaml': RULE, 'x.test.yaml': 'rule: nope\ncases: [{events: [], expect: {alerts: 0}}]\n' })]);
    assert.equal(missing.code, 1);
    assert.match(missing.out, /FAIL {2}case 1\n {8}no Rule named "nope" among the manifests/);
    const none = await cli(['test', repo({ 'r.yaml': RULE })]);
    assert.equal(none.code, 1);
    assert.match(none.err, /no rule test files \(\*\.test\.yaml\)/);
  });

  it('the examples repository passes its rule tests', async () => {
    const r = await cli(['test', 'examples/']);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /8 rules, \d+ cases: \d+ passed, 0 failed$/);
  });
});
