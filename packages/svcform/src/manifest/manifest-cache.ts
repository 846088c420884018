import { createHash } from 'node:crypto';
import { deserialize } from 'node:v8';
import { dirname, resolve } from 'node:path';
import type { DiskCache } from '../common/disk-cache.js';
import type { RecordPack } from '../common/record-pack.js';
import { UNUSED_MS } from '../common/remove-untouched.js';
import { KeptPositions } from './kept-positions.js';
import { displayPath, isNormalAbsolute, keptDocumentPlaces, readManifestText, type LoadedDoc } from './load.js';
import type { DocPath, SourcePos } from './types.js';
import { SeenFiles } from './seen-files.js';
import { markTextOrder } from './finding-order.js';

/**
 * Each manifest file's documents, kept in the disk cache under the SHA-256 of the file's bytes, so
 * that a file read before is not parsed again (issue 10: reading the YAML of 2,068 rules was a
 * fifth of a plan). What is kept is what the parse gave: every document's value and where it
 * starts. Positions inside a document are needed only for messages, and are then had by parsing
 * the file again, so every message is the one a fresh parse gives; those a run asked for are kept
 * for the next (kept-positions.ts).
 *
 * Every command reads entries; all but apply keep what they parsed. The entries are records of one
 * pack file (record-pack.ts), not a file each: on the 2,068 one-rule files of the real rules,
 * creating a file per document was about half a second of a first plan. v8.serialize writes 31 MB
 * for 16 MB of YAML, as the values are slices of the file's text, which is two-byte once the file
 * holds one non-ASCII character. Writing on a worker thread, which parsed the files again, was
 * slower (medians 2.16 s with the worker against 1.96 s). A file with a YAML error, or one the fast
 * reader did not read whole, is never kept.
 */

const FORMAT = 1;
/**
 * 2: the entries of CleanDocuments keep the warnings of warned documents too. 3: a warning not
 * placed yet is kept with its path instead of its line and column.
 */
