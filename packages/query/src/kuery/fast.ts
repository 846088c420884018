import type { KueryNode, KueryValue } from './ast.js';
import { WILDCARD, asField, combine, quoted, unquoted, withField, type FieldTail, type UnquotedPart, type ValueList } from './tree.js';

/**
 * A hand-written reader of kuery.peggy's language, rule for rule in the grammar's order and with its
 * ordered-choice backtracking, that builds the same tree (tree.ts) without the generated parser's
 * bookkeeping of expectations for error messages.
 *
 * It only ever answers for text the language accepts: where it cannot read the text it answers
 * undefined, and the generated parser reads it again and says what is wrong. So a message always
 * comes from the grammar, and a query this reader failed to follow costs one more parse, never a
 * different answer. test/query/kuery-fast.test.ts holds it to the generated parser's trees.
 *
 * Why: the generated parser's first pass over the realistic rules' 895 kuery queries (106 KB)
 * took 125 ms in a fresh process, about 1 MB/s; the reader's took 43 ms (`npm run bench:queries`,
 * medians of 7 processes).
 */

let src = '';
let pos = 0;

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const STAR = 42;
const COLON = 58;
const LESS = 60;
const EQUALS = 61;
const GREATER = 62;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** The grammar's Space: `[ \t\r\n]`. */
function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

/** SpecialCharacter: `[\\():<>"*{}]`. */
function isSpecial(c: number): boolean {
  return c === BACKSLASH || c === OPEN_PAREN || c === CLOSE_PAREN || c === COLON || c === LESS || c === GREATER || c === QUOTE || c === STAR || c === OPEN_BRACE || c === CLOSE_BRACE;
}

