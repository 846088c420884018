/**
 * What qlang.peggy's actions and the hand-written reader (fast.ts) share, so both build the same
 * tree: the reserved words, the command words, the time units, and how `a op b op c` folds.
 */

/** Words that are never a field or function name. */
export const KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'is', 'null', 'true', 'false', 'like', 'rlike', 'in', 'by', 'as', 'asc', 'desc', 'nulls', 'on', 'with', 'metadata']);

/** The processing commands the grammar reads: any other word after `|` is an unknown command. */
export const COMMANDS: ReadonlySet<string> = new Set(['where', 'eval', 'stats', 'keep', 'drop', 'rename', 'limit', 'sort', 'mv_expand', 'dissect', 'grok', 'enrich', 'lookup', 'inline', 'inlinestats', 'completion', 'rerank', 'change_point', 'sample', 'fork', 'fuse', 'uri_parts', 'metrics_info']);

/**
 * Every spelling of a time span's unit (the search backend's EsqlDataTypeConverter.INTERVALS),
 * lower-case. A unit is the whole word after the amount, as the server reads an identifier there.
 */
export const TIME_UNITS: ReadonlySet<string> = new Set([
  'milliseconds', 'millisecond', 'ms', 'seconds', 'second', 'sec', 's', 'minutes', 'minute', 'min', 'm', 'hours', 'hour', 'h',
  'days', 'day', 'd', 'weeks', 'week', 'w', 'months', 'month', 'mo', 'quarters', 'quarter', 'q', 'years', 'year', 'yr', 'y',
]);

interface Operand {
  offset: number;
}

/**
 * Folds `a op b op c` to the left. `tail` holds what the grammar reads after the head, four parts
 * per operator: blanks, the operator, blanks, the right operand. `fixedOp` names the operator of
 * and/or; otherwise the operator is the one read.
 */
export function chain<T extends Operand>(head: T, tail: Array<[unknown, string, unknown, T]>, kind: string, fixedOp?: string): T {
  return tail.reduce((left, [, op, , right]) => ({ type: kind, op: fixedOp ?? op, left, right, offset: left.offset }) as unknown as T, head);
}
