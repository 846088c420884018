import type { EmulatorArea } from '../../area.js';
import { licenseAtLeast, type EmulatorContext } from '../../context.js';
import { EmuError, badRequest, notFound } from '../../errors.js';
import type { EmuRequest } from '../../router.js';
import { canonicalDuration, scheduleState, type CustomSchedule } from './schedule.js';
import { windowBody, type WindowFields } from './validate.js';

const BASE = '/api/maintenance_window';
const STATUSES = ['running', 'upcoming', 'finished', 'archived', 'disabled'] as const;
type Status = (typeof STATUSES)[number];
const YEAR_MS = 365 * 86_400_000;

/** A window as stored: the API fields plus what decides the status besides the schedule. */
interface StoredWindow {
  id: string;
  title: string;
  enabled: boolean;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
  schedule: { custom: CustomSchedule };
  scope?: { alerting: { query: { kql: string } } };
  archived: boolean;
  /** Set by unarchive: occurrences starting after it are not counted (see statusOf). */
  events_until?: string;
}

interface WindowsState {
  windows: Record<string, StoredWindow>;
}

function windowsState(ctx: EmulatorContext, space: string): WindowsState {
  return ctx.store.area<WindowsState>(space, 'maintenance_window', () => ({ windows: {} }));
}

/**
 * The server stores the schedule as an rrule and converts it back: timestamps come back as full
 * ISO instants in UTC, the duration in the largest whole unit, the time zone filled with UTC.
 */
function storedSchedule(custom: CustomSchedule): { custom: CustomSchedule } {
  const out: CustomSchedule = {
    start: new Date(custom.start).toISOString(),
    duration: canonicalDuration(custom.duration),
    timezone: custom.timezone ?? 'UTC',
  };
  if (custom.recurring) {
    const r = custom.recurring;
    const recurring: NonNullable<CustomSchedule['recurring']> = {};
    if (r.end !== undefined) recurring.end = new Date(r.end).toISOString();
    if (r.every !== undefined) recurring.every = r.every;
    if (r.onWeekDay !== undefined) recurring.onWeekDay = r.onWeekDay;
    if (r.onMonthDay !== undefined) recurring.onMonthDay = r.onMonthDay;
    if (r.onMonth !== undefined) recurring.onMonth = r.onMonth;
    if (r.occurrences !== undefined) recurring.occurrences = r.occurrences;
    if (Object.keys(recurring).length) out.recurring = recurring;
  }
  return { custom: out };
}

/**
 * The state table of service-api.md: disabled wins, then archived, then the schedule at read time.
 * After an unarchive the server only knows the events of the following year, so a window whose
 * next occurrence lies further ahead reads `finished` (the documented far-future quirk).
 */
function statusOf(w: StoredWindow, now: Date): Status {
  if (!w.enabled) return 'disabled';
  if (w.archived) return 'archived';
  const horizon = w.events_until ? Date.parse(w.events_until) : Infinity;
  return scheduleState(w.schedule.custom, now.getTime(), horizon);
}

function render(w: StoredWindow, now: Date) {
  const out: Record<string, unknown> = {
    id: w.id,
    title: w.title,
    enabled: w.enabled,
    created_by: w.created_by,
    updated_by: w.updated_by,
    created_at: w.created_at,
    updated_at: w.updated_at,
    status: statusOf(w, now),
    schedule: w.schedule,
  };
  if (w.scope) out.scope = w.scope;
  return out;
}

/** Maintenance windows need a Platinum licence or higher; every route says so with a 403. */
function requireLicense(ctx: EmulatorContext): void {
  const license = ctx.settings.license;
  if (!licenseAtLeast(license, 'platinum')) {
    throw new EmuError(403, `Your ${license} license does not support maintenance windows. Please upgrade your license.`, 'platform');
  }
}

function existing(ctx: EmulatorContext, req: EmuRequest): StoredWindow {
  const windows = windowsState(ctx, req.space).windows;
  const w = Object.prototype.hasOwnProperty.call(windows, req.params.id) ? windows[req.params.id] : undefined;
  if (!w) throw notFound(`Saved object [maintenance-window/${req.params.id}] not found`);
  return w;
}

function touched(w: StoredWindow, ctx: EmulatorContext, req: EmuRequest): void {
  w.updated_at = ctx.now().toISOString();
  w.updated_by = req.user;
}

