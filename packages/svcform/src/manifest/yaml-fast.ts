/**
 * A fast reader for the block YAML that manifests are written in: block mappings and sequences,
 * plain and quoted scalars (multi-line ones folded), one-line flow collections, literal and folded
 * block scalars with any chomping and indentation indicator, comments, `---` separators, CRLF line
 * ends. The general YAML parser reads about 2 MB/s, which makes a rule repository of thousands of
 * rules take seconds; this reader covers what real manifests contain at a fraction of that cost.
 *
 * It is deliberately conservative: a document that uses anything outside that subset (anchors,
 * aliases, tags, complex keys, multi-line flow collections, tabs outside quoted and block scalars,
 * duplicate keys, a non-mapping root, any syntax error...) is left to the full parser, document by
 * document, with its place in the file; directives and `...` markers leave the whole file to it.
 * What it reads, it must read exactly as the full parser does (YAML 1.2 core schema), values and
 * positions alike; test/unit/load.test.ts and yaml-differential.test.ts check that.
 */
import { doubleQuotedValue, resolvePlain, unfoldLines, unsupported } from './yaml-fast-scalars.js';
import { flow, hasOwn, INDICATORS, quoted, quotedEnd, skipSpaces, type FlowContext, type Offsets } from './yaml-fast-flow.js';
import { blockScalar, LineType, Lines } from './yaml-fast-lines.js';

export { resolvePlain } from './yaml-fast-scalars.js';

export type { Offsets } from './yaml-fast-flow.js';

export interface FastDocument {
  /** 0-based index of the document among the file's documents (empty ones included). */
  index: number;
  value: Record<string, unknown>;
  /** Offset of the root mapping (its first key). */
  start: number;
  /**
   * The document read again with the position of every key and item (only messages need them, so
   * the first reading records none): the value, and the tables of its mappings and sequences.
   */
  positions(): { value: Record<string, unknown>; offsets: Map<object, Offsets> };
}

/** A document left to the full parser: its index and its text, `---` line included. */
export interface LeftDocument {
  index: number;
  left: true;
  from: number;
  to: number;
}

export interface FastParse {
  documents: Array<FastDocument | LeftDocument>;
  /** Offsets where lines start. */
  lineStarts: Int32Array;
  /**
   * The text all offsets refer to: the input with CRLF line ends made LF. Lines and columns are
   * the same in both, so positions computed from it hold for the file as written.
   */
  text: string;
}

const SPACE = 32;
const HASH = 35;
const COLON = 58;
const DASH = 45;

class Reader {
  /** The text's lines: where each starts and ends, its indentation and what it holds. */
  private readonly lines: Lines;
  /** Offsets of every tab: allowed only inside quoted and block scalars (see tabsAllowed). */
  private readonly tabs: number[];
  /** Next line to look at, after a value has been read. */
  private line = 0;
  /** The current document's position tables and tab ranges. */
  private ctx: FlowContext;

  constructor(
    private readonly text: string,
    /** Whether to record positions (FastDocument.positions). */
    private readonly record = false,
    /** The line and tab tables of another reader of the same text (a recorder's are its reader's). */
    tables?: { lines: Lines; tabs: number[] },
  ) {
    this.ctx = { text, offsets: undefined, tabRanges: [] };
    if (tables) {
      this.lines = tables.lines;
      this.tabs = tables.tabs;
      return;
    }
    this.tabs = [];
    for (let t = text.indexOf('\t'); t >= 0; t = text.indexOf('\t', t + 1)) this.tabs.push(t);
    this.lines = new Lines(text);
  }

  get lineStarts(): Int32Array {
    return this.lines.starts;
  }

  documents(): Array<FastDocument | LeftDocument> {
    const docs: Array<FastDocument | LeftDocument> = [];
    this.eachDocument((index, line, from, to) => {
      try {
        const { value, start } = this.document(line, from, to);
        docs.push({ index, value, start, positions: this.positionsOf(line, from, to) });
      } catch (err) {
        // Nesting deep enough to exhaust the stack is left to the full parser too, which reports it.
        if (err !== unsupported && !(err instanceof RangeError)) throw err;
        docs.push({ index, left: true, from, to });
      }
      return true;
    });
    return docs;
  }

