import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { userCacheHome } from '../../src/common/user-cache.js';

describe('the user cache directory (src/common/user-cache.ts)', () => {
  it("follows each platform's convention, and never takes a relative folder", () => {
    assert.equal(userCacheHome({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/u'), '/x/cache/svcform');
    assert.equal(userCacheHome({ XDG_CACHE_HOME: 'rel/cache' }, 'linux', '/home/u'), '/home/u/.cache/svcform', 'a relative XDG_CACHE_HOME is ignored, as the XDG spec says');
    assert.equal(userCacheHome({}, 'linux', '/home/u'), '/home/u/.cache/svcform');
    assert.equal(userCacheHome({}, 'darwin', '/Users/u'), '/Users/u/Library/Caches/svcform');
    assert.equal(userCacheHome({}, 'win32', '/home/u'), undefined, 'Windows: LOCALAPPDATA only');
    assert.equal(userCacheHome({}, 'linux', ''), undefined, 'no home');
    assert.equal(userCacheHome({}, 'linux', 'relative'), undefined);
  });
});
