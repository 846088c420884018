import { fieldValues } from '../event-fields.js';
import { timeOf } from '../text-match.js';
import type { EventDoc, QueryMatch, RunOptions } from '../types.js';
import type { EventQuery, Expr, Pipe, Query, Step } from './ast.js';
import { TIME_UNITS } from './check.js';
import { evaluate, holds } from './evaluate.js';

/**
 * Runs a checked eql query over events given in any order.
 *
 * Events are taken in timestamp order (ties keep their input order). Sequences follow the
 * server's matching: for each join key separately, a new event matching step i extends the
 * partial sequence that has completed step i-1 (the latest one; an older one at the same stage is
 * replaced), so sequences of different keys never interfere. A partial sequence older than
 * `maxspan` (first event to current event) is dropped; an `until` event drops every partial
 * sequence of its key. An event is tried against the later steps first, so it can complete one
 * sequence and start the next, but never fills two steps of one sequence. Events without a
 * timestamp, or with a null join key, take no part in sequences. A missing-event step `![...]`
 * rejects a completed sequence when an event matching it, with the same key, falls between its
 * neighbouring steps (before the first or after the last: within maxspan).
 */

interface Timed {
  doc: EventDoc;
  time: number | undefined;
  order: number;
}

/** Whether an event matches an event query (its category, then its condition). */
type Matcher = (query: EventQuery, doc: EventDoc) => boolean;

function eventMatcher(categoryField: string): Matcher {
  return (query, doc) => {
    const category = query.category.name;
    if (!query.category.any && !fieldValues(doc, categoryField).some((v) => v === category)) return false;
    return holds(query.condition, doc);
  };
}

/** The join key of an event for a step, or undefined when a key is null. */
function joinKey(keys: Expr[], doc: EventDoc): string | undefined {
  const values = keys.map((k) => evaluate(k, doc));
  if (values.some((v) => v === null || v === undefined)) return undefined;
  return JSON.stringify(values);
}

/** Events by time, then by the tiebreaker field's value (numbers, else strings), then input order. */
function sortedByTime(events: EventDoc[], timestampField: string, tiebreakerField: string | undefined): Timed[] {
  const timed = events.map((doc, order) => ({ doc, order, time: timeOf(fieldValues(doc, timestampField)[0]), tie: tiebreakerField ? fieldValues(doc, tiebreakerField)[0] : undefined }));
  const tieOrder = (a: unknown, b: unknown): number => {
    if (a === undefined || b === undefined) return a === undefined ? (b === undefined ? 0 : 1) : -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  };
  return timed.sort((a, b) => (a.time ?? Infinity) - (b.time ?? Infinity) || tieOrder(a.tie, b.tie) || a.order - b.order);
}

export function runQuery(query: Query, events: EventDoc[], options: RunOptions = {}): QueryMatch[] {
  const matchesEvent = eventMatcher(options.eventCategoryField ?? 'event.category');
  const timed = sortedByTime(events, options.timestampField ?? '@timestamp', options.tiebreakerField);
  let matches: QueryMatch[];
  if (query.kind === 'event') matches = timed.filter((t) => matchesEvent(query, t.doc)).map((t) => ({ events: [t.doc] }));
  else {
    const expand = (step: Step): Step[] => Array<Step>(step.runs?.value ?? 1).fill({ ...step, by: [...query.by, ...step.by] });
    const steps = query.steps.flatMap(expand);
    matches = query.kind === 'sequence'
      ? runSequence(matchesEvent, steps, query.until ? { ...query.until, by: [...query.by, ...query.until.by] } : null, query.maxspan ? query.maxspan.amount * TIME_UNITS[query.maxspan.unit]! : null, timed)
      : runSample(matchesEvent, steps, timed);
  }
  return applyPipes(matches, query.pipes);
}

interface Partial {
  events: Timed[];
}

