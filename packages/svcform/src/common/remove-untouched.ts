import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A week: what the caches keep of entries, builds and repository roots no run has touched. */
export const UNUSED_MS = 7 * 24 * 3600 * 1000;

/**
 * Removes the entries of `dir` that `candidate` accepts and whose time (written, or marked as used)
 * is older than `unusedMs`: files, or folders with all they hold. Housekeeping never fails a run:
 * a folder that cannot be read, or an entry another run removed first, ends it quietly.
 */
export function removeUntouched(dir: string, candidate: (name: string) => boolean, unusedMs = UNUSED_MS): void {
  const before = Date.now() - unusedMs;
  try {
    for (const name of readdirSync(dir)) {
      if (!candidate(name)) continue;
      const path = join(dir, name);
      if (statSync(path).mtimeMs < before) rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // No folder yet, or another run pruning it: nothing to do.
  }
}
