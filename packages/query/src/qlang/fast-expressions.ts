import { chain } from './tree.js';
import { atKeyword, blanks, bracketed, commaList, constant, cursor, isDigit, isLetter, keyword, literal, mapLiteral, qualifiedName, SLASH, STAR, string, type Node } from './fast-words.js';

/** Expressions of qlang for the hand-written reader (fast.ts), loosest first, as qlang.peggy reads them. */

export function expression(): Node | undefined {
  return logical('or', and);
}

function and(): Node | undefined {
  return logical('and', not);
}

type Tail = Array<[unknown, string, unknown, Node]>;

/**
 * `tail:(_ OP _ Operand)*` after a head: the operands that follow it with their operators (as the
 * grammar's `chain` takes them), the cursor after the last operand read.
 */
function operands(operator: () => string | undefined, operand: () => Node | undefined): Tail {
  const tail: Tail = [];
  for (;;) {
    const save = cursor.pos;
    blanks();
    const op = operator();
    if (op !== undefined) {
      blanks();
      const right = operand();
      if (right) {
        tail.push([null, op, null, right]);
        continue;
      }
    }
    cursor.pos = save;
    return tail;
  }
}

/** Or and And: `head:Operand tail:(_ WORD _ Operand)*`. */
function logical(word: string, operand: () => Node | undefined): Node | undefined {
  const head = operand();
  return head && chain<any>(head, operands(() => (keyword(word) ? word : undefined), operand), 'logical', word);
}

function not(): Node | undefined {
  const start = cursor.pos;
  if (keyword('not')) {
    blanks();
    const operand = not();
    if (operand) return { type: 'not', operand, offset: start };
  }
  cursor.pos = start;
  return predicated();
}

function predicated(): Node | undefined {
  const left = comparison();
  if (!left) return undefined;
  const save = cursor.pos;
  blanks();
  const tail = predicateTail();
  if (!tail) {
    cursor.pos = save;
    return left;
  }
  return { ...tail, left, offset: left.offset };
}

/** `(@NOT _)?`: whether NOT was read. */
function negation(): boolean {
  if (!keyword('not')) return false;
  blanks();
  return true;
}

function predicateTail(): Node | undefined {
  const start = cursor.pos;
  if (keyword('is')) {
    blanks();
    const negated = negation();
    if (keyword('null')) return { type: 'is_null', negated };
  }
  cursor.pos = start;
  let negated = negation();
  const op = keyword('like') ? 'like' : keyword('rlike') ? 'rlike' : undefined;
  if (op) {
    blanks();
    const patterns = likePatterns();
    if (patterns) return { type: 'like', regex: op === 'rlike', negated, patterns };
  }
  cursor.pos = start;
  negated = negation();
  if (keyword('in')) {
    blanks();
    const list = bracketed(40, additive, 41);
    if (list) return { type: 'in', negated, list };
  }
  cursor.pos = start;
  if (literal(58)) {
    blanks();
    const query = constant();
    if (query) return { type: 'full_text', query };
  }
  cursor.pos = start;
  return undefined;
}

/** `String / "(" _ String (_ "," _ String)* _ ")"`, as a list. */
function likePatterns(): Node[] | undefined {
  const one = string();
  return one ? [one] : bracketed(40, string, 41);
}

/** ComparisonOperator: `==`, `!=`, `=~`, `<=`, `>=`, `<`, `>` in that order. */
function comparisonOperator(): string | undefined {
  const c = cursor.src.charCodeAt(cursor.pos);
  const d = cursor.src.charCodeAt(cursor.pos + 1);
  let op: string | undefined;
  if (c === 61 && d === 61) op = '==';
  else if (c === 33 && d === 61) op = '!=';
  else if (c === 61 && d === 126) op = '=~';
  else if (c === 60) op = d === 61 ? '<=' : '<';
  else if (c === 62) op = d === 61 ? '>=' : '>';
  if (op) cursor.pos += op.length;
  return op;
}

function comparison(): Node | undefined {
  const start = cursor.pos;
  const left = additive();
  if (!left) return undefined;
  const save = cursor.pos;
  blanks();
  const op = comparisonOperator();
  if (op) {
    blanks();
    const right = additive();
    if (right) return { type: 'compare', op, left, right, offset: left.offset, text: cursor.src.slice(start, cursor.pos) };
  }
  cursor.pos = save;
  return left;
}