function runSequence(matchesEvent: Matcher, steps: Step[], until: Step | null, maxspan: number | null, timed: Timed[]): QueryMatch[] {
  const positive = steps.filter((s) => !s.missing);
  const ordered = timed.filter((t) => t.time !== undefined);
  /** Per join key, the partial sequence that has completed each stage. */
  const stages = new Map<string, Array<Partial | undefined>>();
  const done: Timed[][] = [];
  for (const event of ordered) {
    if (until && matchesEvent(until.query, event.doc)) {
      const key = joinKey(until.by, event.doc);
      if (key !== undefined) stages.delete(key);
    }
    for (let i = positive.length - 1; i >= 0; i--) {
      const step = positive[i]!;
      if (!matchesEvent(step.query, event.doc)) continue;
      const key = joinKey(step.by, event.doc);
      if (key === undefined) continue;
      let slots = stages.get(key);
      if (!slots) stages.set(key, (slots = []));
      let extended: Partial;
      if (i === 0) extended = { events: [event] };
      else {
        const previous = slots[i - 1];
        if (!previous) continue;
        slots[i - 1] = undefined;
        if (maxspan !== null && event.time! - previous.events[0]!.time! > maxspan) continue;
        extended = { events: [...previous.events, event] };
      }
      if (i === positive.length - 1) done.push(extended.events);
      else slots[i] = extended;
    }
  }
  const kept = done.filter((sequence) => noMissingEvent(matchesEvent, steps, sequence, maxspan, ordered));
  kept.sort((a, b) => a[0]!.time! - b[0]!.time! || a[0]!.order - b[0]!.order);
  return kept.map((sequence) => ({ events: sequence.map((t) => t.doc) }));
}

function noMissingEvent(matchesEvent: Matcher, steps: Step[], sequence: Timed[], maxspan: number | null, events: Timed[]): boolean {
  let positiveIndex = 0;
  for (const step of steps) {
    if (!step.missing) {
      positiveIndex++;
      continue;
    }
    const before = sequence[positiveIndex - 1];
    const after = sequence[positiveIndex];
    const key = sequenceKey(steps, sequence);
    const from = before ? before.time! : maxspan === null ? -Infinity : after!.time! - maxspan;
    const to = after ? after.time! : maxspan === null ? Infinity : before!.time! + maxspan;
    const found = events.some((t) => {
      const inWindow = before ? t.time! > from : t.time! >= from;
      const beforeEnd = after ? t.time! < to : t.time! <= to;
      return inWindow && beforeEnd && matchesEvent(step.query, t.doc) && joinKey(step.by, t.doc) === key;
    });
    if (found) return false;
  }
  return true;
}

/** The sequence's join key (as its first positive step computed it). */
function sequenceKey(steps: Step[], sequence: Timed[]): string | undefined {
  const first = steps.find((s) => !s.missing)!;
  return joinKey(first.by, sequence[0]!.doc);
}

/** Per join key, the first events (by time) that match each step, one distinct event per step. */
function runSample(matchesEvent: Matcher, steps: Step[], timed: Timed[]): QueryMatch[] {
  const groups = new Map<string, Array<Timed | undefined>>();
  for (const event of timed) {
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      if (!matchesEvent(step.query, event.doc)) continue;
      const key = joinKey(step.by, event.doc);
      if (key === undefined) continue;
      let slots = groups.get(key);
      if (!slots) groups.set(key, (slots = Array<Timed | undefined>(steps.length).fill(undefined)));
      if (slots[i] === undefined && !slots.includes(event)) {
        slots[i] = event;
        break;
      }
    }
  }
  return [...groups.values()].filter((slots) => slots.every((s) => s !== undefined)).map((slots) => ({ events: slots.map((s) => s!.doc) }));
}

function applyPipes(matches: QueryMatch[], pipes: Pipe[]): QueryMatch[] {
  let out = matches;
  for (const pipe of pipes) {
    const n = (pipe.args[0] as { value: number }).value;
    out = pipe.name === 'head' ? out.slice(0, n) : out.slice(Math.max(0, out.length - n));
  }
  return out;
}
