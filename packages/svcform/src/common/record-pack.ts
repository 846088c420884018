import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writevSync } from 'node:fs';
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
 * ends the walk: what follows is not read, and the next writing run rewrites the file. A record
 * whose CRC does not match is a miss. Two runs appending at once each append whole records
 * (O_APPEND); a rewrite is a temporary file renamed into place, so a run reading meanwhile keeps
 * reading the file it opened. Whatever goes wrong, the answer is a miss, never a wrong value.
 *
 * The file is rewritten with only this run's values when it has grown past twice them and
 * REWRITE_SLACK besides (edited files leave their old documents behind), or when its walk did not
 * reach the end. A run that meets only part of a repository (one folder) therefore keeps the rest
 * until the old values are many.
 */
const MAGIC = 0x31525653;
const HEADER = 44;
const KEY_AT = 12;
const REWRITE_SLACK = 64 * 1024 * 1024;
/** Buffers handed to one writev call (the kernel's IOV_MAX is 1,024). */
const WRITEV_MAX = 512;

interface Place {
  offset: number;
  length: number;
}

export class RecordPack {
  private index?: Map<string, Place>;
  private fd?: number;
  /** Bytes of whole records found. */
  private walked = 0;
  /** Whether the walk reached the end of the file. */
  private whole = true;
  /** Keys this run read or added: what a rewrite keeps. */
  private readonly met = new Set<string>();
  private readonly added: Buffer[] = [];
  private scratch = Buffer.alloc(0);
  private addedBytes = 0;

  constructor(
    private readonly path: string,
    /** Makes the directory (and marks it as a cache) before the first write; false when it cannot. */
    private readonly ready: () => boolean,
    /** Bytes of old values a file may hold beyond this run's before it is rewritten. */
    private readonly slack = REWRITE_SLACK,
  ) {}

  /** Whether a value is kept under `key` (a SHA-256 in hex). */
  has(key: string): boolean {
    return this.places().has(key);
  }

  /** The value kept under `key`, or undefined. */
  get(key: string): unknown {
    const place = this.places().get(key);
    if (!place || this.fd === undefined) return undefined;
    try {
      // One buffer for every read: deserialize copies what it makes, and 2,068 buffers of 19 MB in all were garbage.
      if (this.scratch.length < HEADER + place.length) this.scratch = Buffer.allocUnsafe(Math.max(HEADER + place.length, 2 * this.scratch.length));
      const record = this.scratch.subarray(0, HEADER + place.length);
      if (readSync(this.fd, record, 0, record.length, place.offset) !== record.length) return undefined;
      if (record.readUInt32LE(0) !== MAGIC || crc32(record.subarray(KEY_AT)) !== record.readUInt32LE(8)) return undefined;
      this.met.add(key);
      return deserialize(record.subarray(HEADER));
    } catch {
      return undefined;
    }
  }

  /** Keeps `value` under `key` (written by `save`). */
  put(key: string, value: unknown): void {
    if (this.met.has(key) && this.places().has(key)) return;
    let body: Buffer;
    try {
      body = serialize(value);
    } catch {
      return;
    }
    const record = Buffer.allocUnsafe(HEADER + body.length);
    record.writeUInt32LE(MAGIC, 0);
    record.writeUInt32LE(body.length, 4);
    record.write(key, KEY_AT, 32, 'hex');
    body.copy(record, HEADER);
    record.writeUInt32LE(crc32(record.subarray(KEY_AT)), 8);
    this.added.push(record);
    this.addedBytes += record.length;
    this.met.add(key);
  }

  /** Writes what this run added: appended, or the file rewritten with only this run's values (above). Closes the file. */
  save(): void {
    try {
      if (this.added.length === 0 || !this.ready()) return;
      const places = this.places();
      let kept = this.addedBytes;
      for (const key of this.met) kept += (places.get(key)?.length ?? -HEADER) + HEADER;
      if (!this.whole || this.walked + this.addedBytes > 2 * kept + this.slack) this.rewrite();
      else this.append(this.path, 'a', this.added);
    } catch {
      // A cache that cannot be written (a read-only checkout, a full disk) is only a slower next run.
    } finally {
      this.added.length = 0;
      this.addedBytes = 0;
      this.close();
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private rewrite(): void {
    const records: Buffer[] = [];
    for (const [key, place] of this.places()) {
      if (!this.met.has(key) || this.fd === undefined) continue;
      const record = Buffer.allocUnsafe(HEADER + place.length);
      if (readSync(this.fd, record, 0, record.length, place.offset) === record.length) records.push(record);
    }
    const temporary = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      this.append(temporary, 'w', [...records, ...this.added]);
      renameSync(temporary, this.path);
    } catch (err) {
      rmSync(temporary, { force: true });
      throw err;
    }
  }

  private append(path: string, flags: 'a' | 'w', records: Buffer[]): void {
    const fd = openSync(path, flags);
    try {
      for (let i = 0; i < records.length; i += WRITEV_MAX) {
        const batch = records.slice(i, i + WRITEV_MAX);
        const size = batch.reduce((n, b) => n + b.length, 0);
        // A short write leaves a record cut short: the next walk stops there and a writing run rewrites the file.
        if (writevSync(fd, batch) !== size) throw new Error('short write');
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Walks the records' headers once (a positional read each): key -> where its record is. */
  private places(): Map<string, Place> {
    if (this.index) return this.index;
    this.index = new Map();
    try {
      this.fd = openSync(this.path, 'r');
      const size = fstatSync(this.fd).size;
      const header = Buffer.allocUnsafe(HEADER);
      let at = 0;
      while (at + HEADER <= size) {
        if (readSync(this.fd, header, 0, HEADER, at) !== HEADER || header.readUInt32LE(0) !== MAGIC) break;
        const length = header.readUInt32LE(4);
        if (at + HEADER + length > size) break;
        this.index.set(header.toString('hex', KEY_AT, HEADER), { offset: at, length });
        at += HEADER + length;
      }
      this.walked = at;
      this.whole = at === size;
    } catch {
      // No file yet (or none readable): every key is a miss.
    }
    return this.index;
  }
}
