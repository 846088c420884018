import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, statSync, writevSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';

/**
 * Values kept under SHA-256 keys in one append-only file of the disk cache (disk-cache.ts), for
 * results there are thousands of: the documents of every manifest file. One file per value cost a
 * first plan of 2,068 one-rule files about half a second in creating files (open, rename, mkdir:
 * 0.65 s of a 4.6 s profile) and a repeated one opening them (open, fstat, read, close). A run
 * reads the headers once, each value it needs with one positional read, and writes what it added
 * in one append.
 *
 * A record is a 44-byte header (MAGIC, the body's length, the CRC-32 of key and body, the 32-byte
 * key) and the body (v8.serialize). A record cut short (a run stopped while writing) or damaged
 * ends the walk: what follows is not read, and the next writing run rewrites the file, once a walk
 * again finds it still so (another run's append may have been half written). A record
 * whose CRC does not match is a miss. Two runs appending at once each append whole records
 * (O_APPEND); a rewrite is a temporary file renamed into place, so a run reading meanwhile keeps
 * reading the file it opened. Whatever goes wrong, the answer is a miss, never a wrong value.
 *
 * What a run adds is appended whenever FLUSH_BYTES of it are waiting, not held to the end: a first
 * plan of 20,000 rules would hold some 200 MB of records. The file is rewritten with only this
 * run's values when it has grown past twice them and REWRITE_SLACK besides (edited files leave
 * their old documents behind), or before the first append when its walk did not reach the end. A
 * run that meets only part of a repository (one folder) therefore keeps the rest until the old
 * values are many.
 */
const MAGIC = 0x31525653;
const HEADER = 44;
const KEY_AT = 12;
const REWRITE_SLACK = 64 * 1024 * 1024;
const FLUSH_BYTES = 16 * 1024 * 1024;
/** Buffers handed to one writev call (the kernel's IOV_MAX is 1,024). */
const WRITEV_MAX = 512;
/** Bytes read at once when walking the headers and reading values. */
const WINDOW = 1024 * 1024;
/** How many times, and how far apart, a file whose walk stopped short is walked again before it is rewritten (tornStill). */
const TORN_CHECKS = 3;
const TORN_WAIT_MS = 10;

interface Place {
  offset: number;
  length: number;
}

export interface PackOptions {
  /** Bytes of old values a file may hold beyond this run's before it is rewritten. */
  slack?: number;
  /** Bytes of added records held before they are appended. */
  flushBytes?: number;
}

export class RecordPack {
  private index?: Map<string, Place>;
  private fd?: number;
  /** Whether the walk reached the end of the file. */
  private whole = true;
  /** Keys this run read or added: what a rewrite keeps. */
  private readonly met = new Set<string>();
  /** Records waiting to be appended, each as its header and its value. */
  private added: Buffer[] = [];
  private addedBytes = 0;
  /** Bytes of the records this run added, appended or not. */
  private keptAdded = 0;
  /** Whether this run can write (asked once, at its first write). */
  private writable?: boolean;
  private window?: Window;
  private readonly slack: number;
  private readonly flushBytes: number;

  constructor(
    private readonly path: string,
    /** Makes the directory (and marks it as a cache) before the first write; false when it cannot. */
    private readonly ready: () => boolean,
    options: PackOptions = {},
  ) {
    this.slack = options.slack ?? REWRITE_SLACK;
    this.flushBytes = options.flushBytes ?? FLUSH_BYTES;
  }

  /** Whether a value is kept under `key` (a SHA-256 in hex). */
  has(key: string): boolean {
    return this.places().has(key);
  }

  /** The value kept under `key`, or undefined. */
  get(key: string): unknown {
    const place = this.places().get(key);
    if (!place || this.fd === undefined) return undefined;
    try {
      // One window for every read: deserialize copies what it makes, and 2,068 buffers of 19 MB in all were garbage.
      const record = (this.window ??= new Window(this.fd)).read(place.offset, HEADER + place.length);
      if (record === undefined) return undefined;
      if (record.readUInt32LE(0) !== MAGIC || crc32(record.subarray(KEY_AT)) !== record.readUInt32LE(8)) return undefined;
      this.met.add(key);
      return deserialize(record.subarray(HEADER));
    } catch {
      return undefined;
    }
  }

  /**
   * Keeps `value` under `key` (appended once enough is waiting, and by `save`). Returns what is
   * kept, v8.serialize's bytes, which `deserialize` reads back as a later `get` does; undefined when
   * nothing was kept (kept already, or it cannot be).
   */
  put(key: string, value: unknown): Buffer | undefined {
    if (this.met.has(key) && this.places().has(key)) return undefined;
    let body: Buffer;
    try {
      body = serialize(value);
    } catch {
      return undefined;
    }
    // The header and the value go out as two buffers of one writev: copying each value behind its
    // header was a second copy of every document a first plan keeps.
    const header = Buffer.allocUnsafe(HEADER);
    header.writeUInt32LE(MAGIC, 0);
    header.writeUInt32LE(body.length, 4);
    header.write(key, KEY_AT, 32, 'hex');
    header.writeUInt32LE(crc32(body, crc32(header.subarray(KEY_AT))), 8);
    this.added.push(header, body);
    this.addedBytes += HEADER + body.length;
    this.keptAdded += HEADER + body.length;
    this.met.add(key);
    if (this.addedBytes >= this.flushBytes) this.flush();
    return body;
  }

