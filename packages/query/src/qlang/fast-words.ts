import { KEYWORDS, TIME_UNITS } from './tree.js';

/**
 * The words of qlang for the hand-written reader (fast.ts): the cursor it reads with, blanks and
 * comments, keywords, constants (numbers, time spans, strings, parameters, lists, option maps) and
 * names, each as qlang.peggy reads it.
 */

export type Node = Record<string, any>;

/** The text being read and where the reader is in it. */
export const cursor = { src: '', pos: 0 };

/** Thrown where the reader leaves the text to the grammar (a command it does not read, an error the grammar raises). */
export const ASK_THE_GRAMMAR = Symbol('ask the grammar');

export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const QUOTE = 34;
export const STAR = 42;
export const SLASH = 47;
const BACKQUOTE = 96;

export function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** FieldStart: `[a-zA-Z_@]`. */
function isFieldStart(c: number): boolean {
  return isLetter(c) || c === 95 || c === 64;
}

/** FieldChar: `[a-zA-Z0-9_@]`. */
export function isFieldChar(c: number): boolean {
  return isFieldStart(c) || isDigit(c);
}

/** `_`: white space and comments, none or more; an unclosed `/*` is no comment and stays. */
export function blanks(): void {
  for (;;) {
    const c = cursor.src.charCodeAt(cursor.pos);
    if (c === SPACE || c === LF || c === TAB || c === CR) {
      cursor.pos++;
    } else if (c === SLASH && cursor.src.charCodeAt(cursor.pos + 1) === SLASH) {
      const end = cursor.src.indexOf('\n', cursor.pos + 2);
      cursor.pos = end < 0 ? cursor.src.length : end;
    } else if (c === SLASH && cursor.src.charCodeAt(cursor.pos + 1) === STAR) {
      const end = cursor.src.indexOf('*/', cursor.pos + 2);
      if (end < 0) return;
      cursor.pos = end + 2;
    } else {
      return;
    }
  }
}

/** `__`: at least one blank or comment. */
export function separation(): boolean {
  const start = cursor.pos;
  blanks();
  return cursor.pos > start;
}

/** `"word"i !FieldChar` (word in lower case). */
export function keyword(word: string): boolean {
  const end = cursor.pos + word.length;
  if (end > cursor.src.length) return false;
  for (let i = 0; i < word.length; i++) {
    const c = cursor.src.charCodeAt(cursor.pos + i);
    if ((c >= 65 && c <= 90 ? c | 0x20 : c) !== word.charCodeAt(i)) return false;
  }
  if (isFieldChar(cursor.src.charCodeAt(end))) return false;
  cursor.pos = end;
  return true;
}

export function literal(ch: number): boolean {
  if (cursor.src.charCodeAt(cursor.pos) !== ch) return false;
  cursor.pos++;
  return true;
}

/** `$(FieldStart FieldChar*)` at `at`: where it ends, or `at` when no word starts there. */
export function wordEnd(at: number): number {
  if (!isFieldStart(cursor.src.charCodeAt(at))) return at;
  let end = at + 1;
  while (isFieldChar(cursor.src.charCodeAt(end))) end++;
  return end;
}

/** Keyword: a word of KEYWORDS at the cursor. */
export function atKeyword(): boolean {
  const end = wordEnd(cursor.pos);
  return end > cursor.pos && KEYWORDS.has(cursor.src.slice(cursor.pos, end).toLowerCase());
}

/** `(_ "," _ @item)*` after a head: the list, the cursor after its last item. */
export function commaList<T>(head: T, item: () => T | undefined): T[] {
  const list = [head];
  for (;;) {
    const save = cursor.pos;
    blanks();
    if (literal(44)) {
      blanks();
      const next = item();
      if (next !== undefined) {
        list.push(next);
        continue;
      }
    }
    cursor.pos = save;
    return list;
  }
}

/** `open _ head:Item tail:(_ "," _ @Item)* _ close`: the items, or undefined with the cursor back where it was. */
export function bracketed<T>(open: number, item: () => T | undefined, close: number): T[] | undefined {
  const start = cursor.pos;
  if (!literal(open)) return undefined;
  blanks();
  const head = item();
  if (head !== undefined) {
    const items = commaList(head, item);
    blanks();
    if (literal(close)) return items;
  }
  cursor.pos = start;
  return undefined;
}

