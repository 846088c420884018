import { isAscii, isUtf8 } from 'node:buffer';
import { lstatSync, readdirSync, readFileSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Diagnostic } from './types.js';
import { displayPath, readManifestText, type LoadResult } from './load.js';
import type { ManifestCache } from './manifest-cache.js';

/**
 * The manifest files of a run: which files PATH arguments name, reading them (regular files of
 * UTF-8 text under a size cap), and parsing each into documents (load.ts), or taking its documents
 * from the manifest cache when its bytes were read before (manifest-cache.ts).
 */

/** Larger single files are refused: they are almost always a mistake (a log or a dump), and parsing is linear in memory. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
const CONFIG_NAMES = new Set(['svcform.yaml', 'svcform.yml']);

/**
 * Expands PATH arguments: files as given, directories recursively (`*.yaml`, `*.yml`, sorted, the
 * svcform.yaml configuration file and folders marked with SKIP_MARKER skipped), `-` for standard input.
 */
export function expandPaths(paths: string[]): { files: string[]; diagnostics: Diagnostic[] } {
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (err) {
      diagnostics.push(fileError(dir, `cannot read directory: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`));
      return;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith('.') || name === 'node_modules') continue;
      const full = join(dir, name);
      // Rule test files (*.test.yaml, read by `svcform test`) sit beside manifests but are not manifests.
      const isManifest = /\.ya?ml$/i.test(name) && !CONFIG_NAMES.has(name) && !/\.test\.ya?ml$/i.test(name);
      // The directory entry tells files and folders apart (node looks at an entry whose type the
      // file system does not give); only a link is looked at here, to see what it points to.
      if (entry.isDirectory()) {
        if (!isSkipped(full)) walk(full);
        continue;
      }
      if (!entry.isSymbolicLink()) {
        // A FIFO or a device named as a manifest: reading it says what it is.
        if (isManifest) files.push(full);
        continue;
      }
      let st;
      try {
        st = statSync(full);
      } catch (err) {
        // A manifest that cannot be looked at is an error, not a silently smaller configuration.
        if (isManifest) diagnostics.push(fileError(full, unreadable(full, err)));
        continue;
      }
      if (st.isDirectory()) {
        if (!isSkipped(full)) walk(full);
      } else if (isManifest) files.push(full);
    }
  };
  for (const p of paths) {
    if (p === '-') {
      files.push('-');
      continue;
    }
    const abs = resolve(p);
    let st;
    try {
      st = statSync(abs);
    } catch (err) {
      diagnostics.push(fileError(abs, unreadable(abs, err)));
      continue;
    }
    if (st.isDirectory()) walk(abs);
    else files.push(abs);
  }
  return { files, diagnostics };
}

/**
 * A folder holding a `.svcform-skip` file is not walked: YAML that is not svcform's (a Kubernetes
 * recipe, a Helm chart) can sit in the repository beside the manifests. Named as a PATH, it is read.
 */
export const SKIP_MARKER = '.svcform-skip';

function isSkipped(dir: string): boolean {
  try {
    return statSync(join(dir, SKIP_MARKER)).isFile();
  } catch {
    return false;
  }
}

function fileError(file: string, message: string): Diagnostic {
  return { severity: 'error', pos: { file: displayPath(file), line: 1, col: 1 }, message };
}

/** Why `file` could not be opened, in words (a dangling symlink says so rather than "no such file"). */
function unreadable(file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    try {
      if (lstatSync(file).isSymbolicLink()) return 'cannot read: broken symbolic link (its target does not exist)';
    } catch {
      // not a link either: plainly missing
    }
    return 'no such file or directory';
  }
  if (code === 'EACCES' || code === 'EPERM') return 'cannot read: permission denied';
  if (code === 'ELOOP') return 'cannot read: too many levels of symbolic links';
  return `cannot read: ${code ?? (err as Error).message}`;
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** A manifest file as a run reads it: its bytes, or (seen-files.ts) only its cache key when the cache knows its stat. */
interface Source {
  file: string;
  bytes?: Buffer;
  error?: string;
  /** The manifest cache key of its bytes (when the run has a cache). */
  key?: string;
  /** Its `kind:` lines, when counted already. */
  kinds?: Array<[string, number]>;
  size: number;
}

/**
 * Reads `file`, unless the cache saw it with the same stat and keeps its documents: then only its
 * key is taken (`trustStat` false reads it in any case).
 */
