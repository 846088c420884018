import { dirname, relative, resolve, sep } from 'node:path';
import type { Document, LineCounter, Node, YAMLError } from 'yaml';
import { NESTS_TOO_DEEPLY, nestsTooDeeply, yaml } from '../common/yaml.js';
import type { Diagnostic, DocPath, FanOut, SourcePos } from './types.js';
import { fastPositions, isLeft, parseFast, type FastDocument, type FastParse } from './yaml-fast.js';
import { markTextOrder } from './finding-order.js';
import { cyclicAliasOffset, hasCycle } from './alias-cycles.js';
import { sourceOffsetInScalar } from './scalar-position.js';
import { fastScalarStart, nodeAt } from './scalar-start.js';

/** One YAML document of a manifest file, with what is needed to point at any of its values. */
export interface LoadedDoc {
  file: string;
  /** 0-based index of the document in its file. */
  index: number;
  value: unknown;
  start: SourcePos;
  /** Directory of the file: base of ${file:...} and items_file paths. */
  dir: string;
  posOf(path: DocPath): SourcePos;
  /** Where character `offset` of the string value at `path` sits, if the source decodes to `value`. */
  posInScalar(path: DocPath, offset: number, value: string): SourcePos | undefined;
  /** The document's key in the manifest cache (its file's hash and its index), when the file is one the cache keeps. */
  cacheKey?: string;
  /** Set on the copies of a document that names several spaces (fan-out.ts). */
  fanOut?: FanOut;
}

export interface LoadResult {
  docs: LoadedDoc[];
  diagnostics: Diagnostic[];
  /** Files read (for the run summary). */
  files: string[];
}

const MAX_ALIASES = 100;

/** Paths as users see them in messages: relative to the working directory when inside it. */
export function displayPath(file: string): string {
  if (file === '-') return '<stdin>';
  const cwd = process.cwd();
  // The files a walk found are absolute and normal: one under the working directory is its tail
  // (path.relative resolves both paths, some 20 us a file: 41 ms of a repeated plan of 2,068).
  if (file.length > cwd.length + 1 && file.startsWith(cwd) && file[cwd.length] === '/' && isNormalAbsolute(file)) return file.slice(cwd.length + 1);
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/** Whether `file` is an absolute POSIX path that path.resolve leaves as it is (no `.` or `..` part, no `//`, no trailing `/`). */
export function isNormalAbsolute(file: string): boolean {
  return sep === '/' && file.startsWith('/') && !/\/\.{0,2}(?:\/|$)/.test(file);
}

export interface ParseOptions {
  /**
   * Try the fast reader first (default). Tests turn it off to compare both readers; the full parser
   * always handles what the fast one does not, and produces every YAML error message.
   */
  fast?: boolean;
}

/** Parses one file's text into documents; errors carry the file's positions. */
export function parseManifestText(text: string, file: string, options: ParseOptions = {}): { docs: LoadedDoc[]; diagnostics: Diagnostic[] } {
  const { docs, diagnostics } = readManifestText(text, file, options);
  return { docs, diagnostics };
}

/** parseManifestText, saying also whether the fast reader read every document (files.ts keeps only those). */
export function readManifestText(text: string, file: string, options: ParseOptions = {}): { docs: LoadedDoc[]; diagnostics: Diagnostic[]; allFast: boolean } {
  const shown = displayPath(file);
  const dir = file === '-' ? process.cwd() : dirname(resolve(file));
  const fast = options.fast === false ? undefined : parseFast(text);
  // A document the fast reader left that has YAML errors sends the whole file to the full parser,
  // so that every message and position is exactly the one it gives for the file.
  const mixed = fast && readMixed(fast, shown, dir);
  if (mixed) return { ...mixed, allFast: fast.documents.every((d) => !isLeft(d)) };
  return { ...readFull(text, shown, dir), allFast: false };
}

/** The line and column of an offset, from the offsets where lines start. */
function positionIn(starts: Int32Array, shown: string): (offset: number) => SourcePos {
  return (offset) => {
    // The last line starting at or before the offset.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: shown, line: lo + 1, col: offset - starts[lo] + 1 };
  };
}

/**
 * `posOf` of document `index` of a file the fast reader read whole (one the manifest cache keeps),
 * from the file's text: the places readManifestText's document gives, reading that document alone,
 * once, with positions. Undefined when the text is no longer such a file.
 */
export function keptDocumentPlaces(text: string, file: string, index: number): ((path: DocPath) => SourcePos) | undefined {
  const read = fastPositions(text, index);
  if (!read) return undefined;
  const at = positionIn(read.lineStarts, displayPath(file));
  return (path) => at(offsetIn(read, read.start, path));
}

/** The fast reader's documents, and the full parser's reading of each document it left. */
function readMixed(fast: FastParse, shown: string, dir: string): { docs: LoadedDoc[]; diagnostics: Diagnostic[] } | undefined {
  const at = positionIn(fast.lineStarts, shown);
  const docs: LoadedDoc[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const doc of fast.documents) {
    if (!isLeft(doc)) {
      const posInScalar = (path: DocPath, offset: number, value: string) => {
        const start = fastScalarStart(fast.text, doc, path);
        const found = start === undefined ? undefined : sourceOffsetInScalar(fast.text, start, offset, value);
        return found === undefined ? undefined : at(found);
      };
      markTextOrder(doc.value);
      docs.push({ file: shown, index: doc.index, value: doc.value, start: at(doc.start), dir, posOf: (path) => at(offsetIn(doc.positions(), doc.start, path)), posInScalar });
      continue;
    }
    let parsed: Document.Parsed[];
    try {
      parsed = yaml().parseAllDocuments(fast.text.slice(doc.from, doc.to), { prettyErrors: false, uniqueKeys: true }) as Document.Parsed[];
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || parsed.length !== 1 || parsed[0].errors.length > 0) return undefined;
    const out = readParsedDoc(parsed[0], doc.index, (offset) => at(doc.from + offset), shown, dir, fast.text.slice(doc.from, doc.to));
    if (out.doc) docs.push(out.doc);
    if (out.diagnostic) diagnostics.push(out.diagnostic);
  }
  return { docs, diagnostics };
}

/** Every document of the file read by the full parser. */
function readFull(text: string, shown: string, dir: string): { docs: LoadedDoc[]; diagnostics: Diagnostic[] } {
  const { LineCounter, parseAllDocuments } = yaml();
  const lineCounter = new LineCounter();
  const diagnostics: Diagnostic[] = [];
  const docs: LoadedDoc[] = [];
  const at = (offset: number): SourcePos => {
    const { line, col } = lineCounter.linePos(offset);
    return { file: shown, line, col };
  };
  let parsed: Document.Parsed[];
  try {
    // logLevel error: the library's warnings (a collection as a key) would go to the process's stderr, not to our diagnostics.
    parsed = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: 'error' }) as Document.Parsed[];
  } catch (err) {
    const message = nestsTooDeeply(err) ? NESTS_TOO_DEEPLY : (err as Error).message;
    return { docs, diagnostics: [{ severity: 'error', pos: { file: shown, line: 1, col: 1 }, message: `invalid YAML: ${message}` }] };
  }
  if (!Array.isArray(parsed)) parsed = [parsed as unknown as Document.Parsed];
  parsed.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      // One parse mistake often yields several errors on one line; the first says it best.
      const lines = new Set<number>();
      for (const e of doc.errors) {
        const problem = describeYamlError(doc, e, text, lineCounter);
        const pos = at(problem.offset);
        if (lines.has(pos.line)) continue;
        lines.add(pos.line);
        diagnostics.push({ severity: 'error', pos, message: `invalid YAML: ${problem.message}` });
      }
      return;
    }
    const out = readParsedDoc(doc, index, at, shown, dir, text);
    if (out.doc) docs.push(out.doc);
    if (out.diagnostic) diagnostics.push(out.diagnostic);
  });
  return { docs, diagnostics };
}

