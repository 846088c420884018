import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, findingLines, runBuiltCli } from '../helpers/spawn-cli.js';
import { blockRuleYaml, repo } from '../helpers/repo.js';
import { emulator } from '@svcform/emulator/testing.js';

/**
 * Documents whose checks found no error are not checked again by the next run with the same check
 * options (manifest-cache.ts, CleanDocuments), and their warnings are repeated from what was kept:
 * the checks of 2,068 rules were about 0.15 s of a repeated plan (issue 10), and a warning on
 * every rule made a repeated plan as slow as the first (issue 29). What a skipped check would have said must never differ from what it
 * says: a document with `${...}` or one whose checks read a file is checked at every run.
 */

const rule = (name: string, ...more: string[]) => blockRuleYaml(name, ['A clean rule', 'with a note.', ...more], ['event.kind:alert and', 'event.code:"4625"']);

function repository(files: Record<string, string>): string {
  return repo({ 'svcform.yaml': 'space: default\n', ...files }, 'svcform-clean-documents-');
}

/** [files parsed, files read from the cache, documents whose checks were skipped] of a --verbose run. */
const reparsed = (err: string) => Number(/(\d+) files parsed again for positions$/m.exec(err)?.[1]);
const counts = (err: string) => /^manifest files: (\d+) parsed, (\d+) read from the cache; (\d+) documents' checks skipped/m.exec(err)?.slice(1).map(Number);

/** A repository of `files`, its first `validate --verbose` (which must pass) and the finding lines it shows. */
async function validatedFirst(files: Record<string, string>) {
  const dir = repository(files);
  const validate = (...more: string[]) => runBuiltCli(['validate', '.', '--verbose', ...more], dir);
  const first = await validate();
  assert.equal(first.code, 0, first.err);
  return { dir, validate, first, shown: findingLines(first.err) };
}

