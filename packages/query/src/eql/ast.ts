/** The tree eql.peggy builds. Every node carries its offset into the query text. */

export interface Literal {
  type: 'literal';
  value: string | number | boolean | null;
  offset: number;
  /** Backslash sequences eql does not know (`"C:\Windows"`), reported by the checker. */
  escapes?: Array<{ sequence: string; offset: number }>;
  singleQuoted?: boolean;
}

export interface FieldRef {
  type: 'field';
  name: string;
  /** `?field`: a field the mapping may lack; absent it reads as null rather than an error. */
  optional: boolean;
  /** `args[0]`: positions into the field's values. */
  index: number[];
  offset: number;
}

export interface Call {
  type: 'call';
  name: string;
  /** `startsWith~(...)`: the case-insensitive variant. */
  insensitive: boolean;
  args: Expr[];
  offset: number;
}

export type Expr =
  | Literal
  | FieldRef
  | Call
  | { type: 'logical'; op: 'and' | 'or'; left: Expr; right: Expr; offset: number }
  | { type: 'not'; operand: Expr; offset: number }
  | { type: 'negate'; operand: Expr; offset: number }
  | { type: 'compare'; op: '==' | '!=' | '<' | '<=' | '>' | '>='; left: Expr; right: Expr; offset: number }
  | { type: 'arithmetic'; op: '+' | '-' | '*' | '/' | '%'; left: Expr; right: Expr; offset: number }
  | { type: 'in'; op: 'in' | 'in~'; negated: boolean; left: Expr; list: Expr[]; offset: number }
  | { type: 'match'; op: ':' | 'like' | 'like~' | 'regex' | 'regex~'; left: Expr; patterns: Literal[]; offset: number };

export interface EventQuery {
  kind: 'event';
  /** `any` (the keyword) matches every category; a name or string matches that category. */
  category: { name: string; any?: boolean; offset: number };
  condition: Expr;
  offset: number;
}

export interface Step {
  query: EventQuery;
  by: Expr[];
  runs: { value: number; offset: number } | null;
  /** `![...]`: a sequence matches only if no such event falls between its neighbours. */
  missing: boolean;
  offset: number;
}

export interface TimeSpan {
  amount: number;
  unit: string;
  offset: number;
}

export interface Pipe {
  name: string;
  /** Parsed as expressions, so that a wrong argument is reported by the checker, not as a syntax error. */
  args: Expr[];
  offset: number;
}

export type Query =
  | (EventQuery & { pipes: Pipe[] })
  | { kind: 'sequence'; by: Expr[]; /** Where a `by` after `with maxspan` (or a second one) starts. */ misplacedBy: number | null; maxspan: TimeSpan | null; steps: Step[]; until: Step | null; pipes: Pipe[]; offset: number }
  | { kind: 'sample'; by: Expr[]; steps: Step[]; pipes: Pipe[]; offset: number };
