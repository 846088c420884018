import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileCacheDirectory } from '../../src/cli/compile-cache.js';
import { buildId } from '../../src/common/build-id.js';
import { repo, ruleYaml } from '../helpers/repo.js';
import { childEnv, runBuiltCli } from '../helpers/spawn-cli.js';

/**
 * Node's module compile cache (src/cli/compile-cache.ts): the `svcform` command keeps V8's compiled
 * code of its modules in the user's cache directory, per build, where Node has such a cache
 * (22.1 and later; the suite runs on Node 20, 22, 24 and 26 in CI). It never changes what a run
 * prints or returns, and a cache that cannot be written is passed over in silence.
 */

/** Whether the Node running the suite, and so the CLI it starts, has a compile cache. */
const HAS_COMPILE_CACHE = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

const scratch: string[] = [];
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** The files of `dir` and below. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

const repository = () => {
  const dir = repo({ 'rules/a.yaml': ruleYaml('a-rule'), 'rules/bad.yaml': ruleYaml('bad-rule').replace('severity: low', 'severity: lowest') });
  scratch.push(dir);
  return dir;
};

describe('compile cache of the svcform command', () => {
  after(() => {
    for (const d of scratch) rmSync(d, { recursive: true, force: true });
  });

  it(`${HAS_COMPILE_CACHE ? 'is kept' : 'is not kept (this Node has none)'} in XDG_CACHE_HOME/svcform/compile-cache/<build id>, and the next run takes it`, async () => {
    const dir = repository();
    const xdg = scratchDir('svcform-xdg-');
    const cache = join(xdg, 'svcform', 'compile-cache', buildId()!);
    assert.equal(compileCacheDirectory({ XDG_CACHE_HOME: xdg }), cache);
    const first = await runBuiltCli(['validate', '.'], dir, childEnv({ XDG_CACHE_HOME: xdg }));
    assert.equal(first.code, 1, first.err);
    if (!HAS_COMPILE_CACHE) {
      assert.equal(existsSync(join(xdg, 'svcform')), false, 'nothing is written where Node has no compile cache');
      return;
    }
    assert.ok(filesUnder(cache).length > 0, "compiled code of the modules the run loaded is kept");
    // Node's own diagnostics name each module whose kept code V8 took. The precompiled program is
    // one script of its own (with V8's cache the build made); the CommonJS modules it loads (the
    // compiled validators, undici) come from this cache.
    const second = await runBuiltCli(['validate', '.'], dir, childEnv({ XDG_CACHE_HOME: xdg, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }));
    assert.match(second.err, /cache for (CommonJS )?\S+\/dist\/src\/manifest\/validators\/Rule\.cjs was accepted/);
    // From the modules (no bundle for this build, or SVCFORM_PRECOMPILED=0) the program's own too.
    const modules = childEnv({ XDG_CACHE_HOME: xdg, SVCFORM_PRECOMPILED: '0' });
    await runBuiltCli(['validate', '.'], dir, modules);
    const fromModules = await runBuiltCli(['validate', '.'], dir, { ...modules, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    assert.match(fromModules.err, /cache for (ESM )?file:\S+\/dist\/src\/cli\/program\.js was accepted/);
    assert.match(fromModules.err, /cache for (ESM )?file:\S+\/dist\/src\/cli\/validate\.js was accepted/);
  });

  it('changes nothing a run prints or returns: a first run, a run from the cache and a run without it agree, from the bundle and from the modules', async () => {
    const dir = repository();
    for (const way of [{}, { SVCFORM_PRECOMPILED: '0' }]) {
      const xdg = scratchDir('svcform-xdg-');
      for (const args of [['validate', '.'], ['validate', '.', '--strict'], ['--version'], ['completion', 'bash']]) {
        const first = await runBuiltCli(args, dir, childEnv({ ...way, XDG_CACHE_HOME: xdg }));
        const cached = await runBuiltCli(args, dir, childEnv({ ...way, XDG_CACHE_HOME: xdg }));
        const without = await runBuiltCli(args, dir, childEnv({ ...way, XDG_CACHE_HOME: xdg, NODE_DISABLE_COMPILE_CACHE: '1' }));
        assert.deepEqual(cached, first, args.join(' '));
        assert.deepEqual(without, first, args.join(' '));
      }
    }
  });

  it('a cache directory that cannot be made (XDG_CACHE_HOME is a file) fails nothing and prints nothing more', async () => {
    const dir = repository();
    const file = join(scratchDir('svcform-xdg-'), 'a-file');
    writeFileSync(file, 'not a directory');
    const blocked = await runBuiltCli(['validate', '.'], dir, childEnv({ XDG_CACHE_HOME: file }));
    const without = await runBuiltCli(['validate', '.'], dir, childEnv({ XDG_CACHE_HOME: file, NODE_DISABLE_COMPILE_CACHE: '1' }));
    assert.equal(blocked.code, 1);
    assert.deepEqual(blocked, without);
  });

  it(`NODE_COMPILE_CACHE names the directory instead${HAS_COMPILE_CACHE ? '' : ' (nothing is kept: this Node has no compile cache)'}`, async () => {
    const dir = repository();
    const xdg = scratchDir('svcform-xdg-');
    const chosen = scratchDir('svcform-node-compile-cache-');
    const run = await runBuiltCli(['validate', '.'], dir, childEnv({ XDG_CACHE_HOME: xdg, NODE_COMPILE_CACHE: chosen }));
    assert.equal(run.code, 1, run.err);
    assert.equal(existsSync(join(xdg, 'svcform')), false);
    assert.equal(filesUnder(chosen).length > 0, HAS_COMPILE_CACHE);
  });

  it(`the first run of a build ${HAS_COMPILE_CACHE ? 'removes' : 'leaves (no compile cache here)'} the caches of other builds untouched for a week, and keeps recent ones`, async () => {
    const dir = repository();
    const xdg = scratchDir('svcform-xdg-');
    const base = join(xdg, 'svcform', 'compile-cache');
    const old = join(base, '0123456789abcdef');
    const recent = join(base, 'fedcba9876543210');
    for (const d of [old, recent]) mkdirSync(d, { recursive: true });
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    const run = await runBuiltCli(['--version'], dir, childEnv({ XDG_CACHE_HOME: xdg }));
    assert.equal(run.code, 0, run.err);
    assert.equal(existsSync(old), !HAS_COMPILE_CACHE);
    assert.equal(existsSync(recent), true);
  });
});
