import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * `svcform validate` on qlang rules: what svcform cannot judge offline (a function or command it
 * does not know) is a warning at its line and column and the run succeeds; what the real parser
 * refuses stays an error.
 */

function qlangRule(name: string, queryLines: string[]): string {
  return [
    'apiVersion: svcform/v1',
    'kind: Rule',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  name: n',
    '  description: d',
    '  severity: low',
    '  risk_score: 1',
    '  type: qlang',
    '  language: qlang',
    '  required_fields: [{name: x, type: keyword}]',
    '  query: |-',
    ...queryLines.map((l) => `    ${l}`),
    '',
  ].join('\n');
}

async function validate(files: Record<string, string>) {
  const dir = repo(files);
  const run = await cli(['validate', dir]);
  return { ...run, err: run.err.split(dir + '/').join('').split(join(dir, '/')).join('') };
}

describe('qlang queries in validate', () => {
  it('warns about an unknown function at its line and column, with a suggestion, and exits 0', async () => {
    // Query line 2 is file line 15; `TO_LOWR` starts after `| EVAL y = ` (column 5 + 11).
    const r = await validate({ 'r.yaml': qlangRule('fn', ['FROM logs-*', '| EVAL y = TO_LOWR(x)']) });
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /r\.yaml:15:16: warning: Rule\/fn: query: not checked offline: unknown function TO_LOWR; did you mean TO_LOWER\? \(qlang\); the server decides, or set metadata\.checks\.querySyntax: false/);
  });

  it('says once what many rules use alike that it cannot check (a newer server\'s function)', async () => {
    const files: Record<string, string> = {};
    for (const n of ['a', 'b', 'c']) files[`${n}.yaml`] = qlangRule(n, ['FROM logs-*', '| EVAL y = TO_LOWR(x)']);
    files['d.yaml'] = qlangRule('d', ['FROM logs-*', '| EVAL y = FROBNICATE_ALL(x)']);
    const r = await validate(files);
    assert.equal(r.code, 0, r.err);
    const lines = r.err.split('\n').filter((l) => l.includes('warning:'));
    assert.equal(lines.length, 2, r.err);
    assert.match(lines[0], /^a\.yaml:15:16: warning: Rule\/a: query: not checked offline: unknown function TO_LOWR.* \[and 2 more: b\.yaml:15, c\.yaml:15\]$/);
    assert.match(lines[1], /^d\.yaml:15:16: warning: Rule\/d: query: not checked offline: unknown function FROBNICATE_ALL/);
  });

  it('warns about an unknown command and exits 0', async () => {
    const r = await validate({ 'r.yaml': qlangRule('cmd', ['FROM logs-*', '| WHERE x == "a"', '| FROBNICATE x (a | b)']) });
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /r\.yaml:16:7: warning: Rule\/cmd: query: not checked offline: unknown command FROBNICATE \(qlang\)/);
  });

  it('accepts the 9.x syntax of production rules without a word (wire-facts §16 #13)', async () => {
    const r = await validate({
      'r.yaml': qlangRule('new', ['FROM logs-*', '| INLINE STATS n = COUNT(*) BY x', '| EVAL w = DATE_TRUNC(5m, @timestamp), j = JSON_EXTRACT(x, "$.a")', '| COMPLETION out = x WITH {"inference_id": "m"}', '| KEEP x, n, w, j, out']),
    });
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /query/);
  });

  it('still refuses a real syntax error at its place', async () => {
    // `INLINE STATS` needs an aggregation: `BY` stands on line 15, column 5 + 15.
    const r = await validate({ 'r.yaml': qlangRule('bad', ['FROM logs-*', '| INLINE STATS BY x']) });
    assert.equal(r.code, 1);
    assert.match(r.err, /r\.yaml:15:20: Rule\/bad: query: expected field name/);
  });
});
