import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDirectory } from '../../src/common/make-directory.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

/** Runs `script` (an ES module) in a child process, killed after 10 s: a spinning mkdir never returns to this one. */
function inChild(script: string, env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000, env: { PATH: process.env.PATH, ...env } });
}

describe('makeDirectory (src/common/make-directory.ts)', () => {
  it('makes the missing levels, and accepts a directory that exists', () => {
    const base = mkdtempSync(join(tmpdir(), 'svcform-mkdir-'));
    makeDirectory(join(base, 'a', 'b', 'c'));
    assert.ok(statSync(join(base, 'a', 'b', 'c')).isDirectory());
    makeDirectory(join(base, 'a', 'b'));
    makeDirectory(base);
  });

  it('throws as mkdir does under a regular file, or at one', () => {
    const base = mkdtempSync(join(tmpdir(), 'svcform-mkdir-'));
    writeFileSync(join(base, 'file'), '');
    assert.throws(() => makeDirectory(join(base, 'file', 'a', 'b')), { code: 'ENOTDIR' });
    assert.throws(() => makeDirectory(join(base, 'file')), { code: 'EEXIST' });
  });

  // Node's recursive mkdir spins at full CPU where a parent exists but answers ENOENT for a child:
  // procfs does so (the bug was seen with SVCFORM_CACHE_DIR=/proc/...).
  it('returns with an error under /proc, where Node\'s recursive mkdir never returns', { skip: !existsSync('/proc/self') && 'no procfs here' }, () => {
    const module = JSON.stringify(new URL('../../src/common/make-directory.js', import.meta.url).href);
    const child = inChild(`import { makeDirectory } from ${module};
try { makeDirectory('/proc/svcform-no-such/a'); } catch (e) { process.stdout.write(e.code); }`);
    assert.equal(child.signal, null, 'ended on its own, not killed');
    assert.equal(child.stdout, 'ENOENT');
  });

  it('lets a command finish with its cache directory under /proc: the cache is only skipped', { skip: !existsSync('/proc/self') && 'no procfs here' }, () => {
    const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
    const examples = fileURLToPath(new URL('../../../examples', import.meta.url));
    const child = spawnSync(process.execPath, [cli, 'validate', examples, '--quiet'], { encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH, XDG_CACHE_HOME: TEST_CACHE_HOME, SVCFORM_CACHE_DIR: '/proc/svcform-no-such/cache' } });
    assert.equal(child.signal, null, 'ended on its own, not killed');
    assert.equal(child.status, 0, child.stderr);
  });
});
