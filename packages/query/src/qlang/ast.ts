/** The tree qlang.peggy builds. Expressions carry their offset and source text. */

interface Node {
  offset: number;
  /** The expression as written: the name of a column no `name =` names. */
  text?: string;
}

export interface FieldRef extends Node {
  type: 'field';
  name: string;
}

export interface Literal extends Node {
  type: 'literal';
  value: unknown;
}

export interface Call extends Node {
  type: 'call';
  /** Upper-cased: function names are case-insensitive. */
  name: string;
  /** The name as written, for messages. */
  written: string;
  args: Expr[];
  /** The options map written after the arguments (`MATCH(f, "x", {"fuzziness": 1})`). */
  options: MapLiteral | null;
}

/** `{"key": constant or map, ...}`: function and command options. */
export interface MapLiteral extends Node {
  type: 'map';
  entries: Array<{ key: string; value: Literal | MapLiteral }>;
}

export type Expr =
  | FieldRef
  | Literal
  | Call
  | (Node & { type: 'star' })
  | (Node & { type: 'param'; name: string })
  | (Node & { type: 'span'; amount: number; unit: string })
  | (Node & { type: 'logical'; op: 'and' | 'or'; left: Expr; right: Expr })
  | (Node & { type: 'not'; operand: Expr })
  | (Node & { type: 'negate'; operand: Expr })
  | (Node & { type: 'cast'; to: string; value: Expr })
  | (Node & { type: 'compare'; op: '==' | '!=' | '=~' | '<' | '<=' | '>' | '>='; left: Expr; right: Expr })
  | (Node & { type: 'arithmetic'; op: '+' | '-' | '*' | '/' | '%'; left: Expr; right: Expr })
  | (Node & { type: 'is_null'; negated: boolean; left: Expr })
  | (Node & { type: 'like'; regex: boolean; negated: boolean; left: Expr; patterns: Literal[] })
  | (Node & { type: 'in'; negated: boolean; left: Expr; list: Expr[] })
  | (Node & { type: 'full_text'; left: Expr; query: Literal });

export interface Assignment {
  name: FieldRef | null;
  value: Expr;
  /** STATS only: the rows this aggregation counts (`COUNT(*) WHERE cond`). */
  filter?: Expr;
}

export interface NamePattern {
  name: string;
  offset: number;
}

export interface SortKey {
  value: Expr;
  descending: boolean;
  nulls: 'first' | 'last' | null;
  offset: number;
}

export type SourceCommand =
  | { command: 'from'; timeSeries: boolean; indices: NamePattern[]; metadata: NamePattern[]; offset: number }
  | { command: 'row'; fields: Assignment[]; offset: number }
  | { command: 'show'; offset: number };

/** FUSE `SCORE BY`, `KEY BY`, `GROUP BY` and `WITH` clauses. */
export interface FuseClause {
  clause: 'score' | 'key' | 'group' | 'with';
  fields: FieldRef[];
  options?: MapLiteral;
}

export type ProcessingCommand =
  | { command: 'where'; condition: Expr; offset: number }
  | { command: 'eval'; fields: Assignment[]; offset: number }
  | { command: 'stats' | 'inline_stats'; aggregates: Assignment[]; by: Assignment[]; offset: number }
  | { command: 'keep' | 'drop'; patterns: NamePattern[]; offset: number }
  | { command: 'rename'; renames: Array<{ from: FieldRef; to: FieldRef }>; offset: number }
  /** `value` is null for a query parameter (`LIMIT ?n`), named in `parameter`. */
  | { command: 'limit'; count: { value: number | null; parameter?: string; offset: number }; offset: number }
  | { command: 'sort'; keys: SortKey[]; offset: number }
  | { command: 'mv_expand'; field: FieldRef; offset: number }
  | { command: 'dissect'; input: Expr; pattern: Literal; separator: Literal | null; offset: number }
  | { command: 'grok'; input: Expr; patterns: Literal[]; offset: number }
  | { command: 'enrich'; policy: string; on: FieldRef | null; with: Array<{ name: FieldRef; field: FieldRef }>; offset: number }
  | { command: 'lookup_join'; index: NamePattern; on: Expr[]; offset: number }
  | { command: 'completion'; target: FieldRef | null; prompt: Expr; options: MapLiteral | null; offset: number }
  | { command: 'rerank'; target: FieldRef | null; query: Expr; fields: Assignment[]; options: MapLiteral | null; offset: number }
  | { command: 'change_point'; value: FieldRef; key: FieldRef | null; typeName: FieldRef | null; pvalueName: FieldRef | null; offset: number }
  | { command: 'sample'; probability: Expr; offset: number }
  | { command: 'fork'; branches: ProcessingCommand[][]; offset: number }
  | { command: 'fuse'; method: string | null; clauses: FuseClause[]; offset: number }
  | { command: 'uri_parts'; target: FieldRef; input: Expr; offset: number }
  | { command: 'metrics_info'; offset: number }
  /** A command word the grammar does not know: the server may (a note, not an error). */
  | { command: 'unknown'; name: string; length: number; offset: number };

export interface Query {
  source: SourceCommand;
  commands: ProcessingCommand[];
}

/** The column name of an assignment: its `name =`, else the expression as written. */
export function columnName(a: Assignment): string {
  if (a.name) return a.name.name;
  if (a.value.type === 'field') return a.value.name;
  return (a.value.text ?? '').replace(/\s+/g, ' ').trim();
}
