import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shellStyleMessage, shellStyleReferences } from '../../src/manifest/shell-style.js';
import { expectWarnings, svcform, valid } from './harness.js';
import { cli } from '../helpers/cli.js';
import { blockRuleYaml, repo } from '../helpers/repo.js';

describe("svcform validate: '${NAME}' written the shell way", () => {
  it('is a warning at the string, pointing at ${env:NAME}; the run still exits 0', async () => {
    const file = valid('shell-style-reference.yaml');
    const run = await svcform(['validate', file], { SVCFORM_TEST_PAGING_PASSWORD: 'pw-5521' });
    assert.equal(run.code, 0, run.stderr);
    expectWarnings(run, file, ['13:7 Connector/soc-pagerduty: ${PAGING_TOKEN} is not interpolated and is sent as written: svcform reads environment variables as ${env:PAGING_TOKEN} (write $${PAGING_TOKEN} to keep the text)']);
    assert.match(run.stdout, /1 resources in 1 files: valid \(0 errors, 1 warnings\)/);
  });

  it('does not stop the document being a resource (plan would still use it)', async () => {
    const run = await svcform(['validate', '--json', valid('shell-style-reference.yaml')], { SVCFORM_TEST_PAGING_PASSWORD: 'pw-5521' });
    const out = JSON.parse(run.stdout);
    assert.equal(out.valid, true);
    assert.equal(out.resources, 1);
    assert.deepEqual(out.diagnostics.map((d: any) => d.severity), ['warning']);
  });

  it('finds every ${NAME} in every string, one entry per string, and none escaped, dotted, or in the ${env:} and ${file:} forms', () => {
    const found = shellStyleReferences({
      a: 'x ${ONE} y ${_two2} z ${ONE}',
      b: ['$${ESCAPED}', '$$${ALSO_ESCAPED}', '${source.ip}', '${env:HOME}', '${file:x.txt}', '{{context.rule.name}}', '$NAME'],
      c: { d: '${THREE}' },
    });
    assert.deepEqual(found, [
      { path: ['a'], names: ['ONE', '_two2'] },
      { path: ['c', 'd'], names: ['THREE'] },
    ]);
  });

  it('says once what many manifests write alike, with a count and the first places; --json lists each', async () => {
    const rule = (name: string) => blockRuleYaml(name, ['Ask ${TEAM_LEAD} before closing.'], ['event.kind:alert']);
    const dir = repo({ 'a.yaml': rule('a'), 'b.yaml': rule('b'), 'c.yaml': rule('c'), 'd.yaml': blockRuleYaml('d', ['Page ${ON_CALL}.'], ['event.kind:alert']) });
    const run = await cli(['validate', dir]);
    assert.equal(run.code, 0, run.err);
    const lines = run.err.split('\n').filter((l) => l.includes('warning:'));
    assert.equal(lines.length, 2, run.err);
    assert.match(lines[0], /a\.yaml:8:3: warning: Rule\/a: \$\{TEAM_LEAD\} is not interpolated .* \[and 2 more: \S*b\.yaml:8, \S*c\.yaml:8\]$/);
    assert.match(lines[1], /d\.yaml:8:3: warning: Rule\/d: \$\{ON_CALL\} is not interpolated/);
    const json = JSON.parse((await cli(['validate', dir, '--json'])).out) as { diagnostics: unknown[] };
    assert.equal(json.diagnostics.length, 4);
  });

  it('says so once per string: a guide with six placeholders is one warning (seen in production rules)', () => {
    assert.equal(
      shellStyleMessage(['POD', 'CMD']),
      '${POD}, ${CMD} are not interpolated and are sent as written: svcform reads environment variables as ${env:NAME} (write $${NAME} to keep the text)',
    );
    assert.match(shellStyleMessage(['A', 'B', 'C', 'D', 'E', 'F']), /^\$\{A\}, \$\{B\}, \$\{C\} and 3 more are not interpolated/);
  });
});