/**
 * One error-free document of the full parser; `source` is the text its offsets index (the file, or
 * the document's slice of it) and `at` turns those offsets into positions in the file.
 */
function readParsedDoc(doc: Document.Parsed, index: number, at: (offset: number) => SourcePos, shown: string, dir: string, source: string): { doc?: LoadedDoc; diagnostic?: Diagnostic } {
  const { isMap, isScalar, isSeq } = yaml();
  const start = at(doc.contents?.range?.[0] ?? doc.range?.[0] ?? 0);
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) return {}; // empty document (e.g. a trailing ---)
  if (!isMap(doc.contents)) {
    const found = isSeq(doc.contents) ? 'a list' : isScalar(doc.contents) ? `a ${typeof doc.contents.value === 'string' ? 'string' : 'scalar'}` : 'another kind of YAML node';
    return { diagnostic: { severity: 'error', pos: start, message: `a manifest document must be a mapping (apiVersion, kind, metadata, spec), not ${found}` } };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (err) {
    const message = firstLine((err as Error).message);
    const words = /alias count/i.test(message)
      ? `anchors and aliases expand too far (limit ${MAX_ALIASES}): refusing what looks like an entity-expansion ("billion laughs") attack`
      : nestsTooDeeply(err)
        ? NESTS_TOO_DEEPLY
        : message;
    return { diagnostic: { severity: 'error', pos: start, message: `invalid YAML: ${words}` } };
  }
  if (hasCycle(value)) {
    // `&m {<<: *m}` or `&a [*a]`: the value contains itself, and every later step would walk it forever.
    return { diagnostic: { severity: 'error', pos: at(cyclicAliasOffset(doc) ?? doc.contents.range?.[0] ?? 0), message: 'invalid YAML: this alias refers to a node that contains it, which would make the document infinite' } };
  }
  const posInScalar = (path: DocPath, offset: number, expected: string) => {
    const node = nodeAt(doc, path);
    const found = isScalar(node) && node.range ? sourceOffsetInScalar(source, node.range[0], offset, expected) : undefined;
    return found === undefined ? undefined : at(found);
  };
  return { doc: { file: shown, index, value, start, dir, posOf: (path) => at(offsetOf(doc, path)), posInScalar } };
}

