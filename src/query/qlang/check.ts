import type { FieldUse, QueryProblem } from '../types.js';
import { columnName, type Expr, type Query } from './ast.js';
import { AGGREGATIONS, isKnownFunction } from './functions.js';

/**
 * What the grammar accepts but the server refuses: unknown functions, aggregations outside STATS
 * or nested in one another, `*` outside COUNT, a STATS with nothing to compute, unknown METADATA
 * fields. Also collects the fields the query reads from the source: names that EVAL, STATS,
 * RENAME, DISSECT, GROK or ENRICH created earlier in the pipe are columns, not source fields.
 */

const METADATA_FIELDS = new Set(['_id', '_index', '_version', '_score', '_source', '_ignored', '_index_mode', '_tsid']);

export function checkQuery(query: Query): { problem?: QueryProblem; fields: FieldUse[] } {
  const problems: QueryProblem[] = [];
  const fields: FieldUse[] = [];
  const created = new Set<string>();
  const report = (offset: number, message: string, length = 1) => problems.push({ offset, length, message });

  const visit = (e: Expr, inAggregation: 'allowed' | 'inside' | 'forbidden'): void => {
    switch (e.type) {
      case 'field':
        if (created.has(e.name)) return;
        if (METADATA_FIELDS.has(e.name)) report(e.offset, `${e.name} is a metadata field: name it in FROM … METADATA ${e.name}`, e.name.length);
        else fields.push({ name: e.name, offset: e.offset });
        return;
      case 'star':
        report(e.offset, '"*" is only allowed in COUNT(*)');
        return;
      case 'call': {
        if (!isKnownFunction(e.name)) report(e.offset, `unknown function "${e.written}"`, e.name.length);
        const aggregation = AGGREGATIONS.has(e.name);
        if (aggregation && inAggregation === 'forbidden') report(e.offset, `aggregate function ${e.name} is only allowed in STATS`, e.name.length);
        if (aggregation && inAggregation === 'inside') report(e.offset, `aggregate function ${e.name} cannot be nested in another aggregation`, e.name.length);
        const star = e.args.length === 1 && e.args[0]!.type === 'star';
        if (star && e.name !== 'COUNT') report(e.args[0]!.offset, '"*" is only allowed in COUNT(*)');
        if (!star) for (const a of e.args) visit(a, aggregation ? 'inside' : inAggregation);
        return;
      }
      case 'literal':
      case 'param':
      case 'span':
        return;
      case 'not':
      case 'negate':
        visit(e.operand, inAggregation);
        return;
      case 'cast':
        visit(e.value, inAggregation);
        return;
      case 'is_null':
      case 'like':
      case 'full_text':
        visit(e.left, inAggregation);
        return;
      case 'in':
        visit(e.left, inAggregation);
        for (const item of e.list) visit(item, inAggregation);
        return;
      default:
        visit(e.left, inAggregation);
        visit(e.right, inAggregation);
    }
  };

  const { source } = query;
  if (source.command === 'from') {
    for (const m of source.metadata) {
      if (!METADATA_FIELDS.has(m.name)) report(m.offset, `unknown metadata field "${m.name}"`, m.name.length);
      created.add(m.name);
    }
  } else {
    for (const f of source.fields) {
      visit(f.value, 'forbidden');
      created.add(columnName(f));
    }
  }

  for (const c of query.commands) {
    switch (c.command) {
      case 'where':
        visit(c.condition, 'forbidden');
        break;
      case 'eval':
        for (const f of c.fields) {
          visit(f.value, 'forbidden');
          created.add(columnName(f));
        }
        break;
      case 'stats':
        if (c.aggregates.length === 0 && c.by.length === 0) report(c.offset, 'STATS needs at least one aggregation or BY grouping');
        for (const f of c.aggregates) {
          visit(f.value, 'allowed');
          if (f.filter) visit(f.filter, 'forbidden');
        }
        for (const f of c.by) visit(f.value, 'forbidden');
        for (const f of [...c.aggregates, ...c.by]) created.add(columnName(f));
        break;
      case 'keep':
      case 'drop':
        for (const p of c.patterns) {
          if (p.name.includes('*') || created.has(p.name)) continue;
          if (METADATA_FIELDS.has(p.name)) report(p.offset, `${p.name} is a metadata field: name it in FROM … METADATA ${p.name}`, p.name.length);
          else fields.push({ name: p.name, offset: p.offset });
        }
        break;
      case 'rename':
        for (const r of c.renames) {
          visit(r.from, 'forbidden');
          created.add(r.to.name);
        }
        break;
      case 'sort':
        for (const k of c.keys) visit(k.value, 'forbidden');
        break;
      case 'mv_expand':
        visit(c.field, 'forbidden');
        break;
      case 'dissect':
      case 'grok': {
        visit(c.input, 'forbidden');
        // The keys the pattern extracts become columns: %{name} in both languages (grok %{PATTERN:name}).
        for (const m of String(c.pattern.value).matchAll(/%\{(?:[A-Z0-9_]+:)?(?:[+?&*]?)([^}:]+)(?::[a-z]+)?\}/g)) created.add(m[1]!);
        break;
      }
      case 'enrich':
        if (c.on) visit(c.on, 'forbidden');
        for (const w of c.with) created.add(w.name.name);
        break;
      case 'lookup_join':
        for (const f of c.on) visit(f, 'forbidden');
        break;
      case 'limit':
        break;
    }
  }
  problems.sort((a, b) => a.offset - b.offset);
  return { problem: problems[0], fields: fields.sort((a, b) => a.offset - b.offset) };
}
