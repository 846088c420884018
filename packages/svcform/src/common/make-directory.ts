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
  for (let at = resolve(dir); !isDirectory(at); ) {
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !isDirectory(level)) throw e;
    }
  }
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
