import { fieldValues } from '../event-fields.js';
import type { EventDoc } from '../types.js';
import { wildcardMatch } from '../text-match.js';
import { compileRegex, EQL_REGEX, EQL_REGEX_INSENSITIVE, isRegexProblem } from '../regex/index.js';
import type { TextTest } from '../regex/wildcard.js';
import { arithmetic } from '../arithmetic.js';
import type { Expr, Literal } from './ast.js';
import { functionSpec } from './functions.js';

/**
 * Evaluates an eql expression over one event with three-valued logic: a comparison with a missing
 * field is null (neither true nor false), `not null` is null, and an event matches only when its
 * condition is true. `field == null` and `field != null` test presence. A field with several
 * values compares true when any value does.
 */

type Truth = boolean | null;

export function fieldValue(doc: EventDoc, name: string, index: number[] = []): unknown {
  let values = fieldValues(doc, name);
  for (const i of index) values = i < values.length ? [values[i]] : [];
  if (values.length === 0) return null;
  return values.length === 1 ? values[0] : values;
}

export function evaluate(e: Expr, doc: EventDoc): unknown {
  switch (e.type) {
    case 'literal':
      return e.value;
    case 'field':
      return fieldValue(doc, e.name, e.index);
    case 'call': {
      const spec = functionSpec(e.name);
      if (!spec) throw new Error(`unknown function "${e.name}"`);
      return spec.apply(e.args.map((a) => evaluate(a, doc)), e.insensitive);
    }
    case 'logical': {
      const left = truth(evaluate(e.left, doc));
      if (e.op === 'and' && left === false) return false;
      if (e.op === 'or' && left === true) return true;
      const right = truth(evaluate(e.right, doc));
      if (e.op === 'and') return right === false ? false : left === null || right === null ? null : true;
      return right === true ? true : left === null || right === null ? null : false;
    }
    case 'not': {
      const v = truth(evaluate(e.operand, doc));
      return v === null ? null : !v;
    }
    case 'negate': {
      const v = evaluate(e.operand, doc);
      return typeof v === 'number' ? -v : null;
    }
    case 'arithmetic':
      return arithmetic(e.op, evaluate(e.left, doc), evaluate(e.right, doc));
    case 'compare':
      return compare(e.op, evaluate(e.left, doc), evaluate(e.right, doc), e.right.type === 'literal' && e.right.value === null);
    case 'in': {
      const left = evaluate(e.left, doc);
      if (left === null) return null;
      const insensitive = e.op === 'in~';
      const found = e.list.some((item) => anyValue(left, (l) => equalValues(l, evaluate(item, doc), insensitive)));
      return e.negated ? !found : found;
    }
    case 'match': {
      const left = evaluate(e.left, doc);
      if (left === null) return null;
      return anyValue(left, (l) => e.patterns.some((p) => matches(e.op, l, p)));
    }
  }
}

/** Whether the condition holds (strictly true) for the event. */
export function holds(e: Expr, doc: EventDoc): boolean {
  return truth(evaluate(e, doc)) === true;
}

function truth(v: unknown): Truth {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.some((x) => x === true);
  return v === true;
}

function anyValue(v: unknown, test: (one: unknown) => boolean): boolean {
  return Array.isArray(v) ? v.some(test) : test(v);
}

function equalValues(a: unknown, b: unknown, insensitive: boolean): boolean {
  if (typeof a === 'string' && typeof b === 'string') return insensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
  if (typeof a === 'number' && typeof b === 'string') return b.trim() !== '' && a === Number(b);
  if (typeof a === 'string' && typeof b === 'number') return a.trim() !== '' && Number(a) === b;
  return a === b;
}

function order(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b))) return a - Number(b);
  if (typeof a === 'string' && typeof b === 'number' && a.trim() !== '' && !Number.isNaN(Number(a))) return Number(a) - b;
  return null;
}

function compare(op: string, left: unknown, right: unknown, againstNull: boolean): Truth {
  if (againstNull) {
    if (op === '==') return left === null;
    if (op === '!=') return left !== null;
  }
  if (left === null || right === null) return null;
  if (Array.isArray(right)) return null;
  const test = (l: unknown): boolean => {
    if (op === '==') return equalValues(l, right, false);
    if (op === '!=') return !equalValues(l, right, false);
    const o = order(l, right);
    if (o === null) return false;
    return op === '<' ? o < 0 : op === '<=' ? o <= 0 : op === '>' ? o > 0 : o >= 0;
  };
  // `!=` on a multi-valued field holds when no value equals, the rest when any value satisfies.
  if (op === '!=' && Array.isArray(left)) return left.every(test);
  return anyValue(left, test);
}

/** Each pattern compiled once: a literal belongs to one match, so to one operator. */
const compiledPatterns = new WeakMap<Literal, TextTest>();

const NEVER: TextTest = { test: () => false };

function patternTest(op: string, pattern: Literal & { value: string }): TextTest {
  let compiled = compiledPatterns.get(pattern);
  if (!compiled) {
    if (op === 'regex' || op === 'regex~') {
      // Lucene's RegExp syntax, as the backend's regexp query reads eql's regex (src/query/regex).
      const regex = compileRegex(pattern.value, op === 'regex' ? EQL_REGEX : EQL_REGEX_INSENSITIVE);
      compiled = isRegexProblem(regex) ? NEVER : regex;
    } else compiled = wildcardMatch(pattern.value, op !== 'like');
    compiledPatterns.set(pattern, compiled);
  }
  return compiled;
}

function matches(op: string, value: unknown, pattern: Literal): boolean {
  if (typeof pattern.value !== 'string') return false;
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
  if (text === null) return false;
  // `:` and `like~` ignore case, `like` does not; all three read * and ? as wildcards.
  return patternTest(op, pattern as Literal & { value: string }).test(text);
}
