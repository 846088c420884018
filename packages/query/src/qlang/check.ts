import type { FieldUse, QueryProblem } from '../types.js';
import { closest } from '../suggest.js';
import { columnName, type Assignment, type Expr, type ProcessingCommand, type Query } from './ast.js';
import { AGGREGATIONS, canonicalFunction, FUNCTION_NAMES, isKnownFunction, TIME_SERIES_AGGREGATIONS } from './functions.js';

/**
 * What the grammar accepts but the server refuses for sure: aggregations outside STATS and INLINE
 * STATS or nested in one another, `*` outside COUNT, a STATS with nothing to compute, unknown
 * METADATA fields, a SAMPLE probability outside (0, 1). What the server may know and svcform does
 * not (a function or command newer than this list) is a note, never an error: the server decides.
 * Also collects the fields the query reads from the source: names that EVAL, STATS, RENAME,
 * DISSECT, GROK, ENRICH or the newer commands created earlier in the pipe are columns, not source
 * fields; after an unknown command any name may be a column it made, so none is collected.
 */

const METADATA_FIELDS = new Set(['_id', '_index', '_version', '_score', '_source', '_ignored', '_index_mode', '_tsid']);

/** The processing commands of the language, for "did you mean" on an unknown one. */
const COMMAND_NAMES = [
  'WHERE', 'EVAL', 'STATS', 'KEEP', 'DROP', 'RENAME', 'LIMIT', 'SORT', 'MV_EXPAND', 'DISSECT', 'GROK', 'ENRICH', 'LOOKUP JOIN',
  'INLINE STATS', 'COMPLETION', 'RERANK', 'CHANGE_POINT', 'SAMPLE', 'FORK', 'FUSE', 'URI_PARTS', 'METRICS_INFO',
];

type AggregationContext = 'allowed' | 'inside' | 'forbidden';

/** The columns a point of the pipe has made, and whether an unknown command made any it cannot name. */
interface Columns {
  names: Set<string>;
  /** URI_PARTS makes `<name>.<part>` columns. */
  prefixes: string[];
  open: boolean;
}

