/**
 * A fast reader for the plain block YAML that manifests are written in: block mappings and
 * sequences, one-line plain and quoted scalars, one-line flow collections, literal and folded block
 * scalars, comments and `---` separators. The general YAML parser reads about 2 MB/s, which makes a
 * rule repository of 10,000 rules take many seconds; this reader covers the common shape at a
 * fraction of that cost.
 *
 * It is deliberately conservative: on anything outside that subset (anchors, aliases, tags,
 * multi-line plain or quoted scalars, complex keys, tabs, CRLF, duplicate keys, non-mapping
 * documents, any syntax error...) it gives up on the whole file and the caller uses the full
 * parser, which also produces the error messages. What it accepts, it must read exactly as the full
 * parser does (YAML 1.2 core schema), values and positions alike; test/unit/load.test.ts checks that
 * differentially.
 */

/** Offsets of a mapping's keys, or of a sequence's items, in the source text. */
export type Offsets = Record<string, number> | number[];

export interface FastDocument {
  /** 0-based index of the document among the file's documents (empty ones included). */
  index: number;
  value: Record<string, unknown>;
  /** Offset of the root mapping (its first key). */
  start: number;
  /** Position tables of every mapping and sequence of `value`. */
  offsets: Map<object, Offsets>;
}

export interface FastParse {
  documents: FastDocument[];
  /** Offsets where lines start (for a LineCounter). */
  lineStarts: number[];
}

/** Thrown to abandon the fast path; never escapes this module. */
class Unsupported extends Error {}
const unsupported = new Unsupported();

const SPACE = 32;
const HASH = 35;
const COLON = 58;
const DASH = 45;

const enum LineType {
  Blank,
  Comment,
  Content,
  DocStart,
}

/** Characters a plain scalar cannot start with (YAML c-indicator), `-?:` handled apart. */
const INDICATORS = new Set([',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`', '\t']);

const ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\',
};

/** The YAML 1.2 core schema resolution of a plain scalar (as the full parser does it). */
export function resolvePlain(s: string): unknown {
  const c = s[0];
  const maybeSpecial = (c >= '0' && c <= '9') || c === '-' || c === '+' || c === '.' || c === '~' || c === 'n' || c === 'N' || c === 't' || c === 'T' || c === 'f' || c === 'F';
  if (!maybeSpecial) return s;
  if (/^(?:~|[Nn]ull|NULL)$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s)) return c === 't' || c === 'T';
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}

class Reader {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Leading spaces of each line; -1 for a `---` line so that it closes every open block. */
  private readonly indents: number[] = [];
  private readonly types: LineType[] = [];
  /** Next line to look at, after a value has been read. */
  private line = 0;
  private offsets = new Map<object, Offsets>();