function firstLine(s: string): string {
  return s.split('\n')[0];
}

/**
 * The yaml library places some errors where it noticed them (the end of the file for an unclosed
 * quote); a person needs the place where the mistake starts, in plain words.
 */
function describeYamlError(doc: Document.Parsed, e: YAMLError, text: string, lines: LineCounter): { offset: number; message: string } {
  const { isMap, isScalar, isSeq, visit } = yaml();
  const offset = e.pos[0];
  const plain = firstLine(e.message);
  // The innermost quoted scalar or flow collection that runs up to the error.
  const opener = (test: (node: Node) => boolean): Node | undefined => {
    let found: Node | undefined;
    const check = (node: Node) => {
      const r = node.range;
      if (r && r[0] < offset && offset <= r[1] && test(node) && (!found || r[0] > found.range![0])) found = node;
    };
    visit(doc, { Scalar: (_, node) => check(node), Seq: (_, node) => check(node), Map: (_, node) => check(node) });
    return found;
  };
  if (e.code === 'MISSING_CHAR' && /quote/.test(plain)) {
    const node = opener((n) => isScalar(n) && (n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE'));
    if (node) {
      const end = lines.linePos(offset).line;
      return { offset: node.range![0], message: `the quoted string that starts here is never closed (it runs on to line ${end})` };
    }
  }
  if (e.code === 'BAD_INDENT' && /^Flow (sequence|map)/.test(plain)) {
    const node = opener((n) => (isSeq(n) || isMap(n)) && !!n.flow);
    if (node) {
      const close = isSeq(node) ? ']' : '}';
      return { offset: node.range![0], message: `the flow ${isSeq(node) ? 'sequence' : 'mapping'} that starts here is not closed with ${close} (or a line inside it is not indented enough)` };
    }
  }
  if (e.code === 'DUPLICATE_KEY') {
    let message = plain;
    visit(doc, {
      Map: (_, map) => {
        const pair = map.items.find((p) => (p.key as Node | null)?.range?.[0] === offset);
        if (!pair || !isScalar(pair.key)) return undefined;
        const name = String(pair.key.value);
        const first = map.items.find((p) => p !== pair && isScalar(p.key) && String(p.key.value) === name);
        const firstLine = first ? lines.linePos((first.key as Node).range![0]).line : undefined;
        message = `duplicate key ${JSON.stringify(name)}${firstLine ? ` (first on line ${firstLine})` : ''}: a key may appear only once in a mapping`;
        return visit.BREAK;
      },
    });
    return { offset, message };
  }
  if (e.code === 'MULTILINE_IMPLICIT_KEY' || e.code === 'BLOCK_AS_IMPLICIT_KEY') {
    // `key: value` followed by a more-indented `other: x`: the line at fault is the second one.
    const multi = doc.errors.find((x) => x.code === 'MULTILINE_IMPLICIT_KEY' && x.pos[0] === offset) ?? e;
    const { line } = lines.linePos(multi.pos[1]);
    if (line > lines.linePos(offset).line) {
      const start = lines.lineStarts[line - 1];
      let col = start;
      while (text[col] === ' ') col++;
      return { offset: col, message: 'this line is indented more than the keys above it, or the value above runs on into it: check the indentation' };
    }
  }
  // Where the stack ran out depends on the caller's stack, not on the text: point at the document.
  if (/Maximum call stack/.test(plain)) return { offset: doc.contents?.range?.[0] ?? doc.range?.[0] ?? offset, message: NESTS_TOO_DEEPLY };
  return { offset, message: plain };
}

/**
 * Offset of the value at `path`, or of the deepest existing parent. For a map entry the key's
 * position is used, so a message about `spec.risk_score` points at the `risk_score:` line.
 */
function offsetOf(doc: Document.Parsed, path: DocPath): number {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  let node: Node | null | undefined = doc.contents as Node;
  let best = node?.range?.[0] ?? 0;
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(step));
      if (!pair) return best;
      best = (pair.key as Node).range?.[0] ?? best;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step] as Node | undefined;
      if (!item) return best;
      best = item.range?.[0] ?? best;
      node = item;
    } else {
      return best;
    }
  }
  return best;
}

/** The same answer as offsetOf, from the fast reader's position tables of a document starting at `start`. */
function offsetIn({ value, offsets }: ReturnType<FastDocument['positions']>, start: number, path: DocPath): number {
  let node: unknown = value;
  let best = start;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return best;
    const table = offsets.get(node);
    if (!table) return best;
    let at: number | undefined;
    if (Array.isArray(node)) {
      if (typeof step !== 'number') return best;
      at = (table as number[])[step];
    } else {
      at = (table as Record<string, number>)[String(step)];
    }
    if (at === undefined) return best;
    best = at;
    node = (node as Record<string | number, unknown>)[step];
  }
  return best;
}