  /** Writes what is still waiting, rewrites the file when old values outweigh this run's (above), and closes it. */
  save(): void {
    try {
      this.flush();
      if (!this.writable) return;
      const places = this.places();
      let kept = this.keptAdded;
      for (const key of this.met) kept += places.has(key) ? HEADER + places.get(key)!.length : 0;
      if (statSync(this.path).size > 2 * kept + this.slack) this.rewrite([]);
    } catch {
      // A cache that cannot be written (a read-only checkout, a full disk) is only a slower next run.
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Appends the records waiting (after a rewrite when the file's walk stopped short of its end). */
  private flush(): void {
    if (this.added.length === 0) return;
    const records = this.added;
    this.added = [];
    this.addedBytes = 0;
    try {
      if (this.writable === undefined) this.writable = this.ready();
      if (!this.writable) return;
      this.places();
      if (this.whole || !this.tornStill()) append(this.path, records);
      else {
        this.rewrite(records);
        this.whole = true;
      }
    } catch {
      // Not written: the next run parses those files again. Nothing more is written in this one.
      this.writable = false;
    }
  }

  /**
   * Whether the file still ends in a record cut short. A walk that stopped short may have met
   * another run's append in the middle of being written (the file's size grows as the write goes),
   * and a rewrite then would drop that run's records: the file is walked again, a few times a few
   * milliseconds apart, before a rewrite replaces it. A run that stopped while writing leaves a
   * record that stays cut short.
   */
  private tornStill(): boolean {
    for (let attempt = 0; attempt < TORN_CHECKS; attempt++) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, TORN_WAIT_MS);
      let fd: number | undefined;
      try {
        fd = openSync(this.path, 'r');
        if (walk(fd, new Window(fd)).whole) return false;
      } catch {
        return false; // gone meanwhile (another run's rewrite): nothing of it to keep
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    }
    return true;
  }

  /**
   * Replaces the file with the records of this run's keys as the file now holds them (this run's
   * appends included), then `extra`: written to a temporary file renamed into place.
   */
  private rewrite(extra: Buffer[]): void {
    const temporary = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      const out = openSync(temporary, 'w');
      try {
        let from: number | undefined;
        try {
          from = openSync(this.path, 'r');
        } catch {
          // No file: nothing to carry over.
        }
        if (from !== undefined) {
          try {
            let batch: Buffer[] = [];
            let bytes = 0;
            for (const [key, place] of walk(from, new Window(from)).places) {
              if (!this.met.has(key)) continue;
              const record = Buffer.allocUnsafe(HEADER + place.length);
              if (readSync(from, record, 0, record.length, place.offset) !== record.length) continue;
              batch.push(record);
              bytes += record.length;
              if (bytes >= this.flushBytes) {
                writeAllTo(out, batch);
                batch = [];
                bytes = 0;
              }
            }
            writeAllTo(out, batch);
          } finally {
            closeSync(from);
          }
        }
        writeAllTo(out, extra);
      } finally {
        closeSync(out);
      }
      renameSync(temporary, this.path);
    } catch (err) {
      rmSync(temporary, { force: true });
      throw err;
    }
  }

  /** Walks the records' headers once (a positional read each): key -> where its record is. */
  private places(): Map<string, Place> {
    if (this.index) return this.index;
    this.index = new Map();
    try {
      this.fd = openSync(this.path, 'r');
      this.window = new Window(this.fd);
      const found = walk(this.fd, this.window);
      this.index = found.places;
      this.whole = found.whole;
    } catch {
      // No file yet (or none readable): every key is a miss.
    }
    return this.index;
  }
}

/**
 * Bytes of an open file read WINDOW at a time: a read inside the bytes read last is a view of them
 * (valid until the next read). The file only grows while open (appends; a rewrite is another file).
 */
class Window {
  private bytes = Buffer.allocUnsafe(0);
  private start = 0;
  private end = 0;

  constructor(private readonly fd: number) {}

  /** `length` bytes at `offset`, or undefined when the file holds fewer there. */
  read(offset: number, length: number): Buffer | undefined {
    if (offset < this.start || offset + length > this.end) {
      const want = Math.max(WINDOW, length);
      if (this.bytes.length < want) this.bytes = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const n = readSync(this.fd, this.bytes, got, want - got, offset + got);
        if (n === 0) break;
        got += n;
      }
      this.start = offset;
      this.end = offset + got;
      if (got < length) return undefined;
    }
    return this.bytes.subarray(offset - this.start, offset - this.start + length);
  }
}

/** The whole records of a pack file, the last of each key; whether they reach its end. */
function walk(fd: number, window: Window): { places: Map<string, Place>; whole: boolean } {
  const places = new Map<string, Place>();
  const size = fstatSync(fd).size;
  let at = 0;
  while (at + HEADER <= size) {
    const header = window.read(at, HEADER);
    if (header === undefined || header.readUInt32LE(0) !== MAGIC) break;
    const length = header.readUInt32LE(4);
    if (at + HEADER + length > size) break;
    places.set(header.toString('hex', KEY_AT, HEADER), { offset: at, length });
    at += HEADER + length;
  }
  return { places, whole: at === size };
}

function append(path: string, records: Buffer[]): void {
  const fd = openSync(path, 'a');
  try {
    writeAllTo(fd, records);
  } finally {
    closeSync(fd);
  }
}

function writeAllTo(fd: number, records: Buffer[]): void {
  for (let i = 0; i < records.length; i += WRITEV_MAX) {
    const batch = records.slice(i, i + WRITEV_MAX);
    const size = batch.reduce((n, b) => n + b.length, 0);
    // A short write leaves a record cut short: the next walk stops there and a writing run rewrites the file.
    if (writevSync(fd, batch) !== size) throw new Error('short write');
  }
}
