import { KEYWORDS, unicodePart } from './tree.js';

/**
 * The words of eql for the hand-written reader (fast.ts): characters, blanks and comments,
 * keywords, names, field segments and constants (strings, numbers), as eql.peggy's rules of the
 * same names read them; and the grammar's options and repetitions (`(_ @Rule)?`, `(_ "," _ @Rule)*`)
 * that the queries and the expressions share.
 */

/** Nodes are built as the grammar's actions build them; the tree's types are in ast.ts. */
export type Node = Record<string, any>;

/** The grammar's own error() (a string left open): the whole parse fails, whatever else might have matched. */
const GRAMMAR_ERROR = new Error('eql grammar error');

/**
 * Where the reader is: the text and the position in it, shared by the rules of the three modules.
 * One object, not module variables, because another module's variables cannot be assigned.
 */
export const cursor = { src: '', pos: 0 };

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
export const BANG = 33;
const QUOTE = 34;
const APOSTROPHE = 39;
export const OPEN_PAREN = 40;
export const CLOSE_PAREN = 41;
export const STAR = 42;
export const PLUS = 43;
const COMMA = 44;
export const MINUS = 45;
export const DOT = 46;
export const SLASH = 47;
export const COLON = 58;
export const LESS = 60;
export const EQUALS = 61;
export const GREATER = 62;
export const QUESTION = 63;
export const OPEN_BRACKET = 91;
const BACKSLASH = 92;
export const CLOSE_BRACKET = 93;
const BACKQUOTE = 96;
const OPEN_BRACE = 123;
export const PIPE = 124;
const CLOSE_BRACE = 125;
export const TILDE = 126;
export const PERCENT = 37;

