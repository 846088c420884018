import { EmuError } from '../../errors.js';
import { DURATION_PATTERN, EVERY_PATTERN, WEEKDAY_PATTERN, durationMs, isTimeZone, type CustomSchedule } from './schedule.js';

/**
 * Request validation of the maintenance-window routes, worded as the platform's schema validator
 * words it (`[request body.<path>]: ...`, platform error shape). Objects reject unknown keys.
 */

const invalid = (path: string, message: string) => new EmuError(400, `[${path}]: ${message}`, 'platform');

function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  return typeof v;
}

function object(v: unknown, path: string, allowed: string[]): Record<string, any> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(path, `expected a plain object value, but found [${describe(v)}] instead.`);
  for (const key of Object.keys(v)) if (!allowed.includes(key)) throw invalid(`${path}.${key}`, 'definition for this key is missing');
  return v as Record<string, any>;
}

function string(v: unknown, path: string): string {
  if (typeof v !== 'string') throw invalid(path, `expected value of type [string] but got [${describe(v)}]`);
  return v;
}

function boolean(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw invalid(path, `expected value of type [boolean] but got [${describe(v)}]`);
  return v;
}

function integer(v: unknown, path: string, min: number, max?: number): number {
  if (typeof v !== 'number') throw invalid(path, `expected value of type [number] but got [${describe(v)}]`);
  if (v < min) throw invalid(path, `Value must be equal to or greater than [${min}].`);
  if (max !== undefined && v > max) throw invalid(path, `Value must be equal to or lower than [${max}].`);
  if (!Number.isInteger(v)) throw invalid(path, `${v} is not an integer`);
  return v;
}

function nonEmptyArray(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw invalid(path, `expected value of type [array] but got [${describe(v)}]`);
  if (v.length === 0) throw invalid(path, 'array size is [0], but cannot be smaller than [1]');
  return v;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

function timestamp(v: unknown, path: string, label: 'start' | 'end'): string {
  const s = string(v, path);
  if (Number.isNaN(Date.parse(s))) throw invalid(path, `Invalid snooze ${label} date: ${s}`);
  if (!ISO_TIMESTAMP.test(s)) throw invalid(path, `Invalid ${label} date format: ${s}. Use ISO 8601 YYYY-MM-DDTHH:mm:ss.sssZ`);
  return s;
}

/** A custom schedule as the request gives it; `now` is for the rule that `end` is in the future. */
export function customSchedule(v: unknown, path: string, now: Date): CustomSchedule {
  const raw = object(v, path, ['start', 'duration', 'timezone', 'recurring']);
  const start = timestamp(raw.start, `${path}.start`, 'start');
  const duration = string(raw.duration, `${path}.duration`);
  if (!DURATION_PATTERN.test(duration) || durationMs(duration) <= 0) throw invalid(`${path}.duration`, `Invalid schedule duration format: ${duration}`);
  const out: CustomSchedule = { start, duration };
  if (raw.timezone !== undefined) {
    const tz = string(raw.timezone, `${path}.timezone`);
    if (!isTimeZone(tz)) throw invalid(`${path}.timezone`, `Invalid schedule timezone: ${tz}`);
    out.timezone = tz;
  }
  if (raw.recurring !== undefined) {
    const rp = `${path}.recurring`;
    const r = object(raw.recurring, rp, ['end', 'every', 'onWeekDay', 'onMonthDay', 'onMonth', 'occurrences']);
    const recurring: NonNullable<CustomSchedule['recurring']> = {};
    if (r.end !== undefined) {
      recurring.end = timestamp(r.end, `${rp}.end`, 'end');
      if (Date.parse(recurring.end) <= now.getTime()) throw invalid(`${rp}.end`, `Invalid snooze schedule end date as it is in the past: ${recurring.end}`);
    }
    if (r.every !== undefined) {
      recurring.every = string(r.every, `${rp}.every`);
      if (!EVERY_PATTERN.test(recurring.every) || Number(EVERY_PATTERN.exec(recurring.every)![1]) < 1) {
        throw invalid(`${rp}.every`, `Invalid schedule recurring every format: ${recurring.every}`);
      }
    }
    if (r.onWeekDay !== undefined) {
      const days = nonEmptyArray(r.onWeekDay, `${rp}.onWeekDay`).map((d, i) => string(d, `${rp}.onWeekDay.${i}`));
      const bad = days.filter((d) => !WEEKDAY_PATTERN.test(d));
      if (bad.length) throw invalid(`${rp}.onWeekDay`, `Invalid onWeekDay values in recurring schedule: ${bad.join(',')}`);
      recurring.onWeekDay = days;
    }
    if (r.onMonthDay !== undefined) {
      recurring.onMonthDay = nonEmptyArray(r.onMonthDay, `${rp}.onMonthDay`).map((d, i) => integer(d, `${rp}.onMonthDay.${i}`, 1, 31));
    }
    if (r.onMonth !== undefined) {
      recurring.onMonth = nonEmptyArray(r.onMonth, `${rp}.onMonth`).map((d, i) => integer(d, `${rp}.onMonth.${i}`, 1, 12));
    }
    if (r.occurrences !== undefined) recurring.occurrences = integer(r.occurrences, `${rp}.occurrences`, 1);
    if (recurring.every) {
      const m = EVERY_PATTERN.exec(recurring.every)!;
      const days = { d: 1, w: 7, M: 28, y: 365 }[m[2] as 'd' | 'w' | 'M' | 'y'] * Number(m[1]);
      if (durationMs(duration) >= days * 86_400_000) throw invalid(path, `Recurrence every ${recurring.every} must be longer than the duration ${duration}.`);
    }
    if (recurring.end !== undefined && recurring.occurrences !== undefined) {
      throw invalid(path, `Only one of 'end' or 'occurrences' can be set for recurring schedules.`);
    }
    out.recurring = recurring;
  }
  return out;
}

export interface WindowFields {
  title?: string;
  enabled?: boolean;
  schedule?: { custom: CustomSchedule };
  scope?: { alerting: { query: { kql: string } } };
}

/**
 * The create body (title and schedule required) or the PATCH body (everything optional). Scope is
 * optional but never null: the schema has no way to clear it once set.
 */
export function windowBody(body: unknown, partial: boolean, now: Date): WindowFields {
  const b = object(body ?? (partial ? {} : undefined), 'request body', ['title', 'enabled', 'schedule', 'scope']);
  const out: WindowFields = {};
  if (b.title !== undefined || !partial) out.title = string(b.title, 'request body.title');
  if (b.enabled !== undefined) out.enabled = boolean(b.enabled, 'request body.enabled');
  if (b.schedule !== undefined || !partial) {
    const schedule = object(b.schedule, 'request body.schedule', ['custom']);
    out.schedule = { custom: customSchedule(schedule.custom, 'request body.schedule.custom', now) };
  }
  if (b.scope !== undefined) {
    const scope = object(b.scope, 'request body.scope', ['alerting']);
    const alerting = object(scope.alerting, 'request body.scope.alerting', ['query']);
    const query = object(alerting.query, 'request body.scope.alerting.query', ['kql']);
    out.scope = { alerting: { query: { kql: string(query.kql, 'request body.scope.alerting.query.kql') } } };
  }
  return out;
}