/** What the first rule of UnquotedCharacter takes in a run: not special, not white space, not an `n` that may begin `not`. */
function isPlain(c: number): boolean {
  return !isSpecial(c) && !isSpace(c) && c !== 110 && c !== 78;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function skipSpaces(): void {
  while (pos < src.length && isSpace(src.charCodeAt(pos))) pos++;
}

/** Whether `word` (lower-case ASCII letters) is at `at`, in any case, as the grammar's `"or"i` reads it. */
function wordAt(at: number, word: string): boolean {
  if (at + word.length > src.length) return false;
  for (let i = 0; i < word.length; i++) {
    if ((src.charCodeAt(at + i) | 0x20) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/** Where `Space+ word Space+` (the grammar's Or and And) ends if it starts at `at`, else -1. */
function infixKeyword(at: number, word: string): number {
  let p = at;
  while (p < src.length && isSpace(src.charCodeAt(p))) p++;
  if (p === at || !wordAt(p, word)) return -1;
  p += word.length;
  const afterWord = p;
  while (p < src.length && isSpace(src.charCodeAt(p))) p++;
  return p === afterWord ? -1 : p;
}

/** Where `"not"i Space+` (the grammar's Not) ends if it starts at `at`, else -1. */
function notKeyword(at: number): number {
  if (!wordAt(at, 'not')) return -1;
  let p = at + 3;
  while (p < src.length && isSpace(src.charCodeAt(p))) p++;
  return p === at + 3 ? -1 : p;
}

/**
 * `head:<operand> tail:(<Or or And> @<operand>)*`: both kinds of list (queries, and values after a
 * field) are or-lists of and-lists of not-items.
 */
function joined<T>(word: 'or' | 'and', operand: () => T | undefined): T | undefined {
  const head = operand();
  if (head === undefined) return undefined;
  const tail: T[] = [];
  for (;;) {
    const end = infixKeyword(pos, word);
    if (end < 0) break;
    const before = pos;
    pos = end;
    const next = operand();
    if (next === undefined) {
      pos = before;
      break;
    }
    tail.push(next);
  }
  return combine(word, head, tail) as T;
}

function notOf<T>(item: () => T | undefined): T | undefined {
  const start = pos;
  const end = notKeyword(pos);
  if (end >= 0) {
    pos = end;
    const negated = item();
    if (negated !== undefined) return { type: 'not', item: negated } as T;
    pos = start;
  }
  return item();
}

/** `"(" Space* <list> Space* ")"` around a list read by `inner`, else undefined with pos unchanged. */
function parenthesized<T>(inner: () => T | undefined, open: number, close: number): T | undefined {
  const start = pos;
  if (src.charCodeAt(pos) !== open) return undefined;
  pos++;
  skipSpaces();
  const list = inner();
  if (list !== undefined) {
    skipSpaces();
    if (src.charCodeAt(pos) === close) {
      pos++;
      return list;
    }
  }
  pos = start;
  return undefined;
}

const orQuery = (): KueryNode | undefined => joined('or', andQuery);
const andQuery = (): KueryNode | undefined => joined('and', notQuery);
const notQuery = (): KueryNode | undefined => notOf(subQuery);
const orListOfValues = (): ValueList | undefined => joined('or', andListOfValues);
const andListOfValues = (): ValueList | undefined => joined('and', notListOfValues);
const notListOfValues = (): ValueList | undefined => notOf(listOfValues);

function subQuery(): KueryNode | undefined {
  const group = parenthesized(orQuery, OPEN_PAREN, CLOSE_PAREN);
  if (group !== undefined) return group;
  // FieldQuery and ValueExpression both start with a value: it is read once.
  const first = value();
  if (first === undefined) return undefined;
  const afterFirst = pos;
  skipSpaces();
  const tail = fieldTail();
  if (tail !== undefined) return withField(asField(first), tail);
  // Not a field query: ValueExpression reads the same value again, a value without a field.
  pos = afterFirst;
  return { type: 'match', field: null, value: first };
}

function fieldTail(): FieldTail | undefined {
  const start = pos;
  const c = src.charCodeAt(pos);
  if (c === COLON) {
    pos++;
    skipSpaces();
    // The grammar's order: a nested query `{...}`, then a list of values (each leaves pos as it found it).
    const query = parenthesized(orQuery, OPEN_BRACE, CLOSE_BRACE);
    if (query !== undefined) return { type: 'nested', query };
    const list = listOfValues();
    if (list !== undefined) return { type: 'list', list };
  } else if (c === LESS || c === GREATER) {
    const orEqual = src.charCodeAt(pos + 1) === EQUALS;
    const op = c === LESS ? (orEqual ? '<=' : '<') : orEqual ? '>=' : '>';
    pos += orEqual ? 2 : 1;
    skipSpaces();
    const bound = value();
    if (bound !== undefined) return { type: 'range', op, value: bound };
  }
  pos = start;
  return undefined;
}

function listOfValues(): ValueList | undefined {
  const list = parenthesized(orListOfValues, OPEN_PAREN, CLOSE_PAREN);
  if (list !== undefined) return list;
  const one = value();
  return one === undefined ? undefined : { type: 'value', value: one };
}

/** Value: QuotedString / UnquotedLiteral (a value that opens with a quote can only be quoted). */
function value(): KueryValue | undefined {
  return src.charCodeAt(pos) === QUOTE ? quotedString() : unquotedLiteral();
}

/** The character an escape `\uXXXX` at `at` stands for, or undefined. */
function unicodeEscape(at: number): string | undefined {
  if (src.charCodeAt(at + 1) !== 117) return undefined;
  for (let i = 2; i < 6; i++) if (!isHex(src.charCodeAt(at + i))) return undefined;
  return String.fromCharCode(parseInt(src.slice(at + 2, at + 6), 16));
}

/** EscapedWhitespace at `at` (a backslash): what it stands for, or undefined. */
function whitespaceEscape(at: number): string | undefined {
  const next = src.charCodeAt(at + 1);
  if (next === 116) return '\t';
  if (next === 114) return '\r';
  if (next === 110) return '\n';
  if (next === SPACE || next === TAB) return src[at + 1];
  return undefined;
}

function quotedString(): KueryValue | undefined {
  const start = pos;
  let text = '';
  let run = ++pos;
  while (pos < src.length) {
    const c = src.charCodeAt(pos);
    if (c === QUOTE) {
      text += src.slice(run, pos);
      pos++;
      return quoted([text], start);
    }
    if (c !== BACKSLASH) {
      pos++;
      continue;
    }
    // QuotedCharacter: EscapedWhitespace / EscapedUnicode / "\\" [\\"] / [^"] (a lone backslash is itself).
    text += src.slice(run, pos);
    const next = src.charCodeAt(pos + 1);
    const whitespace = whitespaceEscape(pos);
    const unicode = whitespace === undefined ? unicodeEscape(pos) : undefined;
    if (whitespace !== undefined) {
      text += whitespace;
      pos += 2;
    } else if (unicode !== undefined) {
      text += unicode;
      pos += 6;
    } else if (next === BACKSLASH || next === QUOTE) {
      text += src[pos + 1];
      pos += 2;
    } else {
      text += '\\';
      pos++;
    }
    run = pos;
  }
  pos = start;
  return undefined;
}

/** EscapedKeyword at `at` (a backslash): the word as written, or undefined. */
function keywordEscape(at: number): string | undefined {
  for (const word of ['or', 'and', 'not']) if (wordAt(at + 1, word)) return src.slice(at + 1, at + 1 + word.length);
  return undefined;
}

function unquotedLiteral(): KueryValue | undefined {
  const start = pos;
  const parts: UnquotedPart[] = [];
  while (pos < src.length) {
    const at = pos;
    while (pos < src.length && isPlain(src.charCodeAt(pos))) pos++;
    if (pos > at) {
      parts.push(src.slice(at, pos));
      continue;
    }
    const c = src.charCodeAt(at);
    if (c === BACKSLASH) {
      const whitespace = whitespaceEscape(at);
      if (whitespace !== undefined) {
        parts.push({ escaped: whitespace });
        pos += 2;
        continue;
      }
      if (isSpecial(src.charCodeAt(at + 1))) {
        parts.push({ escaped: src[at + 1] });
        pos += 2;
        continue;
      }
      const unicode = unicodeEscape(at);
      if (unicode !== undefined) {
        parts.push({ escaped: unicode });
        pos += 6;
        continue;
      }
      const keyword = keywordEscape(at);
      if (keyword !== undefined) {
        parts.push({ escaped: keyword });
        pos += 1 + keyword.length;
        continue;
      }
      break;
    }
    if (c === STAR) {
      parts.push(WILDCARD);
      pos++;
      continue;
    }
    // `!SpecialCharacter !Keyword .`: a space, an `n` or another special character.
    if (isSpecial(c) || infixKeyword(at, 'or') >= 0 || infixKeyword(at, 'and') >= 0 || notKeyword(at) >= 0) break;
    parts.push(src[at]);
    pos++;
  }
  if (parts.length === 0) {
    pos = start;
    return undefined;
  }
  return unquoted(parts, start);
}

/** The tree kuery.peggy builds for `text`, or undefined where this reader leaves it to the generated parser. */
export function readKuery(text: string): KueryNode | undefined {
  src = text;
  pos = 0;
  try {
    skipSpaces();
    const start = pos;
    const query = orQuery();
    if (query === undefined) pos = start;
    skipSpaces();
    return pos === src.length ? (query ?? { type: 'all' }) : undefined;
  } catch {
    // Nesting deeper than the stack: the generated parser answers as it always has.
    return undefined;
  } finally {
    src = '';
  }
}
