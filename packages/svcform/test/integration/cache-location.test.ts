import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { buildId } from '../../src/common/build-id.js';
import { RecordPack } from '../../src/common/record-pack.js';
import { readManifestText } from '../../src/manifest/load.js';
import { defaultCacheDir, TEST_CACHE_HOME } from '../helpers/cache-home.js';
import { cli } from '../helpers/cli.js';
import { repo, ruleYaml } from '../helpers/repo.js';

/**
 * Where the cache is (src/cli/cache-location.ts). A run takes the documents the cache holds under
 * a file's SHA-256 for that file's: a cache a commit could bring into the checkout would make a plan
 * and an apply send documents no manifest shows. It was so while the cache sat in `.svcform/cache`
 * of the repository root: a pack written there by hand made a plan create a rule whose query the
 * file did not have.
 */

/** Writes, into `cacheDir`, the documents of `forged` under the key of the bytes of `file` (what a commit could bring). */
function plant(cacheDir: string, file: string, forged: string): void {
  const key = createHash('sha256').update(readFileSync(file)).digest('hex');
  const dir = join(cacheDir, buildId()!);
  mkdirSync(dir, { recursive: true });
  const pack = new RecordPack(join(dir, 'manifests.pack'), () => true);
  pack.put(key, { format: 1, docs: readManifestText(forged, file).docs.map((d) => ({ index: d.index, value: d.value, line: d.start.line, col: d.start.col })) });
  pack.save();
}

const honest = ruleYaml('kept-rule');
const forged = honest.replace("query: 'a:b'", "query: 'forged:true'");

describe('the cache is never read from the checkout', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));

  it('a cache committed where it used to be (.svcform/cache) is not read: the plan sends what the file says', async () => {
    const dir = repo({ 'svcform.yaml': 'space: default\n', 'rules/r.yaml': honest });
    mkdirSync(join(dir, '.git'));
    plant(join(dir, '.svcform', 'cache'), join(dir, 'rules', 'r.yaml'), forged);
    const run = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, /spec\.query: "a:b"/);
    assert.doesNotMatch(run.out, /forged/);
    assert.ok(existsSync(join(defaultCacheDir(dir), buildId()!, 'manifests.pack')), 'the cache is in the user cache directory');
  });

  it('SVCFORM_CACHE_DIR inside the Git checkout is not used, and the run says so', async () => {
    const top = repo({ 'manifests/svcform.yaml': 'space: default\n', 'manifests/rules/r.yaml': honest });
    mkdirSync(join(top, '.git'));
    const inside = join(top, '.svcform-cache');
    plant(inside, join(top, 'manifests', 'rules', 'r.yaml'), forged);
    const before = readdirSync(join(inside, buildId()!));
    const run = await cli(['plan', join(top, 'manifests'), '--url', emu.url], { SVCFORM_CACHE_DIR: inside });
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, /spec\.query: "a:b"/);
    assert.match(run.err, /SVCFORM_CACHE_DIR \(.*\.svcform-cache\) is inside the checkout .*: not used, since a commit could put entries there/);
    assert.deepEqual(readdirSync(join(inside, buildId()!)), before, 'nothing written there either');
  });

  it('without a Git checkout, the repository root bounds it; a folder outside is used', async () => {
    const dir = repo({ 'svcform.yaml': 'space: default\n', 'rules/r.yaml': honest });
    const inside = await cli(['validate', dir], { SVCFORM_CACHE_DIR: join(dir, 'cache') });
    assert.equal(inside.code, 0, inside.err);
    assert.match(inside.err, /is inside the checkout/);
    assert.equal(existsSync(join(dir, 'cache')), false);
    const outside = join(TEST_CACHE_HOME, 'chosen');
    const used = await cli(['validate', dir], { SVCFORM_CACHE_DIR: outside });
    assert.doesNotMatch(used.err, /inside the checkout/);
    assert.ok(existsSync(join(outside, buildId()!, 'manifests.pack')));
  });

  it('by default each repository root has its own folder in the user cache directory, and nothing is written into the repository', async () => {
    const one = repo({ 'svcform.yaml': 'space: default\n', 'rules/r.yaml': honest });
    const two = repo({ 'svcform.yaml': 'space: default\n', 'rules/r.yaml': honest });
    for (const dir of [one, two]) assert.equal((await cli(['validate', dir])).code, 0);
    assert.notEqual(defaultCacheDir(one), defaultCacheDir(two));
    for (const dir of [one, two]) {
      assert.ok(existsSync(join(defaultCacheDir(dir), buildId()!, 'manifests.pack')));
      assert.deepEqual(readdirSync(dir).sort(), ['rules', 'svcform.yaml']);
    }
  });
});
