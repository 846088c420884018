import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { acquireLeases, LeaseHeldError, leaseInForce, observeLease, releaseLease, untouchedSince, type LeaseRecord, type LeaseStore, type StoredLease } from '../../src/engine/lease.js';
import { runCli } from '../../src/cli/program.js';
import { call, emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

/** An in-memory store with the server's one guarantee: create of an existing number fails. */
function memoryStore(): LeaseStore & { leases: Map<string, StoredLease> } {
  const leases = new Map<string, StoredLease>();
  const key = (space: string, n: number) => `${space}/${n}`;
  return {
    leases,
    async list(space) {
      return [...leases.entries()].filter(([k]) => k.startsWith(space + '/')).map(([, v]) => ({ ...v }));
    },
    async create(space, n, record: LeaseRecord) {
      if (leases.has(key(space, n))) return false;
      leases.set(key(space, n), { n, ...record });
      return true;
    },
    async update(space, n, record) {
      leases.set(key(space, n), { n, ...record });
    },
    async remove(space, n) {
      leases.delete(key(space, n));
    },
  };
}

describe('apply leases (engine/lease.ts)', () => {
  it('a second taker fails at once naming the holder, and takes the lease once it is released', async () => {
    const store = memoryStore();
    const first = await acquireLeases(store, ['default'], { holder: 'ci-1', waitMs: 0, ttlMs: 60_000 });
    await assert.rejects(acquireLeases(store, ['default'], { holder: 'ci-2', waitMs: 0, ttlMs: 60_000 }), (err: Error) => err instanceof LeaseHeldError && /applied by ci-1 since/.test(err.message));
    await first.release();
    const second = await acquireLeases(store, ['default'], { holder: 'ci-2', waitMs: 0, ttlMs: 60_000 });
    await second.release();
    assert.deepEqual([...store.leases.values()].map((l) => [l.n, l.holder, l.released]), [[1, 'ci-1', true], [2, 'ci-2', true]]);
  });

  it('a crashed holder loses the lease when it expires', async () => {
    const store = memoryStore();
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const options = { waitMs: 0, ttlMs: 60_000, now: () => clock };
    await acquireLeases(store, ['default'], { ...options, holder: 'crashed' }); // never released
    clock += 61_000;
    const next = await acquireLeases(store, ['default'], { ...options, holder: 'next' });
    await next.release();
    assert.equal(store.leases.get('default/2')?.holder, 'next');
  });

  it('waits up to the timeout for a lease in force', async () => {
    const store = memoryStore();
    const first = await acquireLeases(store, ['a', 'b'], { holder: 'one', waitMs: 0, ttlMs: 60_000 });
    setTimeout(() => void first.release(), 150);
    const started = Date.now();
    const second = await acquireLeases(store, ['b', 'a'], { holder: 'two', waitMs: 5000, ttlMs: 60_000 });
    assert.ok(Date.now() - started >= 100);
    await second.release();
  });

  it('live state read after an observation stands only if the lease taken is the very next one, and nobody held it then', async () => {
    const store = memoryStore();
    const quiet = await observeLease(store, 'default');
    const ours = await acquireLeases(store, ['default'], { holder: 'ours', waitMs: 0, ttlMs: 60_000 });
    assert.deepEqual(quiet, { space: 'default', newest: 0, inForce: false });
    assert.equal(untouchedSince(quiet, ours), true);
    await ours.release();

    // Another apply took and released the lease between the observation and ours.
    const before = await observeLease(store, 'default');
    await (await acquireLeases(store, ['default'], { holder: 'other', waitMs: 0, ttlMs: 60_000 })).release();
    const late = await acquireLeases(store, ['default'], { holder: 'ours', waitMs: 0, ttlMs: 60_000 });
    assert.equal(untouchedSince(before, late), false);
    await late.release();

    // Another apply held it when we looked (and we waited for it).
    const other = await acquireLeases(store, ['default'], { holder: 'other', waitMs: 0, ttlMs: 60_000 });
    const busy = await observeLease(store, 'default');
    assert.equal(busy.inForce, true);
    await other.release();
    const after = await acquireLeases(store, ['default', 'b'], { holder: 'ours', waitMs: 0, ttlMs: 60_000 });
    assert.equal(untouchedSince(busy, after), false);
    // A space observed but not taken is not vouched for.
    assert.equal(untouchedSince(await observeLease(store, 'elsewhere'), after), false);
    await after.release();
  });

  it('a taker that observed the lease free creates the next number without listing first; a stale observation still ends with one holder', async () => {
    const store = memoryStore();
    let lists = 0;
    const counted: LeaseStore = { ...store, list: (space) => (lists++, store.list(space)) };
    await (await acquireLeases(store, ['default'], { holder: 'earlier', waitMs: 0, ttlMs: 60_000 })).release();
    const seen = await observeLease(store, 'default');
    const ours = await acquireLeases(counted, ['default'], { holder: 'ours', waitMs: 0, ttlMs: 60_000, lastSeenFree: new Map([['default', seen.newest]]) });
    assert.equal(lists, 1, 'only the check after the create read the leases');
    assert.equal(untouchedSince(seen, ours), true);
    await ours.release();

    // Since the observation, another apply took the next number and holds it: the create fails, the taker reads and waits.
    const stale = await observeLease(store, 'default');
    const other = await acquireLeases(store, ['default'], { holder: 'other', waitMs: 0, ttlMs: 60_000 });
    await assert.rejects(acquireLeases(store, ['default'], { holder: 'late', waitMs: 0, ttlMs: 60_000, lastSeenFree: new Map([['default', stale.newest]]) }), (err: Error) => err instanceof LeaseHeldError && /applied by other/.test(err.message));
    await other.release();
    // Numbers far past the observation, the next one of it removed as old: the create succeeds, the check after it steps back.
    for (let i = 0; i < 8; i++) await (await acquireLeases(store, ['default'], { holder: `run${i}`, waitMs: 0, ttlMs: 60_000 })).release();
    const newest = Math.max(...[...store.leases.values()].map((l) => l.n));
    assert.equal(store.leases.has(`default/${stale.newest + 1}`), false, 'the guessed number was removed as old');
    const last = await acquireLeases(store, ['default'], { holder: 'last', waitMs: 0, ttlMs: 60_000, lastSeenFree: new Map([['default', stale.newest]]) });
    assert.equal(last.taken.get('default'), newest + 1);
    assert.equal(untouchedSince(stale, last), false);
    const held = [...store.leases.values()].filter((l) => !l.released);
    assert.deepEqual(held.map((l) => l.holder), ['last']);
    await last.release();
  });

  it('of many takers racing for one number, exactly one wins', async () => {
    const store = memoryStore();
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => acquireLeases(store, ['default'], { holder: `t${i}`, waitMs: 0, ttlMs: 60_000 })));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  });
});

