import { caseKey } from './case-forms.js';

/**
 * Wildcard patterns (`*` any run of characters, `?` one character) matched without backtracking:
 * the classic two-pointer walk that, on a mismatch, moves only the last `*` forward. Its work is
 * at most the value's length times the pattern's, however many stars the pattern has. Characters
 * are code points, as the backend's wildcard automaton reads them.
 */

export const STAR = -1;
export const ANY_ONE = -2;

/** A pattern as code points, with STAR and ANY_ONE for the wildcards. */
export type WildcardPattern = readonly number[];

export interface TextTest {
  test(text: string): boolean;
}

function codePoints(text: string, fold: boolean): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(fold ? caseKey(ch.codePointAt(0)!) : ch.codePointAt(0)!);
  return out;
}

/** A pattern from its parts: literal text, or a wildcard. */
export function wildcardPattern(parts: ReadonlyArray<string | { wildcard: '*' | '?' }>): number[] {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'object') out.push(part.wildcard === '*' ? STAR : ANY_ONE);
    else out.push(...codePoints(part, false));
  }
  return out;
}

/** A pattern in which only `*` is special (index patterns, find filters); every other character is itself. */
export function starPattern(text: string): number[] {
  return wildcardPattern(text.split('*').flatMap((part, i) => (i === 0 ? [part] : [{ wildcard: '*' as const }, part])));
}

/** eql and qlang wildcard text: `*`, `?`, and a backslash that makes the next character literal. */
export function parseWildcardText(text: string): number[] {
  const out: number[] = [];
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\\' && i + 1 < chars.length) out.push(chars[++i]!.codePointAt(0)!);
    else out.push(ch === '*' ? STAR : ch === '?' ? ANY_ONE : ch.codePointAt(0)!);
  }
  return out;
}

function matches(pattern: WildcardPattern, value: number[]): boolean {
  let p = 0;
  let v = 0;
  let star = -1;
  let resume = 0;
  while (v < value.length) {
    if (p < pattern.length && (pattern[p] === ANY_ONE || pattern[p] === value[v])) {
      p++;
      v++;
    } else if (p < pattern.length && pattern[p] === STAR) {
      star = p++;
      resume = v;
    } else if (star >= 0) {
      p = star + 1;
      v = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === STAR) p++;
  return p === pattern.length;
}

/** A test of whole values against the pattern; `caseInsensitive` compares case-folded characters. */
export function wildcardMatcher(pattern: WildcardPattern, caseInsensitive: boolean): TextTest {
  const folded = caseInsensitive ? pattern.map((c) => (c < 0 ? c : caseKey(c))) : pattern;
  return { test: (text) => matches(folded, codePoints(text, caseInsensitive)) };
}
