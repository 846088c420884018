/**
 * Where a character of a YAML string value sits in the file. A query's error is at an offset in
 * the string's VALUE; the value differs from the source wherever YAML folds lines, strips
 * indentation, or decodes escapes, so the offset is mapped back through the scalar's own syntax.
 * Works from the raw text and the offset where the scalar starts (any YAML reader can give that):
 * plain (multi-line), single-quoted ('' and folding), double-quoted (escapes, escaped line breaks,
 * folding), literal `|` and folded `>` block scalars with chomping and indentation indicators.
 * Plain scalars inside flow collections (`[a, b]`) are not decoded (the caller falls back).
 */

import { decodeEscape } from './yaml-escapes.js';

export interface DecodedScalar {
  value: string;
  /** sources[i]: offset in the text of what produced value[i] (the character, its escape, or the line break it folds). */
  sources: number[];
}

const isBreak = (c: string | undefined) => c === '\n' || c === '\r';
const isWhite = (c: string | undefined) => c === ' ' || c === '\t';
const breakLength = (text: string, i: number) => (text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1);


class Builder {
  value = '';
  sources: number[] = [];
  push(chars: string, source: number): void {
    for (let k = 0; k < chars.length; k++) this.sources.push(source);
    this.value += chars;
  }
  trimTrailingWhite(): void {
    while (isWhite(this.value[this.value.length - 1])) {
      this.value = this.value.slice(0, -1);
      this.sources.pop();
    }
  }
  done(): DecodedScalar {
    return { value: this.value, sources: this.sources };
  }
}

function lineStartOf(text: string, i: number): number {
  while (i > 0 && !isBreak(text[i - 1])) i--;
  return i;
}

/** Column of the first node of the line at `lineStart`, past `- ` entry markers that come before `stop`. */
function nodeColumn(text: string, lineStart: number, stop: number): number {
  let p = lineStart;
  while (text[p] === ' ') p++;
  for (;;) {
    if (text[p] !== '-' || !(isWhite(text[p + 1]) || isBreak(text[p + 1]))) return p - lineStart;
    let q = p + 1;
    while (isWhite(text[q])) q++;
    if (q >= stop) return p - lineStart; // the scalar is this entry: its parent is the sequence
    p = q;
  }
}

/**
 * Indentation of the node that holds the scalar: its continuation lines must be indented more.
 * On the scalar's own line when something precedes it (`key: value`, `- value`), else on the
 * nearest line above that is neither blank nor a comment (`key:` followed by the value below).
 */
function parentIndent(text: string, start: number): number {
  const ls = lineStartOf(text, start);
  if (text.slice(ls, start).trim() !== '') return nodeColumn(text, ls, start);
  let end = ls - 1;
  while (end > 0) {
    const s = lineStartOf(text, end - (text[end - 1] === '\r' ? 1 : 0));
    const line = text.slice(s, end).trim();
    if (line !== '' && !line.startsWith('#')) return nodeColumn(text, s, end);
    end = s - 1;
  }
  return -1;
}

/**
 * After a line break at `b` inside a flow scalar: the empty lines that follow (their breaks) and
 * where the next line's text starts (leading white space skipped).
 */
function skipEmptyLines(text: string, b: number): { empties: number[]; next: number } {
  const empties: number[] = [];
  let j = b + breakLength(text, b);
  for (;;) {
    let k = j;
    while (isWhite(text[k])) k++;
    if (!isBreak(text[k])) return { empties, next: k };
    empties.push(k);
    j = k + breakLength(text, k);
  }
}

/** A folded line break of a flow scalar: a space, or one newline per empty line. */
function fold(out: Builder, text: string, b: number): number {
  const { empties, next } = skipEmptyLines(text, b);
  if (empties.length === 0) out.push(' ', b);
  else for (const e of empties) out.push('\n', e);
  return next;
}

/** Whether only white space remains before the line break (trailing white space is not content). */
function onlyWhiteToBreak(text: string, i: number): number | undefined {
  let k = i;
  while (isWhite(text[k])) k++;
  return isBreak(text[k]) ? k : undefined;
}

