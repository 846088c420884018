import type { Query } from './ast.js';
import { KEYWORDS, unicodePart } from './tree.js';

/**
 * A hand-written reader of eql.peggy's language, rule for rule in the grammar's order and with its
 * ordered-choice backtracking, that builds the same tree without the generated parser's
 * bookkeeping of expectations for error messages.
 *
 * It only ever answers for text the grammar accepts: where it cannot read the text, or where the
 * grammar raises an error of its own (a string left open), it answers undefined, and the generated
 * parser reads the text again and says what is wrong. So a message always comes from the grammar.
 * test/query/eql-fast.test.ts holds it to the generated parser's trees.
 *
 * Why: the generated parser took about 220 ms over the realistic rules' 826 eql queries in a cold
 * run, two thirds of it before V8 had optimized its thousands of lines (`npm run bench:queries`).
 */

/** Nodes are built as the grammar's actions build them; the tree's types are in ast.ts. */
type Node = Record<string, any>;

/** The grammar's own error() (a string left open): the whole parse fails, whatever else might have matched. */
const GRAMMAR_ERROR = new Error('eql grammar error');

let src = '';
let pos = 0;

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const BANG = 33;
const QUOTE = 34;
const APOSTROPHE = 39;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const STAR = 42;
const PLUS = 43;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
const LESS = 60;
const EQUALS = 61;
const GREATER = 62;
const QUESTION = 63;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const CLOSE_BRACKET = 93;
const BACKQUOTE = 96;
const OPEN_BRACE = 123;
const PIPE = 124;
const CLOSE_BRACE = 125;
const TILDE = 126;
const PERCENT = 37;