  /**
   * Calls `each` with every non-empty document's index, first line and span [from, to), until it
   * returns false. Throws `unsupported` for a `---` line with a value after it.
   */
  private eachDocument(each: (index: number, line: number, from: number, to: number) => boolean): void {
    const total = this.lines.starts.length;
    let index = 0;
    let line = this.lines.skipBlank(0);
    let first = true;
    while (line < total) {
      let from = 0;
      if (this.lines.types[line] === LineType.DocStart) {
        const rest = skipSpaces(this.text, this.lines.starts[line] + 3, this.lines.ends[line]);
        if (rest < this.lines.ends[line] && this.text.charCodeAt(rest) !== HASH) throw unsupported; // `--- value`
        if (!first) index++;
        from = this.lines.starts[line];
        line = this.lines.skipBlank(line + 1);
      }
      first = false;
      if (line >= total || this.lines.types[line] === LineType.DocStart) continue; // an empty document
      let next = line + 1;
      while (next < total && this.lines.types[next] !== LineType.DocStart) next++;
      if (!each(index, line, from, next < total ? this.lines.starts[next] : this.text.length)) return;
      line = next;
    }
  }

  /** Document `index` alone, read with positions (a reader made with `record`), or undefined when there is none. */
  positionsOfDocument(index: number): { value: Record<string, unknown>; start: number; offsets: Map<object, Offsets> } | undefined {
    let read: ReturnType<Reader['positionsOfDocument']>;
    this.eachDocument((i, line, from, to) => {
      if (i !== index) return true;
      const { value, start, offsets } = this.document(line, from, to);
      read = { value, start, offsets: offsets! };
      return false;
    });
    return read;
  }

  /** A lazy, cached second reading of a document, with positions, by a reader of its own (sharing this one's tables). */
  private positionsOf(line: number, from: number, to: number): FastDocument['positions'] {
    let read: ReturnType<FastDocument['positions']> | undefined;
    return () => {
      if (!read) {
        this.recorder ??= new Reader(this.text, true, { lines: this.lines, tabs: this.tabs });
        const { value, offsets } = this.recorder.document(line, from, to);
        read = { value, offsets: offsets! };
      }
      return read;
    };
  }

  private recorder?: Reader;

  /** The document whose root mapping starts on `line`, its text spanning [from, to). */
  private document(line: number, from: number, to: number): { value: Record<string, unknown>; start: number; offsets?: Map<object, Offsets> } {
    this.ctx = { text: this.text, offsets: this.record ? new Map() : undefined, tabRanges: [] };
    const indent = this.lines.indents[line];
    const col = this.lines.starts[line] + indent;
    if (!this.isMapEntry(line, col)) throw unsupported; // not a mapping: the full parser says so
    const value = this.blockMap(line, col, indent);
    const after = this.lines.skipBlank(this.line);
    if (after < this.lines.types.length && this.lines.types[after] !== LineType.DocStart) throw unsupported;
    if (!this.tabsAllowed(from, to)) throw unsupported;
    return { value, start: col, offsets: this.ctx.offsets };
  }

  /** Whether every tab in [from, to) lies inside a quoted or block scalar, where it is content. */
  private tabsAllowed(from: number, to: number): boolean {
    for (const t of this.tabs) {
      if (t < from || t >= to) continue;
      let inside = false;
      for (let r = 0; r < this.ctx.tabRanges.length && !inside; r += 2) inside = t >= this.ctx.tabRanges[r] && t < this.ctx.tabRanges[r + 1];
      if (!inside) return false;
    }
    return true;
  }

