import { fieldValues } from '@svcform/query/event-fields.js';
import { timeOf } from '@svcform/query/text-match.js';
import type { EventDoc, QueryMatch } from '@svcform/query/types.js';

/** An alert a run raises: what makes two alerts the same, its match, and a threshold bucket's result. */
export interface Raised {
  /** What makes two alerts the same alert (the events, or the threshold bucket and its window). */
  key: string;
  match: QueryMatch;
  threshold?: Record<string, unknown>;
}

/**
 * Threshold rules (K-DE rule_types/threshold): the events the query matched are grouped by the
 * values of `threshold.field` (every combination of the fields' values; no field: one group of
 * all events; an event without a value for a field is in no group), and a group whose count is at
 * least `threshold.value` raises one alert, when every `threshold.cardinality` entry's field has
 * at least that many distinct values in the group. The alert's `kibana.alert.threshold_result`
 * holds the terms, the count, the time of the group's first event (`from`) and the cardinalities.
 * As the server's threshold history does, a group that raised an alert counts only events newer
 * than that alert's last event in later runs.
 */

/** Per group key, the time of the newest event of its last alert. */
export type ThresholdHistory = Map<string, number>;

interface Group {
  terms: Array<{ field: string; value: unknown }>;
  events: EventDoc[];
}

export function thresholdMatches(rule: Record<string, any>, matches: QueryMatch[], tsField: string, history: ThresholdHistory): Raised[] {
  const fields: string[] = Array.isArray(rule.threshold?.field) ? rule.threshold.field : rule.threshold?.field ? [rule.threshold.field] : [];
  const value = Number(rule.threshold?.value ?? 1);
  const cardinality: Array<{ field: string; value: number }> = rule.threshold?.cardinality ?? [];
  const groups = new Map<string, Group>();
  for (const match of matches) {
    for (const event of match.events) {
      let combos: Array<Array<{ field: string; value: unknown }>> = [[]];
      for (const field of fields) {
        const values = [...new Set(fieldValues(event, field))];
        combos = combos.flatMap((c) => values.map((v) => [...c, { field, value: v }]));
      }
      for (const terms of combos) {
        const key = JSON.stringify(terms.map((t) => t.value));
        const time = timeOf(fieldValues(event, tsField)[0]) ?? -Infinity;
        if (time <= (history.get(key) ?? -Infinity)) continue;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { terms, events: [] }));
        group.events.push(event);
      }
    }
  }
  const raised: Raised[] = [];
  for (const [key, group] of groups) {
    if (group.events.length < value) continue;
    const distinct = cardinality.map((c) => ({ field: c.field, value: new Set(group.events.flatMap((e) => fieldValues(e, c.field)).map((v) => JSON.stringify(v))).size }));
    if (distinct.some((d, i) => d.value < cardinality[i]!.value)) continue;
    const times = group.events.map((e) => timeOf(fieldValues(e, tsField)[0]) ?? 0);
    const last = Math.max(...times);
    history.set(key, last);
    raised.push({
      key: `threshold:${key}:${last}`,
      match: { events: group.events },
      threshold: {
        terms: group.terms,
        count: group.events.length,
        from: new Date(Math.min(...times)).toISOString(),
        ...(cardinality.length ? { cardinality: distinct } : {}),
      },
    });
  }
  return raised;
}