function at(p: number): number {
  return src.charCodeAt(p);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** IdentifierStart: `[a-zA-Z_@]`. */
function isIdentifierStart(c: number): boolean {
  return isLetter(c) || c === 95 || c === 64;
}

/** IdentifierPart: `[a-zA-Z0-9_]`. */
function isIdentifierPart(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 95;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function skipBlankCharacters(): void {
  while (isBlank(at(pos))) pos++;
}

/** Where the Comment starting at `p` (a `/`) ends, or -1. */
function commentEnd(p: number): number {
  const next = at(p + 1);
  if (next === SLASH) {
    const newline = src.indexOf('\n', p + 2);
    return newline < 0 ? src.length : newline;
  }
  if (next === STAR) {
    const close = src.indexOf('*/', p + 2);
    return close < 0 ? -1 : close + 2;
  }
  return -1;
}

/** Comments, each followed by blanks, as long as there are any. Whether there was one. */
function skipComments(): boolean {
  let any = false;
  while (at(pos) === SLASH) {
    const end = commentEnd(pos);
    if (end < 0) break;
    pos = end;
    skipBlankCharacters();
    any = true;
  }
  return any;
}

/** `_`: optional blanks and comments. */
function blanks(): void {
  skipBlankCharacters();
  skipComments();
}

/** `__`: mandatory blanks or comments; pos unchanged when there are none. */
function separation(): boolean {
  const start = pos;
  skipBlankCharacters();
  if (pos > start) {
    skipComments();
    return true;
  }
  return skipComments();
}

/** A keyword (`"and" !IdentifierPart`) at pos, case-sensitive: consumed if there. */
function keyword(word: string): boolean {
  if (!src.startsWith(word, pos) || isIdentifierPart(at(pos + word.length))) return false;
  pos += word.length;
  return true;
}

/** IdentifierName at pos: its end, or -1. */
function identifierEnd(p: number): number {
  if (!isIdentifierStart(at(p))) return -1;
  p++;
  while (isIdentifierPart(at(p))) p++;
  return p;
}

function char(code: number): boolean {
  if (at(pos) !== code) return false;
  pos++;
  return true;
}

// ---- queries ---------------------------------------------------------------------------------

function query(): Node | undefined {
  return sequenceQuery() ?? sampleQuery() ?? eventQuery();
}

function eventQuery(): Node | undefined {
  const start = pos;
  const category = eventCategory();
  if (category && separation() && keyword('where') && separation()) {
    const condition = expression();
    if (condition) return { kind: 'event', category, condition, offset: start };
  }
  pos = start;
  return undefined;
}

function eventCategory(): Node | undefined {
  const start = pos;
  if (keyword('any')) return { name: 'any', any: true, offset: start };
  const end = identifierEnd(pos);
  if (end >= 0) {
    pos = end;
    return { name: src.slice(start, end), offset: start };
  }
  const s = string();
  return s && { name: s.value, offset: s.offset };
}

/** `(__ @<rule>)?`: the rule after mandatory separation, or null with pos unchanged. */
function afterSeparation(rule: () => Node | Node[] | undefined): any {
  const start = pos;
  const found = separation() ? rule() : undefined;
  if (found !== undefined) return found;
  pos = start;
  return null;
}

/** `(_ @<rule>)?`: the rule after optional blanks, or null with pos unchanged. */
function afterBlanks(rule: () => Node | Node[] | undefined): any {
  const start = pos;
  blanks();
  const found = rule();
  if (found !== undefined) return found;
  pos = start;
  return null;
}

/** `(_ @<rule>)+` */
function oneOrMoreAfterBlanks(rule: () => Node | undefined): Node[] | undefined {
  const out: Node[] = [];
  for (let next = afterBlanks(rule); next !== null; next = afterBlanks(rule)) out.push(next);
  return out.length > 0 ? out : undefined;
}

function sequenceQuery(): Node | undefined {
  const start = pos;
  if (!keyword('sequence')) return undefined;
  const before = afterSeparation(joinKeys);
  const maxspan = afterSeparation(maxspanClause);
  const after = afterSeparation(joinKeys);
  const steps = oneOrMoreAfterBlanks(sequenceStep);
  if (!steps) {
    pos = start;
    return undefined;
  }
  const until = afterBlanks(untilStep);
  return { kind: 'sequence', by: before ?? after ?? [], misplacedBy: after !== null ? after[0].offset : null, maxspan, steps, until, offset: start };
}

function untilStep(): Node | undefined {
  const start = pos;
  if (keyword('until')) {
    blanks();
    const found = step();
    if (found) return found;
  }
  pos = start;
  return undefined;
}

function sampleQuery(): Node | undefined {
  const start = pos;
  if (!keyword('sample')) return undefined;
  const by = afterSeparation(joinKeys);
  const steps = oneOrMoreAfterBlanks(step);
  if (!steps) {
    pos = start;
    return undefined;
  }
  return { kind: 'sample', by: by ?? [], steps, offset: start };
}

function sequenceStep(): Node | undefined {
  const start = pos;
  if (char(BANG)) {
    blanks();
    const found = step();
    if (found) return { ...found, missing: true };
    pos = start;
  }
  return step();
}

function step(): Node | undefined {
  const start = pos;
  if (char(OPEN_BRACKET)) {
    blanks();
    const inner = eventQuery();
    if (inner) {
      blanks();
      if (char(CLOSE_BRACKET)) {
        const by = afterBlanks(joinKeys);
        const runs = afterBlanks(runsClause);
        return { query: inner, by: by ?? [], runs, missing: false, offset: start };
      }
    }
  }
  pos = start;
  return undefined;
}

/** `WITH _ RUNS _ "=" _ @Integer` */
function runsClause(): Node | undefined {
  const start = pos;
  if (keyword('with')) {
    blanks();
    if (keyword('runs')) {
      blanks();
      if (char(EQUALS)) {
        blanks();
        const count = integer();
        if (count) return count;
      }
    }
  }
  pos = start;
  return undefined;
}

/** `BY _ Additive (_ "," _ @Additive)*` */
function joinKeys(): Node[] | undefined {
  const start = pos;
  if (!keyword('by')) return undefined;
  blanks();
  const head = additive();
  if (!head) {
    pos = start;
    return undefined;
  }
  return [head, ...commaSeparated(additive)];
}

/** `(_ "," _ @<rule>)*` */
function commaSeparated(rule: () => Node | undefined): Node[] {
  const out: Node[] = [];
  for (;;) {
    const start = pos;
    blanks();
    if (char(COMMA)) {
      blanks();
      const next = rule();
      if (next) {
        out.push(next);
        continue;
      }
    }
    pos = start;
    return out;
  }
}

/** `WITH _ MAXSPAN _ "=" _ TimeSpan` */
function maxspanClause(): Node | undefined {
  const start = pos;
  if (keyword('with')) {
    blanks();
    if (keyword('maxspan')) {
      blanks();
      if (char(EQUALS)) {
        blanks();
        const amount = integer();
        if (amount) {
          blanks();
          const unitStart = pos;
          if (isIdentifierStart(at(pos))) pos++;
          while (isIdentifierPart(at(pos))) pos++;
          return { amount: amount.value, unit: src.slice(unitStart, pos), offset: amount.offset };
        }
      }
    }
  }
  pos = start;
  return undefined;
}

function pipe(): Node | undefined {
  const start = pos;
  if (char(PIPE)) {
    blanks();
    const nameAt = pos;
    const end = identifierEnd(pos);
    if (end >= 0) {
      pos = end;
      const args: Node[] = [];
      for (let arg = afterBlanks(additive); arg !== null; arg = afterBlanks(additive)) args.push(arg);
      return { name: src.slice(nameAt, end).toLowerCase(), args, offset: nameAt };
    }
  }
  pos = start;
  return undefined;
}

// ---- expressions, loosest first --------------------------------------------------------------

function expression(): Node | undefined {
  return logical('or', logicalAnd);
}

function logicalAnd(): Node | undefined {
  return logical('and', negation);
}

/** `head:<operand> tail:(_ <word> _ <operand>)*`, folded to the left. */
function logical(word: 'or' | 'and', operand: () => Node | undefined): Node | undefined {
  let left = operand();
  if (!left) return undefined;
  for (;;) {
    const start = pos;
    blanks();
    if (keyword(word)) {
      blanks();
      const right = operand();
      if (right) {
        left = { type: 'logical', op: word, left, right, offset: left.offset };
        continue;
      }
    }
    pos = start;
    return left;
  }
}

function negation(): Node | undefined {
  const start = pos;
  if (keyword('not')) {
    blanks();
    const operand = negation();
    if (operand) return { type: 'not', operand, offset: start };
    pos = start;
  }
  return predicated();
}

function predicated(): Node | undefined {
  const left = comparison();
  if (!left) return undefined;
  const tail = afterBlanks(predicateTail);
  if (tail === null) return left;
  tail.left = left;
  tail.offset = left.offset;
  return tail;
}

function predicateTail(): Node | undefined {
  const start = pos;
  const negated = keyword('not');
  if (negated) blanks();
  if (keyword('in')) {
    const op = char(TILDE) ? 'in~' : 'in';
    blanks();
    const list = parenthesizedList(expression);
    if (list) return { type: 'in', op, negated, list };
  }
  pos = start;
  const op = matchOperator();
  if (op) {
    blanks();
    const list = parenthesizedList(constant);
    if (list) return { type: 'match', op, patterns: list };
    const one = constant();
    if (one) return { type: 'match', op, patterns: [one] };
  }
  pos = start;
  return undefined;
}

function matchOperator(): string | undefined {
  if (char(COLON)) return ':';
  for (const word of ['like', 'regex']) if (keyword(word)) return char(TILDE) ? `${word}~` : word;
  return undefined;
}

/** `"(" _ head:<rule> tail:(_ "," _ @<rule>)* _ ")"` */
function parenthesizedList(rule: () => Node | undefined): Node[] | undefined {
  const start = pos;
  if (char(OPEN_PAREN)) {
    blanks();
    const head = rule();
    if (head) {
      const list = [head, ...commaSeparated(rule)];
      blanks();
      if (char(CLOSE_PAREN)) return list;
    }
  }
  pos = start;
  return undefined;
}

function comparison(): Node | undefined {
  const left = additive();
  if (!left) return undefined;
  const start = pos;
  blanks();
  const op = comparisonOperator();
  if (op) {
    blanks();
    const right = additive();
    if (right) return { type: 'compare', op, left, right, offset: left.offset };
  }
  pos = start;
  return left;
}

function comparisonOperator(): string | undefined {
  const c = at(pos);
  const equalsNext = at(pos + 1) === EQUALS;
  if ((c === EQUALS || c === BANG) && equalsNext) {
    pos += 2;
    return c === EQUALS ? '==' : '!=';
  }
  if (c === LESS || c === GREATER) {
    pos += equalsNext ? 2 : 1;
    return (c === LESS ? '<' : '>') + (equalsNext ? '=' : '');
  }
  return undefined;
}

function additive(): Node | undefined {
  return arithmetic((c) => c === PLUS || c === MINUS, multiplicative);
}

function multiplicative(): Node | undefined {
  return arithmetic((c) => c === STAR || c === SLASH || c === PERCENT, unary);
}

/** `head:<operand> tail:(_ [ops] _ <operand>)*`, folded to the left. */
function arithmetic(isOperator: (c: number) => boolean, operand: () => Node | undefined): Node | undefined {
  let left = operand();
  if (!left) return undefined;
  for (;;) {
    const start = pos;
    blanks();
    if (isOperator(at(pos))) {
      const op = src[pos++];
      blanks();
      const right = operand();
      if (right) {
        left = { type: 'arithmetic', op, left, right, offset: left.offset };
        continue;
      }
    }
    pos = start;
    return left;
  }
}

function unary(): Node | undefined {
  const start = pos;
  if (char(MINUS)) {
    blanks();
    const operand = unary();
    if (operand) return { type: 'negate', operand, offset: start };
    pos = start;
  }
  if (char(PLUS)) {
    blanks();
    const operand = unary();
    if (operand) return operand;
    pos = start;
  }
  return primary();
}

function primary(): Node | undefined {
  const found = constant() ?? namedOperand() ?? field();
  if (found) return found;
  const start = pos;
  if (char(OPEN_PAREN)) {
    blanks();
    const inner = expression();
    if (inner) {
      blanks();
      if (char(CLOSE_PAREN)) return inner;
    }
  }
  pos = start;
  return undefined;
}

/** A call or a field that starts with a plain name: the name is read once, and what follows decides. */
function namedOperand(): Node | undefined {
  const start = pos;
  const end = identifierEnd(pos);
  if (end < 0) return undefined;
  const name = src.slice(start, end);
  if (KEYWORDS.has(name)) return undefined;
  pos = end;
  const insensitive = char(TILDE);
  if (char(OPEN_PAREN)) {
    blanks();
    const head = expression();
    const args = head ? [head, ...commaSeparated(expression)] : [];
    blanks();
    if (char(CLOSE_PAREN)) return { type: 'call', name, insensitive, args, offset: start };
  }
  pos = end;
  const rest = dottedSegments();
  return { type: 'field', name: rest.length === 0 ? name : [name, ...rest].join('.'), optional: false, index: indexes(), offset: start };
}

function field(): Node | undefined {
  const start = pos;
  const optional = char(QUESTION);
  const head = fieldSegment();
  if (head === undefined) {
    pos = start;
    return undefined;
  }
  const tail = dottedSegments();
  return { type: 'field', name: [head, ...tail].join('.'), optional, index: indexes(), offset: start };
}

/** `("." @FieldSegment)*` */
function dottedSegments(): string[] {
  const out: string[] = [];
  for (;;) {
    const start = pos;
    if (char(DOT)) {
      const segment = fieldSegment();
      if (segment !== undefined) {
        out.push(segment);
        continue;
      }
    }
    pos = start;
    return out;
  }
}

/** `("[" _ @Integer _ "]")*`, as the values. */
function indexes(): number[] {
  const out: number[] = [];
  for (;;) {
    const start = pos;
    if (char(OPEN_BRACKET)) {
      blanks();
      const index = integer();
      if (index) {
        blanks();
        if (char(CLOSE_BRACKET)) {
          out.push(index.value);
          continue;
        }
      }
    }
    pos = start;
    return out;
  }
}

/** `!Keyword IdentifierName / "`" ... "`"` */
function fieldSegment(): string | undefined {
  const end = identifierEnd(pos);
  if (end >= 0) {
    const name = src.slice(pos, end);
    if (!KEYWORDS.has(name)) {
      pos = end;
      return name;
    }
  }
  if (at(pos) !== BACKQUOTE) return undefined;
  let p = pos + 1;
  let name = '';
  let run = p;
  for (;;) {
    if (p >= src.length) return undefined;
    if (at(p) !== BACKQUOTE) {
      p++;
      continue;
    }
    name += src.slice(run, p);
    if (at(p + 1) !== BACKQUOTE) break;
    name += '`';
    p += 2;
    run = p;
  }
  pos = p + 1;
  return name;
}

// ---- constants -------------------------------------------------------------------------------

function constant(): Node | undefined {
  return string() ?? number() ?? keywordConstant();
}

function keywordConstant(): Node | undefined {
  const start = pos;
  if (keyword('true')) return { type: 'literal', value: true, offset: start };
  if (keyword('false')) return { type: 'literal', value: false, offset: start };
  if (keyword('null')) return { type: 'literal', value: null, offset: start };
  return undefined;
}

function number(): Node | undefined {
  const start = pos;
  let p = pos;
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
  pos = p;
  return { type: 'literal', value: Number(src.slice(start, p)), offset: start };
}

function integer(): { value: number; offset: number } | undefined {
  const start = pos;
  let p = pos;
  while (isDigit(at(p))) p++;
  if (p === start || (at(p) === DOT && isDigit(at(p + 1)))) return undefined;
  pos = p;
  return { value: Number(src.slice(start, p)), offset: start };
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '"': '"', "'": "'", '\\': '\\' };

function string(): Node | undefined {
  const start = pos;
  const c = at(pos);
  if (c === APOSTROPHE) {
    const end = src.indexOf("'", pos + 1);
    if (end < 0) return undefined;
    pos = end + 1;
    return { type: 'literal', value: src.slice(start + 1, end), singleQuoted: true, escapes: [], offset: start };
  }
  if (c !== QUOTE) return undefined;
  if (src.startsWith('"""', pos)) {
    let p = pos + 3;
    while (p < src.length && !src.startsWith('"""', p) && at(p) !== LF && at(p) !== CR) p++;
    if (src.startsWith('"""', p)) {
      pos = p + 3;
      return { type: 'literal', value: src.slice(start + 3, p), escapes: [], offset: start };
    }
    if (p < src.length) throw GRAMMAR_ERROR; // a """ string cannot span lines
  }
  let p = pos + 1;
  let value = '';
  const escapes: Node[] = [];
  for (;;) {
    const run = p;
    for (let ch = at(p); p < src.length && ch !== QUOTE && ch !== BACKSLASH && ch !== LF && ch !== CR; ch = at(++p));
    value += src.slice(run, p);
    if (at(p) !== BACKSLASH || p + 1 >= src.length) break;
    const next = src[p + 1];
    if (next === 'u' && at(p + 2) === OPEN_BRACE) {
      let q = p + 3;
      while (q < p + 11 && isHex(at(q))) q++;
      if (q > p + 3 && at(q) === CLOSE_BRACE) {
        const part = unicodePart(src.slice(p + 3, q), src.slice(p, q + 1), p);
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
  pos = p + 1;
  return { type: 'literal', value, escapes, offset: start };
}

/** The tree eql.peggy builds for `text`, or undefined where this reader leaves it to the generated parser. */
export function readEql(text: string): Query | undefined {
  src = text;
  pos = 0;
  try {
    blanks();
    const found = query();
    if (!found) return undefined;
    const pipes: Node[] = [];
    for (let next = afterBlanks(pipe); next !== null; next = afterBlanks(pipe)) pipes.push(next);
    blanks();
    return pos === src.length ? ({ ...found, pipes } as Query) : undefined;
  } catch {
    // The grammar's own error, or nesting deeper than the stack: the generated parser answers as
    // it always has.
    return undefined;
  } finally {
    src = '';
  }
}
