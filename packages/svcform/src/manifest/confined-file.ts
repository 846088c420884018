import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

/**
 * The one way manifests read files (`${file:...}`, a ValueList's items_file). Manifests come from
 * pull requests, so a path in one must not reach past the repository: `${file:/proc/self/environ}`
 * or `${file:../../.ssh/id_rsa}` in a rule description would send a CI runner's secrets to the
 * server. Only regular files inside the root (after every symbolic link is followed) are read, and
 * only up to a size limit: a device (/dev/zero) never ends and a named pipe blocks forever.
 */

/** Limit for one `${file:...}` reference: secrets and certificates are small. */
export const MAX_REFERENCE_BYTES = 1024 * 1024;
/** Limit for one items_file: value lists hold up to some hundred thousand values. */
export const MAX_ITEMS_FILE_BYTES = 64 * 1024 * 1024;
/** Longer paths are not looked up at all (the file system would refuse them anyway). */
const MAX_PATH_CHARS = 4096;

export interface ConfinedFileOptions {
  /** The repository root: nothing outside it (or its real path) is read. */
  root: string;
  /** Directory a relative path is relative to (the manifest's). */
  base: string;
  maxBytes: number;
}

export type ConfinedFile = { text: string; error?: undefined } | { text?: undefined; error: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const realRoots = new Map<string, string | Error>();

function realRoot(root: string): string | Error {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync(root);
    } catch (err) {
      real = new Error(`the repository root ${root} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    realRoots.set(root, real);
  }
  return real;
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** A limit in words: 1 MiB, 64 MiB, 16 KiB, 4 bytes. */
function limitWords(max: number): string {
  if (max >= 1024 * 1024 && max % (1024 * 1024) === 0) return `${max / (1024 * 1024)} MiB`;
  if (max >= 1024 && max % 1024 === 0) return `${max / 1024} KiB`;
  return `${max} bytes`;
}

function errnoWords(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'too many levels of symbolic links';
  if (code === 'ENAMETOOLONG') return 'the path is too long';
  return code ?? (err as Error).message;
}

/** The real path of `path` (relative to `base`) when it and every link on the way stay inside the root. */
function realPathInsideRoot(path: string, options: Pick<ConfinedFileOptions, 'root' | 'base'>): { real: string } | { error: string } {
  const root = resolve(options.root);
  const realRootPath = realRoot(root);
  if (realRootPath instanceof Error) return { error: realRootPath.message };
  const abs = resolve(options.base, path);
  // Judged on the path as written first, so that nothing outside the root is even looked at.
  if (!inside(root, abs) && !inside(realRootPath, abs)) return { error: `it is outside the repository root ${root}: files may be read only from inside it (set the root with --root)` };
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (err) {
    return { error: errnoWords(err) };
  }
  if (!inside(realRootPath, real)) return { error: `it leads outside the repository root ${root} through a symbolic link: files may be read only from inside it` };
  return { real };
}

/** Files listed at most under one directory a manifest or configuration names. */
export const MAX_LISTED_FILES = 10_000;

/**
 * The files under a directory inside the root whose names `wanted` accepts, sorted, for reading
 * each with readConfinedFile. Symbolic links are not followed (a link out of the repository, or a
 * loop, is not walked into); at most MAX_LISTED_FILES are listed.
 */
export function listConfinedFiles(path: string, options: Omit<ConfinedFileOptions, 'maxBytes'>, wanted: (relativePath: string) => boolean): { files: string[]; error?: undefined } | { files?: undefined; error: string } {
  const found = realPathInsideRoot(path, options);
  if ('error' in found) return found;
  const { real } = found;
  const files: string[] = [];
  const walk = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = resolve(dir, entry.name);
      if (entry.isDirectory()) {
        const failed = walk(full);
        if (failed) return failed;
      } else if (entry.isFile() && wanted(relative(real, full))) {
        if (files.length === MAX_LISTED_FILES) return `it holds over ${MAX_LISTED_FILES} such files`;
        files.push(full);
      }
    }
    return undefined;
  };
  try {
    const failed = walk(real);
    if (failed) return { error: failed };
  } catch (err) {
    return { error: errnoWords(err) };
  }
  return { files: files.sort() };
}

/**
 * How many reads were asked for in this process. What a document's checks find is kept between runs
 * only when its checks read no file (validate.ts): such a verdict would depend on more than the
 * document's bytes.
 */
let readsAsked = 0;

export function confinedReadsAsked(): number {
  return readsAsked;
}

/**
 * Reads `path` (relative to options.base) as UTF-8 text if it is a regular file inside the root and
 * not over the limit; otherwise says why not, in words that complete "cannot read PATH: ...".
 */
export function readConfinedFile(path: string, options: ConfinedFileOptions): ConfinedFile {
  const read = readConfinedBytes(path, options);
  if (read.error !== undefined) return read;
  // A NUL is valid UTF-8 but in no text a manifest names: a binary file renamed or named by mistake.
  if (read.bytes.includes(0)) return { error: 'it holds NUL bytes: a binary file, not text' };
  try {
    return { text: utf8.decode(read.bytes) };
  } catch {
    return { error: 'it is not UTF-8 text' };
  }
}

export type ConfinedBytes = { bytes: Buffer; error?: undefined } | { bytes?: undefined; error: string };

/**
 * The bytes of `path`, under the same rules as readConfinedFile (a file uploaded as it is, such
 * as an endpoint script's archive). Never blocks: the type is checked before opening, and the file
 * is opened non-blocking without following a final symbolic link, so a named pipe swapped in
 * between cannot stall the run.
 */
export function readConfinedBytes(path: string, options: ConfinedFileOptions): ConfinedBytes {
  readsAsked++;
  if (path.length > MAX_PATH_CHARS) return { error: `the path is over ${MAX_PATH_CHARS} characters` };
  if (path.includes('\0')) return { error: 'the path contains a NUL character' };
  const found = realPathInsideRoot(path, options);
  if ('error' in found) return found;
  const { real } = found;
  let before: Stats;
  try {
    before = lstatSync(real);
  } catch (err) {
    return { error: errnoWords(err) };
  }
  if (!before.isFile()) return { error: `it is ${kindOf(before)}, not a regular file` };
  const tooLarge = (bytes: number) => `it is ${bytes} bytes, over the limit of ${limitWords(options.maxBytes)}`;
  if (before.size > options.maxBytes) return { error: tooLarge(before.size) };
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    return { error: errnoWords(err) };
  }
  try {
    const st = fstatSync(fd);
    // Replaced between the checks and the open: judge what was opened.
    if (!st.isFile() || st.ino !== before.ino || st.dev !== before.dev) return { error: 'it was replaced while being read' };
    // A file that grows while read stops one byte past the limit.
    const buf = Buffer.allocUnsafe(Math.min(options.maxBytes, st.size) + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) break;
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > options.maxBytes) return { error: tooLarge(length) };
    if (length === buf.length) return { error: 'it grew while being read' };
    return { bytes: buf.subarray(0, length) };
  } catch (err) {
    return { error: errnoWords(err) };
  } finally {
    closeSync(fd);
  }
}
