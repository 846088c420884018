import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const MW = '/api/maintenance_window';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// A Monday, so weekly schedules are easy to reason about.
const NOW = '2026-03-02T12:00:00.000Z';

let clock = new Date(NOW);
const at = (iso: string) => {
  clock = new Date(iso);
};

async function create(emu: RunningEmulator, body: Record<string, unknown>, space = ''): Promise<any> {
  const res = await call(emu, 'POST', `${space}${MW}`, { title: 'Patch night', schedule: { custom: { start: '2026-03-02T11:00:00Z', duration: '2h' } }, ...body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

async function statusOf(emu: RunningEmulator, id: string): Promise<string> {
  const res = await call(emu, 'GET', `${MW}/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.body.status;
}

const custom = (c: Record<string, unknown>) => ({ schedule: { custom: c } });

describe('emulator maintenance windows', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'], now: () => clock });
  });
  beforeEach(() => at(NOW));
  after(() => emu.stop());

  it('create answers the window with id, status, audit fields, enabled true and timezone UTC filled in (service-api.md Maintenance windows: "create (title, schedule R; enabled, scope O; reply the window)"; wire-facts §10)', async () => {
    const res = await call(emu, 'POST', MW, { title: 'Upgrade', schedule: { custom: { start: '2026-03-02T11:00:00.000Z', duration: '2h' } } });
    assert.equal(res.status, 200);
    const w = res.body;
    assert.match(w.id, UUID);
    assert.equal(w.title, 'Upgrade');
    assert.equal(w.enabled, true);
    assert.equal(w.status, 'running');
    assert.equal(w.created_by, 'elastic');
    assert.equal(w.updated_by, 'elastic');
    assert.equal(w.created_at, NOW);
    assert.equal(w.updated_at, NOW);
    assert.deepEqual(w.schedule, { custom: { start: '2026-03-02T11:00:00.000Z', duration: '2h', timezone: 'UTC' } });
    assert.equal(w.scope, undefined);
  });

  it('create requires title and schedule, with the platform error shape (service-api.md Maintenance windows: "title, schedule R"; wire-facts 0.3)', async () => {
    const noTitle = await call(emu, 'POST', MW, custom({ start: NOW, duration: '1h' }));
    assert.equal(noTitle.status, 400);
    assert.equal(noTitle.body.statusCode, 400);
    assert.equal(noTitle.body.error, 'Bad Request');
    assert.match(noTitle.body.message, /request body\.title/);
    const noSchedule = await call(emu, 'POST', MW, { title: 'x' });
    assert.equal(noSchedule.status, 400);
    assert.match(noSchedule.body.message, /request body\.schedule/);
    const noStart = await call(emu, 'POST', MW, { title: 'x', ...custom({ duration: '1h' }) });
    assert.equal(noStart.status, 400);
    const unknown = await call(emu, 'POST', MW, { title: 'x', ...custom({ start: NOW, duration: '1h' }), owner: 'me' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /owner.*definition for this key is missing/);
  });

  it('validates the schedule: duration and every formats, time zone, end and occurrences (service-api.md Resources: "duration (R, `<integer><unit>` with unit d, h, m or s)", "every with units d, w, M or y")', async () => {
    const bad: Array<Record<string, unknown>> = [
      { start: NOW, duration: '2x' },
      { start: 'next tuesday', duration: '1h' },
      { start: NOW, duration: '1h', timezone: 'Mars/Olympus' },
      { start: NOW, duration: '1h', recurring: { every: '2q' } },
      { start: NOW, duration: '1h', recurring: { onWeekDay: ['MONDAY'] } },
      { start: NOW, duration: '1h', recurring: { onMonthDay: [32] } },
      { start: NOW, duration: '1h', recurring: { onMonth: [13] } },
      { start: NOW, duration: '1h', recurring: { occurrences: 0 } },
      { start: NOW, duration: '1h', recurring: { end: '2025-01-01T00:00:00Z' } },
      { start: NOW, duration: '1h', recurring: { end: '2027-01-01T00:00:00Z', occurrences: 3 } },
      { start: NOW, duration: '2d', recurring: { every: '1d' } },
    ];
    for (const c of bad) {
      const res = await call(emu, 'POST', MW, { title: 'x', ...custom(c) });
      assert.equal(res.status, 400, JSON.stringify(c));
      assert.equal(res.body.statusCode, 400);
    }
  });

  it('reads bodies as the config-schema declarations do: declared keys before unknown ones, numeric strings as numbers, the integer and recurrence rules in the server\'s words (K-MW schedule/schema/v1.ts, validation/validate_integer/v1.ts, validation_schedule/v1.ts with moment\'s month length)', async () => {
    const message = async (body: unknown) => (await call(emu, 'POST', MW, body)).body.message;
    assert.equal(await message({ title: 5, owner: 'me' }), '[request body.title]: expected value of type [string] but got [number]');
    assert.equal(await message({ title: 'x', ...custom({ start: NOW, duration: '1h', recurring: { occurrences: 2.5 } }) }), '[request body.schedule.custom.recurring.occurrences]: schedule occurrences must be a positive integer.');
    assert.equal(await message({ title: 'x', ...custom({ start: NOW, duration: '1h' }), scope: { alerting: {} } }), '[request body.scope.alerting.query]: expected a plain object value, but found [undefined] instead.');
    const converted = await call(emu, 'POST', MW, { title: 'monthly', ...custom({ start: NOW, duration: '29d', recurring: { every: '1M', occurrences: '3' } }) });
    assert.equal(converted.status, 200, converted.text);
    assert.equal(converted.body.schedule.custom.recurring.occurrences, 3);
  });

  it('durations come back in the largest whole unit (wire-facts §10: "durations may come back in another unit"; brief: 24h -> 1d, 120m -> 2h, 90m stays 90m)', async () => {
    for (const [sent, back] of [['24h', '1d'], ['120m', '2h'], ['90m', '90m'], ['3600s', '1h'], ['45s', '45s']]) {
      const w = await create(emu, custom({ start: '2026-04-01T00:00:00Z', duration: sent }));
      assert.equal(w.schedule.custom.duration, back, sent);
    }
  });

  it('the start and end come back as full UTC instants, recurring fields as given (wire-facts §10: the schedule is stored as an rrule and converted back)', async () => {
    const w = await create(emu, custom({ start: '2026-04-01T02:00:00+02:00', duration: '1h', timezone: 'Europe/Berlin', recurring: { every: '1w', onWeekDay: ['WE', 'FR'], end: '2027-01-01T00:00:00Z' } }));
    assert.deepEqual(w.schedule.custom, {
      start: '2026-04-01T00:00:00.000Z',
      duration: '1h',
      timezone: 'Europe/Berlin',
      recurring: { end: '2027-01-01T00:00:00.000Z', every: '1w', onWeekDay: ['WE', 'FR'] },
    });
  });

  it('get answers the window and 404 for an unknown id (wire-facts §10: "GET /api/maintenance_window/{id} | 200 / 404")', async () => {
    const w = await create(emu, {});
    const res = await call(emu, 'GET', `${MW}/${w.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, w);
    const missing = await call(emu, 'GET', `${MW}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.statusCode, 404);
    assert.equal(missing.body.error, 'Not Found');
  });

  it('update is partial: title, enabled, schedule and scope each change alone (service-api.md Maintenance windows: "update (id; partial: title, enabled, schedule, scope)")', async () => {
    const w = await create(emu, { scope: { alerting: { query: { kql: 'svc.alert.rule.tags: "db"' } } } });
    at('2026-03-02T12:30:00.000Z');
    const titled = await call(emu, 'PATCH', `${MW}/${w.id}`, { title: 'Renamed' });
    assert.equal(titled.status, 200);
    assert.equal(titled.body.title, 'Renamed');
    assert.deepEqual(titled.body.schedule, w.schedule);
    assert.deepEqual(titled.body.scope, w.scope);
    assert.equal(titled.body.updated_at, '2026-03-02T12:30:00.000Z');
    assert.equal(titled.body.created_at, w.created_at);
    const rescheduled = await call(emu, 'PATCH', `${MW}/${w.id}`, custom({ start: '2026-06-01T00:00:00Z', duration: '1d' }));
    assert.equal(rescheduled.body.status, 'upcoming');
    assert.equal(rescheduled.body.title, 'Renamed');
    const scoped = await call(emu, 'PATCH', `${MW}/${w.id}`, { scope: { alerting: { query: { kql: 'host.name: a' } } } });
    assert.equal(scoped.body.scope.alerting.query.kql, 'host.name: a');
    assert.equal((await call(emu, 'PATCH', `${MW}/nope`, { title: 'x' })).status, 404);
  });

  it('the scope cannot be cleared with null (wire-facts §10: scope is optional in the PATCH body, not nullable)', async () => {
    const w = await create(emu, { scope: { alerting: { query: { kql: 'a: b' } } } });
    const res = await call(emu, 'PATCH', `${MW}/${w.id}`, { scope: null });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /request body\.scope/);
  });

  it('update with enabled false makes the window disabled, from any state (service-api.md states: "any | update with enabled false | | disabled")', async () => {
    const running = await create(emu, {});
    assert.equal(running.status, 'running');
    const res = await call(emu, 'PATCH', `${MW}/${running.id}`, { enabled: false });
    assert.equal(res.body.status, 'disabled');
    assert.equal(res.body.enabled, false);
    const archived = await create(emu, {});
    await call(emu, 'POST', `${MW}/${archived.id}/_archive`);
    assert.equal((await call(emu, 'PATCH', `${MW}/${archived.id}`, { enabled: false })).body.status, 'disabled');
    const created = await create(emu, { enabled: false });
    assert.equal(created.status, 'disabled');
  });

  it('delete answers 204 with an empty body (service-api.md Errors: "204 with empty body for ... maintenance window delete")', async () => {
    const w = await create(emu, {});
    const res = await call(emu, 'DELETE', `${MW}/${w.id}`);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await call(emu, 'GET', `${MW}/${w.id}`)).status, 404);
    assert.equal((await call(emu, 'DELETE', `${MW}/${w.id}`)).status, 404);
  });

  it('archive moves the window to archived, and is refused for a disabled window (service-api.md states: "any | archive | not disabled | archived")', async () => {
    const w = await create(emu, {});
    const res = await call(emu, 'POST', `${MW}/${w.id}/_archive`);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'archived');
    assert.equal(res.body.id, w.id);
    const disabled = await create(emu, { enabled: false });
    const refused = await call(emu, 'POST', `${MW}/${disabled.id}/_archive`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.statusCode, 400);
    assert.equal((await call(emu, 'POST', `${MW}/nope/_archive`)).status, 404);
  });

  it('unarchive recomputes the status from the schedule (service-api.md states: "archived | unarchive | | status recomputed from the schedule")', async () => {
    const running = await create(emu, {});
    await call(emu, 'POST', `${MW}/${running.id}/_archive`);
    const back = await call(emu, 'POST', `${MW}/${running.id}/_unarchive`);
    assert.equal(back.status, 200);
    assert.equal(back.body.status, 'running');
    const soon = await create(emu, custom({ start: '2026-09-01T00:00:00Z', duration: '1h' }));
    await call(emu, 'POST', `${MW}/${soon.id}/_archive`);
    assert.equal((await call(emu, 'POST', `${MW}/${soon.id}/_unarchive`)).body.status, 'upcoming');
    assert.equal((await call(emu, 'POST', `${MW}/nope/_unarchive`)).status, 404);
  });

  it('after unarchive a window more than a year ahead reads finished (service-api.md states: "a far-future window is reported as finished")', async () => {
    const far = await create(emu, custom({ start: '2027-06-01T00:00:00Z', duration: '1h' }));
    assert.equal(far.status, 'upcoming');
    await call(emu, 'POST', `${MW}/${far.id}/_archive`);
    const res = await call(emu, 'POST', `${MW}/${far.id}/_unarchive`);
    assert.equal(res.body.status, 'finished');
    assert.equal(await statusOf(emu, far.id), 'finished');
    // A new schedule brings a new set of events.
    const patched = await call(emu, 'PATCH', `${MW}/${far.id}`, custom({ start: '2027-06-01T00:00:00Z', duration: '2h' }));
    assert.equal(patched.body.status, 'upcoming');
  });

  it('status is running inside an occurrence, upcoming before one, finished after the last, computed at read time (service-api.md: status `running`, `upcoming`, `finished`)', async () => {
    const w = await create(emu, custom({ start: '2026-03-03T00:00:00Z', duration: '1h' }));
    assert.equal(w.status, 'upcoming');
    at('2026-03-03T00:30:00Z');
    assert.equal(await statusOf(emu, w.id), 'running');
    at('2026-03-03T01:00:00Z');
    assert.equal(await statusOf(emu, w.id), 'finished');
  });

  it('recurring schedules honour every, onWeekDay, occurrences and end (service-api.md Resources: "recurring (`every` ...; `onWeekDay` ...; `occurrences` int; `end` timestamp)")', async () => {
    // Mondays and Wednesdays 10:00-11:00 UTC from Monday 2026-03-02.
    const weekly = await create(emu, custom({ start: '2026-03-02T10:00:00Z', duration: '1h', recurring: { every: '1w', onWeekDay: ['MO', 'WE'] } }));
    at('2026-03-04T10:30:00Z');
    assert.equal(await statusOf(emu, weekly.id), 'running');
    at('2026-03-05T10:30:00Z');
    assert.equal(await statusOf(emu, weekly.id), 'upcoming');
    at('2030-01-07T10:15:00Z'); // a Monday, years later
    assert.equal(await statusOf(emu, weekly.id), 'running');
    const counted = await create(emu, custom({ start: '2026-03-02T10:00:00Z', duration: '1h', recurring: { every: '1d', occurrences: 3 } }));
    at('2026-03-04T10:30:00Z');
    assert.equal(await statusOf(emu, counted.id), 'running');
    at('2026-03-05T10:30:00Z');
    assert.equal(await statusOf(emu, counted.id), 'finished');
    at(NOW);
    const ended = await create(emu, custom({ start: '2026-03-02T10:00:00Z', duration: '1h', recurring: { every: '1d', end: '2026-03-10T00:00:00Z' } }));
    at('2026-03-09T10:30:00Z');
    assert.equal(await statusOf(emu, ended.id), 'running');
    at('2026-03-10T10:30:00Z');
    assert.equal(await statusOf(emu, ended.id), 'finished');
  });

  it('monthly and yearly schedules honour onMonthDay, nth weekdays and onMonth (service-api.md Resources: "`onMonthDay` ints; `onMonth` ints")', async () => {
    const monthDay = await create(emu, custom({ start: '2026-03-01T00:00:00Z', duration: '1d', recurring: { every: '1M', onMonthDay: [15] } }));
    at('2026-04-15T12:00:00Z');
    assert.equal(await statusOf(emu, monthDay.id), 'running');
    at('2026-04-16T12:00:00Z');
    assert.equal(await statusOf(emu, monthDay.id), 'upcoming');
    at(NOW);
    const lastFriday = await create(emu, custom({ start: '2026-03-01T20:00:00Z', duration: '2h', recurring: { every: '1M', onWeekDay: ['-1FR'] } }));
    at('2026-03-27T21:00:00Z'); // the last Friday of March 2026
    assert.equal(await statusOf(emu, lastFriday.id), 'running');
    at('2026-03-20T21:00:00Z');
    assert.equal(await statusOf(emu, lastFriday.id), 'upcoming');
    at(NOW);
    const yearly = await create(emu, custom({ start: '2026-03-01T00:00:00Z', duration: '1d', recurring: { every: '1y', onMonth: [12], onMonthDay: [24] } }));
    at('2026-12-24T06:00:00Z');
    assert.equal(await statusOf(emu, yearly.id), 'running');
    at('2027-12-24T06:00:00Z');
    assert.equal(await statusOf(emu, yearly.id), 'running');
    at('2027-12-25T06:00:00Z');
    assert.equal(await statusOf(emu, yearly.id), 'upcoming');
  });

  it('occurrences follow the wall clock of the schedule time zone across daylight saving (service-api.md Resources: "timezone (string)")', async () => {
    // Mondays 02:00-03:00 Berlin time: 01:00Z in winter, 00:00Z in summer.
    const w = await create(emu, custom({ start: '2026-01-05T01:00:00Z', duration: '1h', timezone: 'Europe/Berlin', recurring: { every: '1w' } }));
    at('2026-01-12T01:30:00Z');
    assert.equal(await statusOf(emu, w.id), 'running');
    at('2026-07-06T00:30:00Z');
    assert.equal(await statusOf(emu, w.id), 'running');
    at('2026-07-06T01:30:00Z');
    assert.equal(await statusOf(emu, w.id), 'upcoming');
  });

  it('find answers {page, per_page, total, maintenanceWindows} with page 1 and per_page 10 by default (wire-facts §15 fact 9; OAS get-maintenance-window-find; service-api.md Maintenance windows: "reply maintenanceWindows, total, page, per_page"; "page 1 to 100 default 1, per_page 1 to 100 default 10")', async () => {
    const res = await call(emu, 'GET', `/s/other${MW}/_find`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { page: 1, per_page: 10, total: 0, maintenanceWindows: [] });
    for (let i = 0; i < 12; i++) await create(emu, { title: `paged ${i}` }, '/s/other');
    const first = await call(emu, 'GET', `/s/other${MW}/_find`);
    assert.equal(first.body.total, 12);
    assert.equal(first.body.maintenanceWindows.length, 10);
    const second = await call(emu, 'GET', `/s/other${MW}/_find?page=2`);
    assert.equal(second.body.maintenanceWindows.length, 2);
    const ids = new Set([...first.body.maintenanceWindows, ...second.body.maintenanceWindows].map((w: any) => w.id));
    assert.equal(ids.size, 12);
  });

  it('find rejects page and per_page outside 1 to 100 with a 400 (wire-facts §15 fact 9: "per_page ... max 100, page max 100"; OAS get-maintenance-window-find; service-api.md Limits: "page and per_page | maintenance windows find | 1 to 100")', async () => {
    for (const q of ['page=0', 'page=101', 'per_page=0', 'per_page=101', 'per_page=ten']) {
      const res = await call(emu, 'GET', `${MW}/_find?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.statusCode, 400);
    }
    assert.equal((await call(emu, 'GET', `${MW}/_find?page=100&per_page=100`)).status, 200);
  });

  it('find filters by title, created_by and status as one value or a list (service-api.md Maintenance windows: "find (title, created_by, status as one value or list ...)")', async () => {
    const space = '/s/other';
    const running = await create(emu, { title: 'Quarterly DB upgrade' }, space);
    const upcoming = await create(emu, { title: 'Network change', ...custom({ start: '2026-05-01T00:00:00Z', duration: '1h' }) }, space);
    const byTitle = await call(emu, 'GET', `${space}${MW}/_find?title=${encodeURIComponent('db upgrade')}`);
    assert.deepEqual(byTitle.body.maintenanceWindows.map((w: any) => w.id), [running.id]);
    const byStatus = await call(emu, 'GET', `${space}${MW}/_find?status=upcoming&per_page=100`);
    assert.deepEqual(byStatus.body.maintenanceWindows.map((w: any) => w.id), [upcoming.id]);
    const both = await call(emu, 'GET', `${space}${MW}/_find?status=upcoming&status=running&per_page=100`);
    assert.ok(both.body.maintenanceWindows.some((w: any) => w.id === running.id) && both.body.maintenanceWindows.some((w: any) => w.id === upcoming.id));
    assert.equal((await call(emu, 'GET', `${space}${MW}/_find?created_by=elastic&per_page=100`)).body.total, both.body.total);
    assert.equal((await call(emu, 'GET', `${space}${MW}/_find?created_by=someone-else`)).body.total, 0);
    assert.equal((await call(emu, 'GET', `${MW}/_find?status=paused`)).status, 400);
  });

  it('windows of one space are invisible in another (service-api.md cross-cutting rule 1)', async () => {
    const w = await create(emu, { title: 'Only in default' });
    assert.equal((await call(emu, 'GET', `/s/other${MW}/${w.id}`)).status, 404);
    const found = await call(emu, 'GET', `/s/other${MW}/_find?title=${encodeURIComponent('Only in default')}`);
    assert.equal(found.body.total, 0);
    assert.equal((await call(emu, 'DELETE', `/s/other${MW}/${w.id}`)).status, 404);
  });
});

