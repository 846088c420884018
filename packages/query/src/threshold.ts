import { fieldValues } from './event-fields.js';
import type { CompiledQuery, EventDoc, QueryMatch, RunOptions } from './types.js';

/**
 * A threshold rule over sample events, as the server's threshold executor counts: the events the
 * query matches are grouped by the values of the threshold fields (a terms aggregation per field:
 * an event without a value for a field is in no group, one with several values is in one group
 * per value); a group alerts when it holds at least `value` events and, with a cardinality
 * condition, at least that many distinct values of the cardinality field. No fields: one group of
 * every matching event. Each alert's row holds the group's field values, `count` and, with a
 * cardinality condition, `cardinality`.
 */

export interface Threshold {
  field: string | string[];
  value: number;
  cardinality?: Array<{ field: string; value: number }>;
}

function keyOf(value: unknown): string {
  return JSON.stringify(value);
}

/** Every combination of one value per field (the buckets an event falls into). */
function combinations(doc: EventDoc, fields: string[]): unknown[][] {
  let out: unknown[][] = [[]];
  for (const field of fields) {
    const values = [...new Map(fieldValues(doc, field).filter((v) => typeof v !== 'object').map((v) => [keyOf(v), v])).values()];
    out = out.flatMap((prefix) => values.map((v) => [...prefix, v]));
    if (out.length === 0) return out;
  }
  return out;
}

export function runThreshold(query: CompiledQuery, events: EventDoc[], threshold: Threshold, options?: RunOptions): QueryMatch[] {
  const fields = (Array.isArray(threshold.field) ? threshold.field : [threshold.field]).filter((f) => f !== '');
  const groups = new Map<string, { values: unknown[]; events: EventDoc[] }>();
  for (const match of query.run(events, options)) {
    for (const event of match.events) {
      for (const values of combinations(event, fields)) {
        const key = keyOf(values);
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { values, events: [] }));
        group.events.push(event);
      }
    }
  }
  const condition = threshold.cardinality?.[0];
  const alerts: QueryMatch[] = [];
  for (const group of groups.values()) {
    if (group.events.length < threshold.value) continue;
    const row: Record<string, unknown> = {};
    fields.forEach((f, i) => (row[f] = group.values[i]));
    row.count = group.events.length;
    if (condition) {
      const distinct = new Set(group.events.flatMap((e) => fieldValues(e, condition.field).map(keyOf))).size;
      if (distinct < condition.value) continue;
      row.cardinality = distinct;
    }
    alerts.push({ events: group.events, row });
  }
  return alerts;
}
