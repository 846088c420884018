import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildId } from '../../src/common/build-id.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { childEnv, findingLines, runBuiltCli } from '../helpers/spawn-cli.js';
import { defaultCacheDir } from '../helpers/cache-home.js';

/**
 * The facts of query checks kept between runs (issue 10): each run is a child process, as users
 * run svcform, so what a run knows comes from the cache directory alone. Every description reads
 * a file (`${file:owner.txt}`), so every document is checked at every run (a document found clean
 * has its checks skipped only when they read nothing but the document: clean-documents.test.ts),
 * and what the runs know of the queries comes from the query facts alone.
 */

function rule(name: string, query: string, language = 'kuery'): string {
  return `apiVersion: svcform/v1
kind: Rule
metadata:
  name: ${name}
spec:
  type: ${language === 'eql' ? 'eql' : 'query'}
  name: ${name}
  description: A rule by \${file:owner.txt}.
  severity: low
  risk_score: 21
  language: ${language}
  query: '${query}'
  index:
    - logs-*
`;
}

function repository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-query-cache-'));
  writeFileSync(join(dir, 'svcform.yaml'), 'space: default\n');
  writeFileSync(join(dir, 'owner.txt'), 'the SOC\n');
  writeFileSync(
    join(dir, 'rules.yaml'),
    [
      rule('good', 'process.name:"cmd.exe" and event.action:start'),
      rule('typo', 'proces.name:"cmd.exe"'),
      rule('sequence', 'process where process.name == "cmd.exe" and process.parent.name : "explorer.exe"', 'eql'),
    ].join('---\n'),
  );
  writeFileSync(join(dir, 'broken.yaml'), rule('broken', 'process.name:(a or b'));
  return dir;
}

const checked = (err: string) => /^checked (\d+) queries: (\d+) parsed, (\d+) known/m.exec(err)?.slice(1).map(Number);

describe('query checks kept between runs (the cache directory)', () => {
  it('a second run parses no query and reports exactly what the first reported, errors and warnings at their places', async () => {
    const dir = repository();
    const first = await runBuiltCli(['validate', '.', '--verbose'], dir);
    const second = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.equal(first.code, 1);
    assert.deepEqual(checked(first.err), [4, 4, 0]);
    assert.deepEqual(checked(second.err), [4, 0, 4]);
    assert.match(first.err, /broken\.yaml:12:\d+: .*Rule\/broken: query: expected "\)"/);
    assert.match(first.err, /rules\.yaml:27:\d+: warning: Rule\/typo: query: field "proces\.name" is not a known field; did you mean process\.name\?/);
    assert.equal(findingLines(first.err).length, 2, first.err);
    assert.deepEqual(findingLines(second.err), findingLines(first.err));
    assert.ok(readdirSync(join(defaultCacheDir(dir), buildId()!)).includes('query-checks'));
  });

  it('a changed query is parsed again; the others are not', async () => {
    const dir = repository();
    await runBuiltCli(['validate', '.'], dir);
    writeFileSync(join(dir, 'broken.yaml'), rule('broken', 'process.name:(a or b)'));
    const run = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.deepEqual(checked(run.err), [4, 1, 3]);
    assert.doesNotMatch(run.err, /expected "\)"/);
  });

  it('a damaged cache is ignored and rewritten', async () => {
    const dir = repository();
    await runBuiltCli(['validate', '.'], dir);
    writeFileSync(join(defaultCacheDir(dir), buildId()!, 'query-checks'), 'garbage');
    const run = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.deepEqual(checked(run.err), [4, 4, 0]);
    assert.match(run.err, /expected "\)"/);
    assert.deepEqual(checked((await runBuiltCli(['validate', '.', '--verbose'], dir)).err), [4, 0, 4]);
  });

  it('--no-cache neither reads nor writes; SVCFORM_CACHE_DIR moves the cache', async () => {
    const dir = repository();
    const off = await runBuiltCli(['validate', '.', '--verbose', '--no-cache'], dir);
    assert.deepEqual(checked(off.err), [4, 4, 0]);
    assert.equal(existsSync(defaultCacheDir(dir)), false);
    const elsewhere = mkdtempSync(join(tmpdir(), 'svcform-cache-dir-'));
    await runBuiltCli(['validate', '.'], dir, childEnv({ SVCFORM_CACHE_DIR: elsewhere }));
    assert.equal(existsSync(defaultCacheDir(dir)), false);
    assert.ok(readdirSync(join(elsewhere, buildId()!)).includes('query-checks'));
    const again = await runBuiltCli(['validate', '.', '--verbose'], dir, childEnv({ SVCFORM_CACHE_DIR: elsewhere }));
    assert.deepEqual(checked(again.err), [4, 0, 4]);
  });

  describe('plan reads what validate kept', () => {
    let emu: RunningEmulator;
    before(async () => {
      emu = await emulator();
    });
    after(() => emu.stop());

    it('plan after validate parses no query', async () => {
      const dir = repository();
      writeFileSync(join(dir, 'broken.yaml'), rule('broken', 'process.name:(a or b)'));
      await runBuiltCli(['validate', '.'], dir);
      const plan = await runBuiltCli(['plan', '.', '--url', emu.url, '--verbose'], dir);
      assert.equal(plan.code, 0, plan.err);
      assert.deepEqual(checked(plan.err), [4, 0, 4]);
    });
  });
});
