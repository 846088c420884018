import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import { adapterContext } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { maintenanceWindowAdapter as adapter, canonicalDuration, WINDOW_PAGE_SIZE } from '../../src/kinds/maintenance-window.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { RunScope } from '../../src/kinds/run-scope.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

const KIND = 'MaintenanceWindow';
const MW = '/api/maintenance_window';

describe('MaintenanceWindow adapter', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext & { api: { count: number } };
  before(async () => {
    emu = await emulator({ spaces: ['ops', 'bulk'], now: () => new Date('2026-03-02T12:00:00Z') });
    ctx = adapterContext(emu.url);
  });
  after(() => emu.stop());

  async function live(title: string, space = 'default'): Promise<LiveObject> {
    const found = (await adapter.list(ctx, space)).filter((o) => o.name === title);
    assert.equal(found.length, 1, `one live window titled ${title}`);
    return found[0];
  }

  const manifests = [
    resource(KIND, 'One-off upgrade', { schedule: { custom: { start: '2026-04-01T22:00:00Z', duration: '4h' } } }),
    resource(KIND, 'Weekly patching', {
      schedule: { custom: { start: '2026-03-06T01:00:00+01:00', duration: '24h', timezone: 'Europe/Berlin', recurring: { every: '1w', onWeekDay: ['FR', 'MO'] } } },
      scope: { alerting: { query: { kql: 'svc.alert.rule.tags: "patching"' } } },
    }),
    resource(KIND, 'Paused month end', {
      enabled: false,
      schedule: { custom: { start: '2026-03-31T20:00:00Z', duration: '120m', recurring: { every: '1M', onMonthDay: [31, 30], end: '2027-01-01T00:00:00Z' } } },
    }),
    resource(KIND, 'Ops quarterly', {
      enabled: true,
      schedule: { custom: { start: '2026-03-15T00:00:00.000Z', duration: '90m', timezone: 'UTC', recurring: { every: '3M', occurrences: 4 } } },
    }, { space: 'ops' }),
  ];

  it('creates manifests that omit defaults and lists them equal to the desired state', async () => {
    for (const res of manifests) {
      await adapter.create(ctx, res);
      const obj = await live(res.name, res.space);
      assert.equal(obj.kind, KIND);
      assert.match(obj.serverId ?? '', /^[0-9a-f-]{36}$/);
      assert.deepEqual(adapter.normalizeLive(obj, RUN), adapter.normalizeDesired(res, RUN), res.name);
    }
    // The server answered 1d for 24h and a millisecond UTC start: the comparison sees through both.
    const weekly = await live('Weekly patching');
    assert.equal(weekly.body.schedule.custom.duration, '1d');
    assert.equal(weekly.body.schedule.custom.start, '2026-03-06T00:00:00.000Z');
  });

  it('takes timestamps without seconds and an empty scope query, as the routes do (schedule validators: ISO 8601 with optional seconds; kql: a string), and refuses a space for the T', async () => {
    const yaml = (start: string) => ['apiVersion: svcform/v1', `kind: ${KIND}`, 'metadata: {name: Minute precision}', 'spec:', '  schedule:', `    custom: {start: '${start}', duration: 2h, recurring: {every: 1w, end: '2027-01-01T00:00+01:00'}}`, "  scope: {alerting: {query: {kql: ''}}}", ''].join('\n');
    const validated = await cli(['validate', repo({ 'w.yaml': yaml('2026-04-02T22:30Z') })]);
    assert.equal(validated.code, 0, validated.out + validated.err);
    const spaced = await cli(['validate', repo({ 'w.yaml': yaml('2026-04-02 22:30Z') })]);
    assert.equal(spaced.code, 1, spaced.out + spaced.err);
    assert.match(spaced.err, /spec\.schedule\.custom\.start must be a date and time with a T and a time zone/);
    const res = resource(KIND, 'Minute precision', { schedule: { custom: { start: '2026-04-02T22:30Z', duration: '2h', recurring: { every: '1w', end: '2027-01-01T00:00+01:00' } } }, scope: { alerting: { query: { kql: '' } } } });
    await adapter.create(ctx, res);
    assert.deepEqual(adapter.normalizeLive(await live('Minute precision'), RUN), adapter.normalizeDesired(res, RUN));
  });

  it('compares durations as lengths of time in one canonical unit', () => {
    assert.equal(canonicalDuration('24h'), '1d');
    assert.equal(canonicalDuration('1440m'), '1d');
    assert.equal(canonicalDuration('120m'), '2h');
    assert.equal(canonicalDuration('90m'), '90m');
    assert.equal(canonicalDuration('5400s'), '90m');
    assert.equal(canonicalDuration('61s'), '61s');
    const n = adapter.normalizeDesired(manifests[0], RUN);
    assert.deepEqual(n, { enabled: true, schedule: { custom: { start: '2026-04-01T22:00:00.000Z', duration: '4h', timezone: 'UTC' } } });
  });

  it('shows a change made through the API as a difference, and update converges', async () => {
    const res = manifests[1];
    const before = await live(res.name);
    await call(emu, 'PATCH', `${MW}/${before.serverId}`, { enabled: false, schedule: { custom: { start: '2026-03-06T00:00:00Z', duration: '2h' } } });
    const drifted = await live(res.name);
    const n = adapter.normalizeLive(drifted, RUN);
    assert.notDeepEqual(n, adapter.normalizeDesired(res, RUN));
    assert.equal(n.enabled, false);
    assert.equal(n.schedule.custom.duration, '2h');
    await adapter.update(ctx, res, drifted, { rotateSecrets: false });
    const after = await live(res.name);
    assert.equal(after.serverId, before.serverId, 'updated in place');
    assert.deepEqual(adapter.normalizeLive(after, RUN), adapter.normalizeDesired(res, RUN));
  });

  it('update adds a scope in place, and dropping the scope recreates the window (the PATCH body cannot clear it)', async () => {
    const unscoped = manifests[0];
    const scoped = resource(KIND, unscoped.name, { ...unscoped.spec, scope: { alerting: { query: { kql: 'host.name: db-1' } } } });
    const first = await live(unscoped.name);
    await adapter.update(ctx, scoped, first, { rotateSecrets: false });
    const withScope = await live(unscoped.name);
    assert.equal(withScope.serverId, first.serverId);
    assert.deepEqual(adapter.normalizeLive(withScope, RUN), adapter.normalizeDesired(scoped, RUN));
    await adapter.update(ctx, unscoped, withScope, { rotateSecrets: false });
    const without = await live(unscoped.name);
    assert.equal(without.body.scope, undefined);
    assert.deepEqual(adapter.normalizeLive(without, RUN), adapter.normalizeDesired(unscoped, RUN));
  });

  it('delete removes the window', async () => {
    const res = resource(KIND, 'Short-lived', { schedule: { custom: { start: '2026-05-01T00:00:00Z', duration: '1h' } } });
    await adapter.create(ctx, res);
    await adapter.delete(ctx, await live(res.name));
    assert.equal((await adapter.list(ctx, 'default')).some((o) => o.name === res.name), false);
  });

  it('toSpec leaves out enabled true, timezone UTC and server fields, and round-trips', async () => {
    for (const res of manifests) {
      const obj = await live(res.name, res.space);
      const { spec } = adapter.toSpec(obj, RUN);
      assert.equal(spec.title, undefined);
      assert.equal(spec.id, undefined);
      assert.equal(spec.status, undefined);
      if (obj.body.enabled) assert.equal('enabled' in spec, false);
      if (obj.body.schedule.custom.timezone === 'UTC') assert.equal('timezone' in spec.schedule.custom, false);
      assert.deepEqual(adapter.normalizeDesired(resource(KIND, obj.name, spec, { space: res.space }), RUN), adapter.normalizeLive(obj, RUN), res.name);
    }
    const paused = adapter.toSpec(await live('Paused month end'), RUN).spec;
    assert.deepEqual(Object.keys(paused), ['enabled', 'schedule']);
    assert.equal(paused.enabled, false);
    assert.equal(adapter.toSpec(await live('Weekly patching'), RUN).spec.schedule.custom.timezone, 'Europe/Berlin');
  });

  it('lists every page at 100 per page: ceil(N / 100) requests, and keeps windows that share a title', async () => {
    const n = 250;
    for (let i = 0; i < n; i++) {
      await call(emu, 'POST', `/s/bulk${MW}`, { title: i < 2 ? 'Twin' : `window ${i}`, schedule: { custom: { start: '2026-05-01T00:00:00Z', duration: '1h' } } });
    }
    const before = ctx.api.count;
    const objects = await adapter.list(ctx, 'bulk');
    assert.equal(ctx.api.count - before, Math.ceil(n / WINDOW_PAGE_SIZE));
    assert.equal(objects.length, n);
    assert.equal(new Set(objects.map((o) => o.serverId)).size, n);
    assert.equal(objects.filter((o) => o.name === 'Twin').length, 2);
  });
});
