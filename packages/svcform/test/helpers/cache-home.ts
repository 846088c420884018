import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheLocation } from '../../src/cli/cache-location.js';

/**
 * The user cache directory (XDG_CACHE_HOME) of the CLI runs of this test process: svcform keeps
 * its cache there by default (src/cli/cache-location.ts), and a test must not write into the home
 * of whoever runs it. Removed when the process exits.
 */
export const TEST_CACHE_HOME = mkdtempSync(join(tmpdir(), 'svcform-test-cache-'));
process.on('exit', () => rmSync(TEST_CACHE_HOME, { recursive: true, force: true }));

/** Where a run with the default cache location keeps the cache of repository root `root`. */
export function defaultCacheDir(root: string): string {
  return cacheLocation({}, root, { XDG_CACHE_HOME: TEST_CACHE_HOME }).dir!;
}
