import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes `dir` and whatever of its parents is missing, as `mkdirSync(dir, { recursive: true })`
 * does, one level at a time. Node's recursive mkdir never returns where a parent exists but will
 * not hold a child: procfs and sysfs answer ENOENT to mkdir, which Node takes for a missing parent,
 * makes the parent (EEXIST) and tries again, at full CPU. So `SVCFORM_CACHE_DIR=/proc/x` or an
 * export into /sys hung svcform. Here each level is made once: an error is thrown, as mkdir gives it.
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  let entry = entryAt(at);
  while (entry === 'none') {
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
    entry = entryAt(at);
  }
  // A file where the directory should be: mkdir says so (EEXIST); one above it, ENOTDIR below.
  if (entry === 'other' && missing.length === 0) mkdirSync(at);
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || entryAt(level) !== 'directory') throw e;
    }
  }
}

/** What is at `path`; 'none' also when a file above it stops the lookup (ENOTDIR, which Node 20 throws). */
function entryAt(path: string): 'directory' | 'other' | 'none' {
  try {
    const found = statSync(path, { throwIfNoEntry: false });
    return !found ? 'none' : found.isDirectory() ? 'directory' : 'other';
  } catch {
    return 'none';
  }
}
