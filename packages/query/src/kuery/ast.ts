import type { Piece, RangeOperator } from '../keyword-match.js';

/** The tree kuery.peggy builds. Offsets count UTF-16 code units into the query text. */

export interface KueryField {
  name: string;
  offset: number;
  /** `process.*`: a pattern over field names, not one field. */
  wildcard: boolean;
}

export interface KueryValue {
  quoted: boolean;
  /** The value as written, unescaped (wildcards shown as `*`). */
  text: string;
  pattern: Piece[];
  offset: number;
}

export type KueryNode =
  | { type: 'all' }
  | { type: 'or' | 'and'; items: KueryNode[] }
  | { type: 'not'; item: KueryNode }
  | { type: 'match'; field: KueryField | null; value: KueryValue }
  | { type: 'exists'; field: KueryField }
  | { type: 'range'; field: KueryField; op: RangeOperator; value: KueryValue }
  | { type: 'nested'; field: KueryField; query: KueryNode };