describe('checks of documents found clean before are skipped (the cache directory)', () => {
  it('the next run with the same options skips them and says the same; other options check again', async () => {
    const dir = repository({ 'a.yaml': [rule('one'), rule('two')].join('---\n'), 'b.yaml': rule('three') });
    const first = await runBuiltCli(['validate', '.', '--verbose'], dir);
    const second = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.equal(first.code, 0, first.err);
    assert.deepEqual(counts(first.err), [2, 0, 0]);
    assert.equal(second.code, 0, second.err);
    assert.deepEqual(counts(second.err), [0, 2, 3]);
    assert.equal(second.out, first.out);
    // --strict and another default space are other check options: checked, then known in turn.
    assert.deepEqual(counts((await runBuiltCli(['validate', '.', '--verbose', '--strict'], dir)).err), [0, 2, 0]);
    assert.deepEqual(counts((await runBuiltCli(['validate', '.', '--verbose', '--strict'], dir)).err), [0, 2, 3]);
    assert.deepEqual(counts((await runBuiltCli(['validate', '.', '--verbose', '--space', 'other'], dir)).err), [0, 2, 0]);
    assert.deepEqual(counts((await runBuiltCli(['validate', '.', '--verbose'], dir)).err), [0, 2, 3], 'the first options are still known');
  });

  it('a warned document is neither checked nor parsed again: its warnings come back at the same places, in validate and in a plan', async () => {
    // A near miss of a field and a shell-style ${NAME} in the description: two warnings, each with a place inside the file.
    const dir = repository({ 'a.yaml': [rule('one'), rule('two', 'Run ${CMD} by hand.').replace('event.code', 'evnt.code')].join('---\n') });
    const first = await runBuiltCli(['validate', '.', '--verbose'], dir);
    const second = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.equal(first.code, 0, first.err);
    assert.deepEqual(counts(second.err), [0, 1, 2], 'both documents known, the warned one too');
    assert.equal(reparsed(second.err), 0, 'no position asked of the file');
    assert.equal(findingLines(first.err).length, 2, first.err);
    assert.deepEqual(findingLines(second.err), findingLines(first.err));
    assert.equal(second.out, first.out);
    const emu = await emulator();
    try {
      const plan = await runBuiltCli(['plan', '.', '--url', emu.url, '--verbose'], dir);
      assert.equal(plan.code, 0, plan.err);
      assert.deepEqual(counts(plan.err), [0, 1, 2]);
      assert.equal(reparsed(plan.err), 0);
      assert.deepEqual(findingLines(plan.err), findingLines(first.err));
    } finally {
      await emu.stop();
    }
  });

  it('a warning is placed when shown: text shows four places of a group, JSON every one, and the next runs parse no file for them', async () => {
    // Beyond ASCII (the ’), a file goes on with its documents as kept, so a place inside one costs
    // a parse of the file, counted. Six rules with one shell-style ${NAME} (a place at a field),
    // six with one near miss of a field (a place inside the query).
    const files: Record<string, string> = {};
    for (let n = 1; n <= 6; n++) {
      files[`rules/shell-${n}.yaml`] = rule(`shell-${n}`, 'Run ${CMD} by hand’s reach.');
      files[`rules/field-${n}.yaml`] = rule(`field-${n}`, 'A rule’s note.').replace('event.code', 'evnt.code');
    }
    const { dir, validate, first, shown } = await validatedFirst(files);
    assert.equal(shown.length, 2, first.err);
    assert.match(shown[0], /^rules\/field-1\.yaml:17:5: warning: Rule\/field-1: query: field "evnt\.code" .* \[and 5 more: rules\/field-2\.yaml:17, rules\/field-3\.yaml:17, rules\/field-4\.yaml:17, …/);
    assert.match(shown[1], /^rules\/shell-1\.yaml:\d+:\d+: warning: Rule\/shell-1: \$\{CMD\} .* \[and 5 more: rules\/shell-2\.yaml:\d+, /);
    assert.equal(reparsed(first.err), 8, 'the first and three more of each group, not all twelve');

    const second = await validate();
    assert.deepEqual(counts(second.err), [0, 12, 12]);
    assert.deepEqual(findingLines(second.err), shown);
    assert.equal(reparsed(second.err), 0, 'the places shown were kept');

    const json = await validate('--json');
    assert.equal(reparsed(json.err), 4, 'the places never shown: two of each group');
    assert.equal(json.out, (await runBuiltCli(['validate', '.', '--json', '--no-cache'], dir)).out, 'the places a fresh parse gives');
    const jsonAgain = await validate('--json');
    assert.equal(reparsed(jsonAgain.err), 0);
    assert.equal(jsonAgain.out, json.out);
  });

  it('a document with two warnings is not placed to order them: what the value says orders them as their lines do', async () => {
    // Found in the other order than written: the shell-style ${ENV} of the index (checked first)
    // lies after the query's near miss. Beyond ASCII, so that each place costs a parse, counted.
    const files: Record<string, string> = {};
    for (let n = 1; n <= 12; n++) files[`rules/both-${String(n).padStart(2, '0')}.yaml`] = rule(`both-${n}`, 'A rule’s note.').replace('event.code', 'evnt.code').replace('- logs-*', '- logs-${ENV}-*');
    const { dir, validate, first, shown } = await validatedFirst(files);
    assert.equal(shown.length, 2, first.err);
    assert.match(shown[0], /^rules\/both-01\.yaml:17:5: warning: Rule\/both-1: query: field "evnt\.code" .* \[and 11 more: rules\/both-02\.yaml:17, rules\/both-03\.yaml:17, rules\/both-04\.yaml:17, …/);
    assert.match(shown[1], /^rules\/both-01\.yaml:19:7: warning: Rule\/both-1: \$\{ENV\} .* \[and 11 more: rules\/both-02\.yaml:19, /);
    assert.equal(reparsed(first.err), 4, 'the four files shown, not all twelve');
    const json = await validate('--json');
    assert.equal(json.out, (await runBuiltCli(['validate', '.', '--json', '--no-cache'], dir)).out, 'the order and places a fresh parse gives');
  });

  it('a document with an error is checked at every run; a warning under other check options is found again', async () => {
    const dir = repository({ 'a.yaml': [rule('one'), rule('two').replace('risk_score: 21', 'risk_score: 210'), rule('three').replace('event.code', 'evnt.code')].join('---\n') });
    const first = await runBuiltCli(['validate', '.', '--verbose'], dir);
    const second = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.equal(second.code, 1);
    assert.deepEqual(counts(second.err), [0, 1, 2], 'rule two, with its error, is checked again');
    assert.deepEqual(findingLines(second.err), findingLines(first.err));
    // --strict makes the unknown field an error: under those options nothing of the warning is reused.
    const strict = await runBuiltCli(['validate', '.', '--verbose', '--strict'], dir);
    assert.deepEqual(counts(strict.err), [0, 1, 0]);
    assert.match(strict.err, /a\.yaml:\d+:\d+: Rule\/three: query: field "evnt\.code"/);
  });

  it('a document with ${env:...} is checked at every run: the variable may be gone', async () => {
    const dir = repository({ 'a.yaml': rule('one', 'Owner: ${env:RULE_OWNER}') });
    const set = await runBuiltCli(['validate', '.', '--verbose'], dir, childEnv({ RULE_OWNER: 'soc' }));
    assert.equal(set.code, 0, set.err);
    const unset = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.deepEqual(counts(unset.err), [0, 1, 0]);
    assert.equal(unset.code, 1);
    assert.match(unset.err, /RULE_OWNER/);
  });

  it('a document whose checks read a file is checked at every run: the file may have changed', async () => {
    const list = `apiVersion: svcform/v1
kind: ValueList
metadata:
  name: bad-domains
spec:
  name: Known-bad domains
  description: Values used by detection rules.
  type: keyword
  items_file: lists/domains.txt
`;
    const dir = repository({ 'list.yaml': list, 'lists/domains.txt': 'bad.example\n' });
    const first = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.equal(first.code, 0, first.err);
    rmSync(join(dir, 'lists', 'domains.txt'));
    const second = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.deepEqual(counts(second.err), [0, 1, 0]);
    assert.equal(second.code, 1);
    assert.match(second.err, /list\.yaml:\d+:\d+: .*items_file cannot be read/);
  });

  it('a run over some files keeps what earlier runs found of the others', async () => {
    const dir = repository({ 'a/one.yaml': rule('one'), 'b/two.yaml': rule('two') });
    await runBuiltCli(['validate', 'a', '--verbose'], dir);
    await runBuiltCli(['validate', 'b', '--verbose'], dir);
    assert.deepEqual(counts((await runBuiltCli(['validate', '.', '--verbose'], dir)).err), [0, 2, 2]);
  });
});