export function at(p: number): number {
  return cursor.src.charCodeAt(p);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** IdentifierStart: `[a-zA-Z_@]`. */
export function isIdentifierStart(c: number): boolean {
  return isLetter(c) || c === 95 || c === 64;
}

/** IdentifierPart: `[a-zA-Z0-9_]`. */
export function isIdentifierPart(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 95;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function skipBlankCharacters(): void {
  while (isBlank(at(cursor.pos))) cursor.pos++;
}

/** Where the Comment starting at `p` (a `/`) ends, or -1. */
function commentEnd(p: number): number {
  const next = at(p + 1);
  if (next === SLASH) {
    const newline = cursor.src.indexOf('\n', p + 2);
    return newline < 0 ? cursor.src.length : newline;
  }
  if (next === STAR) {
    const close = cursor.src.indexOf('*/', p + 2);
    return close < 0 ? -1 : close + 2;
  }
  return -1;
}

/** Comments, each followed by blanks, as long as there are any. Whether there was one. */
function skipComments(): boolean {
  let any = false;
  while (at(cursor.pos) === SLASH) {
    const end = commentEnd(cursor.pos);
    if (end < 0) break;
    cursor.pos = end;
    skipBlankCharacters();
    any = true;
  }
  return any;
}

/** `_`: optional blanks and comments. */
export function blanks(): void {
  skipBlankCharacters();
  skipComments();
}

/** `__`: mandatory blanks or comments; cursor.pos unchanged when there are none. */
export function separation(): boolean {
  const start = cursor.pos;
  skipBlankCharacters();
  if (cursor.pos > start) {
    skipComments();
    return true;
  }
  return skipComments();
}

/** A keyword (`"and" !IdentifierPart`) at cursor.pos, case-sensitive: consumed if there. */
export function keyword(word: string): boolean {
  if (!cursor.src.startsWith(word, cursor.pos) || isIdentifierPart(at(cursor.pos + word.length))) return false;
  cursor.pos += word.length;
  return true;
}

/** IdentifierName at cursor.pos: its end, or -1. */
export function identifierEnd(p: number): number {
  if (!isIdentifierStart(at(p))) return -1;
  p++;
  while (isIdentifierPart(at(p))) p++;
  return p;
}

export function char(code: number): boolean {
  if (at(cursor.pos) !== code) return false;
  cursor.pos++;
  return true;
}

// ---- the grammar's options and repetitions around a rule ----------------------------------

/** `(__ @<rule>)?`: the rule after mandatory separation, or null with cursor.pos unchanged. */
export function afterSeparation(rule: () => Node | Node[] | undefined): any {
  const start = cursor.pos;
  const found = separation() ? rule() : undefined;
  if (found !== undefined) return found;
  cursor.pos = start;
  return null;
}

/** `(_ @<rule>)?`: the rule after optional blanks, or null with cursor.pos unchanged. */
export function afterBlanks(rule: () => Node | Node[] | undefined): any {
  const start = cursor.pos;
  blanks();
  const found = rule();
  if (found !== undefined) return found;
  cursor.pos = start;
  return null;
}

/** `(_ @<rule>)+` */
export function oneOrMoreAfterBlanks(rule: () => Node | undefined): Node[] | undefined {
  const out: Node[] = [];
  for (let next = afterBlanks(rule); next !== null; next = afterBlanks(rule)) out.push(next);
  return out.length > 0 ? out : undefined;
}

/** `(_ "," _ @<rule>)*` */
export function commaSeparated(rule: () => Node | undefined): Node[] {
  const out: Node[] = [];
  for (;;) {
    const start = cursor.pos;
    blanks();
    if (char(COMMA)) {
      blanks();
      const next = rule();
      if (next) {
        out.push(next);
        continue;
      }
    }
    cursor.pos = start;
    return out;
  }
}

// ---- names ---------------------------------------------------------------------------------

/** FieldSegment: `!Keyword IdentifierName / "`" ("``" / [^`])* "`"` */
export function fieldSegment(): string | undefined {
  const end = identifierEnd(cursor.pos);
  if (end >= 0) {
    const name = cursor.src.slice(cursor.pos, end);
    if (!KEYWORDS.has(name)) {
      cursor.pos = end;
      return name;
    }
  }
  if (at(cursor.pos) !== BACKQUOTE) return undefined;
  let p = cursor.pos + 1;
  let name = '';
  let run = p;
  for (;;) {
    if (p >= cursor.src.length) return undefined;
    if (at(p) !== BACKQUOTE) {
      p++;
      continue;
    }
    name += cursor.src.slice(run, p);
    if (at(p + 1) !== BACKQUOTE) break;
    name += '`';
    p += 2;
    run = p;
  }
  cursor.pos = p + 1;
  return name;
}

// ---- constants -------------------------------------------------------------------------------

export function constant(): Node | undefined {
  return string() ?? number() ?? keywordConstant();
}

function keywordConstant(): Node | undefined {
  const start = cursor.pos;
  if (keyword('true')) return { type: 'literal', value: true, offset: start };
  if (keyword('false')) return { type: 'literal', value: false, offset: start };
  if (keyword('null')) return { type: 'literal', value: null, offset: start };
  return undefined;
}

function number(): Node | undefined {
  const start = cursor.pos;
  let p = cursor.pos;
  while (isDigit(at(p))) p++;
  if (p === start) return undefined;
  if (at(p) === DOT && isDigit(at(p + 1))) {
    p += 2;
    while (isDigit(at(p))) p++;
  }
  const e = at(p);
  if (e === 101 || e === 69) {
    let q = p + 1;
    if (at(q) === PLUS || at(q) === MINUS) q++;
    if (isDigit(at(q))) {
      while (isDigit(at(q))) q++;
      p = q;
    }
  }
  if (isIdentifierPart(at(p))) return undefined;
  cursor.pos = p;
  return { type: 'literal', value: Number(cursor.src.slice(start, p)), offset: start };
}

export function integer(): { value: number; offset: number } | undefined {
  const start = cursor.pos;
  let p = cursor.pos;
  while (isDigit(at(p))) p++;
  if (p === start || (at(p) === DOT && isDigit(at(p + 1)))) return undefined;
  cursor.pos = p;
  return { value: Number(cursor.src.slice(start, p)), offset: start };
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '"': '"', "'": "'", '\\': '\\' };

export function string(): Node | undefined {
  const start = cursor.pos;
  const c = at(cursor.pos);
  if (c === APOSTROPHE) {
    const end = cursor.src.indexOf("'", cursor.pos + 1);
    if (end < 0) return undefined;
    cursor.pos = end + 1;
    return { type: 'literal', value: cursor.src.slice(start + 1, end), singleQuoted: true, escapes: [], offset: start };
  }
  if (c !== QUOTE) return undefined;
  if (cursor.src.startsWith('"""', cursor.pos)) {
    let p = cursor.pos + 3;
    while (p < cursor.src.length && !cursor.src.startsWith('"""', p) && at(p) !== LF && at(p) !== CR) p++;
    if (cursor.src.startsWith('"""', p)) {
      cursor.pos = p + 3;
      return { type: 'literal', value: cursor.src.slice(start + 3, p), escapes: [], offset: start };
    }
    if (p < cursor.src.length) throw GRAMMAR_ERROR; // a """ string cannot span lines
  }
  let p = cursor.pos + 1;
  let value = '';
  const escapes: Node[] = [];
  for (;;) {
    const run = p;
    for (let ch = at(p); p < cursor.src.length && ch !== QUOTE && ch !== BACKSLASH && ch !== LF && ch !== CR; ch = at(++p));
    value += cursor.src.slice(run, p);
    if (at(p) !== BACKSLASH || p + 1 >= cursor.src.length) break;
    const next = cursor.src[p + 1];
    if (next === 'u' && at(p + 2) === OPEN_BRACE) {
      let q = p + 3;
      while (q < p + 11 && isHex(at(q))) q++;
      if (q > p + 3 && at(q) === CLOSE_BRACE) {
        const part = unicodePart(cursor.src.slice(p + 3, q), cursor.src.slice(p, q + 1), p);
        value += part.text;
        if (part.bad) escapes.push(part);
        p = q + 1;
        continue;
      }
    }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      value += simple;
    } else {
      value += next;
      escapes.push({ text: next, bad: true, sequence: '\\' + next, offset: p });
    }
    p += 2;
  }
  if (at(p) !== QUOTE) throw GRAMMAR_ERROR; // unterminated string
  cursor.pos = p + 1;
  return { type: 'literal', value, escapes, offset: start };
}
