import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration } from '../../src/cli/duration.js';
import { backoffMs } from '../../src/cli/reconcile.js';
import { parseListen, ReconcileStatus } from '../../src/cli/reconcile-status.js';
import { DriftBaseline, selectForPolicy } from '../../src/engine/reconcile-select.js';
import type { PlannedChange } from '../../src/engine/plan.js';
import { UsageError } from '../../src/cli/usage-error.js';

describe('reconcile durations', () => {
  it('reads 30s, 5m, 1h, 1h30m and 500ms', () => {
    assert.equal(parseDuration('--interval', '30s'), 30_000);
    assert.equal(parseDuration('--interval', '5m'), 300_000);
    assert.equal(parseDuration('--interval', '1h'), 3_600_000);
    assert.equal(parseDuration('--interval', '1h30m'), 5_400_000);
    assert.equal(parseDuration('--interval', '500ms'), 500);
    assert.equal(formatDuration(5_400_000), '1h30m');
    assert.equal(formatDuration(1500), '1s500ms');
  });

  it('refuses a bare number, an unknown unit, a negative or empty value, and one under the minimum, naming the flag', () => {
    for (const bad of ['5', '5d', '-5m', '', 'm', '5 m x', '1.5m']) {
      assert.throws(() => parseDuration('--interval', bad), (e: Error) => e instanceof UsageError && /--interval must be a duration such as 30s, 5m, 1h/.test(e.message), bad);
    }
    assert.throws(() => parseDuration('--interval', '500ms', 1000), /--interval must be at least 1s, not 500ms/);
  });
});

describe('reconcile backoff', () => {
  it('doubles from the base, is capped, and draws from the upper half of the wait', () => {
    assert.equal(backoffMs(1, 1000, 60_000, () => 1), 1000);
    assert.equal(backoffMs(2, 1000, 60_000, () => 1), 2000);
    assert.equal(backoffMs(4, 1000, 60_000, () => 1), 8000);
    assert.equal(backoffMs(30, 1000, 60_000, () => 1), 60_000);
    assert.equal(backoffMs(4, 1000, 60_000, () => 0), 4000);
    const draws = new Set(Array.from({ length: 20 }, () => backoffMs(3, 1000, 60_000)));
    assert.ok(draws.size > 1, 'jitter varies the wait');
    for (const d of draws) assert.ok(d >= 2000 && d <= 4000, String(d));
  });
});

describe('reconcile --listen', () => {
  it('reads HOST:PORT, [v6]:PORT and :PORT, and refuses anything else', () => {
    assert.deepEqual(parseListen('127.0.0.1:9464'), { host: '127.0.0.1', port: 9464 });
    assert.deepEqual(parseListen('[::1]:0'), { host: '::1', port: 0 });
    assert.deepEqual(parseListen(':9464'), { host: '0.0.0.0', port: 9464 });
    for (const bad of ['9464', 'host', 'a:b', 'h:70000', '::1:9']) assert.throws(() => parseListen(bad), /--listen must be HOST:PORT/, bad);
  });
});

const change = (action: PlannedChange['action'], name: string, dependsOn: string[] = [], kind = 'Connector'): PlannedChange =>
  ({ id: `${kind}/default/${name}`, kind, space: 'default', name, action, fields: [], patch: [], dependsOn, wave: 0 }) as unknown as PlannedChange;

describe('what each policy applies', () => {
  const plan = [change('prerequisite', 'streams', [], 'ValueList'), change('create', 'list', ['ValueList/default/streams'], 'ValueList'), change('update', 'a'), change('delete', 'gone'), change('create', 'rule', ['Connector/default/a'], 'Rule')];
  const ids = (changes: PlannedChange[]) => changes.map((c) => c.id);

  it('report applies nothing', () => {
    const s = selectForPolicy(plan, 'report', { isDrift: () => true, allowDeletes: true });
    assert.deepEqual(s.apply, []);
    assert.equal(s.held.length, plan.length);
  });

  it('apply applies all but deletes, which need --auto-approve', () => {
    const s = selectForPolicy(plan, 'apply', { isDrift: () => false, allowDeletes: false });
    assert.deepEqual(ids(s.apply), ['ValueList/default/streams', 'ValueList/default/list', 'Connector/default/a', 'Rule/default/rule']);
    assert.deepEqual(s.held.map((h) => h.why), ['a delete needs --auto-approve']);
    assert.equal(selectForPolicy(plan, 'apply', { isDrift: () => false, allowDeletes: true }).apply.length, plan.length);
  });

  it('heal-drift applies drift only, never deletes, holds what depends on a held change and a prerequisite nothing applied needs', () => {
    const s = selectForPolicy(plan, 'heal-drift', { isDrift: (c) => c.name === 'a' || c.name === 'rule', allowDeletes: true });
    assert.deepEqual(ids(s.apply), ['Connector/default/a', 'Rule/default/rule']);
    const why = Object.fromEntries(s.held.map((h) => [h.change.id, h.why]));
    assert.match(why['ValueList/default/list'], /not drift/);
    assert.equal(why['Connector/default/gone'], 'policy heal-drift never deletes');
    assert.equal(why['ValueList/default/streams'], 'nothing applied needs it');
    const blocked = selectForPolicy(plan, 'heal-drift', { isDrift: (c) => c.name === 'rule', allowDeletes: true });
    assert.deepEqual(ids(blocked.apply), []);
    assert.equal(blocked.held.find((h) => h.change.name === 'rule')!.why, 'depends on Connector/default/a, which is held');
  });

  it('refused changes are held whatever the policy', () => {
    const s = selectForPolicy(plan, 'apply', { isDrift: () => true, allowDeletes: true, refused: new Map([['Connector/default/a', 'another apply changed it']]) });
    assert.ok(!ids(s.apply).includes('Connector/default/a'));
    assert.ok(!ids(s.apply).includes('Rule/default/rule'));
  });
});