function doubleQuoted(text: string, start: number): DecodedScalar | undefined {
  const out = new Builder();
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') return out.done();
    if (c === '\\') {
      const n = text[i + 1];
      if (isBreak(n)) {
        // An escaped line break joins the lines. Empty lines after it fold as if the first of them
        // were the break (the yaml package's reading): one gives a space, each further one a newline.
        const { empties, next } = skipEmptyLines(text, i + 1);
        if (empties.length === 1) out.push(' ', empties[0]!);
        for (const e of empties.slice(1)) out.push('\n', e);
        i = next;
        continue;
      }
      const escape = decodeEscape(text, i);
      if (!escape) return undefined;
      out.push(escape.chars, i);
      i += escape.length;
      continue;
    }
    const folded = foldedFrom(out, text, i);
    if (folded !== undefined) {
      i = folded;
      continue;
    }
    out.push(c, i);
    i++;
  }
  return undefined;
}

/** At white space or a break inside a quoted scalar: where reading goes on once the line is folded, if a break follows. */
function foldedFrom(out: Builder, text: string, i: number): number | undefined {
  const c = text[i]!;
  if (!isWhite(c) && !isBreak(c)) return undefined;
  const b = isBreak(c) ? i : onlyWhiteToBreak(text, i);
  return b === undefined ? undefined : fold(out, text, b);
}

function singleQuoted(text: string, start: number): DecodedScalar | undefined {
  const out = new Builder();
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      if (text[i + 1] !== "'") return out.done();
      out.push("'", i);
      i += 2;
      continue;
    }
    const folded = foldedFrom(out, text, i);
    if (folded !== undefined) {
      i = folded;
      continue;
    }
    out.push(c, i);
    i++;
  }
  return undefined;
}

/**
 * One line of a plain scalar from `i`: up to a comment or the line break, trailing white space
 * dropped. Returns the line break's offset, and whether a comment ended the line (and the scalar).
 */
function plainLine(out: Builder, text: string, i: number): { brk: number; comment: boolean } {
  let comment = false;
  while (i < text.length && !isBreak(text[i])) {
    const c = text[i]!;
    if (c === '#' && isWhite(text[i - 1])) {
      comment = true;
      break;
    }
    if (c === ':' && (isWhite(text[i + 1]) || isBreak(text[i + 1]) || i + 1 === text.length)) break;
    out.push(c, i);
    i++;
  }
  out.trimTrailingWhite();
  while (i < text.length && !isBreak(text[i])) i++;
  return { brk: i, comment };
}

function plain(text: string, start: number): DecodedScalar | undefined {
  const out = new Builder();
  const indent = parentIndent(text, start);
  let line = plainLine(out, text, start);
  while (!line.comment && line.brk < text.length) {
    const { empties, next } = skipEmptyLines(text, line.brk);
    const ls = lineStartOf(text, next);
    let spaces = 0;
    while (text[ls + spaces] === ' ') spaces++;
    if (next >= text.length || spaces <= indent || text[next] === '#') break;
    if (empties.length === 0) out.push(' ', line.brk);
    else for (const e of empties) out.push('\n', e);
    line = plainLine(out, text, next);
  }
  return out.done();
}

interface BlockLine {
  /** Offset of the text after the indentation, or undefined for an empty line. */
  content?: number;
  end: number;
  /** Offset of the line break ending the line, or undefined at the end of the input. */
  brk?: number;
}

