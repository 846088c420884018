/**
 * What svcform knows of a rule's query, whatever its language: where it is malformed, which
 * fields it names, and which alerts it would raise over a set of sample events. Each language lives
 * in its own folder (src/query/<language>/index.ts, exporting `language`), with its grammar beside
 * it (<name>.peggy, turned into a parser at build time by scripts/build-grammars.mjs).
 */

/** The query languages rules use (the rule's `language`). */
export type QueryLanguageName = 'kuery' | 'lucene' | 'eql' | 'qlang';

/** Where and why a query is malformed. Offsets count UTF-16 code units into the query text. */
export interface QueryProblem {
  offset: number;
  /** How many code units the problem spans, when known (at least 1 is shown). */
  length?: number;
  /** Says what was expected, e.g. `expected ")"`; no position and no language name in it. */
  message: string;
}

/** A field the query names, and where it names it (offset into the query text). */
export interface FieldUse {
  name: string;
  offset: number;
}

/** A sample event: nested objects, dotted keys, or both; arrays hold several values of one field. */
export type EventDoc = Record<string, unknown>;

export interface RunOptions {
  /** The field that orders events for sequences and time windows. Default `@timestamp`. */
  timestampField?: string;
  /** eql: the field that holds an event's category (a rule's `event_category_override`). Default `event.category`. */
  eventCategoryField?: string;
  /** eql: the field that orders events of equal timestamp (a rule's `tiebreaker_field`). */
  tiebreakerField?: string;
}

/**
 * One alert's worth of result: the event(s) that matched (one for a plain query, several for an
 * eql sequence, the group's events for a threshold), and for aggregating languages the result row.
 */
export interface QueryMatch {
  events: EventDoc[];
  row?: Record<string, unknown>;
}

export interface CompiledQuery {
  language: QueryLanguageName;
  /** Every field the query names, in the order they appear (duplicates kept: each has its place). */
  fields: FieldUse[];
  /** The index patterns the query itself names (qlang's FROM); undefined when the caller chooses them. */
  indices?: string[];
  /**
   * What the offline check could not judge (an unknown function or command of a language that
   * moves faster than svcform): the server may well accept it, so these are warnings, never errors.
   */
  notes?: QueryProblem[];
  /** Evaluates the query offline over events given in any order. */
  run(events: EventDoc[], options?: RunOptions): QueryMatch[];
}

export type ParseOutcome = { ok: true; query: CompiledQuery } | { ok: false; problem: QueryProblem };

export interface QueryLanguage {
  name: QueryLanguageName;
  parse(text: string): ParseOutcome;
}
