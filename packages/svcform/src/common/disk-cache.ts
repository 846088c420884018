import { closeSync, existsSync, fstatSync, openSync, readSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { buildId } from './build-id.js';
import { makeDirectory } from './make-directory.js';
import { RecordPack } from './record-pack.js';
import { removeUntouched } from './remove-untouched.js';
import { writeWhole } from './write-whole.js';

/**
 * Results svcform keeps between runs because they cost time to compute and depend only on what
 * they are keyed by (a query's checks on its language and text, a file's documents on its
 * bytes). The directory is one of the user's cache directory by default, never one inside the
 * repository's checkout (cacheLocation in src/cli/cache-location.ts), safe to delete at any time.
 *
 * - Entries are filed under this build's id (build-id.ts): another build, older or newer, never
 *   reads them. Directories of other builds untouched for a week are removed.
 * - A failure never fails a run: an entry that cannot be read or decoded is a miss, and a write
 *   that fails (a read-only checkout) is skipped.
 * - A write goes to a temporary file renamed into place, so two runs writing at once leave one
 *   whole entry, never a mix.
 */
/** An entry read with a time this recent is not marked again (prune waits a week). */
const MARKED_RECENTLY_MS = 24 * 3600 * 1000;

export class DiskCache {
  private constructor(
    /** The cache directory (cache-location.ts). */
    readonly base: string,
    /** This build's directory inside it. */
    private readonly dir: string,
    private readonly build: string,
    /** Whether the folder holding `base` holds the caches of other repository roots (the default location). */
    private readonly amongRoots: boolean,
  ) {}

  /**
   * The cache in `base`, or undefined when there is none (no directory given, no build id).
   * `amongRoots`: `base` is one repository root's folder beside the others' (cache-location.ts); it
   * is marked as used, and a writing run removes the folders of roots unused for a week, so that
   * checkouts at paths never seen again (a CI job's own folder) do not pile up.
   */
  static open(base: string | undefined, options: { amongRoots?: boolean } = {}): DiskCache | undefined {
    const build = buildId();
    if (!base || !build) return undefined;
    const cache = new DiskCache(base, join(base, build), build, !!options.amongRoots);
    if (cache.amongRoots) markUsed(base);
    return cache;
  }

  /** When each entry this run read was last written or marked (ms), so that `touch` marks only stale ones. */
  private readonly marks = new Map<string, number>();

  /** The value stored under `name`, or undefined. */
  read(name: string): unknown {
    let fd: number | undefined;
    try {
      // readFileSync's own steps, keeping the time fstat gives.
      fd = openSync(join(this.dir, name), 'r');
      const { size, mtimeMs } = fstatSync(fd);
      const bytes = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const n = readSync(fd, bytes, got, size - got, got);
        if (n === 0) break;
        got += n;
      }
      this.marks.set(name, mtimeMs);
      return deserialize(got === size ? bytes : bytes.subarray(0, got));
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** The values kept under SHA-256 keys in this build's pack file `name` (record-pack.ts). */
  pack(name: string): RecordPack {
    return new RecordPack(join(this.dir, name), () => {
      if (!this.prepare()) return false;
      this.pruneOtherBuilds();
      return true;
    });
  }

  /** Makes this build's directory, tagged as a cache, before a write; false when it cannot be made. */
  private prepare(): boolean {
    try {
      makeDirectory(this.dir);
      this.markAsCache();
      return true;
    } catch {
      return false;
    }
  }

  /** Stores `value` (anything the structured clone algorithm copies) under `name`; false if it could not. */
  write(name: string, value: unknown): boolean {
    if (!this.prepare() || !writeWhole(join(this.dir, name), () => serialize(value))) return false;
    this.pruneOtherBuilds();
    return true;
  }

  /**
   * Marks the entry as used now (prune removes entries by the time they were last written or
   * marked), unless this run read it marked within the last day: prune waits a week, and a plan of
   * 2,068 one-rule files otherwise set 2,068 file times at every run.
   */
  touch(name: string): void {
    const marked = this.marks.get(name);
    if (marked !== undefined && marked > Date.now() - MARKED_RECENTLY_MS) return;
    try {
      const now = new Date();
      utimesSync(join(this.dir, name), now, now);
    } catch {
      // Gone meanwhile, or a read-only cache: it is then written again, or left as it is.
    }
  }

  /** Removes this build's entries named `prefix...` not written or marked for `unusedMs`. */
  prune(prefix: string, unusedMs: number): void {
    removeUntouched(this.dir, (name) => name.startsWith(prefix), unusedMs);
  }

  private marked = false;

  /** Backup tools skip a directory tagged CACHEDIR.TAG; Git skips one whose .gitignore says `*`. Once per run. */
  private markAsCache(): void {
    if (this.marked) return;
    this.marked = true;
    const tag = join(this.base, 'CACHEDIR.TAG');
    if (!existsSync(tag)) writeFileSync(tag, 'Signature: 8a477f597d28d172789f06886806bc55\n# svcform cache: safe to delete.\n');
    const ignore = join(this.base, '.gitignore');
    if (!existsSync(ignore)) writeFileSync(ignore, '*\n');
  }

  private pruned = false;

  private pruneOtherBuilds(): void {
    if (this.pruned) return;
    this.pruned = true;
    removeUntouched(this.base, (name) => name !== this.build && BUILD_OR_ROOT.test(name));
    if (this.amongRoots) removeUntouched(dirname(this.base), (name) => name !== basename(this.base) && BUILD_OR_ROOT.test(name));
  }
}

/** How build folders (build-id.ts) and repository roots' folders (cache-location.ts) are named. */
const BUILD_OR_ROOT = /^[0-9a-f]{16}$/;

/** Sets the time of `dir` to now, unless it was set within the last day (a folder not made yet is left). */
function markUsed(dir: string): void {
  try {
    if (statSync(dir).mtimeMs > Date.now() - MARKED_RECENTLY_MS) return;
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // Not made yet (the first write makes it, now), or read-only: nothing to mark.
  }
}
