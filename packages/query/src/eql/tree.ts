/**
 * What eql.peggy's actions and the hand-written reader (fast.ts) share, so both build the same tree:
 * the reserved words, how `a op b op c` folds, and what a `\u{...}` escape stands for.
 */

/** Words that are never a field or function name (x-pack/plugin/eql EqlBase.g4 reserves them). */
export const KEYWORDS: ReadonlySet<string> = new Set(['and', 'any', 'by', 'false', 'in', 'like', 'maxspan', 'not', 'null', 'or', 'regex', 'sample', 'sequence', 'true', 'until', 'where', 'with']);

interface Operand {
  offset: number;
}

/**
 * Folds `a op b op c` to the left. `tail` holds what the grammar reads after the head, four
 * parts per operator: blanks, the operator, blanks, the right operand. `fixedOp` names the
 * operator of and/or; otherwise the operator is the one read.
 */
export function chain<T extends Operand>(head: T, tail: Array<[unknown, string, unknown, T]>, kind: string, fixedOp?: string): T {
  return tail.reduce((left, [, op, , right]) => ({ type: kind, op: fixedOp ?? op, left, right, offset: left.offset }) as unknown as T, head);
}

/** The last Unicode code point: `\u{...}` beyond it is no character at all. */
const LAST_CODE_POINT = 0x10ffff;

/**
 * One `\u{...}` escape of a string: its character, or, beyond the last code point, a bad escape
 * the checker reports (check.ts) where String.fromCodePoint would throw out of the parse.
 */
export function unicodePart(hex: string, sequence: string, offset: number): { text: string; bad?: true; sequence?: string; offset?: number } {
  const code = parseInt(hex, 16);
  return code <= LAST_CODE_POINT ? { text: String.fromCodePoint(code) } : { text: '', bad: true, sequence, offset };
}
