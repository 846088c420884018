import type { Resource } from '../manifest/types.js';
import { durationSeconds, isPlainObject } from './normalize.js';
import { listAllPages } from './paging.js';
import type { AdapterContext, KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';

const KIND = 'MaintenanceWindow';
const BASE = '/api/maintenance_window';
/** The find endpoint's per_page maximum (service-api.md Limits: 1 to 100). */
export const WINDOW_PAGE_SIZE = 100;
const DEFAULTS = { enabled: true, timezone: 'UTC' };
const WEEKDAY_ORDER = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/**
 * One spelling per length of time: the largest unit that divides it. The server keeps durations
 * in milliseconds and writes them back in another unit (wire-facts §10), so `24h` and `1d` are the
 * same duration.
 */
export function canonicalDuration(duration: unknown): unknown {
  if (typeof duration !== 'string') return duration;
  const seconds = durationSeconds(duration);
  if (seconds === undefined) return duration;
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60]] as const) {
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/** Timestamps compare as instants: the server answers `...T02:00:00.000Z` for `...T02:00:00Z`. */
function canonicalInstant(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
}

function weekdayRank(day: string): number {
  const m = /^([+-]?\d)?([A-Z]{2})$/.exec(day);
  return m ? WEEKDAY_ORDER.indexOf(m[2]) * 20 + Number(m[1] ?? 0) : 1000;
}

function canonicalRecurring(recurring: unknown): Record<string, any> | undefined {
  if (!isPlainObject(recurring)) return undefined;
  const out: Record<string, any> = {};
  if (recurring.every !== undefined) out.every = recurring.every;
  if (Array.isArray(recurring.onWeekDay)) out.onWeekDay = [...new Set(recurring.onWeekDay as string[])].sort((a, b) => weekdayRank(a) - weekdayRank(b));
  if (Array.isArray(recurring.onMonthDay)) out.onMonthDay = [...new Set(recurring.onMonthDay as number[])].sort((a, b) => a - b);
  if (Array.isArray(recurring.onMonth)) out.onMonth = [...new Set(recurring.onMonth as number[])].sort((a, b) => a - b);
  if (recurring.occurrences !== undefined) out.occurrences = recurring.occurrences;
  if (recurring.end !== undefined) out.end = canonicalInstant(recurring.end);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A window in comparable form, from a manifest spec or a server reply alike. */
function comparable(source: Record<string, any>): Record<string, any> {
  const custom = isPlainObject(source.schedule?.custom) ? source.schedule.custom : {};
  const schedule: Record<string, any> = {
    start: canonicalInstant(custom.start),
    duration: canonicalDuration(custom.duration),
    timezone: custom.timezone ?? DEFAULTS.timezone,
  };
  const recurring = canonicalRecurring(custom.recurring);
  if (recurring) schedule.recurring = recurring;
  const out: Record<string, any> = {
    enabled: typeof source.enabled === 'boolean' ? source.enabled : DEFAULTS.enabled,
    schedule: { custom: schedule },
  };
  if (isPlainObject(source.scope)) out.scope = source.scope;
  return out;
}

function toLive(space: string, body: Record<string, any>): LiveObject {
  return { kind: KIND, space, name: body.title, serverId: body.id, body };
}

async function deleteWindow(ctx: AdapterContext, live: LiveObject): Promise<void> {
  await ctx.api.request({ method: 'DELETE', path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`, space: live.space });
}

function createBody(res: Resource): Record<string, any> {
  const body: Record<string, any> = { title: res.name, enabled: res.spec.enabled ?? DEFAULTS.enabled, schedule: res.spec.schedule };
  if (res.spec.scope !== undefined) body.scope = res.spec.scope;
  return body;
}

/**
 * Maintenance windows. metadata.name is the title (the server id is generated and not used as
 * identity). Two live windows with one title are both listed; the engine reports the clash.
 */
export const maintenanceWindowAdapter: KindAdapter = {
  kind: KIND,
  schema: 'MaintenanceWindow.schema.json',
  area: AREAS.maintenanceWindow,
  setFields: ['/schedule/custom/recurring/onWeekDay', '/schedule/custom/recurring/onMonthDay', '/schedule/custom/recurring/onMonth'],

  references() {
    return [];
  },

  async list(ctx, space) {
    const windows = await listAllPages<Record<string, any>>(ctx.api, {
      path: `${BASE}/_find`,
      space,
      sizeParam: 'per_page',
      pageSize: WINDOW_PAGE_SIZE,
      items: (body) => body?.maintenanceWindows ?? [],
      total: (body) => body?.total ?? 0,
    });
    return windows.map((w) => toLive(space, w));
  },

  normalizeDesired(res) {
    return comparable(res.spec);
  },

  normalizeLive(live) {
    return comparable(live.body);
  },

  async create(ctx, res) {
    await ctx.api.request({ method: 'POST', path: BASE, space: res.space, body: createBody(res) });
  },

  async update(ctx, res, live) {
    // The PATCH body's scope is optional but not nullable: once a window has a scope, no update
    // can take it away. Dropping the scope therefore recreates the window (it is referenced by
    // nothing, so a new id costs nothing but its creation metadata).
    if (isPlainObject(live.body.scope) && res.spec.scope === undefined) {
      await deleteWindow(ctx, live);
      await ctx.api.request({ method: 'POST', path: BASE, space: live.space, body: createBody(res) });
      return;
    }
    await ctx.api.request({
      method: 'PATCH',
      path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`,
      space: live.space,
      body: createBody(res),
    });
  },

  delete: deleteWindow,

  toSpec(live) {
    const custom = live.body.schedule?.custom ?? {};
    const schedule: Record<string, any> = { start: custom.start, duration: custom.duration };
    if (custom.timezone !== undefined && custom.timezone !== DEFAULTS.timezone) schedule.timezone = custom.timezone;
    if (isPlainObject(custom.recurring) && Object.keys(custom.recurring).length > 0) schedule.recurring = custom.recurring;
    const spec: Record<string, any> = {};
    if (live.body.enabled === false) spec.enabled = false;
    spec.schedule = { custom: schedule };
    if (isPlainObject(live.body.scope)) spec.scope = live.body.scope;
    return { spec };
  },
};
