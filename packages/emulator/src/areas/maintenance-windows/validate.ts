import { schema, validateRequest, type Schema } from '../../config-schema.js';
import { DURATION_PATTERN, EVERY_PATTERN, WEEKDAY_PATTERN, durationMs, isTimeZone, type CustomSchedule } from './schedule.js';

/**
 * The maintenance-window request bodies as the alerting plugin declares them, with the
 * config-schema model (so unknown keys are refused, declared keys checked in order, values
 * converted as the library converts them): K-MW/maintenance_window/external/apis/create/schemas/v1.ts
 * and update/schemas/v1.ts, the schedule of K-MW/schedule/schema/v1.ts (scheduleRequestSchema) and
 * its validators under K-MW/schedule/validation/.
 */

const { string, number, boolean, maybe, arrayOf, object } = schema;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

function dateProblem(s: string, label: 'start' | 'end'): string | undefined {
  if (Number.isNaN(Date.parse(s))) return `Invalid snooze ${label} date: ${s}`;
  if (!ISO_TIMESTAMP.test(s)) return `Invalid ${label} date format: ${s}. Use ISO 8601 YYYY-MM-DDTHH:mm:ss.sssZ`;
  return undefined;
}

/** validate_integer/v1.ts */
const integer = (field: string) => (v: number) => (Number.isInteger(v) ? undefined : `schedule ${field} must be a positive integer.`);

/** moment's lengths of a month and a year in days, which validation_schedule/v1.ts compares in. */
const EVERY_DAYS: Record<string, number> = { d: 1, w: 7, M: 146097 / 4800, y: 146097 / 400 };

/** validation_schedule/v1.ts: the recurrence must be longer than the duration; end and occurrences exclude each other. */
function scheduleProblem(custom: Record<string, any>): string | undefined {
  const { duration, recurring } = custom as CustomSchedule;
  const every = recurring?.every;
  if (every) {
    const [, n, unit] = EVERY_PATTERN.exec(every)!;
    if (durationMs(duration) >= Number(n) * EVERY_DAYS[unit] * 86_400_000) return `Recurrence every ${every} must be longer than the duration ${duration}.`;
  }
  if (recurring?.end !== undefined && recurring.occurrences !== undefined) return `Only one of 'end' or 'occurrences' can be set for recurring schedules.`;
  return undefined;
}

/** scheduleRequestSchema; `now` decides whether a recurring end lies in the past. */
function scheduleSchema(now: Date): Schema {
  return object({
    start: string({ check: (s) => dateProblem(s, 'start') }),
    duration: string({ check: (d) => (DURATION_PATTERN.test(d) && durationMs(d) > 0 ? undefined : `Invalid schedule duration format: ${d}`) }),
    timezone: maybe(string({ check: (tz) => (isTimeZone(tz) ? undefined : `Invalid schedule timezone: ${tz}`) })),
    recurring: maybe(object({
      end: maybe(string({
        check: (s) => dateProblem(s, 'end') ?? (Date.parse(s) <= now.getTime() ? `Invalid snooze schedule end date as it is in the past: ${s}` : undefined),
      })),
      every: maybe(string({
        check: (e) => {
          const m = EVERY_PATTERN.exec(e);
          return m && Number(m[1]) >= 1 ? undefined : `Invalid schedule recurring every format: ${e}`;
        },
      })),
      onWeekDay: maybe(arrayOf(string(), {
        minSize: 1,
        check: (days) => {
          const bad = (days as string[]).filter((d) => !WEEKDAY_PATTERN.test(d));
          return bad.length ? `Invalid onWeekDay values in recurring schedule: ${bad.join(',')}` : undefined;
        },
      })),
      onMonthDay: maybe(arrayOf(number({ min: 1, max: 31, check: integer('onMonthDay') }), { minSize: 1 })),
      onMonth: maybe(arrayOf(number({ min: 1, max: 12, check: integer('onMonth') }), { minSize: 1 })),
      occurrences: maybe(number({ min: 1, check: integer('occurrences') })),
    })),
  }, { check: scheduleProblem });
}

/** `scope.alerting.query.kql`, every level required once `scope` is given. */
const scope = () => object({ alerting: object({ query: object({ kql: string() }) }) });

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
  const schedule = object({ custom: scheduleSchema(now) });
  const fields = {
    title: partial ? maybe(string()) : string(),
    enabled: maybe(boolean()),
    schedule: partial ? maybe(schedule) : schedule,
    scope: maybe(scope()),
  };
  return validateRequest<WindowFields>(object(fields), body ?? (partial ? {} : null));
}

/** A custom schedule alone, for callers that hold one outside a request body. */
export function customSchedule(v: unknown, path: string, now: Date): CustomSchedule {
  return validateRequest<CustomSchedule>(scheduleSchema(now), v, path);
}
