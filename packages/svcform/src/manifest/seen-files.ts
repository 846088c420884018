import type { Stats } from 'node:fs';
import type { DiskCache } from '../common/disk-cache.js';

/**
 * What each manifest file's stat said when its bytes were last read, with the cache key of those
 * bytes and the kinds they declare: a later run that finds the same stat takes the key from here
 * and neither reads nor hashes the file (as Git's index does). On the 2,068 one-rule files of the
 * public detection-rules repository, reading, checking and hashing the 16 MB was about 85 ms of a
 * repeated plan.
 *
 * The stat is the device, inode, size and both times (ns-precise on Linux). No editor, checkout or
 * copy keeps all of them over a change: writing sets the change time, which no user call sets back.
 * What a stat cannot tell is a second write within one tick of the file system's clock. So a file
 * is recorded only when it was last changed well before it was read (RACY_MS), as Git treats a file
 * changed in the second its index was written as "racily clean"; such a file is read again.
 */

/** A file changed this shortly before it was read is not recorded (coarse clocks, FAT's 2 s). */
const RACY_MS = 3000;
const FORMAT = 1;
const ENTRY = 'seen-files';
/** Files of other runs kept beyond this run's, as CleanDocuments keeps keys. */
const KEEP_OTHERS = 10_000;

export interface SeenFile {
  /** The manifest cache key of the file's bytes (their SHA-256). */
  key: string;
  /** `kind: Name` lines by name (files.ts kindLines). */
  kinds: Array<[string, number]>;
}

interface Recorded extends SeenFile {
  stat: string;
}

function statKey(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

export class SeenFiles {
  private stored?: Map<string, Recorded>;
  private readonly met = new Map<string, Recorded>();
  private changed = false;

  constructor(
    private readonly disk: DiskCache,
    private readonly writes: boolean,
    /** Tests set 0: a file they just wrote is otherwise never recorded. */
    private readonly racyMs = RACY_MS,
  ) {}

  private storedFiles(): Map<string, Recorded> {
    if (!this.stored) {
      const entry = this.disk.read(ENTRY) as { format?: unknown; files?: unknown } | undefined;
      this.stored = entry?.format === FORMAT && entry.files instanceof Map ? (entry.files as Map<string, Recorded>) : new Map();
    }
    return this.stored;
  }

  /** The key and kinds of `file` (an absolute path) when its stat is the one recorded with them. */
  lookup(file: string, st: Stats): SeenFile | undefined {
    const recorded = this.storedFiles().get(file);
    if (!recorded || typeof recorded.key !== 'string' || !Array.isArray(recorded.kinds) || recorded.stat !== statKey(st)) return undefined;
    this.met.set(file, recorded);
    return { key: recorded.key, kinds: recorded.kinds };
  }

  /** Records that `file`, with stat `st` taken before its bytes were read at `readAtMs`, holds the bytes under `key`. */
  record(file: string, st: Stats, readAtMs: number, seen: SeenFile): void {
    if (Math.max(st.mtimeMs, st.ctimeMs) > readAtMs - this.racyMs) return;
    const recorded = { stat: statKey(st), key: seen.key, kinds: seen.kinds };
    this.met.set(file, recorded);
    const before = this.storedFiles().get(file);
    if (before?.stat !== recorded.stat || before.key !== recorded.key) this.changed = true;
  }

  /** Writes the records when this run made new ones (and writes): those of files it did not meet stay, as many as KEEP_OTHERS. */
  save(): void {
    if (!this.writes || !this.changed) return;
    const files = new Map(this.met);
    let others = 0;
    for (const [file, recorded] of this.storedFiles()) {
      if (files.has(file)) continue;
      if (++others > KEEP_OTHERS) break;
      files.set(file, recorded);
    }
    this.disk.write(ENTRY, { format: FORMAT, files });
  }
}