function pageParam(q: URLSearchParams, name: string, fallback: number): number {
  const raw = q.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || Number.isNaN(n)) throw badRequest(`[request query.${name}]: expected value of type [number] but got [string]`);
  if (n < 1) throw badRequest(`[request query.${name}]: Value must be equal to or greater than [1].`);
  if (n > 100) throw badRequest(`[request query.${name}]: Value must be equal to or lower than [100].`);
  if (!Number.isInteger(n)) throw badRequest(`[request query.${name}]: ${n} is not an integer`);
  return n;
}

function applyFields(w: StoredWindow, fields: WindowFields): void {
  if (fields.title !== undefined) w.title = fields.title;
  if (fields.enabled !== undefined) w.enabled = fields.enabled;
  if (fields.schedule !== undefined) {
    w.schedule = storedSchedule(fields.schedule.custom);
    // A new schedule brings a fresh set of events.
    delete w.events_until;
  }
  if (fields.scope !== undefined) w.scope = fields.scope;
}

/**
 * Maintenance windows (/api/maintenance_window), platform error shape. Create, get and find need
 * only `read` (service-api.md Authentication 6); update, delete, archive and unarchive need `all`.
 */
export const maintenanceWindowsArea: EmulatorArea = {
  name: 'maintenance_window',
  register(router) {
    router.post(BASE, (req, ctx) => {
      requireLicense(ctx);
      const fields = windowBody(req.body, false, ctx.now());
      const now = ctx.now().toISOString();
      const w: StoredWindow = {
        id: ctx.uuid(),
        title: fields.title!,
        enabled: fields.enabled ?? true,
        created_by: req.user,
        updated_by: req.user,
        created_at: now,
        updated_at: now,
        schedule: storedSchedule(fields.schedule!.custom),
        archived: false,
      };
      if (fields.scope) w.scope = fields.scope;
      windowsState(ctx, req.space).windows[w.id] = w;
      return { body: render(w, ctx.now()) };
    }, { access: 'read' });

    router.get(`${BASE}/_find`, (req, ctx) => {
      requireLicense(ctx);
      const page = pageParam(req.query, 'page', 1);
      const perPage = pageParam(req.query, 'per_page', 10);
      const statuses = req.query.getAll('status');
      for (const s of statuses) {
        if (!(STATUSES as readonly string[]).includes(s)) {
          throw badRequest(`[request query.status]: types that failed validation: value [${s}] is not one of ${STATUSES.map((x) => `[${x}]`).join(', ')}`);
        }
      }
      const title = req.query.get('title');
      const createdBy = req.query.get('created_by');
      const now = ctx.now();
      const matching = Object.values(windowsState(ctx, req.space).windows)
        .map((w) => render(w, now))
        .filter((w) => title === null || String(w.title).toLowerCase().includes(title.toLowerCase()))
        .filter((w) => createdBy === null || w.created_by === createdBy)
        .filter((w) => statuses.length === 0 || statuses.includes(w.status as string));
      // service-api.md (Maintenance windows, find): "reply maintenanceWindows, total, page, per_page".
      const maintenanceWindows = matching.slice((page - 1) * perPage, page * perPage);
      return { body: { page, per_page: perPage, total: matching.length, maintenanceWindows } };
    }, { access: 'read' });

    router.get(`${BASE}/:id`, (req, ctx) => {
      requireLicense(ctx);
      return { body: render(existing(ctx, req), ctx.now()) };
    }, { access: 'read' });

    router.patch(`${BASE}/:id`, (req, ctx) => {
      requireLicense(ctx);
      const w = existing(ctx, req);
      applyFields(w, windowBody(req.body, true, ctx.now()));
      touched(w, ctx, req);
      return { body: render(w, ctx.now()) };
    }, { access: 'all' });

    router.delete(`${BASE}/:id`, (req, ctx) => {
      requireLicense(ctx);
      const w = existing(ctx, req);
      delete windowsState(ctx, req.space).windows[w.id];
      return { status: 204 };
    }, { access: 'all' });

    router.post(`${BASE}/:id/_archive`, (req, ctx) => {
      requireLicense(ctx);
      const w = existing(ctx, req);
      if (!w.enabled) throw badRequest('Cannot archive a disabled maintenance window. Enable it first.');
      w.archived = true;
      touched(w, ctx, req);
      return { body: render(w, ctx.now()) };
    }, { access: 'all' });

    router.post(`${BASE}/:id/_unarchive`, (req, ctx) => {
      requireLicense(ctx);
      const w = existing(ctx, req);
      w.archived = false;
      w.events_until = new Date(ctx.now().getTime() + YEAR_MS).toISOString();
      touched(w, ctx, req);
      return { body: render(w, ctx.now()) };
    }, { access: 'all' });
  },
};