const CLEAN_FORMAT = 3;
/** The pack file of the documents (one per build, as every entry). */
const PACK = 'manifests.pack';
const CLEAN_PREFIX = 'clean-';

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
  /**
   * Files whose documents came from the cache, files parsed (files.ts counts those), kept files
   * parsed again for the positions of a message, documents whose checks were skipped as known
   * from before (CleanDocuments), and files not read at all, known by their stat (seen-files.ts),
   * in this run.
   */
  readonly counts = { kept: 0, parsed: 0, reparsed: 0, knownClean: 0, sameStat: 0 };

  private readonly pack: RecordPack;
  /** Which files were read before, by their stat: those need not be read to find their key. */
  readonly seenFiles: SeenFiles;
  /** Places in kept documents that messages asked for. */
  private readonly positions: KeptPositions;

  constructor(
    private readonly disk: DiskCache,
    /** Whether this run writes entries (every command but apply) or only reads them. */
    readonly writes: boolean,
    options: { racyMs?: number } = {},
  ) {
    this.pack = disk.pack(PACK);
    this.seenFiles = new SeenFiles(disk, writes, options.racyMs);
    this.positions = new KeptPositions(disk, writes);
  }

  keyOf(bytes: Buffer): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** Whether documents are kept under `key` (without reading them). */
  holds(key: string): boolean {
    return this.pack.has(key);
  }

  /**
   * The documents of `file` kept under `key`, or undefined; `text` gives the file's text when a
   * message needs positions (undefined when the file no longer holds those bytes: positions are
   * then the documents' starts).
   */
  read(key: string, file: string, text: () => string | undefined): LoadedDoc[] | undefined {
    const stored = this.pack.get(key) as { format?: unknown; docs?: unknown } | undefined;
    if (stored?.format !== FORMAT || !Array.isArray(stored.docs) || !stored.docs.every(isKept)) return undefined;
    this.counts.kept++;
    return this.keptDocs(key, file, text, stored.docs as KeptDocument[]);
  }

  /**
   * Gives the documents a parse of the file gave their cache keys, and keeps them (when this run
   * writes; `save` writes them). Returns the documents the run goes on with: for a file with bytes
   * beyond ASCII (`notAscii`), the documents read back from what is kept, as a later run reads them.
   * Their values are slices of the file's text, which they keep alive, and such a text takes two
   * bytes per character (unless every character beyond ASCII is Latin-1): at 20,003 generated rules
   * the 156 MB of files were 312 MB of text held to the end of a first plan. Read back, the values
   * are copies and the text is garbage once parsed; positions come from parsing it again, as for
   * kept files.
   */
  remember(key: string, file: string, docs: LoadedDoc[], notAscii: boolean, text: () => string | undefined): LoadedDoc[] {
    for (const d of docs) {
      d.cacheKey = documentKey(key, d.index);
      d.posOf = this.positions.posOf(d.cacheKey, d.file, d.posOf);
      d.posInScalar = this.positions.posInScalar(d.cacheKey, d.file, d.value, d.posInScalar);
    }
    if (!this.writes) return docs;
    const kept = this.pack.put(key, { format: FORMAT, docs: docs.map((d) => ({ index: d.index, value: d.value, line: d.start.line, col: d.start.col })) });
    if (!notAscii || kept === undefined) return docs;
    return this.keptDocs(key, file, text, (deserialize(kept) as { docs: KeptDocument[] }).docs);
  }

  private keptDocs(key: string, file: string, text: () => string | undefined, docs: KeptDocument[]): LoadedDoc[] {
    const shown = displayPath(file);
    const dir = dirname(isNormalAbsolute(file) ? file : resolve(file));
    let source: { text: string | undefined } | undefined;
    const sourceText = () => {
      if (!source) {
        this.counts.reparsed++;
        source = { text: text() };
      }
      return source.text;
    };
    let parsed: LoadedDoc[] | undefined;
    const parsedDoc = (index: number) => {
      if (!parsed) {
        const again = sourceText();
        parsed = again === undefined ? [] : readManifestText(again, file).docs;
      }
      return parsed.find((d) => d.index === index);
    };
    return docs.map((d) => {
      const start = { file: shown, line: d.line, col: d.col };
      const cacheKey = documentKey(key, d.index);
      // A place reads this document alone again, with positions (not every document's values).
      let places: ((path: DocPath) => SourcePos) | null | undefined;
      const placeOf = (path: DocPath) => {
        if (places === undefined) {
          const again = sourceText();
          places = (again !== undefined && keptDocumentPlaces(again, file, d.index)) || null;
        }
        return places?.(path) ?? start;
      };
      // Kept only from the fast reader (files.ts), in the order of the file's text.
      markTextOrder(d.value);
      return {
        file: shown,
        index: d.index,
        value: d.value,
        start,
        dir,
        cacheKey,
        posOf: this.positions.posOf(cacheKey, shown, placeOf),
        posInScalar: this.positions.posInScalar(cacheKey, shown, d.value, (path, offset, value) => parsedDoc(d.index)?.posInScalar(path, offset, value)),
      };
    });
  }

  /** Keeps the places in documents that messages asked for since the last call (when this run writes). */
  keepPositions(): void {
    this.positions.save();
  }

  /** Writes the documents this run parsed (once it has read every file), and closes the pack. */
  save(): void {
    if (this.writes) this.pack.save();
    else this.pack.close();
    this.seenFiles.save();
  }

  /** The documents whose checks found nothing under the check options `context` (any text naming them). */
  cleanDocuments(context: string): CleanDocuments {
    return new CleanDocuments(this.disk, CLEAN_PREFIX + createHash('sha256').update(context).digest('hex').slice(0, 32), this.writes, this.counts);
  }

  /** Removes sets of clean documents no writing run has read for a week (once per writing run). */
  prune(): void {
    if (!this.writes) return;
    this.disk.prune(CLEAN_PREFIX, UNUSED_MS);
  }
}

function documentKey(fileKey: string, index: number): string {
  return `${fileKey}/${index}`;
}

/**
 * A warning the checks of a document found, kept with its place in the document's file when the
 * run that found it had placed it, else with the path it is at (and its offset inside the string
 * there), which place it from the document when a run shows it.
 */
export type KeptFinding = { message: string; group?: string } & ({ line: number; col: number; path?: undefined; offset?: undefined } | { path: DocPath; offset?: number; line?: undefined; col?: undefined });

