import { wildcardMatcher, wildcardPattern, type TextTest } from './regex/wildcard.js';

/**
 * How kuery and lucene compare an event's value with a query's value, offline. svcform has no
 * index mappings, so every field is treated as a `keyword` field would be: a term matches a whole
 * value, case-sensitively (`cmd.exe` does not match `CMD.EXE`, nor `cmd` match `cmd.exe arg`);
 * wildcards (`*` any run of characters, lucene's `?` one character) match whole values too. Numbers
 * and booleans match their text form, and a numeric term matches a numeric value of the same
 * number (`1.0` matches 1). Ranges compare numbers as numbers, dates (ISO 8601 on both sides) as
 * instants, and anything else as strings in code-unit order, as keyword ranges do.
 */

export type ValueTest = (value: unknown) => boolean;

/** One piece of a value pattern: literal text or a wildcard. */
export type Piece = string | { wildcard: '*' | '?' };

export function hasWildcard(pieces: Piece[]): boolean {
  return pieces.some((p) => typeof p !== 'string');
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

function numberOf(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** A term or wildcard pattern as a test of one value. */
export function termTest(pieces: Piece[]): ValueTest {
  if (!hasWildcard(pieces)) {
    const text = pieces.join('');
    const number = numberOf(text);
    return (value) => {
      if (typeof value === 'number') return value === number || String(value) === text;
      return scalarText(value) === text;
    };
  }
  const pattern = wildcardMatcher(wildcardPattern(pieces), false);
  return (value) => {
    const text = scalarText(value);
    return text !== undefined && pattern.test(text);
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Negative, zero or positive as `value` sorts before, with or after `bound`; undefined when they do not compare. */
export function compareWithBound(value: unknown, bound: string): number | undefined {
  const boundNumber = numberOf(bound);
  if (typeof value === 'number') return boundNumber === undefined ? undefined : value - boundNumber;
  const text = scalarText(value);
  if (text === undefined) return undefined;
  if (ISO_DATE.test(text) && ISO_DATE.test(bound)) {
    const a = Date.parse(text);
    const b = Date.parse(bound);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  }
  const valueNumber = numberOf(text);
  if (valueNumber !== undefined && boundNumber !== undefined) return valueNumber - boundNumber;
  return text < bound ? -1 : text > bound ? 1 : 0;
}

export type RangeOperator = '<' | '<=' | '>' | '>=';

export function rangeTest(op: RangeOperator, bound: string): ValueTest {
  return (value) => {
    const c = compareWithBound(value, bound);
    if (c === undefined) return false;
    return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  };
}

/** Lucene's fuzzy term (`term~2`): a value within that many edits (insert, delete, substitute, swap). */
export function fuzzyTest(text: string, distance: number): ValueTest {
  return (value) => {
    const candidate = scalarText(value);
    return candidate !== undefined && Math.abs(candidate.length - text.length) <= distance && editDistance(candidate, text) <= distance;
  };
}

/** Whether a whole value matches a regular expression (lucene regexes match whole values). */
export function regexTest(regex: TextTest): ValueTest {
  return (value) => {
    const text = scalarText(value);
    return text !== undefined && regex.test(text);
  };
}

function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