function readSource(file: string, cache: ManifestCache | undefined, trustStat = true): Source {
  let bytes: Buffer;
  let st: Stats | undefined;
  let readAt = 0;
  try {
    if (file === '-') bytes = readFileSync(0);
    else {
      st = statSync(file);
      // Opening a FIFO blocks until someone writes to it; devices never end. Only regular files are read.
      if (!st.isFile()) return { file, error: `cannot read: ${kindOf(st)}, not a manifest file`, size: 0 };
      if (st.size > MAX_FILE_BYTES) {
        return { file, error: `file is ${(st.size / 1048576).toFixed(1)} MB, over the ${MAX_FILE_BYTES / 1048576} MB limit for one manifest file; split it into several files`, size: 0 };
      }
      const seen = cache && trustStat ? cache.seenFiles.lookup(file, st) : undefined;
      if (seen && cache!.holds(seen.key)) {
        cache!.counts.sameStat++;
        return { file, key: seen.key, kinds: seen.kinds, size: st.size };
      }
      readAt = Date.now();
      bytes = readFileSync(file);
    }
  } catch (err) {
    return { file, error: unreadable(file, err), size: 0 };
  }
  if (bytes.length > MAX_FILE_BYTES) return { file, error: `input is over the ${MAX_FILE_BYTES / 1048576} MB limit for one manifest file`, size: 0 };
  if (bytes.subarray(0, 8192).includes(0)) return { file, error: 'not a text file (it contains NUL bytes); manifests are YAML text', size: 0 };
  // isUtf8 validates at memory speed; a fatal TextDecoder is several times slower on 16 MB of rules.
  if (!isUtf8(bytes)) return { file, error: 'not a text file (it is not valid UTF-8); manifests are YAML text in UTF-8', size: 0 };
  if (!cache || st === undefined) return { file, bytes, size: bytes.length };
  const key = cache.keyOf(bytes);
  const kinds = [...kindLines([bytes])];
  cache.seenFiles.record(file, st, readAt, { key, kinds });
  return { file, bytes, key, kinds, size: bytes.length };
}

/** The text of a file read before, read again when a message needs positions; undefined when it no longer holds the bytes of `key`. */
function textOfSeen(file: string, key: string, cache: ManifestCache): string | undefined {
  try {
    const bytes = readFileSync(file);
    return cache.keyOf(bytes) === key ? decodeText(bytes) : undefined;
  } catch {
    return undefined;
  }
}

function decodeText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  // A byte order mark is not content (TextDecoder drops it too).
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function loadFiles(files: string[], cache?: ManifestCache): LoadResult {
  const result: LoadResult = { docs: [], diagnostics: [], files };
  for (const file of files) addSource(result, readSource(file, cache), cache);
  return result;
}

/** The kinds read files declare, how many bytes they hold and how many of those must be parsed (`parse` set on each). */
function sizeUp(sources: Array<Source & { parse?: boolean }>, cache: ManifestCache | undefined): { kinds: Map<string, number>; share: ParseShare } {
  const share: ParseShare = { total: 0, toParse: 0 };
  const kinds = kindLines(sources.flatMap((s) => (s.bytes === undefined || s.kinds ? [] : [s.bytes])));
  for (const source of sources) {
    if (source.error !== undefined) continue;
    for (const [name, count] of source.kinds ?? []) kinds.set(name, (kinds.get(name) ?? 0) + count);
    share.total += source.size;
    source.parse = source.key === undefined || !cache!.holds(source.key);
    if (source.parse) share.toParse += source.size;
  }
  return { kinds, share };
}

