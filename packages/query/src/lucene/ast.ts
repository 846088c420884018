import type { Piece, RangeOperator } from '../keyword-match.js';

/** The tree lucene.peggy builds. Offsets count UTF-16 code units into the query text. */

export interface LuceneField {
  name: string;
  offset: number;
}

export type Conjunction = 'AND' | 'OR' | null;
export type Modifier = 'REQUIRED' | 'PROHIBITED' | null;

export interface LuceneClause {
  conj: Conjunction;
  modifier: Modifier;
  clause: LuceneNode;
}

/** `field` is null where the clause names no field: the enclosing `field:(...)` group's, else any field. */
export type LuceneNode =
  | { type: 'all' }
  | { type: 'bool'; clauses: LuceneClause[] }
  | { type: 'group'; field: LuceneField | null; query: LuceneNode }
  | { type: 'exists'; field: LuceneField }
  | { type: 'term'; field: LuceneField | null; pieces: Piece[]; text: string; fuzzy: number | null }
  | { type: 'phrase'; field: LuceneField | null; text: string }
  | { type: 'regex'; field: LuceneField | null; source: string; offset: number }
  | { type: 'range'; field: LuceneField | null; op: RangeOperator; bound: string }
  | { type: 'between'; field: LuceneField | null; lower: string; upper: string; includeLower: boolean; includeUpper: boolean };
