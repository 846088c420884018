import type { EventDoc, QueryMatch } from '../types.js';
import { wildcardRegex } from '../text-match.js';
import { leafFields } from '../doc-fields.js';
import { columnName, type Assignment, type NamePattern, type ProcessingCommand, type Query, type SortKey } from './ast.js';
import { evaluate, OfflineError, order, truth, type Row } from './evaluate.js';

/**
 * Runs a checked qlang query offline. FROM reads the events it is given, whatever its index
 * patterns (the caller chooses the events); each event becomes a row of its fields flattened to
 * dotted names, and `_id`, `_index` and other metadata keys of an event are columns only when
 * METADATA names them. The processing commands run in order. What needs the server (DISSECT and
 * GROK pattern libraries, ENRICH and LOOKUP JOIN data, COMPLETION and RERANK models, SAMPLE's
 * randomness, CHANGE_POINT, FORK, FUSE, URI_PARTS, TS and SHOW sources, unknown commands) fails
 * with "cannot evaluate <COMMAND> offline", never a guessed result.
 * Without a LIMIT the server keeps 1,000 rows, and so does this.
 */

const DEFAULT_LIMIT = 1000;
const METADATA_KEYS = /^_(id|index|version|score|source|ignored|index_mode|tsid)$/;

interface Rowed {
  row: Row;
  events: EventDoc[];
}

/** An event as columns: nested objects become dotted names; arrays, and arrays of objects, multi-values. */
export function flatten(doc: EventDoc): Row {
  const row: Row = {};
  for (const [name, values] of leafFields(doc)) row[name] = values.length === 1 ? values[0] : values;
  return row;
}

/** How a command is written, for messages. */
function commandLabel(command: ProcessingCommand): string {
  if (command.command === 'unknown') return command.name;
  if (command.command === 'lookup_join' || command.command === 'inline_stats') return command.command.toUpperCase().replace('_', ' ');
  return command.command.toUpperCase();
}

export function runQuery(query: Query, events: EventDoc[]): QueryMatch[] {
  let rows: Rowed[];
  const { source } = query;
  if (source.command === 'show') throw new OfflineError('cannot evaluate SHOW INFO offline');
  if (source.command === 'from' && source.timeSeries) throw new OfflineError('cannot evaluate TS offline: its aggregations are per time series');
  if (source.command === 'from') {
    const kept = new Set(source.metadata.map((m) => m.name));
    rows = events.map((doc) => {
      const row = flatten(doc);
      for (const key of Object.keys(row)) if (METADATA_KEYS.test(key) && !kept.has(key)) delete row[key];
      return { row, events: [doc] };
    });
  } else {
    rows = [{ row: assign({}, source.fields), events: [] }];
  }
  let limited = false;
  for (const command of query.commands) {
    rows = apply(command, rows);
    if (command.command === 'limit') limited = true;
  }
  if (!limited) rows = rows.slice(0, DEFAULT_LIMIT);
  return rows.map((r) => ({ events: r.events, row: r.row }));
}

/** EVAL: each assignment sees the columns of the ones before it; a redefined column moves to the end. */
function assign(row: Row, fields: Assignment[]): Row {
  const out: Row = { ...row };
  for (const f of fields) {
    const name = columnName(f);
    const value = evaluate(f.value, out);
    delete out[name];
    out[name] = value;
  }
  return out;
}

function apply(command: ProcessingCommand, rows: Rowed[]): Rowed[] {
  switch (command.command) {
    case 'where':
      return rows.filter((r) => truth(evaluate(command.condition, r.row)) === true);
    case 'eval':
      return rows.map((r) => ({ ...r, row: assign(r.row, command.fields) }));
    case 'stats':
      return stats(command.aggregates, command.by, rows);
    case 'inline_stats':
      return inlineStats(command.aggregates, command.by, rows);
    case 'keep':
      return rows.map((r) => ({ ...r, row: keep(r.row, command.patterns) }));
    case 'drop':
      return rows.map((r) => {
        const row: Row = {};
        for (const [k, v] of Object.entries(r.row)) if (!command.patterns.some((p) => matchesName(p, k))) row[k] = v;
        return { ...r, row };
      });
    case 'rename':
      return rows.map((r) => {
        let row = r.row;
        for (const { from, to } of command.renames) {
          row = Object.fromEntries(Object.entries(row).filter(([k]) => k !== to.name).map(([k, v]) => [k === from.name ? to.name : k, v]));
        }
        return { ...r, row };
      });
    case 'limit':
      if (command.count.value === null) throw new OfflineError(`the query parameter ${command.count.parameter} has no value offline`);
      return rows.slice(0, command.count.value);
    case 'sort':
      return sortRows(rows, command.keys);
    case 'mv_expand':
      return rows.flatMap((r) => {
        const v = r.row[command.field.name];
        if (!Array.isArray(v)) return [r];
        return v.map((one) => ({ ...r, row: { ...r.row, [command.field.name]: one } }));
      });
    default:
      throw new OfflineError(`cannot evaluate ${commandLabel(command)} offline`);
  }
}

function matchesName(pattern: NamePattern, name: string): boolean {
  return pattern.name.includes('*') ? wildcardRegex(pattern.name, false).test(name) : pattern.name === name;
}