/** Additive and Multiplicative: `head:Operand tail:(_ [ops] _ Operand)*`, the outermost node with its text. */
function arithmetic(isOperator: (c: number) => boolean, operand: () => Node | undefined): Node | undefined {
  const start = cursor.pos;
  const head = operand();
  if (!head) return undefined;
  const operator = () => {
    const c = cursor.src.charCodeAt(cursor.pos);
    if (!isOperator(c)) return undefined;
    cursor.pos++;
    return String.fromCharCode(c);
  };
  const tail = operands(operator, operand);
  return tail.length ? { ...chain<any>(head, tail, 'arithmetic'), text: cursor.src.slice(start, cursor.pos) } : head;
}

const isAdditive = (c: number) => c === 43 || c === 45;
const isMultiplicative = (c: number) => c === STAR || c === SLASH || c === 37;

function additive(): Node | undefined {
  return arithmetic(isAdditive, multiplicative);
}

function multiplicative(): Node | undefined {
  return arithmetic(isMultiplicative, unary);
}

function unary(): Node | undefined {
  const start = cursor.pos;
  const c = cursor.src.charCodeAt(cursor.pos);
  if (c === 45 || c === 43) {
    cursor.pos++;
    blanks();
    const operand = unary();
    if (operand) return c === 45 ? { type: 'negate', operand, offset: start, text: cursor.src.slice(start, cursor.pos) } : operand;
    cursor.pos = start;
    // `-` or `+` before what is no operand: no Primary starts with either.
    return undefined;
  }
  return cast();
}

function cast(): Node | undefined {
  const start = cursor.pos;
  const value = primary();
  if (!value) return undefined;
  const casts: string[] = [];
  while (cursor.src.charCodeAt(cursor.pos) === 58 && cursor.src.charCodeAt(cursor.pos + 1) === 58 && (isLetter(cursor.src.charCodeAt(cursor.pos + 2)) || cursor.src.charCodeAt(cursor.pos + 2) === 95)) {
    let end = cursor.pos + 3;
    while (isLetter(cursor.src.charCodeAt(end)) || cursor.src.charCodeAt(end) === 95) end++;
    casts.push(cursor.src.slice(cursor.pos + 2, end));
    cursor.pos = end;
  }
  if (casts.length === 0) return value;
  const text = cursor.src.slice(start, cursor.pos);
  return casts.reduce((v, to) => ({ type: 'cast', to: to.toLowerCase(), value: v, offset: v.offset, text }), value);
}

export function primary(): Node | undefined {
  const found = constant() ?? functionCall() ?? qualifiedName();
  if (found) return found;
  const start = cursor.pos;
  if (!literal(40)) return undefined;
  blanks();
  const inner = expression();
  if (inner) {
    blanks();
    if (literal(41)) return inner;
  }
  cursor.pos = start;
  return undefined;
}

function functionCall(): Node | undefined {
  if (atKeyword()) return undefined;
  const start = cursor.pos;
  const c = cursor.src.charCodeAt(cursor.pos);
  if (!isLetter(c) && c !== 95) return undefined;
  let end = cursor.pos + 1;
  while (isLetter(cursor.src.charCodeAt(end)) || isDigit(cursor.src.charCodeAt(end)) || cursor.src.charCodeAt(end) === 95) end++;
  cursor.pos = end;
  blanks();
  if (literal(40)) {
    blanks();
    const args = functionArgs();
    blanks();
    if (literal(41)) {
      const written = cursor.src.slice(start, end);
      return { type: 'call', name: written.toUpperCase(), written, args: args.args, options: args.options, offset: start, text: cursor.src.slice(start, cursor.pos) };
    }
  }
  cursor.pos = start;
  return undefined;
}

/** FunctionArgs: `*`, or expressions and then an options map, or nothing. */
function functionArgs(): { args: Node[]; options: Node | null } {
  const start = cursor.pos;
  if (literal(STAR)) return { args: [{ type: 'star', offset: start }], options: null };
  const head = expression();
  if (!head) return { args: [], options: null };
  const args = commaList(head, expression);
  const save = cursor.pos;
  blanks();
  if (literal(44)) {
    blanks();
    const options = mapLiteral();
    if (options) return { args, options };
  }
  cursor.pos = save;
  return { args, options: null };
}

