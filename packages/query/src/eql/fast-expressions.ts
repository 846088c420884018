import { KEYWORDS } from './tree.js';
import { afterBlanks, at, BANG, blanks, char, commaSeparated, CLOSE_BRACKET, CLOSE_PAREN, COLON, constant, cursor, DOT, EQUALS, fieldSegment, GREATER, identifierEnd, integer, keyword, LESS, MINUS, OPEN_BRACKET, OPEN_PAREN, PERCENT, PLUS, QUESTION, SLASH, STAR, TILDE, type Node } from './fast-words.js';

/** Expressions of eql for the hand-written reader (fast.ts), loosest first, as eql.peggy's rules of the same names read them. */

// ---- expressions, loosest first --------------------------------------------------------------

export function expression(): Node | undefined {
  return foldedLeft('logical', orOperator, logicalAnd);
}

function logicalAnd(): Node | undefined {
  return foldedLeft('logical', andOperator, negation);
}

const orOperator = (): string | undefined => (keyword('or') ? 'or' : undefined);
const andOperator = (): string | undefined => (keyword('and') ? 'and' : undefined);

/**
 * `head:<operand> tail:(_ <operator> _ <operand>)*`, folded to the left into nodes of `type`:
 * `operator` consumes an operator and names it, or answers undefined.
 */
function foldedLeft(type: 'logical' | 'arithmetic', operator: () => string | undefined, operand: () => Node | undefined): Node | undefined {
  let left = operand();
  if (!left) return undefined;
  for (;;) {
    const start = cursor.pos;
    blanks();
    const op = operator();
    if (op !== undefined) {
      blanks();
      const right = operand();
      if (right) {
        left = { type, op, left, right, offset: left.offset };
        continue;
      }
    }
    cursor.pos = start;
    return left;
  }
}

function negation(): Node | undefined {
  const start = cursor.pos;
  if (keyword('not')) {
    blanks();
    const operand = negation();
    if (operand) return { type: 'not', operand, offset: start };
    cursor.pos = start;
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
  const start = cursor.pos;
  const negated = keyword('not');
  if (negated) blanks();
  if (keyword('in')) {
    const op = char(TILDE) ? 'in~' : 'in';
    blanks();
    const list = parenthesizedList(expression);
    if (list) return { type: 'in', op, negated, list };
  }
  cursor.pos = start;
  const op = matchOperator();
  if (op) {
    blanks();
    const list = parenthesizedList(constant);
    if (list) return { type: 'match', op, patterns: list };
    const one = constant();
    if (one) return { type: 'match', op, patterns: [one] };
  }
  cursor.pos = start;
  return undefined;
}

function matchOperator(): string | undefined {
  if (char(COLON)) return ':';
  for (const word of ['like', 'regex']) if (keyword(word)) return char(TILDE) ? `${word}~` : word;
  return undefined;
}

/** `"(" _ head:<rule> tail:(_ "," _ @<rule>)* _ ")"` */
function parenthesizedList(rule: () => Node | undefined): Node[] | undefined {
  const start = cursor.pos;
  if (char(OPEN_PAREN)) {
    blanks();
    const head = rule();
    if (head) {
      const list = [head, ...commaSeparated(rule)];
      blanks();
      if (char(CLOSE_PAREN)) return list;
    }
  }
  cursor.pos = start;
  return undefined;
}

function comparison(): Node | undefined {
  const left = additive();
  if (!left) return undefined;
  const start = cursor.pos;
  blanks();
  const op = comparisonOperator();
  if (op) {
    blanks();
    const right = additive();
    if (right) return { type: 'compare', op, left, right, offset: left.offset };
  }
  cursor.pos = start;
  return left;
}

function comparisonOperator(): string | undefined {
  const c = at(cursor.pos);
  const equalsNext = at(cursor.pos + 1) === EQUALS;
  if ((c === EQUALS || c === BANG) && equalsNext) {
    cursor.pos += 2;
    return c === EQUALS ? '==' : '!=';
  }
  if (c === LESS || c === GREATER) {
    cursor.pos += equalsNext ? 2 : 1;
    return (c === LESS ? '<' : '>') + (equalsNext ? '=' : '');
  }
  return undefined;
}

export function additive(): Node | undefined {
  return foldedLeft('arithmetic', additiveOperator, multiplicative);
}

function multiplicative(): Node | undefined {
  return foldedLeft('arithmetic', multiplicativeOperator, unary);
}

/** One of the characters `isOperator` takes, consumed; else undefined. */
function operatorCharacter(isOperator: (c: number) => boolean): string | undefined {
  return isOperator(at(cursor.pos)) ? cursor.src[cursor.pos++] : undefined;
}

const additiveOperator = (): string | undefined => operatorCharacter((c) => c === PLUS || c === MINUS);
const multiplicativeOperator = (): string | undefined => operatorCharacter((c) => c === STAR || c === SLASH || c === PERCENT);

function unary(): Node | undefined {
  const start = cursor.pos;
  if (char(MINUS)) {
    blanks();
    const operand = unary();
    if (operand) return { type: 'negate', operand, offset: start };
    cursor.pos = start;
  }
  if (char(PLUS)) {
    blanks();
    const operand = unary();
    if (operand) return operand;
    cursor.pos = start;
  }
  return primary();
}

function primary(): Node | undefined {
  const found = constant() ?? namedOperand() ?? field();
  if (found) return found;
  const start = cursor.pos;
  if (char(OPEN_PAREN)) {
    blanks();
    const inner = expression();
    if (inner) {
      blanks();
      if (char(CLOSE_PAREN)) return inner;
    }
  }
  cursor.pos = start;
  return undefined;
}

/** A call or a field that starts with a plain name: the name is read once, and what follows decides. */
function namedOperand(): Node | undefined {
  const start = cursor.pos;
  const end = identifierEnd(cursor.pos);
  if (end < 0) return undefined;
  const name = cursor.src.slice(start, end);
  if (KEYWORDS.has(name)) return undefined;
  cursor.pos = end;
  const insensitive = char(TILDE);
  blanks();
  if (char(OPEN_PAREN)) {
    blanks();
    const head = expression();
    const args = head ? [head, ...commaSeparated(expression)] : [];
    blanks();
    if (char(CLOSE_PAREN)) return { type: 'call', name, insensitive, args, offset: start };
  }
  cursor.pos = end;
  const rest = dottedSegments();
  return { type: 'field', name: rest.length === 0 ? name : [name, ...rest].join('.'), optional: false, index: indexes(), offset: start };
}

function field(): Node | undefined {
  const start = cursor.pos;
  const optional = char(QUESTION);
  const head = fieldSegment();
  if (head === undefined) {
    cursor.pos = start;
    return undefined;
  }
  const tail = dottedSegments();
  return { type: 'field', name: [head, ...tail].join('.'), optional, index: indexes(), offset: start };
}

/** `("." @FieldSegment)*` */
function dottedSegments(): string[] {
  const out: string[] = [];
  for (;;) {
    const start = cursor.pos;
    if (char(DOT)) {
      const segment = fieldSegment();
      if (segment !== undefined) {
        out.push(segment);
        continue;
      }
    }
    cursor.pos = start;
    return out;
  }
}

/** `("[" _ @Integer _ "]")*`, as the values. */
function indexes(): number[] {
  const out: number[] = [];
  for (;;) {
    const start = cursor.pos;
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
    cursor.pos = start;
    return out;
  }
}