  constructor(private readonly text: string) {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      let i = start;
      while (i < end && text.charCodeAt(i) === SPACE) i++;
      let type: LineType;
      if (i === end) type = LineType.Blank;
      else if (text.charCodeAt(i) === HASH) type = LineType.Comment;
      else if (i === start && text.startsWith('---', start) && (end === start + 3 || text.charCodeAt(start + 3) === SPACE)) type = LineType.DocStart;
      else {
        // Directives and document-end markers change how documents are read: leave them to the full parser.
        if (i === start && (text[i] === '%' || text.startsWith('...', start))) throw unsupported;
        type = LineType.Content;
      }
      this.starts.push(start);
      this.ends.push(end);
      this.indents.push(type === LineType.DocStart ? -1 : i - start);
      this.types.push(type);
      if (end === text.length) break;
      start = end + 1;
    }
  }

  get lineStarts(): number[] {
    return this.starts;
  }

  documents(): FastDocument[] {
    const docs: FastDocument[] = [];
    let index = 0;
    let line = this.skipBlank(0);
    const total = this.starts.length;
    let first = true;
    while (line < total) {
      if (this.types[line] === LineType.DocStart) {
        const rest = this.skipSpaces(this.starts[line] + 3, this.ends[line]);
        if (rest < this.ends[line] && this.text.charCodeAt(rest) !== HASH) throw unsupported; // `--- value`
        if (!first) index++;
        line = this.skipBlank(line + 1);
      } else if (!first) {
        throw unsupported;
      }
      first = false;
      if (line >= total || this.types[line] === LineType.DocStart) continue; // an empty document
      this.offsets = new Map();
      const indent = this.indents[line];
      const col = this.starts[line] + indent;
      if (!this.isMapEntry(line, col)) throw unsupported; // not a mapping: the full parser says so
      const value = this.blockMap(line, col, indent);
      line = this.skipBlank(this.line);
      if (line < total && this.types[line] !== LineType.DocStart) throw unsupported;
      docs.push({ index, value, start: col, offsets: this.offsets });
    }
    return docs;
  }

  /** First line at or after `line` that is neither blank nor a comment. */
  private skipBlank(line: number): number {
    const total = this.types.length;
    while (line < total && (this.types[line] === LineType.Blank || this.types[line] === LineType.Comment)) line++;
    return line;
  }

  private skipSpaces(pos: number, end: number): number {
    while (pos < end && this.text.charCodeAt(pos) === SPACE) pos++;
    return pos;
  }

  /** Indent of a line for block structure purposes: -1 past the end (closes every block). */
  private indentOf(line: number): number {
    return line < this.indents.length ? this.indents[line] : -1;
  }

  private isSeqItem(line: number): boolean {
    const pos = this.starts[line] + this.indents[line];
    const next = pos + 1;
    return this.text.charCodeAt(pos) === DASH && (next === this.ends[line] || this.text.charCodeAt(next) === SPACE);
  }

  /** Whether the node at `pos` is `key: ...` (a plain or quoted key followed by `:`). */
  private isMapEntry(line: number, pos: number): boolean {
    const text = this.text;
    const end = this.ends[line];
    const c = text[pos];
    if (c === '"' || c === "'") {
      const close = this.quotedEnd(pos, end);
      if (close < 0) return false;
      const p = this.skipSpaces(close, end);
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

  /** Offset just after the closing quote of the quoted scalar at `pos`, or -1 if it does not close on its line. */
  private quotedEnd(pos: number, end: number): number {
    const text = this.text;
    const q = text[pos];
    for (let i = pos + 1; i < end; i++) {
      const ch = text[i];
      if (q === '"' && ch === '\\') i++;
      else if (ch === q) {
        if (q === "'" && text[i + 1] === "'") i++;
        else return i + 1;
      }
    }
    return -1;
  }

  private quoted(pos: number, end: number): { value: string; end: number } {
    const text = this.text;
    const close = this.quotedEnd(pos, end);
    if (close < 0) throw unsupported; // multi-line quoted scalars fold lines: full parser
    const body = text.slice(pos + 1, close - 1);
    if (text[pos] === "'") return { value: body.includes("''") ? body.replace(/''/g, "'") : body, end: close };
    if (!body.includes('\\')) return { value: body, end: close };
    let out = '';
    for (let i = 0; i < body.length; i++) {
      const ch = body[i];
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const e = body[++i];
      if (e in ESCAPES) out += ESCAPES[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const length = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = body.substr(i + 1, length);
        if (hex.length !== length || !/^[0-9a-fA-F]+$/.test(hex)) throw unsupported;
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) throw unsupported;
        out += String.fromCodePoint(code);
        i += length;
      } else throw unsupported;
    }
    return { value: out, end: close };
  }

  /** A key (plain or quoted) at `pos`; returns the key and the offset after its `:`. */
  private key(line: number, pos: number): { key: string; after: number } {
    const text = this.text;
    const end = this.ends[line];
    let key: string;
    let p: number;
    const c = text[pos];
    if (c === '"' || c === "'") {
      const q = this.quoted(pos, end);
      key = q.value;
      p = this.skipSpaces(q.end, end);
    } else {
      if (INDICATORS.has(c) || c === '-' || c === '?' || c === ':') throw unsupported;
      p = pos;
      while (p < end && !(text.charCodeAt(p) === COLON && (p + 1 === end || text.charCodeAt(p + 1) === SPACE))) p++;
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
    const keys: Record<string, number> = Object.create(null);
    this.offsets.set(map, keys);
    for (;;) {
      const { key, after } = this.key(line, pos);
      if (key in keys) throw unsupported; // duplicate key: the full parser reports it
      keys[key] = pos;
      map[key] = this.value(line, after, indent, true);
      line = this.skipBlank(this.line);
      const next = this.indentOf(line);
      if (next < indent) return map;
      if (next > indent) throw unsupported;
      pos = this.starts[line] + indent;
    }
  }

  /** A block sequence whose `-` items sit at column `indent`, from `line`. */
  private blockSeq(line: number, indent: number): unknown[] {
    const seq: unknown[] = [];
    const at: number[] = [];
    this.offsets.set(seq, at);
    for (;;) {
      const end = this.ends[line];
      const pos = this.skipSpaces(this.starts[line] + indent + 1, end);
      if (pos === end || this.text.charCodeAt(pos) === HASH) throw unsupported; // item on the next lines
      if (this.text.charCodeAt(pos) === DASH && (pos + 1 === end || this.text.charCodeAt(pos + 1) === SPACE)) throw unsupported; // `- - x`
      at.push(pos);
      if (this.isMapEntry(line, pos)) seq.push(this.blockMap(line, pos, pos - this.starts[line]));
      else seq.push(this.value(line, pos, indent, false));
      line = this.skipBlank(this.line);
      const next = this.indentOf(line);
      if (next < indent) return seq;
      if (next > indent) throw unsupported;
      if (!this.isSeqItem(line)) return seq; // the mapping this indentless sequence belongs to goes on
    }
  }

  /**
   * The value starting at `pos` on `line` (after a key's `:` or a `-`), where the enclosing block
   * sits at column `indent`. Sets `this.line` to the first line after the value.
   */
  private value(line: number, pos: number, indent: number, inMap: boolean): unknown {
    const text = this.text;
    const end = this.ends[line];
    pos = this.skipSpaces(pos, end);
    this.line = line + 1;
    if (pos === end || text.charCodeAt(pos) === HASH) {
      const next = this.skipBlank(line + 1);
      const nextIndent = this.indentOf(next);
      if (nextIndent > indent) {
        const col = this.starts[next] + nextIndent;
        if (this.isSeqItem(next)) return this.blockSeq(next, nextIndent);
        if (this.isMapEntry(next, col)) return this.blockMap(next, col, nextIndent);
        throw unsupported; // a scalar on the following lines
      }
      if (inMap && nextIndent === indent && this.isSeqItem(next)) return this.blockSeq(next, indent);
      return null;
    }
    const c = text[pos];
    let value: unknown;
    let after: number;
    if (c === '|' || c === '>') return this.blockScalar(line, pos, indent);
    if (c === '[' || c === '{') {
      const flow = this.flow(pos, end);
      value = flow.value;
      after = flow.end;
    } else if (c === '"' || c === "'") {
      const q = this.quoted(pos, end);
      value = q.value;
      after = q.end;
    } else {
      if (INDICATORS.has(c)) throw unsupported;
      if ((c === '-' || c === '?' || c === ':') && (pos + 1 === end || text.charCodeAt(pos + 1) === SPACE)) throw unsupported;
      let p = pos;
      let stop = end;
      for (; p < end; p++) {
        const ch = text.charCodeAt(p);
        if (ch === HASH && text.charCodeAt(p - 1) === SPACE) {
          stop = p;
          break;
        }
        if (ch === COLON && (p + 1 === end || text.charCodeAt(p + 1) === SPACE)) throw unsupported; // `a: b: c`
      }
      let last = stop;
      while (last > pos && text.charCodeAt(last - 1) === SPACE) last--;
      value = resolvePlain(text.slice(pos, last));
      after = stop;
      // A more-indented line after a plain scalar continues it (multi-line plain scalar).
      if (this.indentOf(this.skipBlank(line + 1)) > indent) throw unsupported;
      return value;
    }
    const rest = this.skipSpaces(after, end);
    if (rest < end && !(text.charCodeAt(rest) === HASH && rest > after)) throw unsupported;
    return value;
  }

  /** A literal (`|`) or folded (`>`) block scalar whose header is at `pos`. */
  private blockScalar(line: number, pos: number, indent: number): string {
    const text = this.text;
    const end = this.ends[line];
    const folded = text[pos] === '>';
    let p = pos + 1;
    let strip = false;
    if (text[p] === '-') {
      strip = true;
      p++;
    } else if (text[p] === '+' || (text[p] >= '0' && text[p] <= '9')) {
      throw unsupported; // keep-chomping and explicit indentation: full parser
    }
    const rest = this.skipSpaces(p, end);
    if (rest < end && !(text.charCodeAt(rest) === HASH && rest > p)) throw unsupported;
    if (p < end && text.charCodeAt(p) !== SPACE) throw unsupported;

    const first = line + 1;
    if (first >= this.types.length || this.types[first] === LineType.Blank) throw unsupported; // leading empty lines
    const trim = this.indents[first];
    if (trim <= indent) throw unsupported; // an empty block scalar
    const lines: string[] = [];
    let blanks = 0;
    let l = first;
    for (; l < this.types.length; l++) {
      const type = this.types[l];
      const lineIndent = this.indents[l];
      if (type === LineType.Blank) {
        if (this.ends[l] - this.starts[l] > trim) throw unsupported; // whitespace-only lines longer than the indentation
        blanks++;
        continue;
      }
      if (lineIndent < trim) {
        if (lineIndent <= indent) break;
        throw unsupported; // less indented than the first line: an error
      }
      for (; blanks > 0; blanks--) lines.push('');
      const content = text.slice(this.starts[l] + trim, this.ends[l]);
      if (folded && (lineIndent > trim || content[0] === '\t')) throw unsupported; // more-indented folded lines
      lines.push(content);
    }
    this.line = l;
    let value: string;
    if (!folded) value = lines.join('\n');
    else {
      value = '';
      let sep = '';
      for (const content of lines) {
        if (content === '') {
          if (sep === '\n') value += '\n';
          else sep = '\n';
        } else {
          value += sep + content;
          sep = ' ';
        }
      }
    }
    return strip ? value : value + '\n';
  }

  /** A flow collection or scalar starting at `pos`, closed on the same line. */
  private flow(pos: number, end: number): { value: unknown; end: number } {
    const text = this.text;
    const c = text[pos];
    if (c === '[') {
      const seq: unknown[] = [];
      const at: number[] = [];
      this.offsets.set(seq, at);
      let p = this.skipSpaces(pos + 1, end);
      if (text[p] === ']') return { value: seq, end: p + 1 };
      for (;;) {
        at.push(p);
        const item = this.flow(p, end);
        seq.push(item.value);
        p = this.skipSpaces(item.end, end);
        if (text[p] === ']') return { value: seq, end: p + 1 };
        if (text[p] !== ',') throw unsupported; // `a: b` pairs, comments, line breaks...
        p = this.skipSpaces(p + 1, end);
        if (text[p] === ']' || text[p] === ',') throw unsupported;
      }
    }
    if (c === '{') {
      const map: Record<string, unknown> = {};
      const keys: Record<string, number> = Object.create(null);
      this.offsets.set(map, keys);
      let p = this.skipSpaces(pos + 1, end);
      if (text[p] === '}') return { value: map, end: p + 1 };
      for (;;) {
        const keyAt = p;
        const key = this.flow(p, end);
        if (typeof key.value !== 'string' || (text[keyAt] !== '"' && text[keyAt] !== "'" && typeof resolvePlain(key.value) !== 'string')) throw unsupported;
        const name = key.value;
        if (name in keys || name === '__proto__' || name === '<<') throw unsupported;
        p = key.end;
        if (text[p] !== ':' || text[p + 1] !== ' ') throw unsupported;
        p = this.skipSpaces(p + 1, end);
        if (text[p] === ',' || text[p] === '}') throw unsupported; // `{a: }`
        keys[name] = keyAt;
        const value = this.flow(p, end);
        map[name] = value.value;
        p = this.skipSpaces(value.end, end);
        if (text[p] === '}') return { value: map, end: p + 1 };
        if (text[p] !== ',') throw unsupported;
        p = this.skipSpaces(p + 1, end);
        if (text[p] === '}' || text[p] === ',') throw unsupported;
      }
    }
    if (c === '"' || c === "'") return this.quoted(pos, end);
    if (pos >= end || INDICATORS.has(c)) throw unsupported;
    if ((c === '-' || c === '?' || c === ':') && (pos + 1 >= end || text[pos + 1] === ' ' || text[pos + 1] === ',')) throw unsupported;
    let p = pos;
    for (; p < end; p++) {
      const ch = text[p];
      if (ch === ',' || ch === ']' || ch === '}') break;
      if (ch === '[' || ch === '{') throw unsupported;
      if (ch === ':' && (text[p + 1] === ' ' || text[p + 1] === ',' || text[p + 1] === ']' || text[p + 1] === '}' || p + 1 === end)) break;
      if (ch === '#' && text[p - 1] === ' ') throw unsupported;
    }
    let last = p;
    while (last > pos && text.charCodeAt(last - 1) === SPACE) last--;
    return { value: resolvePlain(text.slice(pos, last)), end: p };
  }
}

/**
 * Reads `text` with the fast reader, or returns undefined when the file uses anything outside its
 * subset (the caller then uses the full parser).
 */
export function parseFast(text: string): FastParse | undefined {
  if (text.includes('\r') || text.includes('\t') || text.charCodeAt(0) === 0xfeff) return undefined;
  try {
    const reader = new Reader(text);
    return { documents: reader.documents(), lineStarts: reader.lineStarts };
  } catch (err) {
    // Nesting deep enough to exhaust the stack is left to the full parser, which reports it.
    if (err === unsupported || err instanceof RangeError) return undefined;
    throw err;
  }
}