/** A copy of examples/maintenance: two windows, a kind whose identity the server does not enforce. */
function maintenanceWindows(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync('examples/maintenance', dir, { recursive: true });
  return dir;
}

/** The name of a lease record held by another apply (lease-store.ts), released or not. */
const otherLease = (released: boolean) =>
  `svcform apply lease ${JSON.stringify({ holder: 'ci@runner-7 pid 42', token: 'abc', since: new Date().toISOString(), expires: new Date(Date.now() + 60_000).toISOString(), released })}`;

/** Another apply's lease on the default space, held (the server-log connector lease-store.ts writes). */
async function holdOtherLease(emu: RunningEmulator): Promise<void> {
  const res = await call(emu, 'POST', '/api/actions/connector/svcform-lease-1', { name: otherLease(false), connector_type_id: '.server-log', config: {}, secrets: {} });
  assert.equal(res.status, 200, res.text);
}

describe('two applies at once (issue 11: item 2)', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e), { latencyMs: 30 });

  it('never duplicate maintenance windows: the second waits for the first, then finds nothing to do', async () => {
    const dir = maintenanceWindows('svcform-race-');
    const [a, b] = await Promise.all([cli(['apply', dir, '--url', emu.url, '--lock-timeout', '30']), cli(['apply', dir, '--url', emu.url, '--lock-timeout', '30'])]);
    assert.equal(a.code, 0, a.out + a.err);
    assert.equal(b.code, 0, b.out + b.err);
    const found = await call(emu, 'GET', '/api/maintenance_window/_find?per_page=100');
    assert.equal(found.body.total, 2, JSON.stringify(found.body.maintenanceWindows.map((w: any) => w.title)));
    assert.ok([a.out, b.out].some((o) => /Nothing to apply/.test(o)), 'one of them found the work done');
    // The leases are svcform's own: no plan shows them.
    const plan = await cli(['plan', 'examples/connectors', '--url', emu.url]);
    assert.doesNotMatch(plan.out, /svcform-lease/);
  });

  it('a lease whose create answer was lost is recognised as ours by its token (found by the fault campaign)', async () => {
    const dir = maintenanceWindows('svcform-race-');
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/actions/connector/svcform-lease-1$', dropAfterServe: true, times: 1 }] });
    const run = await cli(['apply', dir, '--url', emu.url]);
    await call(emu, 'DELETE', '/__emulator/faults');
    assert.equal(run.code, 0, run.out + run.err);
    // Released at the end, so the next apply is not blocked until the lease expires.
    const next = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(next.code, 0, next.out + next.err);
  });

  it('without --lock-timeout the second fails at once, naming the holder, and writes nothing', async () => {
    const dir = maintenanceWindows('svcform-race-');
    await holdOtherLease(emu);
    emu.log.clear();
    const run = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(run.code, 1);
    assert.match(run.err, /space default is being applied by ci@runner-7 pid 42 since .*--lock-timeout.*Nothing was applied/);
    assert.deepEqual(emu.log.all().filter((r) => r.method !== 'GET').map((r) => r.path), []);
    const forced = await cli(['apply', dir, '--url', emu.url, '--no-lock']);
    assert.equal(forced.code, 0, forced.err);
  });
});