  /** Whether the node at `pos` is `key: ...` (a plain or quoted key followed by `:`). */
  private isMapEntry(line: number, pos: number): boolean {
    const text = this.text;
    const end = this.lines.ends[line];
    const c = text[pos];
    if (c === '"' || c === "'") {
      const close = quotedEnd(this.text, pos, end);
      if (close < 0) return false;
      const p = skipSpaces(this.text, close, end);
      return text.charCodeAt(p) === COLON && (p + 1 === end || text.charCodeAt(p + 1) === SPACE);
    }
    if (INDICATORS.has(c)) return false;
    for (let i = pos; i < end; i++) {
      const ch = text.charCodeAt(i);
      if (ch === COLON && (i + 1 === end || text.charCodeAt(i + 1) === SPACE)) return true;
      if (ch === HASH && text.charCodeAt(i - 1) === SPACE) return false;
    }
    return false;
  }

  /**
   * A quoted scalar that runs on over the following lines, each of them indented more than the
   * enclosing block (`indent`). Sets `this.line` to the line after its closing quote.
   */
  private multiLineQuoted(line: number, pos: number, indent: number): string {
    const text = this.text;
    const q = text[pos];
    let l = line;
    let i = pos + 1;
    let close = -1;
    while (close < 0) {
      if (i >= this.lines.ends[l]) {
        l++;
        if (l >= this.lines.types.length || this.lines.types[l] === LineType.DocStart) throw unsupported; // never closed
        if (this.lines.types[l] !== LineType.Blank && this.lines.indents[l] <= indent) throw unsupported; // not indented enough
        i = this.lines.starts[l];
        continue;
      }
      const ch = text[i];
      if (q === '"' && ch === '\\') i = i + 1 >= this.lines.ends[l] ? this.lines.ends[l] : i + 2;
      else if (ch === q && q === "'" && text[i + 1] === "'") i += 2;
      else if (ch === q) close = i + 1;
      else i++;
    }
    const rest = skipSpaces(this.text, close, this.lines.ends[l]);
    // Anything but a comment after it (`: ` makes it a multi-line key): the full parser.
    if (rest < this.lines.ends[l] && !(text.charCodeAt(rest) === HASH && rest > close)) throw unsupported;
    this.ctx.tabRanges.push(pos, close);
    this.line = l + 1;
    const body = text.slice(pos + 1, close - 1);
    return q === '"' ? doubleQuotedValue(body) : unfoldLines(body).replace(/''/g, "'");
  }

  /** A key (plain or quoted) at `pos`; returns the key and the offset after its `:`. */
  private key(line: number, pos: number): { key: string; after: number } {
    const text = this.text;
    const end = this.lines.ends[line];
    let key: string;
    let p: number;
    const c = text[pos];
    if (c === '"' || c === "'") {
      const q = quoted(this.ctx, pos, end);
      key = q.value;
      p = skipSpaces(this.text, q.end, end);
    } else {
      if (INDICATORS.has(c) || c === '-' || c === '?' || c === ':') throw unsupported;
      p = pos;
      for (; p < end; p++) {
        const ch = text.charCodeAt(p);
        if (ch === COLON && (p + 1 === end || text.charCodeAt(p + 1) === SPACE)) break;
        // ` #` starts a comment: the key ends before it without a `:` (the full parser's error).
        if (ch === HASH && text.charCodeAt(p - 1) === SPACE) throw unsupported;
      }
      key = text.slice(pos, p);
      // Keys that are not strings in the core schema, with trailing spaces, or that are special to JS objects.
      if (key.endsWith(' ') || typeof resolvePlain(key) !== 'string') throw unsupported;
    }
    if (text.charCodeAt(p) !== COLON || !(p + 1 === end || text.charCodeAt(p + 1) === SPACE)) throw unsupported;
    if (key === '__proto__' || key === '<<') throw unsupported;
    return { key, after: p + 1 };
  }

