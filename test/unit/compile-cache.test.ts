import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { compileCacheDirectory } from '../../src/cli/compile-cache.js';
import { buildId } from '../../src/common/build-id.js';

/** src/cli/compile-cache.ts: where the compile cache of this build is kept (its use: test/integration/compile-cache.test.ts). */
describe('compile cache directory', () => {
  const id = buildId()!;
  const home = () => '/home/ada';

  it('is svcform/compile-cache/<build id> in XDG_CACHE_HOME, else in ~/.cache', () => {
    assert.equal(compileCacheDirectory({ XDG_CACHE_HOME: '/var/cache/ada' }, home, 'linux'), join('/var/cache/ada', 'svcform', 'compile-cache', id));
    assert.equal(compileCacheDirectory({}, home, 'linux'), join('/home/ada', '.cache', 'svcform', 'compile-cache', id));
    assert.equal(compileCacheDirectory({}, home, 'darwin'), join('/home/ada', '.cache', 'svcform', 'compile-cache', id));
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG base directory specification says', () => {
    assert.equal(compileCacheDirectory({ XDG_CACHE_HOME: 'cache' }, home, 'linux'), join('/home/ada', '.cache', 'svcform', 'compile-cache', id));
  });

  it('is in LOCALAPPDATA on Windows, and only there', () => {
    assert.equal(compileCacheDirectory({ LOCALAPPDATA: '/users/ada/appdata/local' }, home, 'win32'), join('/users/ada/appdata/local', 'svcform', 'compile-cache', id));
    assert.equal(compileCacheDirectory({ LOCALAPPDATA: '/users/ada/appdata/local' }, home, 'linux'), join('/home/ada', '.cache', 'svcform', 'compile-cache', id));
  });

  it('is none without a home directory', () => {
    assert.equal(compileCacheDirectory({}, () => '', 'linux'), undefined);
  });
});