function isFinding(f: unknown): f is KeptFinding {
  const k = f as Record<string, unknown> | null;
  if (!k || typeof k.message !== 'string' || (k.group !== undefined && typeof k.group !== 'string')) return false;
  if (k.path === undefined) return Number.isInteger(k.line) && Number.isInteger(k.col);
  return Array.isArray(k.path) && k.path.every((step) => typeof step === 'string' || Number.isInteger(step)) && (k.offset === undefined || (Number.isInteger(k.offset) && (k.offset as number) >= 0));
}

/**
 * Documents of kept files whose checks (envelope, interpolation, schema, the kind's own) found no
 * error, and looked at nothing but the document: no `${env:...}` or `${file:...}`, no file read.
 * What the checks say of such a document depends only on its bytes, this build and the check
 * options, so a run that meets it again skips them (validate.ts) and repeats the warnings they
 * found, kept with their places (or the paths that place them when shown, for those no run has
 * shown yet): a warned document is not checked again, nor parsed for a place kept. One entry per
 * set of check options holds the keys of all such documents. On 2,068 rules the checks were about
 * 0.15 s of a repeated plan's 1.1 s; when every document carried a warning, a repeated plan cost
 * as much as the first (issue 29).
 */
export class CleanDocuments {
  /** Key -> the warnings its checks found (none: clean). */
  private stored?: Map<string, KeptFinding[]>;
  /** This run's documents known or found so, with their warnings. */
  private readonly seen = new Map<string, KeptFinding[]>();

  constructor(
    private readonly disk: DiskCache,
    private readonly name: string,
    private readonly writes: boolean,
    private readonly counts: { knownClean: number },
  ) {}

  private storedKeys(): Map<string, KeptFinding[]> {
    if (!this.stored) {
      const entry = this.disk.read(this.name) as { format?: unknown; keys?: unknown; warned?: unknown } | undefined;
      this.stored = new Map();
      if (entry?.format === CLEAN_FORMAT && Array.isArray(entry.keys)) {
        for (const k of entry.keys) if (typeof k === 'string') this.stored.set(k, NONE);
        const warned = entry.warned instanceof Map ? (entry.warned as Map<unknown, unknown>) : new Map();
        for (const [k, findings] of warned) if (typeof k === 'string' && Array.isArray(findings) && findings.every(isFinding)) this.stored.set(k, findings);
      }
    }
    return this.stored;
  }

  /** The warnings of `doc` when its checks ran before under the same options and found no error; else undefined. */
  known(doc: LoadedDoc): readonly KeptFinding[] | undefined {
    if (doc.cacheKey === undefined) return undefined;
    const findings = this.storedKeys().get(doc.cacheKey);
    if (findings === undefined) return undefined;
    this.seen.set(doc.cacheKey, findings);
    this.counts.knownClean++;
    return findings;
  }

  /** Records that the checks of `doc` found `findings` (warnings only, in its own file) and nothing else. */
  add(doc: LoadedDoc, findings: KeptFinding[]): void {
    if (doc.cacheKey !== undefined) this.seen.set(doc.cacheKey, findings.length === 0 ? NONE : findings);
  }

  /**
   * Stores the keys when this run found new ones (when it writes). Keys of documents this run did
   * not meet stay (a plan of one directory must not forget the others) until they outnumber this
   * run's by 10,000: then only this run's are kept.
   */
  save(): void {
    if (!this.writes || this.seen.size === 0) return;
    const stored = this.storedKeys();
    let added = 0;
    for (const key of this.seen.keys()) if (!stored.has(key)) added++;
    if (added === 0) {
      this.disk.touch(this.name);
      return;
    }
    const unmet = stored.size - (this.seen.size - added);
    const kept = unmet > this.seen.size + 10_000 ? this.seen : new Map([...stored, ...this.seen]);
    const keys: string[] = [];
    const warned = new Map<string, KeptFinding[]>();
    for (const [key, findings] of kept) {
      if (findings.length === 0) keys.push(key);
      else warned.set(key, findings);
    }
    this.disk.write(this.name, { format: CLEAN_FORMAT, keys, warned });
  }
}

const NONE: KeptFinding[] = [];
