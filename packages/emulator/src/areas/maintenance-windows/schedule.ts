/**
 * The occurrences of a maintenance window's custom schedule, expanded the way the server's rrule
 * does it: periods of `every` counted from `start` in the schedule's time zone (wall-clock time
 * is kept across daylight-saving changes), narrowed or expanded by onWeekDay, onMonthDay and
 * onMonth, and ended by `occurrences` or `end`.
 */

export interface CustomSchedule {
  start: string;
  duration: string;
  timezone?: string;
  recurring?: {
    end?: string;
    every?: string;
    onWeekDay?: string[];
    onMonthDay?: number[];
    onMonth?: number[];
    occurrences?: number;
  };
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export const DURATION_PATTERN = /^(\d+)([smhd])$/;
export const EVERY_PATTERN = /^(\d+)([dwMy])$/;
export const WEEKDAY_PATTERN = /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

export function durationMs(duration: string): number {
  const m = DURATION_PATTERN.exec(duration);
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN;
}

/**
 * The server keeps the duration in milliseconds and writes it back in the largest unit that
 * divides it (24h -> 1d, 120m -> 2h, 90m stays 90m).
 */
export function canonicalDuration(duration: string): string {
  const ms = durationMs(duration);
  for (const unit of ['d', 'h', 'm'] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms / 1000}s`;
}

interface Wall {
  y: number;
  mo: number; // 0-11
  d: number;
  h: number;
  mi: number;
  s: number;
  ms: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

function wallOf(instant: number, tz: string): Wall {
  if (tz === 'UTC') {
    const d = new Date(instant);
    return { y: d.getUTCFullYear(), mo: d.getUTCMonth(), d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), ms: d.getUTCMilliseconds() };
  }
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { y: parts.year, mo: parts.month - 1, d: parts.day, h: parts.hour, mi: parts.minute, s: parts.second, ms: ((instant % 1000) + 1000) % 1000 };
}

function offsetAt(instant: number, tz: string): number {
  const w = wallOf(instant, tz);
  return Date.UTC(w.y, w.mo, w.d, w.h, w.mi, w.s, w.ms) - instant;
}

/** The instant at which the zone's clock shows `w` (the later reading when a gap skips it). */
function instantOf(w: Wall, tz: string): number {
  const asUtc = Date.UTC(w.y, w.mo, w.d, w.h, w.mi, w.s, w.ms);
  if (tz === 'UTC') return asUtc;
  const first = asUtc - offsetAt(asUtc, tz);
  const second = asUtc - offsetAt(first, tz);
  return second;
}

type Freq = 'd' | 'w' | 'M' | 'y';

interface Day {
  y: number;
  mo: number;
  d: number;
}

function dayOf(y: number, mo: number, d: number): Day {
  const t = new Date(Date.UTC(y, mo, d));
  return { y: t.getUTCFullYear(), mo: t.getUTCMonth(), d: t.getUTCDate() };
}

const weekdayOf = (day: Day) => new Date(Date.UTC(day.y, day.mo, day.d)).getUTCDay();
const daysInMonth = (y: number, mo: number) => new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();

interface ParsedWeekday {
  nth?: number;
  weekday: number;
}

function parseWeekdays(list: string[] | undefined): ParsedWeekday[] | undefined {
  if (!list) return undefined;
  return list.map((s) => {
    const m = WEEKDAY_PATTERN.exec(s)!;
    return { nth: m[1] ? Number(m[1]) : undefined, weekday: WEEKDAYS.indexOf(m[2]) };
  });
}

/** Days of one month that match onMonthDay and onWeekDay (both given: days matching both). */
function monthDays(y: number, mo: number, monthDaysWanted?: number[], weekdays?: ParsedWeekday[]): Day[] {
  const last = daysInMonth(y, mo);
  const byMonthDay = monthDaysWanted ? new Set(monthDaysWanted.filter((d) => d <= last)) : undefined;
  let byWeekday: Set<number> | undefined;
  if (weekdays) {
    byWeekday = new Set();
    for (const wd of weekdays) {
      const matching: number[] = [];
      for (let d = 1; d <= last; d++) if (weekdayOf({ y, mo, d }) === wd.weekday) matching.push(d);
      if (wd.nth === undefined) matching.forEach((d) => byWeekday!.add(d));
      else {
        const pick = wd.nth > 0 ? matching[wd.nth - 1] : matching[matching.length + wd.nth];
        if (pick !== undefined) byWeekday.add(pick);
      }
    }
  }
  const days: Day[] = [];
  for (let d = 1; d <= last; d++) {
    if (byMonthDay && !byMonthDay.has(d)) continue;
    if (byWeekday && !byWeekday.has(d)) continue;
    days.push({ y, mo, d });
  }
  return days;
}

/** Candidate days of period `k` (k periods of `every` after the start day), in order. */
function periodDays(freq: Freq, interval: number, k: number, first: Day, rec: NonNullable<CustomSchedule['recurring']>): Day[] {
  const weekdays = parseWeekdays(rec.onWeekDay);
  const months = rec.onMonth ? new Set(rec.onMonth.map((m) => m - 1)) : undefined;
  const inMonths = (day: Day) => !months || months.has(day.mo);
  switch (freq) {
    case 'd': {
      const day = dayOf(first.y, first.mo, first.d + k * interval);
      const ok = inMonths(day) && (!rec.onMonthDay || rec.onMonthDay.includes(day.d)) && (!weekdays || weekdays.some((w) => w.weekday === weekdayOf(day)));
      return ok ? [day] : [];
    }
    case 'w': {
      const anchor = dayOf(first.y, first.mo, first.d + k * interval * 7);
      if (!weekdays) return inMonths(anchor) ? [anchor] : [];
      // Weeks start on Monday (the rrule default WKST).
      const monday = dayOf(anchor.y, anchor.mo, anchor.d - ((weekdayOf(anchor) + 6) % 7));
      const days: Day[] = [];
      for (let i = 0; i < 7; i++) {
        const day = dayOf(monday.y, monday.mo, monday.d + i);
        if (weekdays.some((w) => w.weekday === weekdayOf(day)) && inMonths(day)) days.push(day);
      }
      return days;
    }
    case 'M': {
      const month = dayOf(first.y, first.mo + k * interval, 1);
      if (!inMonths(month)) return [];
      if (!rec.onMonthDay && !weekdays) return first.d <= daysInMonth(month.y, month.mo) ? [{ y: month.y, mo: month.mo, d: first.d }] : [];
      return monthDays(month.y, month.mo, rec.onMonthDay, weekdays);
    }
    case 'y': {
      const y = first.y + k * interval;
      const wantedMonths = rec.onMonth ? [...rec.onMonth].sort((a, b) => a - b).map((m) => m - 1) : [first.mo];
      const days: Day[] = [];
      for (const mo of wantedMonths) {
        if (!rec.onMonthDay && !weekdays) {
          if (first.d <= daysInMonth(y, mo)) days.push({ y, mo, d: first.d });
        } else days.push(...monthDays(y, mo, rec.onMonthDay, weekdays));
      }
      return days;
    }
  }
}

const MAX_PERIODS = 200_000;

/**
 * Occurrence start instants in order, from the first one on. `from` lets an open-ended daily or
 * weekly schedule skip the periods that end long before the instant of interest.
 */
export function* occurrences(schedule: CustomSchedule, from?: number): Generator<number> {
  const tz = schedule.timezone ?? 'UTC';
  const start = Date.parse(schedule.start);
  const rec = schedule.recurring;
  if (!rec) {
    yield start;
    return;
  }
  const m = rec.every ? EVERY_PATTERN.exec(rec.every) : null;
  const freq = (m ? m[2] : 'd') as Freq;
  const interval = m ? Number(m[1]) : 1;
  const until = rec.end ? Date.parse(rec.end) : Infinity;
  const wall = wallOf(start, tz);
  const first: Day = { y: wall.y, mo: wall.mo, d: wall.d };
  let k = 0;
  if (from !== undefined && rec.occurrences === undefined && (freq === 'd' || freq === 'w')) {
    const periodMs = (freq === 'd' ? 1 : 7) * interval * UNIT_MS.d;
    k = Math.max(0, Math.floor((from - start) / periodMs) - 2);
  }
  let count = 0;
  let emptyRun = 0;
  for (; k < MAX_PERIODS; k++) {
    const days = periodDays(freq, interval, k, first, rec);
    emptyRun = days.length ? 0 : emptyRun + 1;
    // A combination no calendar satisfies (31 February) yields nothing, ever.
    if (emptyRun > 2000) return;
    for (const day of days) {
      const at = instantOf({ ...wall, y: day.y, mo: day.mo, d: day.d }, tz);
      if (at < start) continue;
      if (at > until) return;
      yield at;
      count += 1;
      if (rec.occurrences !== undefined && count >= rec.occurrences) return;
    }
  }
}

export type ScheduleState = 'running' | 'upcoming' | 'finished';

/**
 * Where `now` falls: inside an occurrence, before a later one, or after the last. Occurrences that
 * start at or after `horizon` are not counted (the server only materialises a year of events).
 */
export function scheduleState(schedule: CustomSchedule, now: number, horizon = Infinity): ScheduleState {
  const length = durationMs(schedule.duration);
  for (const at of occurrences(schedule, now - length)) {
    if (at >= horizon) return 'finished';
    if (at > now) return 'upcoming';
    if (now < at + length) return 'running';
  }
  return 'finished';
}