// ---- constants -------------------------------------------------------------------------------

/** String: `"""..."""` or `"..."` with \n \r \t \" \\ escapes; anything else the grammar raises or reads otherwise. */
export function string(): Node | undefined {
  const start = cursor.pos;
  if (cursor.src.charCodeAt(cursor.pos) !== QUOTE) return undefined;
  if (cursor.src.startsWith('"""', cursor.pos)) {
    const end = cursor.src.indexOf('"""', cursor.pos + 3);
    // Unclosed, the grammar reads `""` and goes on: not worth following.
    if (end < 0) throw ASK_THE_GRAMMAR;
    cursor.pos = end + 3;
    return { type: 'literal', value: cursor.src.slice(start + 3, end), offset: start, text: cursor.src.slice(start, cursor.pos) };
  }
  cursor.pos++;
  let value = '';
  let run = cursor.pos;
  for (;;) {
    const c = cursor.src.charCodeAt(cursor.pos);
    if (c === QUOTE) {
      value += cursor.src.slice(run, cursor.pos);
      cursor.pos++;
      return { type: 'literal', value, offset: start, text: cursor.src.slice(start, cursor.pos) };
    }
    if (c === 92) {
      const e = cursor.src.charCodeAt(cursor.pos + 1);
      const escaped = e === 110 ? '\n' : e === 114 ? '\r' : e === 116 ? '\t' : e === QUOTE ? '"' : e === 92 ? '\\' : undefined;
      // Any other escape ends the string where the grammar raises its error.
      if (escaped === undefined) throw ASK_THE_GRAMMAR;
      value += cursor.src.slice(run, cursor.pos) + escaped;
      cursor.pos += 2;
      run = cursor.pos;
      continue;
    }
    // The end of the text or a line break: the grammar's "unterminated string".
    if (Number.isNaN(c) || c === LF || c === CR) throw ASK_THE_GRAMMAR;
    cursor.pos++;
  }
}

export function digitsEnd(at: number): number {
  while (isDigit(cursor.src.charCodeAt(at))) at++;
  return at;
}

/** `([eE] [+-]? [0-9]+)?` at `at`: where it ends. */
function exponentEnd(at: number): number {
  const c = cursor.src.charCodeAt(at);
  if (c !== 101 && c !== 69) return at;
  let p = at + 1;
  const sign = cursor.src.charCodeAt(p);
  if (sign === 43 || sign === 45) p++;
  const end = digitsEnd(p);
  return end > p ? end : at;
}

function number(): Node | undefined {
  const start = cursor.pos;
  let end: number;
  if (isDigit(cursor.src.charCodeAt(cursor.pos))) {
    end = digitsEnd(cursor.pos);
    if (cursor.src.charCodeAt(end) === 46) end = digitsEnd(end + 1);
    end = exponentEnd(end);
  } else if (cursor.src.charCodeAt(cursor.pos) === 46 && isDigit(cursor.src.charCodeAt(cursor.pos + 1))) {
    end = exponentEnd(digitsEnd(cursor.pos + 1));
  } else {
    return undefined;
  }
  if (isFieldChar(cursor.src.charCodeAt(end))) return undefined;
  cursor.pos = end;
  const digits = cursor.src.slice(start, end);
  return { type: 'literal', value: Number(digits), offset: start, text: digits };
}

/** TimeSpan: `amount:$[0-9]+ _ unit:$(TimeUnit !FieldChar)`. */
function timeSpan(): Node | undefined {
  const start = cursor.pos;
  const amountEnd = digitsEnd(cursor.pos);
  if (amountEnd === cursor.pos) return undefined;
  cursor.pos = amountEnd;
  blanks();
  const unitStart = cursor.pos;
  let unitEnd = cursor.pos;
  while (isLetter(cursor.src.charCodeAt(unitEnd))) unitEnd++;
  const unit = cursor.src.slice(unitStart, unitEnd).toLowerCase();
  if (unitEnd === unitStart || !TIME_UNITS.has(unit) || isFieldChar(cursor.src.charCodeAt(unitEnd))) {
    cursor.pos = start;
    return undefined;
  }
  cursor.pos = unitEnd;
  return { type: 'span', amount: Number(cursor.src.slice(start, amountEnd)), unit, offset: start, text: cursor.src.slice(start, cursor.pos) };
}