export function checkQuery(query: Query): { problem?: QueryProblem; fields: FieldUse[]; notes: QueryProblem[] } {
  const problems: QueryProblem[] = [];
  const notes: QueryProblem[] = [];
  const fields: FieldUse[] = [];
  const report = (offset: number, message: string, length = 1) => problems.push({ offset, length, message });

  const isColumn = (name: string, columns: Columns) => columns.names.has(name) || columns.prefixes.some((p) => name.startsWith(`${p}.`));

  const visit = (e: Expr, inAggregation: AggregationContext, columns: Columns): void => {
    switch (e.type) {
      case 'field':
        if (isColumn(e.name, columns)) return;
        if (METADATA_FIELDS.has(e.name)) report(e.offset, `${e.name} is a metadata field: name it in FROM … METADATA ${e.name}`, e.name.length);
        else if (!columns.open) fields.push({ name: e.name, offset: e.offset });
        return;
      case 'star':
        report(e.offset, '"*" is only allowed in COUNT(*)');
        return;
      case 'call': {
        const star = e.args.length === 1 && e.args[0]!.type === 'star';
        if (!isKnownFunction(e.name)) {
          // Open world: a newer server may have it. Its arguments are still read, as they would be.
          // One or two letters are near too many names for a suggestion to mean anything.
          const near = e.name.length > 2 ? closest(e.name, FUNCTION_NAMES) : undefined;
          notes.push({ offset: e.offset, length: e.written.length, message: `unknown function ${e.written}${near ? `; did you mean ${near}?` : ''}` });
          if (!star) for (const a of e.args) visit(a, inAggregation, columns);
          return;
        }
        const name = canonicalFunction(e.name);
        const aggregation = AGGREGATIONS.has(name);
        if (aggregation && inAggregation === 'forbidden') report(e.offset, `aggregate function ${name} is only allowed in STATS`, e.name.length);
        if (aggregation && inAggregation === 'inside' && !TIME_SERIES_AGGREGATIONS.has(name)) report(e.offset, `aggregate function ${name} cannot be nested in another aggregation`, e.name.length);
        if (star && name !== 'COUNT') report(e.args[0]!.offset, '"*" is only allowed in COUNT(*)');
        if (!star) for (const a of e.args) visit(a, aggregation ? 'inside' : inAggregation, columns);
        return;
      }
      case 'literal':
      case 'param':
      case 'span':
        return;
      case 'not':
      case 'negate':
        visit(e.operand, inAggregation, columns);
        return;
      case 'cast':
        visit(e.value, inAggregation, columns);
        return;
      case 'full_text': {
        // The match operator takes a field, optionally cast, on its left (Expression.g4 matchBooleanExpression).
        const target = e.left.type === 'cast' ? e.left.value : e.left;
        if (target.type !== 'field') report(e.left.offset, 'the match operator ":" needs a field on its left', (e.left.text ?? ' ').length);
        visit(e.left, inAggregation, columns);
        return;
      }
      case 'is_null':
      case 'like':
        visit(e.left, inAggregation, columns);
        return;
      case 'in':
        visit(e.left, inAggregation, columns);
        for (const item of e.list) visit(item, inAggregation, columns);
        return;
      default:
        visit(e.left, inAggregation, columns);
        visit(e.right, inAggregation, columns);
    }
  };

  const aggregate = (aggregates: Assignment[], by: Assignment[], columns: Columns) => {
    for (const f of aggregates) {
      visit(f.value, 'allowed', columns);
      if (f.filter) visit(f.filter, 'forbidden', columns);
    }
    for (const f of by) visit(f.value, 'forbidden', columns);
    for (const f of [...aggregates, ...by]) columns.names.add(columnName(f));
  };

  const checkCommand = (c: ProcessingCommand, columns: Columns): void => {
    switch (c.command) {
      case 'where':
        visit(c.condition, 'forbidden', columns);
        break;
      case 'eval':
        for (const f of c.fields) {
          visit(f.value, 'forbidden', columns);
          columns.names.add(columnName(f));
        }
        break;
      case 'stats':
        if (c.aggregates.length === 0 && c.by.length === 0) report(c.offset, 'STATS needs at least one aggregation or BY grouping');
        aggregate(c.aggregates, c.by, columns);
        break;
      case 'inline_stats':
        // The same aggregations as STATS; the rows and their columns stay.
        aggregate(c.aggregates, c.by, columns);
        break;
      case 'keep':
      case 'drop':
        for (const p of c.patterns) {
          if (p.name.includes('*') || isColumn(p.name, columns)) continue;
          if (METADATA_FIELDS.has(p.name)) report(p.offset, `${p.name} is a metadata field: name it in FROM … METADATA ${p.name}`, p.name.length);
          else if (!columns.open) fields.push({ name: p.name, offset: p.offset });
        }
        break;
      case 'rename':
        for (const r of c.renames) {
          visit(r.from, 'forbidden', columns);
          columns.names.add(r.to.name);
        }
        break;
      case 'sort':
        for (const k of c.keys) visit(k.value, 'forbidden', columns);
        break;
      case 'mv_expand':
        visit(c.field, 'forbidden', columns);
        break;
      case 'dissect':
      case 'grok': {
        visit(c.input, 'forbidden', columns);
        const patterns = c.command === 'grok' ? c.patterns : [c.pattern];
        // The keys the pattern extracts become columns: %{name} in both languages (grok %{PATTERN:name}).
        for (const p of patterns) for (const m of String(p.value).matchAll(/%\{(?:[A-Z0-9_]+:)?(?:[+?&*]?)([^}:]+)(?::[a-z]+)?\}/g)) columns.names.add(m[1]!);
        break;
      }
      case 'enrich':
        if (c.on) visit(c.on, 'forbidden', columns);
        for (const w of c.with) columns.names.add(w.name.name);
        break;
      case 'lookup_join':
        // `ON a` names a field of both sides; in `ON a == b` the right side is the lookup index's.
        for (const condition of c.on) visit(condition.type === 'compare' ? condition.left : condition, 'forbidden', columns);
        break;
      case 'completion':
        visit(c.prompt, 'forbidden', columns);
        columns.names.add(c.target?.name ?? 'completion');
        break;
      case 'rerank':
        visit(c.query, 'forbidden', columns);
        for (const f of c.fields) visit(f.value, 'forbidden', columns);
        columns.names.add(c.target?.name ?? '_score');
        break;
      case 'change_point':
        visit(c.value, 'forbidden', columns);
        if (c.key) visit(c.key, 'forbidden', columns);
        columns.names.add(c.typeName?.name ?? 'type');
        columns.names.add(c.pvalueName?.name ?? 'pvalue');
        break;
      case 'sample': {
        const p = c.probability;
        if (p.type === 'literal' && !(typeof p.value === 'number' && p.value > 0 && p.value < 1)) report(p.offset, 'SAMPLE probability must be a number between 0 and 1, exclusive', p.text?.length ?? 1);
        break;
      }
      case 'fork': {
        // Each branch continues the pipe as it stands; after FORK a row has the columns of any branch, and _fork.
        const branches = c.branches.map((branch) => {
          const own: Columns = { names: new Set(columns.names), prefixes: [...columns.prefixes], open: columns.open };
          for (const command of branch) checkCommand(command, own);
          return own;
        });
        for (const own of branches) {
          for (const n of own.names) columns.names.add(n);
          columns.prefixes.push(...own.prefixes.filter((p) => !columns.prefixes.includes(p)));
          columns.open ||= own.open;
        }
        columns.names.add('_fork');
        break;
      }
      case 'fuse':
        // Its keys are the _score, _id, _index and _fork columns FORK and METADATA give: nothing read from the source.
        break;
      case 'uri_parts':
        visit(c.input, 'forbidden', columns);
        columns.names.add(c.target.name);
        columns.prefixes.push(c.target.name);
        break;
      case 'metrics_info':
        // Its rows describe the metrics, not the events: any later name is one of its columns.
        columns.open = true;
        break;
      case 'unknown': {
        const near = closest(c.name, COMMAND_NAMES.map((n) => n.split(' ')[0]!));
        const suggestion = near ? COMMAND_NAMES.find((n) => n.startsWith(near)) : undefined;
        notes.push({ offset: c.offset, length: c.length, message: `unknown command ${c.name}${suggestion ? `; did you mean ${suggestion}?` : ''}` });
        columns.open = true;
        break;
      }
      case 'limit':
        break;
    }
  };

  const columns: Columns = { names: new Set(), prefixes: [], open: false };
  const { source } = query;
  if (source.command === 'from') {
    for (const m of source.metadata) {
      if (!METADATA_FIELDS.has(m.name)) report(m.offset, `unknown metadata field "${m.name}"`, m.name.length);
      columns.names.add(m.name);
    }
  } else if (source.command === 'row') {
    for (const f of source.fields) {
      visit(f.value, 'forbidden', columns);
      columns.names.add(columnName(f));
    }
  }
  for (const c of query.commands) checkCommand(c, columns);
  problems.sort((a, b) => a.offset - b.offset);
  notes.sort((a, b) => a.offset - b.offset);
  return { problem: problems[0], fields: fields.sort((a, b) => a.offset - b.offset), notes };
}