describe('svcform unlock: a lease a killed apply left behind (issue 31)', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));

  it('shows the holder, releases only with yes or --force, and then an apply runs at once', async () => {
    const dir = maintenanceWindows('svcform-unlock-');
    await holdOtherLease(emu);
    const blocked = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(blocked.code, 1, 'held: the apply fails at once');

    const noTerminal = await cli(['unlock', '--url', emu.url]);
    assert.equal(noTerminal.code, 1);
    assert.match(noTerminal.out, /Space default: the apply lease is held by ci@runner-7 pid 42 since /);
    assert.match(noTerminal.err, /no terminal to ask on: pass --force.*Nothing was released/);

    const declined = await cli(['unlock', '--url', emu.url], {}, { answers: ['no'] });
    assert.equal(declined.code, 1);
    assert.match(declined.asked[0], /no longer running/);
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 1, 'still held after a no');

    const released = await cli(['unlock', '--url', emu.url], {}, { answers: ['yes'] });
    assert.equal(released.code, 0, released.out + released.err);
    assert.match(released.out, /Released the lease of ci@runner-7 pid 42 in space default\./);
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);

    const nothing = await cli(['unlock', '--url', emu.url, '--force']);
    assert.equal(nothing.code, 0);
    assert.match(nothing.out, /no apply holds the lease; nothing to release/);
  });

  it('never releases a lease taken after the one it showed', async () => {
    const store = memoryStore();
    const shown = await acquireLeases(store, ['default'], { holder: 'killed run', waitMs: 0, ttlMs: 60_000 });
    const seen = (await leaseInForce(store, 'default'))!;
    assert.equal(seen.holder, 'killed run');
    await shown.release();
    const next = await acquireLeases(store, ['default'], { holder: 'next run', waitMs: 0, ttlMs: 60_000 });
    assert.equal(await releaseLease(store, 'default', seen), false);
    assert.equal((await leaseInForce(store, 'default'))?.holder, 'next run');
    await next.release();
  });
});