  /** A block mapping whose first key is at `pos` on `line`; its keys sit at column `indent`. */
  private blockMap(line: number, pos: number, indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    const keys: Record<string, number> | undefined = this.ctx.offsets && Object.create(null);
    if (keys) this.ctx.offsets!.set(map, keys);
    for (;;) {
      const { key, after } = this.key(line, pos);
      if (hasOwn(map, key)) throw unsupported; // duplicate key: the full parser reports it
      if (keys) keys[key] = pos;
      map[key] = this.value(line, after, indent, true);
      line = this.lines.skipBlank(this.line);
      const next = this.lines.indentOf(line);
      if (next < indent) return map;
      if (next > indent) throw unsupported;
      pos = this.lines.starts[line] + indent;
    }
  }

  /** A block sequence whose `-` items sit at column `indent`, from `line`. */
  private blockSeq(line: number, indent: number): unknown[] {
    const seq: unknown[] = [];
    const at: number[] | undefined = this.ctx.offsets && [];
    if (at) this.ctx.offsets!.set(seq, at);
    for (;;) {
      const end = this.lines.ends[line];
      const pos = skipSpaces(this.text, this.lines.starts[line] + indent + 1, end);
      if (pos === end || this.text.charCodeAt(pos) === HASH) throw unsupported; // item on the next lines
      if (this.text.charCodeAt(pos) === DASH && (pos + 1 === end || this.text.charCodeAt(pos + 1) === SPACE)) throw unsupported; // `- - x`
      at?.push(pos);
      if (this.isMapEntry(line, pos)) seq.push(this.blockMap(line, pos, pos - this.lines.starts[line]));
      else seq.push(this.value(line, pos, indent, false));
      line = this.lines.skipBlank(this.line);
      const next = this.lines.indentOf(line);
      if (next < indent) return seq;
      if (next > indent) throw unsupported;
      if (!this.lines.isSeqItem(line)) return seq; // the mapping this indentless sequence belongs to goes on
    }
  }

  /**
   * The value starting at `pos` on `line` (after a key's `:` or a `-`), where the enclosing block
   * sits at column `indent`. Sets `this.line` to the first line after the value.
   */
  private value(line: number, pos: number, indent: number, inMap: boolean): unknown {
    const text = this.text;
    const end = this.lines.ends[line];
    pos = skipSpaces(this.text, pos, end);
    this.line = line + 1;
    if (pos === end || text.charCodeAt(pos) === HASH) {
      const next = this.lines.skipBlank(line + 1);
      const nextIndent = this.lines.indentOf(next);
      if (nextIndent > indent) {
        const col = this.lines.starts[next] + nextIndent;
        if (this.lines.isSeqItem(next)) return this.blockSeq(next, nextIndent);
        if (this.isMapEntry(next, col)) return this.blockMap(next, col, nextIndent);
        // A plain or quoted scalar on the following lines, with nothing but blank lines before it.
        for (let l = line + 1; l < next; l++) if (this.lines.types[l] !== LineType.Blank) throw unsupported;
        if (pos < end || !inMap || '|>[{'.includes(text[col])) throw unsupported;
        return this.value(next, col, indent, inMap);
      }
      if (inMap && nextIndent === indent && this.lines.isSeqItem(next)) return this.blockSeq(next, indent);
      return null;
    }
    const c = text[pos];
    let value: unknown;
    let after: number;
    if (c === '|' || c === '>') {
      const read = blockScalar(this.lines, this.text, line, pos, indent, this.ctx.tabRanges);
      this.line = read.next;
      return read.value;
    }
    if (c === '[' || c === '{') {
      const read = flow(this.ctx, pos, end);
      value = read.value;
      after = read.end;
    } else if (c === '"' || c === "'") {
      if (quotedEnd(this.text, pos, end) < 0) return this.multiLineQuoted(line, pos, indent);
      const q = quoted(this.ctx, pos, end);
      value = q.value;
      after = q.end;
    } else {
      return this.plain(line, pos, indent);
    }
    const rest = skipSpaces(this.text, after, end);
    if (rest < end && !(text.charCodeAt(rest) === HASH && rest > after)) throw unsupported;
    return value;
  }

