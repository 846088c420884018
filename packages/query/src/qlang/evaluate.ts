import { timeOf, wildcardRegex } from '../text-match.js';
import { arithmetic } from '../arithmetic.js';
import { compileRegex, isRegexProblem, QLANG_RLIKE, type CompiledRegex } from '../regex/index.js';
import type { Expr } from './ast.js';
import { AGGREGATIONS, AGGREGATION_IMPLEMENTATIONS, canonicalFunction, SCALAR_IMPLEMENTATIONS, truncateTime } from './functions.js';
import { OfflineError } from './offline-error.js';

/**
 * Evaluates qlang expressions over one row (a record of columns; a multi-valued column holds an
 * array), or, for STATS, over a group of rows. Logic is three-valued: comparisons with null, or
 * with a multi-valued column (the server's single-value semantics), are null; WHERE keeps rows
 * whose condition is true.
 */

export type Row = Record<string, unknown>;

export { OfflineError };

/** RLIKE patterns are Lucene regexes, matched in time linear in the value (src/query/regex). */
const RLIKE = new Map<string, CompiledRegex>();
function rlike(pattern: string): CompiledRegex {
  let compiled = RLIKE.get(pattern);
  if (!compiled) {
    const made = compileRegex(pattern, QLANG_RLIKE);
    if (isRegexProblem(made)) throw new OfflineError(`RLIKE ${JSON.stringify(pattern)}: ${made.message}`);
    // A long-running emulator previews many rules: keep the patterns of recent ones only.
    if (RLIKE.size >= 1000) RLIKE.clear();
    RLIKE.set(pattern, (compiled = made));
  }
  return compiled;
}

const isNull = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);

const SPAN_UNITS: Record<string, string> = {
  ms: 'millisecond', millisecond: 'millisecond', milliseconds: 'millisecond', s: 'second', sec: 'second', second: 'second', seconds: 'second',
  min: 'minute', minute: 'minute', minutes: 'minute', h: 'hour', hour: 'hour', hours: 'hour', d: 'day', day: 'day', days: 'day',
  m: 'minute', w: 'week', week: 'week', weeks: 'week', mo: 'month', month: 'month', months: 'month', q: 'quarter', quarter: 'quarter',
  quarters: 'quarter', y: 'year', yr: 'year', year: 'year', years: 'year',
};

const CASTS: Record<string, string> = {
  integer: 'TO_INTEGER', int: 'TO_INTEGER', long: 'TO_LONG', double: 'TO_DOUBLE', string: 'TO_STRING', keyword: 'TO_STRING',
  text: 'TO_STRING', boolean: 'TO_BOOLEAN', bool: 'TO_BOOLEAN',
};

export function evaluate(e: Expr, row: Row, group?: Row[]): unknown {
  switch (e.type) {
    case 'literal':
      return e.value;
    case 'field':
      return row[e.name] ?? null;
    case 'span':
      return { amount: e.amount, unit: SPAN_UNITS[e.unit] ?? e.unit };
    case 'param':
      throw new OfflineError(`the query parameter ${e.text} has no value offline`);
    case 'star':
      throw new OfflineError('"*" outside COUNT(*)');
    case 'logical': {
      const left = truth(evaluate(e.left, row, group));
      if (e.op === 'and' && left === false) return false;
      if (e.op === 'or' && left === true) return true;
      const right = truth(evaluate(e.right, row, group));
      if (e.op === 'and') return right === false ? false : left === null || right === null ? null : true;
      return right === true ? true : left === null || right === null ? null : false;
    }
    case 'not': {
      const v = truth(evaluate(e.operand, row, group));
      return v === null ? null : !v;
    }
    case 'negate': {
      const v = evaluate(e.operand, row, group);
      return typeof v === 'number' ? -v : null;
    }
    case 'cast': {
      const fn = CASTS[e.to];
      if (!fn) throw new OfflineError(`the cast ::${e.to} is not evaluated offline`);
      return SCALAR_IMPLEMENTATIONS[fn]!([evaluate(e.value, row, group)]);
    }
    case 'arithmetic': {
      const left = evaluate(e.left, row, group);
      const right = evaluate(e.right, row, group);
      // Date arithmetic with a time span (`@timestamp - 5m`) is not computed here: null would be a wrong answer.
      if (isSpan(left) || isSpan(right)) throw new OfflineError(`cannot evaluate date arithmetic with a time span offline (${e.text ?? e.op})`);
      return arithmetic(e.op, left, right);
    }
    case 'compare':
      return compare(e.op, evaluate(e.left, row, group), evaluate(e.right, row, group));
    case 'is_null': {
      const v = isNull(evaluate(e.left, row, group));
      return e.negated ? !v : v;
    }
    case 'like': {
      const v = evaluate(e.left, row, group);
      if (isNull(v) || Array.isArray(v)) return null;
      const s = String(v);
      const found = e.patterns.some((p) => (e.regex ? rlike(String(p.value)) : wildcardRegex(String(p.value), false)).test(s));
      return e.negated ? !found : found;
    }
    case 'in': {
      const v = evaluate(e.left, row, group);
      if (isNull(v) || Array.isArray(v)) return null;
      const found = e.list.some((item) => compare('==', v, evaluate(item, row, group)) === true);
      return e.negated ? !found : found;
    }
    case 'full_text':
      throw new OfflineError('the full-text operator ":" is not evaluated offline');
    case 'call':
      return call(e, row, group);
  }
}