function keywordConstant(): Node | undefined {
  const start = cursor.pos;
  const value = keyword('null') ? null : keyword('true') ? true : keyword('false') ? false : undefined;
  if (value === undefined) return undefined;
  return { type: 'literal', value, offset: start, text: cursor.src.slice(start, cursor.pos) };
}

export function parameter(): Node | undefined {
  const start = cursor.pos;
  if (!literal(63)) return undefined;
  while (isFieldChar(cursor.src.charCodeAt(cursor.pos)) && cursor.src.charCodeAt(cursor.pos) !== 64) cursor.pos++;
  return { type: 'param', name: cursor.src.slice(start + 1, cursor.pos), offset: start, text: cursor.src.slice(start, cursor.pos) };
}

export function constant(): Node | undefined {
  const found = keywordConstant() ?? timeSpan() ?? number() ?? string() ?? parameter();
  if (found) return found;
  const start = cursor.pos;
  const items = bracketed(91, constant, 93);
  return items && { type: 'literal', value: items.map((c) => c.value), offset: start, text: cursor.src.slice(start, cursor.pos) };
}

export function mapLiteral(): Node | undefined {
  const start = cursor.pos;
  const entries = bracketed(123, mapEntry, 125);
  return entries && { type: 'map', entries, offset: start, text: cursor.src.slice(start, cursor.pos) };
}

function mapEntry(): Node | undefined {
  const start = cursor.pos;
  const key = string();
  if (key) {
    blanks();
    if (literal(58)) {
      blanks();
      const value = mapLiteral() ?? constant();
      if (value) return { key: key.value, value };
    }
  }
  cursor.pos = start;
  return undefined;
}

// ---- names -----------------------------------------------------------------------------------

/** A backquoted name: its text with each doubled backquote read as one, or undefined when unclosed. */
function backquoted(): string | undefined {
  if (cursor.src.charCodeAt(cursor.pos) !== BACKQUOTE) return undefined;
  let name = '';
  let p = cursor.pos + 1;
  for (;;) {
    const end = cursor.src.indexOf('`', p);
    if (end < 0) return undefined;
    name += cursor.src.slice(p, end);
    if (cursor.src.charCodeAt(end + 1) !== BACKQUOTE) {
      cursor.pos = end + 1;
      return name;
    }
    name += '`';
    p = end + 2;
  }
}

/** NameSegment: a word, or a backquoted name. */
function nameSegment(): string | undefined {
  const end = wordEnd(cursor.pos);
  if (end > cursor.pos) {
    const word = cursor.src.slice(cursor.pos, end);
    cursor.pos = end;
    return word;
  }
  return backquoted();
}

/** `head:Part tail:("." @Part)*`, joined by dots; undefined when no part starts here. */
function dotted(part: () => string | undefined): string | undefined {
  const head = part();
  if (head === undefined) return undefined;
  let joined = head;
  for (;;) {
    const save = cursor.pos;
    const next = literal(46) ? part() : undefined;
    if (next === undefined) {
      cursor.pos = save;
      return joined;
    }
    joined += `.${next}`;
  }
}

/** QualifiedName: not a keyword, segments joined by dots. */
export function qualifiedName(): Node | undefined {
  if (atKeyword()) return undefined;
  const start = cursor.pos;
  const name = dotted(nameSegment);
  return name === undefined ? undefined : { type: 'field', name, offset: start, text: cursor.src.slice(start, cursor.pos) };
}

/** NamePatternPart: runs of FieldChar or `*` and backquoted names, one or more. */
function namePatternPart(): string | undefined {
  let pieces = '';
  let any = false;
  for (;;) {
    const c = cursor.src.charCodeAt(cursor.pos);
    if (isFieldChar(c) || c === STAR) {
      const start = cursor.pos;
      while (isFieldChar(cursor.src.charCodeAt(cursor.pos)) || cursor.src.charCodeAt(cursor.pos) === STAR) cursor.pos++;
      pieces += cursor.src.slice(start, cursor.pos);
    } else {
      const q = backquoted();
      if (q === undefined) return any ? pieces : undefined;
      pieces += q;
    }
    any = true;
  }
}

/** NamePattern: parts joined by dots. */
export function namePattern(): Node | undefined {
  const start = cursor.pos;
  const name = dotted(namePatternPart);
  return name === undefined ? undefined : { name, offset: start };
}