  /**
   * A plain scalar from `pos`, folded over the following lines that are indented more than the
   * enclosing block (`indent`) until a comment, a less indented line or the document's end.
   */
  private plain(line: number, pos: number, indent: number): unknown {
    const text = this.text;
    const c = text[pos];
    if (INDICATORS.has(c)) throw unsupported;
    if ((c === '-' || c === '?' || c === ':') && (pos + 1 === this.lines.ends[line] || text.charCodeAt(pos + 1) === SPACE)) throw unsupported;
    const first = this.plainLine(line, pos);
    if (first.comment) return resolvePlain(first.text);
    let folded = first.text;
    let blanks = 0;
    let last = line;
    for (let l = line + 1; l < this.lines.types.length; l++) {
      const type = this.lines.types[l];
      if (type === LineType.Blank) {
        blanks++;
        continue;
      }
      if (type !== LineType.Content || this.lines.indents[l] <= indent) break;
      // A continuation line may start with any character but white space (and `#`: a comment line).
      const start = this.lines.starts[l] + this.lines.indents[l];
      if (text[start] === '\t') throw unsupported;
      const next = this.plainLine(l, start);
      folded += (blanks ? '\n'.repeat(blanks) : ' ') + next.text;
      blanks = 0;
      last = l;
      if (next.comment) break;
    }
    this.line = last + 1;
    return resolvePlain(folded);
  }

  /** One line of a plain scalar from `pos`: its text without trailing spaces, and whether a comment ends it. */
  private plainLine(line: number, pos: number): { text: string; comment: boolean } {
    const text = this.text;
    const end = this.lines.ends[line];
    let stop = end;
    let comment = false;
    for (let p = pos; p < end; p++) {
      const ch = text.charCodeAt(p);
      if (ch === HASH && text.charCodeAt(p - 1) === SPACE) {
        stop = p;
        comment = true;
        break;
      }
      if (ch === COLON && (p + 1 === end || text.charCodeAt(p + 1) === SPACE)) throw unsupported; // `a: b: c`
    }
    let last = stop;
    while (last > pos && text.charCodeAt(last - 1) === SPACE) last--;
    return { text: text.slice(pos, last), comment };
  }

}

export function isLeft(doc: FastDocument | LeftDocument): doc is LeftDocument {
  return 'left' in doc;
}

/**
 * Reads `text` with the fast reader. Documents outside its subset come back as LeftDocument for
 * the full parser; undefined means the whole file is the full parser's (directives, `...`, a
 * byte order mark, a carriage return that does not end a line).
 */
export function parseFast(input: string): FastParse | undefined {
  const text = fastText(input);
  if (text === undefined) return undefined;
  try {
    const reader = new Reader(text);
    return { documents: reader.documents(), lineStarts: reader.lineStarts, text };
  } catch (err) {
    if (err === unsupported || err instanceof RangeError) return undefined;
    throw err;
  }
}

/** The text the fast reader reads for `input` (CRLF made LF), or undefined when the whole file is the full parser's. */
function fastText(input: string): string | undefined {
  if (input.charCodeAt(0) === 0xfeff) return undefined;
  if (!input.includes('\r')) return input;
  const lf = input.replace(/\r\n/g, '\n');
  return lf.includes('\r') ? undefined : lf;
}

/**
 * Document `index` of `input` read with positions, as its FastDocument.positions gives them, without
 * reading the other documents' values: the places in a document kept from an earlier reading of a
 * file the fast reader read whole (manifest-cache.ts). Undefined when the fast reader cannot read it.
 */
export function fastPositions(input: string, index: number): (ReturnType<FastDocument['positions']> & { start: number; lineStarts: Int32Array }) | undefined {
  const text = fastText(input);
  if (text === undefined) return undefined;
  try {
    const reader = new Reader(text, true);
    const read = reader.positionsOfDocument(index);
    return read && { ...read, lineStarts: reader.lineStarts };
  } catch (err) {
    if (err === unsupported || err instanceof RangeError) return undefined;
    throw err;
  }
}