describe('apply reads live state while the manifests load, under its lease', () => {
  let emu: RunningEmulator;
  // A long round trip, so that the order of requests does not depend on how fast this machine parses.
  emulatorResetPerTest((e) => (emu = e), { latencyMs: 100 });

  it('the listing is sent before the lease is in force, and not sent again when no other apply came in between', async () => {
    const dir = maintenanceWindows('svcform-ahead-');
    emu.log.clear();
    const run = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(run.code, 0, run.out + run.err);
    const requests = emu.log.all();
    const finds = requests.filter((r) => r.method === 'GET' && r.route === '/api/maintenance_window/_find');
    const lease = requests.find((r) => r.method === 'POST' && /svcform-lease-1$/.test(r.path));
    assert.ok(lease, 'the lease was taken');
    // The lease is in force once the leases read after its create show none newer.
    const confirmed = requests.find((r) => r.seq > lease.seq && r.method === 'GET' && r.route === '/api/actions/connectors');
    assert.ok(confirmed, 'the leases were read after the create');
    assert.equal(finds.length, 1, 'the windows are listed once');
    assert.ok(finds[0].seq < confirmed.seq, `listed (request ${finds[0].seq}) before the lease was in force (request ${confirmed.seq})`);
    const found = await call(emu, 'GET', '/api/maintenance_window/_find?per_page=100');
    assert.equal(found.body.total, 2);
  });

  /** Our apply while another holds the lease: `meanwhile` runs once ours waits for it, then the holder lets go. */
  async function applyWhileHeld(dir: string, meanwhile: () => Promise<void>, errTty = false, flags: string[] = []): Promise<{ code: number; out: string; stdout: string }> {
    await holdOtherLease(emu);
    const out: string[] = [];
    const stdout: string[] = [];
    let other: Promise<void> | undefined;
    const io = {
      out: (t: string) => {
        out.push(t);
        stdout.push(t);
      },
      err: (t: string) => {
        out.push(t);
        if (/^Waiting for the apply of ci@runner-7/.test(t) && !other) {
          other = meanwhile().then(async () => {
            await call(emu, 'PUT', '/api/actions/connector/svcform-lease-1', { name: otherLease(true), config: {}, secrets: {} });
          });
        }
      },
      env: { PATH: process.env.PATH, XDG_CACHE_HOME: TEST_CACHE_HOME },
      outTty: false,
      errTty,
    };
    const code = await runCli(['apply', dir, '--url', emu.url, '--lock-timeout', '30', ...flags], io);
    await other;
    assert.ok(other, 'the apply waited for the lease');
    return { code, out: out.join('\n'), stdout: stdout.join('\n') };
  }

  it('what was read ahead is read again when another apply held the lease meanwhile: its creates are not made twice', async () => {
    const dir = maintenanceWindows('svcform-ahead-');
    // The holder creates the windows while ours waits, after ours read ahead.
    const run = await applyWhileHeld(dir, async () => {
      const made = await cli(['apply', dir, '--url', emu.url, '--no-lock']);
      assert.equal(made.code, 0, made.out + made.err);
    });
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /Nothing to apply/);
    const found = await call(emu, 'GET', '/api/maintenance_window/_find?per_page=100');
    assert.equal(found.body.total, 2, JSON.stringify(found.body.maintenanceWindows.map((w: any) => w.title)));
  });

  it('an apply that would revert what another applied while it waited is refused, naming the objects (issue 31), and says so in --json', async () => {
    const ours = maintenanceWindows('svcform-ahead-');
    const made = await cli(['apply', ours, '--url', emu.url, '--no-lock']);
    assert.equal(made.code, 0, made.out + made.err);
    // Another branch's manifests: the weekly window runs 6 hours. It is applied while ours waits.
    const theirs = maintenanceWindows('svcform-theirs-');
    const file = join(theirs, 'windows.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('duration: 4h', 'duration: 6h'));
    const run = await applyWhileHeld(ours, async () => {
      const other = await cli(['apply', theirs, '--url', emu.url, '--no-lock']);
      assert.equal(other.code, 0, other.out + other.err);
    }, false, ['--json']);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /Another apply changed an object while this run waited for the lease, and this plan would change it back: update MaintenanceWindow\/Weekly Linux patching \(space default\)\. Nothing was applied\./);
    // A campaign seed (29) found this refusal silent on stdout under --json: a CI step reading the
    // results had nothing to parse. It is one document, with no results and the reason.
    const answer = JSON.parse(run.stdout);
    assert.equal(answer.refused, 'changed_while_waiting');
    assert.deepEqual(answer.summary, { done: 0, failed: 0, skipped: 0 });
    assert.deepEqual(answer.results, []);
    assert.deepEqual(answer.plan.changes.map((c: any) => `${c.action} ${c.name}`), ['update Weekly Linux patching']);
    const found = await call(emu, 'GET', '/api/maintenance_window/_find?per_page=100');
    const weekly = found.body.maintenanceWindows.find((w: any) => w.title === 'Weekly Linux patching');
    assert.equal(weekly.schedule.custom.duration, '6h', 'the other apply\'s change stands');
  });

  it('the progress line counts what the server holds when live state is read twice', async () => {
    const dir = maintenanceWindows('svcform-ahead-');
    const made = await cli(['apply', dir, '--url', emu.url, '--no-lock']);
    assert.equal(made.code, 0, made.out + made.err);
    emu.log.clear();
    const run = await applyWhileHeld(dir, async () => {}, true);
    assert.equal(run.code, 0, run.out);
    assert.equal(emu.log.all().filter((r) => r.method === 'GET' && r.route === '/api/maintenance_window/_find').length, 2, 'read ahead, then again under the lease');
    const progress = run.out.split('\n').filter((l) => l.startsWith('Reading live state: '));
    assert.match(progress.at(-1) ?? '', /MaintenanceWindow 2\b/, progress.join('\n'));
  });
});