describe('DriftBaseline', () => {
  it('counts a change as drift only for a manifest unchanged since the server last matched it', () => {
    const base = new DriftBaseline();
    const a = change('update', 'a');
    const rows = new Map([['Connector/default/a', 'v1']]);
    assert.equal(base.isDrift(a, rows), false, 'never seen in sync');
    base.record(rows, []);
    assert.equal(base.isDrift(a, rows), true);
    assert.equal(base.isDrift(change('create', 'a'), rows), true, 'deleted on the server');
    assert.equal(base.isDrift(change('delete', 'a'), rows), false);
    assert.equal(base.isDrift(a, new Map([['Connector/default/a', 'v2']])), false, 'the manifest was edited');
    // Still differing: the manifest seen in sync is kept, so a later edit is not taken for drift.
    base.record(new Map([['Connector/default/a', 'v2']]), ['Connector/default/a']);
    assert.equal(base.isDrift(a, new Map([['Connector/default/a', 'v2']])), false);
    assert.equal(base.isDrift(a, rows), true);
    base.record(new Map(), []);
    assert.equal(base.isDrift(a, rows), false, 'a removed manifest is forgotten');
  });
});

describe('ReconcileStatus', () => {
  it('answers /healthz 503 before the first cycle, 200 within the grace of failures, 503 past it with the reason', () => {
    const s = new ReconcileStatus(1);
    assert.equal(s.health().status, 503);
    assert.equal(s.health().body.status, 'starting');
    s.record({ ok: true, at: 1_700_000_000_000, ms: 250 });
    assert.equal(s.health().status, 200);
    s.record({ ok: false, at: 1_700_000_001_000, ms: 10, error: 'connection refused' });
    assert.deepEqual([s.health().status, s.health().body.status], [200, 'degraded']);
    s.record({ ok: false, at: 1_700_000_002_000, ms: 10, error: 'connection refused' });
    assert.equal(s.health().status, 503);
    assert.match(String(s.health().body.reason), /2 failed cycles in a row \(grace 1\): connection refused/);
    s.record({ ok: true, at: 1_700_000_003_000, ms: 10 });
    assert.equal(s.health().status, 200);
  });

  it('writes the Prometheus text format: drift per kind and space kept at 0 once gone, counters, timestamps, escaped labels', () => {
    const s = new ReconcileStatus(0);
    s.record({ ok: true, at: 1_700_000_000_000, ms: 1500, applied: 1, failed: 1, drift: new Map([['x', { kind: 'Rule', space: 'a"b\\c', count: 2 }]]) });
    s.record({ ok: true, at: 1_700_000_060_000, ms: 500, drift: new Map() });
    s.record({ ok: false, at: 1_700_000_120_000, ms: 20, error: 'down' });
    const text = s.metrics();
    assert.match(text, /^# HELP svcform_drift_objects .+\n# TYPE svcform_drift_objects gauge\nsvcform_drift_objects\{kind="Rule",space="a\\"b\\\\c"\} 0\n/m);
    assert.match(text, /^svcform_cycles_total\{result="success"\} 2$/m);
    assert.match(text, /^svcform_cycles_total\{result="failure"\} 1$/m);
    assert.match(text, /^svcform_apply_failures_total 1$/m);
    assert.match(text, /^svcform_changes_applied_total 1$/m);
    assert.match(text, /^svcform_last_success_timestamp_seconds 1700000060$/m);
    assert.match(text, /^svcform_cycle_duration_seconds 0.02$/m);
    assert.match(text, /^# TYPE svcform_cycles_total counter$/m);
    assert.ok(text.endsWith('\n'));
  });
});