function call(e: Extract<Expr, { type: 'call' }>, row: Row, group: Row[] | undefined): unknown {
  const name = canonicalFunction(e.name);
  // Options change what a function does (fuzziness, operators): none is implemented here.
  if (e.options) throw new OfflineError(`cannot evaluate ${e.name} with options offline`);
  if (AGGREGATIONS.has(name)) {
    if (!group) throw new OfflineError(`aggregate function ${name} outside STATS`);
    const aggregate = AGGREGATION_IMPLEMENTATIONS[name];
    if (!aggregate) throw new OfflineError(`the aggregation ${name} is not evaluated offline`);
    if (e.args[0]?.type === 'star') return group.length;
    const collected = group.flatMap((r) => {
      const v = evaluate(e.args[0]!, r);
      return isNull(v) ? [] : Array.isArray(v) ? v : [v];
    });
    return aggregate(collected, group.length);
  }
  if (name === 'CASE') {
    // Lazy: conditions in order, then the optional else value.
    for (let i = 0; i + 1 < e.args.length; i += 2) {
      if (truth(evaluate(e.args[i]!, row, group)) === true) return evaluate(e.args[i + 1]!, row, group);
    }
    return e.args.length % 2 === 1 ? evaluate(e.args[e.args.length - 1]!, row, group) : null;
  }
  if (name === 'DATE_TRUNC') {
    const span = evaluate(e.args[0]!, row, group) as { amount: number; unit: string } | null;
    const time = timeOf(evaluate(e.args[1]!, row, group));
    if (!span || typeof span !== 'object' || time === undefined) return null;
    return new Date(truncateTime(time, span.amount, span.unit)).toISOString();
  }
  const scalar = SCALAR_IMPLEMENTATIONS[name];
  // Unknown to svcform (a note at validation) or known without an implementation: never a guess.
  if (!scalar) throw new OfflineError(`the function ${e.name} is not evaluated offline`);
  return scalar(e.args.map((a) => evaluate(a, row, group)));
}

const isSpan = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && 'unit' in v && 'amount' in v;

export function truth(v: unknown): boolean | null {
  if (isNull(v) || Array.isArray(v)) return null;
  return v === true;
}

/** Orders two single values: numbers numerically, strings by code point, a number and a date string as times. */
export function order(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'number' && typeof b === 'string') {
    const t = timeOf(b);
    return t === undefined ? null : a - t;
  }
  if (typeof a === 'string' && typeof b === 'number') {
    const t = timeOf(a);
    return t === undefined ? null : t - b;
  }
  return null;
}

function compare(op: string, a: unknown, b: unknown): boolean | null {
  if (isNull(a) || isNull(b) || Array.isArray(a) || Array.isArray(b)) return null;
  if (op === '=~') return typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : null;
  const o = order(a, b);
  if (o === null) return op === '!=' ? true : op === '==' ? false : null;
  switch (op) {
    case '==':
      return o === 0;
    case '!=':
      return o !== 0;
    case '<':
      return o < 0;
    case '<=':
      return o <= 0;
    case '>':
      return o > 0;
    default:
      return o >= 0;
  }
}
