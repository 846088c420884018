import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import type { DiskCache } from '../common/disk-cache.js';
import { displayPath, readManifestText, type LoadedDoc } from './load.js';

/**
 * Each manifest file's documents, kept in the disk cache under the SHA-256 of the file's bytes, so
 * that a file read before is not parsed again (issue 10: reading the YAML of 2,068 rules was a
 * fifth of a plan). What is kept is what the parse gave: every document's value and where it
 * starts. Positions inside a document are needed only for messages, and are then had by parsing
 * the file again, so every message is the one a fresh parse gives.
 *
 * Every command reads entries; all but apply write them (apply follows a plan of the same files,
 * which kept them). On 2,068 rules a repeated plan reading them took 1.4-1.5 s against 1.9-2.1 s.
 * Writing them costs the first plan about 0.1 s: v8.serialize writes 31 MB for 16 MB of YAML, as
 * the values are slices of the file's text, which is two-byte once the file holds one non-ASCII
 * character (empty-cache plans against the same build with the write left out, 14 alternating
 * runs: medians 1.67 s against 1.56 s). Writing on a worker thread, which parsed the files again,
 * was slower still (medians 2.16 s with the worker against 1.96 s). A file with a YAML error, or
 * one the fast reader did not read whole, is never kept.
 */

const FORMAT = 1;
const PREFIX = 'manifest-';
/** An entry no writing run has read for this long is removed. */
const UNUSED_MS = 7 * 24 * 3600 * 1000;

interface KeptDocument {
  index: number;
  value: Record<string, unknown>;
  line: number;
  col: number;
}

function isKept(d: unknown): d is KeptDocument {
  const k = d as KeptDocument | null;
  return !!k && Number.isInteger(k.index) && Number.isInteger(k.line) && Number.isInteger(k.col) && !!k.value && typeof k.value === 'object' && !Array.isArray(k.value);
}

export class ManifestCache {
  /** Files whose documents came from the cache, and files parsed (files.ts counts those), in this run. */
  readonly counts = { kept: 0, parsed: 0 };

  constructor(
    private readonly disk: DiskCache,
    /** Whether this run writes entries (every command but apply) or only reads them. */
    readonly writes: boolean,
  ) {}

  keyOf(bytes: Buffer): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** The documents of `file` kept under `key`, or undefined; `text` gives the file's text when a message needs positions. */
  read(key: string, file: string, text: () => string): LoadedDoc[] | undefined {
    const stored = this.disk.read(PREFIX + key) as { format?: unknown; docs?: unknown } | undefined;
    if (stored?.format !== FORMAT || !Array.isArray(stored.docs) || !stored.docs.every(isKept)) return undefined;
    this.counts.kept++;
    if (this.writes) this.disk.touch(PREFIX + key);
    const shown = displayPath(file);
    const dir = dirname(resolve(file));
    let parsed: LoadedDoc[] | undefined;
    const parsedDoc = (index: number) => (parsed ??= readManifestText(text(), file).docs).find((d) => d.index === index);
    return (stored.docs as KeptDocument[]).map((d) => {
      const start = { file: shown, line: d.line, col: d.col };
      return {
        file: shown,
        index: d.index,
        value: d.value,
        start,
        dir,
        posOf: (path) => parsedDoc(d.index)?.posOf(path) ?? start,
        posInScalar: (path, offset, value) => parsedDoc(d.index)?.posInScalar(path, offset, value),
      };
    });
  }

  /** Keeps the documents a parse of the file gave (when this run writes). */
  write(key: string, docs: LoadedDoc[]): void {
    if (!this.writes) return;
    this.disk.write(PREFIX + key, { format: FORMAT, docs: docs.map((d) => ({ index: d.index, value: d.value, line: d.start.line, col: d.start.col })) });
  }

  /** Removes entries no writing run has read for a week (once per writing run). */
  prune(): void {
    if (this.writes) this.disk.prune(PREFIX, UNUSED_MS);
  }
}
