import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { DiskCache } from '../common/disk-cache.js';

/** Entries of targets, spaces or paths no run has used for this long are removed. */
const UNUSED_MS = 30 * 24 * 3600 * 1000;
const PREFIX = 'read-ahead-';

/**
 * What a run read ahead of its manifests (read-ahead.ts): the kinds its files declared, with how many
 * `kind:` lines of each, and the other kinds its plan listed in the default space (the timeline
 * templates and exception lists its rules name, Fleet's packages and policies for the integration
 * check), counted 0; kept in the cache directory for the next run with the same target, space and
 * paths. That run starts reading them at once, while it reads and hashes its own files, instead of
 * once it has read them all (or, for the kinds only listed, once its plan began): on the 2,068
 * one-rule files of the real rules, those files are read before the first listing goes out. A
 * guess that is wrong costs nothing but the reading: a kind read ahead that the run does not want
 * is left unused, and a kind it wants that was not read ahead is listed as usual (engine/plan.ts).
 * The run keeps what its own files declare and its plan listed for the next one.
 */
export class ReadAheadMemory {
  private readonly name: string;
  private recalled?: Map<string, number>;

  constructor(
    private readonly cache: DiskCache,
    url: string,
    space: string,
    paths: string[],
  ) {
    const key = JSON.stringify([url, space, paths.map((p) => resolve(p))]);
    this.name = PREFIX + createHash('sha256').update(key).digest('hex').slice(0, 32);
  }

  /** The kinds the last such run declared (with their counts) or listed (0); undefined when there was none (or its entry is unreadable). */
  recall(): Map<string, number> | undefined {
    const value = this.cache.read(this.name);
    if (!(value instanceof Map) || value.size === 0) return undefined;
    for (const [kind, count] of value) if (typeof kind !== 'string' || !Number.isSafeInteger(count) || count < 0) return undefined;
    this.recalled = value as Map<string, number>;
    return this.recalled;
  }

  /**
   * Keeps what this run's files declare and its plan listed for the next run (written only when it
   * changed). A run that reads no kind svcform knows leaves an empty entry, recalled as nothing.
   */
  keep(kinds: Map<string, number>): void {
    const recalled = this.recalled;
    if (recalled && recalled.size === kinds.size && [...kinds].every(([kind, count]) => recalled.get(kind) === count)) {
      this.cache.touch(this.name);
      return;
    }
    if (kinds.size === 0 && !recalled) return;
    if (this.cache.write(this.name, kinds)) this.cache.prune(PREFIX, UNUSED_MS);
  }
}
