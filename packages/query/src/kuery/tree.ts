import type { Piece } from '../keyword-match.js';
import type { KueryField, KueryNode, KueryValue } from './ast.js';

/**
 * How kuery's tree is built from what was read: one implementation for the grammar's actions
 * (kuery.peggy imports these) and for the hand-written reader (fast.ts), so both build the same tree.
 */

/** A `*` in an unquoted value (one object, told apart from an escaped `\*` by identity). */
export const WILDCARD = { wildcard: '*' } as const;

/** What one character rule of an unquoted value yields: a run of plain characters, an escaped one, or the wildcard. */
export type UnquotedPart = string | { escaped: string } | typeof WILDCARD;

/**
 * An unquoted value from its parts: parts at the end that are white space are trimmed (a plain
 * part counts as white space if it contains any, as the grammar has always tested it), escaped
 * ones are kept as written, and `*` becomes a wildcard of the pattern.
 */
export function unquoted(parts: UnquotedPart[], offset: number): KueryValue {
  let end = parts.length;
  while (end > 0 && typeof parts[end - 1] === 'string' && /\s/.test(parts[end - 1] as string)) end--;
  const pattern: Piece[] = [];
  let text = '';
  for (let i = 0; i < end; i++) {
    const part = parts[i];
    if (part === WILDCARD) {
      pattern.push({ wildcard: '*' });
      text += '*';
      continue;
    }
    const ch = typeof part === 'string' ? part : (part as { escaped: string }).escaped;
    text += ch;
    if (typeof pattern[pattern.length - 1] === 'string') pattern[pattern.length - 1] += ch;
    else pattern.push(ch);
  }
  return { quoted: false, text, pattern, offset };
}

export function quoted(chars: string[], offset: number): KueryValue {
  const text = chars.join('');
  return { quoted: true, text, pattern: [text], offset };
}

function isWildcardOnly(value: KueryValue): boolean {
  return !value.quoted && value.pattern.length === 1 && typeof value.pattern[0] !== 'string';
}

export function asField(value: KueryValue): KueryField {
  return { name: value.text, offset: value.offset, wildcard: !value.quoted && value.pattern.some((p) => typeof p !== 'string') };
}

/** A list of values: one value, or and/or/not of lists, as the grammar reads `field:(a or not b)`. */
export type ValueList = { type: 'value'; value: KueryValue } | { type: 'or' | 'and'; items: ValueList[] } | { type: 'not'; item: ValueList };

/** What follows a field: a nested query, a range or a list of values. */
export type FieldTail = { type: 'nested'; query: KueryNode } | { type: 'range'; op: '<=' | '>=' | '<' | '>'; value: KueryValue } | { type: 'list'; list: ValueList };

/** A value list (field:(a or b and not c)) becomes the same tree of queries, each on the field. */
function bindField(field: KueryField, list: ValueList): KueryNode {
  if (list.type === 'value') {
    return isWildcardOnly(list.value) ? { type: 'exists', field } : { type: 'match', field, value: list.value };
  }
  if (list.type === 'not') return { type: 'not', item: bindField(field, list.item) };
  return { type: list.type, items: list.items.map((item) => bindField(field, item)) };
}

export function withField(field: KueryField, tail: FieldTail): KueryNode {
  if (tail.type === 'nested') return { type: 'nested', field, query: tail.query };
  if (tail.type === 'range') return { type: 'range', field, op: tail.op, value: tail.value };
  return bindField(field, tail.list);
}

export function combine<T>(type: 'or' | 'and', head: T, tail: T[]): T | { type: 'or' | 'and'; items: T[] } {
  return tail.length === 0 ? head : { type, items: [head, ...tail] };
}