function block(text: string, start: number): DecodedScalar | undefined {
  const folded = text[start] === '>';
  let i = start + 1;
  let chomp: 'clip' | 'strip' | 'keep' = 'clip';
  let explicit: number | undefined;
  while (i < text.length && !isWhite(text[i]) && !isBreak(text[i])) {
    const c = text[i]!;
    if (c === '-') chomp = 'strip';
    else if (c === '+') chomp = 'keep';
    else if (c >= '1' && c <= '9') explicit = Number(c);
    else return undefined;
    i++;
  }
  while (i < text.length && !isBreak(text[i])) i++; // white space and a comment may end the header line
  if (i >= text.length) return { value: '', sources: [] };
  let pos = i + breakLength(text, i);
  const parent = parentIndent(text, start);
  let indent: number | undefined = explicit === undefined ? undefined : Math.max(0, parent) + explicit;
  const lines: BlockLine[] = [];
  while (pos < text.length) {
    let spaces = 0;
    while (text[pos + spaces] === ' ') spaces++;
    let end = pos + spaces;
    while (end < text.length && !isBreak(text[end])) end++;
    const brk = end < text.length ? end : undefined;
    const blank = pos + spaces === end;
    if (indent === undefined && !blank) {
      if (spaces <= parent) break; // no content: the line belongs to the parent
      indent = spaces;
    }
    if (blank && (indent === undefined || spaces <= indent)) lines.push({ end, brk });
    else if (indent !== undefined && spaces >= indent) lines.push({ content: pos + indent, end, brk });
    else break;
    if (brk === undefined) break;
    pos = brk + breakLength(text, brk);
  }
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.content === undefined) last--;
  const out = new Builder();
  const isSpaced = (line: BlockLine) => line.content !== undefined && isWhite(text[line.content]);
  let previous: BlockLine | undefined;
  let pendingEmpty: BlockLine[] = [];
  for (let k = 0; k <= last; k++) {
    const line = lines[k]!;
    if (line.content === undefined) {
      pendingEmpty.push(line);
      continue;
    }
    if (previous) {
      // The break that ended the previous content line, then the empty lines in between.
      const foldsToSpace = folded && !isSpaced(previous) && !isSpaced(line);
      if (foldsToSpace && pendingEmpty.length === 0) out.push(' ', previous.brk!);
      else {
        if (!foldsToSpace) out.push('\n', previous.brk!);
        for (const e of pendingEmpty) out.push('\n', e.brk ?? e.end);
      }
    } else for (const e of pendingEmpty) out.push('\n', e.brk ?? e.end);
    pendingEmpty = [];
    for (let p = line.content; p < line.end; p++) out.push(text[p]!, p);
    previous = line;
  }
  if (chomp !== 'strip' && previous?.brk !== undefined) out.push('\n', previous.brk);
  if (chomp === 'keep') {
    const trailing = lines.slice(last + 1);
    for (const e of trailing) if (e.brk !== undefined) out.push('\n', e.brk);
  }
  return out.done();
}

/** Skips a tag (`!!str`) and an anchor (`&a`) before a scalar. */
function skipProperties(text: string, start: number): number {
  let i = start;
  while (text[i] === '!' || text[i] === '&') {
    while (i < text.length && !isWhite(text[i]) && !isBreak(text[i])) i++;
    while (isWhite(text[i])) i++;
  }
  return i;
}

/** Decodes the scalar that starts at `start` (its first character, or its tag or anchor). */
export function decodeScalar(text: string, start: number): DecodedScalar | undefined {
  const at = skipProperties(text, start);
  const c = text[at];
  if (c === '"') return doubleQuoted(text, at);
  if (c === "'") return singleQuoted(text, at);
  if (c === '|' || c === '>') return block(text, at);
  if (c === undefined || isBreak(c)) return undefined;
  return plain(text, at);
}

/**
 * The source offset of character `offset` of the scalar's value (its end, for an offset at or past
 * the end), provided the scalar decodes to `expected`: anything else (a value changed by
 * interpolation, a shape this module does not decode) gives undefined, and the caller points at
 * the key instead.
 */
export function sourceOffsetInScalar(text: string, start: number, offset: number, expected: string): number | undefined {
  const decoded = decodeScalar(text, start);
  if (!decoded || decoded.value !== expected) return undefined;
  if (offset < decoded.sources.length) return decoded.sources[Math.max(0, offset)];
  if (decoded.sources.length === 0) return skipProperties(text, start);
  return decoded.sources[decoded.sources.length - 1]! + 1;
}

/**
 * Where the value of a `key: value` entry starts, from the offset of its key (plain or quoted) when
 * the value is on the key's line; undefined when it is not.
 */
export function valueStartAfterKey(text: string, key: number): number | undefined {
  let i = key;
  const quote = text[i];
  if (quote === '"' || quote === "'") {
    i++;
    while (i < text.length && !isBreak(text[i])) {
      if (quote === '"' && text[i] === '\\') i += 2;
      else if (quote === "'" && text[i] === "'" && text[i + 1] === "'") i += 2;
      else if (text[i] === quote) break;
      else i++;
    }
    i++;
    while (isWhite(text[i])) i++;
    if (text[i] !== ':') return undefined;
  } else {
    while (i < text.length && !isBreak(text[i]) && !(text[i] === ':' && (isWhite(text[i + 1]) || isBreak(text[i + 1]) || i + 1 === text.length))) i++;
    if (text[i] !== ':') return undefined;
  }
  i++;
  while (isWhite(text[i])) i++;
  return i < text.length && !isBreak(text[i]) && text[i] !== '#' ? i : undefined;
}
