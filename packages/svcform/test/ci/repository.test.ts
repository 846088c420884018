import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * What the repository may hold. A worktree's node_modules symlink was once committed (`.gitignore`
 * said `node_modules/`, which matches a directory only); merging it replaced the installed
 * packages of the checkout with a link to itself.
 */
describe('repository contents', () => {
  it('tracks no node_modules', () => {
    const tracked = spawnSync('git', ['ls-files', '--', 'node_modules'], { encoding: 'utf8' });
    assert.equal(tracked.status, 0, tracked.stderr);
    assert.equal(tracked.stdout, '');
  });

  it('ignores node_modules whether it is a directory or a link (no trailing slash in the pattern)', () => {
    const patterns = readFileSync('../../.gitignore', 'utf8').split('\n').map((l) => l.trim());
    assert.ok(patterns.includes('node_modules') || patterns.includes('/node_modules'), patterns.join(', '));
  });
});