describe('emulator maintenance windows: privileges and licence', () => {
  let emu: RunningEmulator;
  const full = { authorization: 'ApiKey full' };
  const reader = { authorization: 'ApiKey reader' };
  before(async () => {
    emu = await emulator({
      credentials: [
        { type: 'apiKey', secret: 'full', user: 'ops' },
        { type: 'apiKey', secret: 'reader', user: 'viewer', readOnly: true },
      ],
    });
  });
  after(() => emu.stop());

  const body = { title: 'Read-only made', schedule: { custom: { start: '2026-03-02T11:00:00Z', duration: '2h' } } };

  it('create, get and find need only read; update, delete, archive and unarchive need all (service-api.md Authentication 6)', async () => {
    const created = await call(emu, 'POST', MW, body, { headers: reader });
    assert.equal(created.status, 200);
    assert.equal(created.body.created_by, 'viewer');
    const id = created.body.id;
    assert.equal((await call(emu, 'GET', `${MW}/${id}`, undefined, { headers: reader })).status, 200);
    assert.equal((await call(emu, 'GET', `${MW}/_find`, undefined, { headers: reader })).status, 200);
    for (const [method, path, payload] of [
      ['PATCH', `${MW}/${id}`, { title: 'x' }],
      ['DELETE', `${MW}/${id}`, undefined],
      ['POST', `${MW}/${id}/_archive`, undefined],
      ['POST', `${MW}/${id}/_unarchive`, undefined],
    ] as const) {
      const denied = await call(emu, method, path, payload, { headers: reader });
      assert.equal(denied.status, 403, `${method} ${path}`);
      assert.equal(denied.body.error, 'Forbidden');
      assert.notEqual((await call(emu, method, path, payload, { headers: full })).status, 403, `${method} ${path} with all`);
    }
  });

  it('every route answers 403 below a Platinum licence (service-api.md Limits: "Maintenance windows | licence | Platinum or higher")', async () => {
    const created = await call(emu, 'POST', MW, body, { headers: full });
    const id = created.body.id;
    await call(emu, 'PUT', '/__emulator/license', { type: 'gold' }, { headers: full });
    try {
      for (const [method, path, payload] of [
        ['POST', MW, body],
        ['GET', `${MW}/${id}`, undefined],
        ['GET', `${MW}/_find`, undefined],
        ['PATCH', `${MW}/${id}`, { title: 'x' }],
        ['POST', `${MW}/${id}/_archive`, undefined],
        ['POST', `${MW}/${id}/_unarchive`, undefined],
        ['DELETE', `${MW}/${id}`, undefined],
      ] as const) {
        const res = await call(emu, method, path, payload, { headers: full });
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.equal(res.body.statusCode, 403);
        assert.match(res.body.message, /license/);
      }
    } finally {
      await call(emu, 'PUT', '/__emulator/license', { type: 'platinum' }, { headers: full });
    }
    assert.equal((await call(emu, 'GET', `${MW}/${id}`, undefined, { headers: full })).status, 200);
    await call(emu, 'PUT', '/__emulator/license', { type: 'enterprise' }, { headers: full });
    assert.equal((await call(emu, 'GET', `${MW}/${id}`, undefined, { headers: full })).status, 200);
  });
});