/** Parses one file (or takes its documents from the cache, or records why it could not be read) into `result`. */
function addSource(result: LoadResult, source: Source, cache: ManifestCache | undefined): void {
  const { file, key } = source;
  if (source.error !== undefined) {
    result.diagnostics.push(fileError(file, source.error));
    return;
  }
  const bytes = source.bytes;
  // A message's positions come from reading the file again, not from its bytes held to the end of
  // the run: at 20,000 generated rules, the bytes of every file with a character beyond ASCII
  // (163 MB) were held so through a first plan.
  const textAgain = () => textOfSeen(file, key!, cache!);
  const kept = key === undefined ? undefined : cache!.read(key, file, textAgain);
  if (kept) {
    for (const d of kept) result.docs.push(d);
    return;
  }
  // Known by its stat but not kept after all (a damaged record), or let go after the first read
  // (HELD_BYTES): read and parsed as any file.
  if (bytes === undefined) return addSource(result, readSource(file, cache, false), cache);
  if (cache) cache.counts.parsed++;
  const out = readManifestText(decodeText(bytes), file);
  // Only a file the fast reader read whole and without a finding is kept: anything else is read again.
  const keeps = key !== undefined && out.allFast && out.diagnostics.length === 0;
  const docs = keeps ? cache!.remember(key, file, out.docs, !isAscii(bytes), textAgain) : out.docs;
  for (const d of docs) result.docs.push(d);
  for (const d of out.diagnostics) result.diagnostics.push(d);
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const isLetter = (b: number) => (b >= 65 && b <= 90) || (b >= 97 && b <= 122);

/**
 * `kind: Name` lines of manifest files (at the start of a line, nothing after the name but blanks),
 * counted by name: what a read-ahead of live state starts from. The line is ASCII, so the bytes
 * are searched without decoding the file: on 16 MB of rules, a regular expression over a one-byte
 * view of each file took 37-43 ms and the byte search takes a fifth of that.
 */
export function kindLines(buffers: Buffer[]): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const bytes of buffers) {
    for (let at = bytes.indexOf('kind:'); at !== -1; at = bytes.indexOf('kind:', at + 5)) {
      if (at > 0 && bytes[at - 1] !== LF && bytes[at - 1] !== CR) continue;
      let i = at + 5;
      while (bytes[i] === SPACE || bytes[i] === TAB) i++;
      const start = i;
      while (i < bytes.length && isLetter(bytes[i])) i++;
      if (i === start) continue;
      const name = bytes.toString('latin1', start, i);
      while (bytes[i] === SPACE || bytes[i] === TAB) i++;
      if (i < bytes.length && bytes[i] !== LF && bytes[i] !== CR) continue;
      kinds.set(name, (kinds.get(name) ?? 0) + 1);
    }
  }
  return kinds;
}

/** How many bytes of manifests a run reads, and how many of them the cache does not hold (to be parsed). */
export interface ParseShare {
  total: number;
  toParse: number;
}

/**
 * What a run that talks to a server does once the files are read: it sees the kinds they declare
 * and how much must be parsed, and may hand back what to start once the parse is nearly done.
 */
export type OnRead = (kinds: Map<string, number>, share: ParseShare) => void | (() => void);

/**
 * The share of the bytes to parse after which what `onRead` handed back starts: late enough that
 * what it reads does not sit in the heap through the parse, early enough that its requests go out
 * while the last files are parsed, one turn of the event loop each, since the checks that follow
 * run without a turn (so the server answers meanwhile and the answers wait in the sockets).
 */
const LATE_SHARE = 0.9;

/** Files read between two turns of the event loop while a run that talks to a server reads its files. */
const READ_BETWEEN_TURNS = 64;

/**
 * Bytes of read files held from the first read to the parse. Past them, a file's bytes are let go
 * once its key and kinds are known, and it is read again when its turn to be parsed comes
 * (addSource): at 20,000 generated rules, 163 MB of files held at once stayed in the process's
 * resident memory after they were freed. With this and the positions read again (addSource), a
 * first plan of them peaked at 873-900 MiB against 916-1,003 MiB (3 runs by turns). The 16 MB of
 * the real rules are held whole, not read twice.
 */
const HELD_BYTES = 32 * 1024 * 1024;

/**
 * loadFiles for a run that talks to a server meanwhile: every file is read first and the kinds it
 * declares shown to `onRead` (which may start requests), with how much of it must be parsed; then
 * each is parsed with a turn of the event loop in between, so that those requests go out and their
 * answers come in while parsing goes on.
 */
export async function loadFilesYielding(files: string[], onRead: OnRead, cache?: ManifestCache, heldBytes = HELD_BYTES): Promise<LoadResult> {
  const result: LoadResult = { docs: [], diagnostics: [], files };
  const sources: Array<Source & { parse: boolean }> = [];
  let held = 0;
  for (const file of files) {
    // Requests a run started before reading (read-ahead-memory.ts) go out meanwhile: connecting
    // and writing them wants turns of the event loop.
    if (sources.length % READ_BETWEEN_TURNS === 0) await new Promise((done) => setImmediate(done));
    const source = { ...readSource(file, cache), parse: false };
    // Only a file whose kinds are counted (a file on disk, with a cache) can be let go and read again.
    if (source.bytes !== undefined && source.kinds !== undefined) {
      if (held + source.size > heldBytes) source.bytes = undefined;
      else held += source.size;
    }
    sources.push(source);
  }
  const { kinds, share } = sizeUp(sources, cache);
  let late = onRead(kinds, share) ?? undefined;
  let parsed = 0;
  for (const source of sources) {
    if (late && parsed >= share.toParse * LATE_SHARE) {
      late();
      late = undefined;
    }
    await new Promise((done) => setImmediate(done));
    addSource(result, source, cache);
    if (source.parse) parsed += source.size;
  }
  if (late) {
    late();
    // The requests need a turn or two to go out (a connection to open) before the checks run.
    for (let i = 0; i < 3; i++) await new Promise((done) => setImmediate(done));
  }
  return result;
}