/** KEEP: columns in the order of the patterns; an exact name wins over an earlier wildcard. */
function keep(row: Row, patterns: NamePattern[]): Row {
  const chosen: string[] = [];
  for (const p of patterns) {
    if (!p.name.includes('*')) {
      const at = chosen.indexOf(p.name);
      if (at >= 0) chosen.splice(at, 1);
      chosen.push(p.name);
      continue;
    }
    for (const name of Object.keys(row)) if (matchesName(p, name) && !chosen.includes(name)) chosen.push(name);
  }
  return Object.fromEntries(chosen.map((name) => [name, row[name] ?? null]));
}

/** The BY values of a row, each combination of its keys' values (a multi-valued key gives several; null is a group). */
function groupKeys(by: Assignment[], row: Row): unknown[][] {
  let combos: unknown[][] = [[]];
  for (const b of by) {
    const v = evaluate(b.value, row);
    const options = Array.isArray(v) ? (v.length ? [...new Set(v)] : [null]) : [v ?? null];
    combos = combos.flatMap((c) => options.map((o) => [...c, o]));
  }
  return combos;
}

interface Group {
  keys: unknown[];
  rows: Rowed[];
}

function groupRows(by: Assignment[], rows: Rowed[]): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const r of rows) {
    for (const keys of groupKeys(by, r.row)) {
      const id = JSON.stringify(keys);
      let group = groups.get(id);
      if (!group) groups.set(id, (group = { keys, rows: [] }));
      group.rows.push(r);
    }
  }
  return groups;
}

/** A group's aggregations, by column name, in the order written. */
function aggregateGroup(aggregates: Assignment[], keyRow: Row, group: Group): Row {
  const row: Row = {};
  const groupRows = group.rows.map((r) => r.row);
  for (const a of aggregates) {
    const counted = a.filter ? groupRows.filter((r) => truth(evaluate(a.filter!, r)) === true) : groupRows;
    row[columnName(a)] = evaluate(a.value, { ...(groupRows[0] ?? {}), ...keyRow }, counted);
  }
  return row;
}

/**
 * STATS: rows group by the BY values (a multi-valued key puts the row in each of its values' groups;
 * null is a group); each group gives one row, aggregations first, then the keys.
 */
function stats(aggregates: Assignment[], by: Assignment[], rows: Rowed[]): Rowed[] {
  const groups = groupRows(by, rows);
  // Without BY, STATS answers one row even over no rows (COUNT(*) is 0).
  if (by.length === 0 && groups.size === 0) groups.set('[]', { keys: [], rows: [] });
  return [...groups.values()].map((g) => {
    const keyRow: Row = Object.fromEntries(by.map((b, i) => [columnName(b), g.keys[i]]));
    const row = { ...aggregateGroup(aggregates, keyRow, g), ...keyRow };
    return { row, events: g.rows.flatMap((r) => r.events) };
  });
}

/**
 * INLINE STATS: the STATS of each row's group joined back onto the row; every row stays, with its
 * events. A new or redefined column goes to the end, aggregations first, then a BY that names a new
 * column (`BY day = DATE_TRUNC(...)`). A row whose BY key is multi-valued would join several groups:
 * how the server lays that out is not reproduced here, so it is an error, not a guess.
 */
function inlineStats(aggregates: Assignment[], by: Assignment[], rows: Rowed[]): Rowed[] {
  const groups = groupRows(by, rows);
  return rows.map((r) => {
    const combos = groupKeys(by, r.row);
    if (combos.length !== 1) throw new OfflineError('cannot evaluate INLINE STATS offline over a multi-valued BY key');
    const keys = combos[0]!;
    const keyRow: Row = Object.fromEntries(by.map((b, i) => [columnName(b), keys[i]]));
    const computed = aggregateGroup(aggregates, keyRow, groups.get(JSON.stringify(keys))!);
    const row: Row = { ...r.row };
    const added: Row = { ...computed };
    for (const b of by) if (b.name || b.value.type !== 'field') added[columnName(b)] = keyRow[columnName(b)];
    for (const name of Object.keys(added)) delete row[name];
    return { ...r, row: Object.assign(row, added) };
  });
}

function sortRows(rows: Rowed[], keys: SortKey[]): Rowed[] {
  const values = rows.map((r) => keys.map((k) => sortValue(evaluate(k.value, r.row), k.descending)));
  const index = rows.map((_, i) => i);
  index.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const x = values[a]![i];
      const y = values[b]![i];
      // Nulls count as larger than any value: last ascending, first descending, unless NULLS says.
      const nullsFirst = k.nulls === null ? k.descending : k.nulls === 'first';
      if (x === null && y === null) continue;
      if (x === null) return nullsFirst ? -1 : 1;
      if (y === null) return nullsFirst ? 1 : -1;
      const o = order(x, y) ?? 0;
      if (o !== 0) return k.descending ? -o : o;
    }
    return a - b;
  });
  return index.map((i) => rows[i]!);
}

/** A multi-valued column sorts by its smallest value ascending and its largest descending. */
function sortValue(v: unknown, descending: boolean): unknown {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) return v;
  if (v.length === 0) return null;
  return v.reduce((a, b) => ((order(b, a) ?? 0) * (descending ? 1 : -1) > 0 ? b : a));
}
