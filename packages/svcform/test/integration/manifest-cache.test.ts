import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildId } from '../../src/common/build-id.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { findingLines, runBuiltCli } from '../helpers/spawn-cli.js';
import { blockRuleYaml } from '../helpers/repo.js';
import { defaultCacheDir } from '../helpers/cache-home.js';

/**
 * Manifest files' documents kept between runs by the hash of their bytes (issue 10): every
 * command reads them, all but apply keep them. Each run is a child process, so what it knows
 * comes from disk.
 */

// Each rule misspells a field of its own: one field misspelt in many rules is one line of output.
const TYPOS: Record<string, string> = { one: 'proces.name', two: 'user.nmae', three: 'host.nmae', four: 'file.pth' };
const rule = (name: string, extra = '') => blockRuleYaml(name, ['A rule with a note', 'on two lines.'], ['process.name:"cmd.exe" and', `${TYPOS[name] ?? 'proces.name'}:x${extra}`]);

function repository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-manifest-cache-'));
  writeFileSync(join(dir, 'svcform.yaml'), 'space: default\n');
  writeFileSync(join(dir, 'a.yaml'), [rule('one'), rule('two')].join('---\n'));
  writeFileSync(join(dir, 'b.yaml'), rule('three').replace('risk_score: 21', 'risk_score: 210'));
  writeFileSync(join(dir, 'broken.yaml'), 'apiVersion: svcform/v1\nkind: Rule\nmetadata: {name: [x\n');
  return dir;
}

const counts = (err: string) => /^manifest files: (\d+) parsed, (\d+) read from the cache;/m.exec(err)?.slice(1).map(Number);
/** The one file that keeps every document (src/common/record-pack.ts). */
const pack = (dir: string) => join(defaultCacheDir(dir), buildId()!, 'manifests.pack');

describe('manifest documents kept between runs (the cache directory)', () => {
  it('validate keeps the files it read whole; the next validate parses only the others and reports the same findings at the same places', async () => {
    const dir = repository();
    const first = await runBuiltCli(['validate', '.', '--verbose'], dir);
    const second = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.equal(first.code, 1);
    assert.deepEqual(counts(first.err), [3, 0]);
    assert.ok(existsSync(pack(dir)), 'the first run kept what it parsed');
    // a.yaml and b.yaml come from the cache; broken.yaml has a YAML error and is never kept.
    assert.deepEqual(counts(second.err), [1, 2]);
    // Schema errors, query warnings (inside a folded scalar) and the YAML error, at their places.
    assert.match(first.err, /b\.yaml:12:3: Rule\/three: spec\.risk_score must be <= 100/);
    assert.match(first.err, /a\.yaml:16:5: warning: Rule\/one: query: field "proces\.name"/);
    assert.match(first.err, /broken\.yaml:3:\d+: invalid YAML/);
    assert.deepEqual(findingLines(second.err), findingLines(first.err));
    assert.equal(findingLines(first.err).length, 4, first.err);
  });

  it('a changed file is parsed again; a damaged entry is ignored', async () => {
    const dir = repository();
    await runBuiltCli(['validate', '.'], dir);
    writeFileSync(join(dir, 'b.yaml'), rule('three'));
    writeFileSync(pack(dir), 'garbage');
    const run = await runBuiltCli(['validate', '.', '--verbose'], dir);
    assert.deepEqual(counts(run.err), [3, 0]);
    assert.doesNotMatch(run.err, /spec\.risk_score/);
  });

  it('a file beyond ASCII goes on with its documents as kept, not its parse, and its findings sit where a fresh parse puts them', async () => {
    // Its text is two-byte and the parse's values are slices of it: read back from what is kept,
    // they let the text go (at 20,003 generated rules a first plan held 312 MB of it to the end).
    const dir = mkdtempSync(join(tmpdir(), 'svcform-manifest-cache-wide-'));
    writeFileSync(join(dir, 'svcform.yaml'), 'space: default\n');
    writeFileSync(join(dir, 'wide.yaml'), blockRuleYaml('wide', ['A rule\u2019s note', 'on two lines.'], ['process.name:"cmd.exe" and', 'file.pth:x']));
    writeFileSync(join(dir, 'narrow.yaml'), rule('one'));
    const cold = await runBuiltCli(['validate', '.', '--verbose'], dir);
    const fresh = await runBuiltCli(['validate', '.', '--no-cache'], dir);
    assert.equal(cold.code, 0, cold.err);
    assert.deepEqual(counts(cold.err), [2, 0]);
    // The ASCII file's finding comes from its parse; the other's from parsing it again.
    assert.match(cold.err, /; 1 files parsed again for positions/);
    assert.match(cold.err, /wide\.yaml:16:5: warning: Rule\/wide: query: field "file\.pth"/);
    assert.deepEqual(findingLines(cold.err), findingLines(fresh.err));
    assert.equal(findingLines(cold.err).length, 2, cold.err);
  });

  it('--no-cache reads and keeps nothing', async () => {
    const dir = repository();
    await runBuiltCli(['validate', '.'], dir);
    const run = await runBuiltCli(['validate', '.', '--verbose', '--no-cache'], dir);
    assert.equal(counts(run.err), undefined);
    assert.match(run.err, /broken\.yaml/);
  });

  describe('plan and apply', () => {
    let emu: RunningEmulator;
    before(async () => {
      emu = await emulator();
    });
    after(() => emu.stop());

    const valid = (dir: string) => {
      writeFileSync(join(dir, 'b.yaml'), rule('three'));
      writeFileSync(join(dir, 'broken.yaml'), rule('four'));
      return dir;
    };

    it('a plan keeps what it parsed and the next reads it; the plan and its findings are the same either way', async () => {
      const dir = valid(repository());
      const first = await runBuiltCli(['plan', '.', '--url', emu.url, '--verbose'], dir);
      assert.equal(first.code, 0, first.err);
      assert.deepEqual(counts(first.err), [3, 0]);
      const second = await runBuiltCli(['plan', '.', '--url', emu.url, '--verbose'], dir);
      assert.deepEqual(counts(second.err), [0, 3]);
      assert.equal(second.out, first.out);
      assert.deepEqual(findingLines(second.err), findingLines(first.err));
      assert.equal(findingLines(second.err).length, 4, 'the query warning of each rule, at its place');
    });

    it('apply reads what a plan kept and keeps nothing itself', async () => {
      const fresh = valid(repository());
      const applied = await runBuiltCli(['apply', '.', '--url', emu.url, '--verbose', '--auto-approve'], fresh);
      assert.equal(applied.code, 0, applied.err);
      assert.deepEqual(counts(applied.err), [3, 0]);
      assert.equal(existsSync(pack(fresh)), false, 'apply keeps no manifest (the directory holds its query facts)');
      await runBuiltCli(['plan', '.', '--url', emu.url], fresh);
      const again = await runBuiltCli(['apply', '.', '--url', emu.url, '--verbose', '--auto-approve'], fresh);
      assert.equal(again.code, 0, again.err);
      assert.deepEqual(counts(again.err), [0, 3]);
    });
  });
});
