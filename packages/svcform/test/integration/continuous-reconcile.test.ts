import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { runCli } from '../../src/cli/program.js';
import type { Io, StopSignal } from '../../src/cli/context.js';
import { cli } from '../helpers/cli.js';
import { connectorYaml, repo } from '../helpers/repo.js';
import { CLI_PATH, childEnv } from '../helpers/spawn-cli.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

const CONFIG = 'space: default\nmanage:\n  - kind: Connector\n    spaces: [default]\n    selector: {namePrefix: "soc-"}\n';

/** `svcform reconcile` run in-process, its output kept, SIGTERM sent by calling its signal handler. */
function startReconcile(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let handler: ((s: StopSignal) => void) | undefined;
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { PATH: process.env.PATH, XDG_CACHE_HOME: TEST_CACHE_HOME },
    outTty: false,
    errTty: false,
    onSignal: (h) => {
      handler = h;
      return () => (handler = undefined);
    },
  };
  const done = runCli(['reconcile', ...args], io);
  return { out, err, done, signal: (s: StopSignal) => handler?.(s) };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const statusUrl = (err: string[]) => err.map((l) => /on (http:\/\/\S+)$/.exec(l)?.[1]).find(Boolean);
const cycles = (out: string[]) => out.map((l) => JSON.parse(l));
const metric = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('svcform reconcile --policy heal-drift (emulator in-process)', () => {
  let emu: RunningEmulator;
  let dir: string;
  let run: ReturnType<typeof startReconcile>;
  let url: string;
  before(async () => {
    emu = await emulator();
    dir = repo({ 'svcform.yaml': CONFIG, 'manifests/soc-log.yaml': connectorYaml('soc-log') });
    const applied = await cli(['apply', dir, '--url', emu.url, '--no-cache']);
    assert.equal(applied.code, 0, applied.err);
    run = startReconcile([dir, '--url', emu.url, '--interval', '1s', '--policy', 'heal-drift', '--listen', '127.0.0.1:0', '--json', '--no-cache', '--failure-grace', '0', '--max-backoff', '1s', '--timeout', '1', '--deadline', '2']);
    url = await until('the status server', () => statusUrl(run.err));
  });
  after(async () => {
    run?.signal('SIGTERM');
    await run?.done;
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('heals a change made on the server, and /metrics shows the drift go to 1 and back to 0', async () => {
    await until('a first cycle in sync', () => cycles(run.out).find((c) => c.ok && c.drift.length === 0));
    const renamed = await call(emu, 'PUT', '/api/actions/connector/soc-log', { name: 'Renamed in the UI', config: {} });
    assert.equal(renamed.status, 200, renamed.text);
    const healed = await until('the healing cycle', () => cycles(run.out).find((c) => c.applied?.done === 1));
    assert.deepEqual(healed.drift, [{ action: 'update', kind: 'Connector', space: 'default', name: 'soc-log' }]);
    assert.equal(healed.ok, true);
    const after = await until('a cycle after healing', () => cycles(run.out).find((c) => c.cycle > healed.cycle));
    assert.deepEqual(after.drift, []);
    assert.equal((await call(emu, 'GET', '/api/actions/connector/soc-log')).body.name, 'soc-log log');
    const res = await fetch(`${url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    // The series exists only because a cycle counted drift there; it reads 0 once healed.
    assert.equal(metric(text, 'svcform_drift_objects{kind="Connector",space="default"}'), 0);
    assert.equal(metric(text, 'svcform_changes_applied_total'), 1);
    assert.equal(metric(text, 'svcform_apply_failures_total'), 0);
    assert.ok(metric(text, 'svcform_cycles_total{result="success"}')! >= after.cycle, text);
    assert.ok(metric(text, 'svcform_last_success_timestamp_seconds')! * 1000 > Date.now() - 10_000);
    assert.ok(metric(text, 'svcform_cycle_duration_seconds')! >= 0);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal(run.err.filter((l) => l.startsWith('Target:')).length, 1, 'the target is named at the first cycle only');
  });

  it('leaves a new manifest to a reviewed apply: it is drift reported, not applied', async () => {
    writeFileSync(join(dir, 'manifests', 'soc-new.yaml'), connectorYaml('soc-new'));
    const seen = await until('a cycle holding the new connector', () => cycles(run.out).find((c) => c.held.some((h: { name: string }) => h.name === 'soc-new')));
    assert.match(seen.held.find((h: { name: string }) => h.name === 'soc-new').why, /not drift: the manifest is new or changed/);
    assert.equal((await call(emu, 'GET', '/api/actions/connector/soc-new')).status, 404);
    const text = await (await fetch(`${url}/metrics`)).text();
    assert.equal(metric(text, 'svcform_drift_objects{kind="Connector",space="default"}'), 1);
    rmSync(join(dir, 'manifests', 'soc-new.yaml'));
  });

  it('answers /healthz 503 with the reason while the server is away, and 200 once it is back', async () => {
    const port = emu.port;
    await emu.stop();
    const down = await until('/healthz 503', async () => {
      const res = await fetch(`${url}/healthz`);
      return res.status === 503 ? ((await res.json()) as Record<string, unknown>) : undefined;
    });
    assert.equal(down.status, 'failing');
    assert.match(String(down.reason), /failed cycles? in a row/);
    const failed = cycles(run.out).filter((c) => !c.ok);
    assert.ok(failed.length >= 1 && failed.every((c) => typeof c.error === 'string' && c.next_ms <= 1000), JSON.stringify(failed));
    // The server comes back empty: heal-drift recreates what it had seen in sync.
    emu = await startEmulator({ port });
    await until('/healthz 200', async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined));
    assert.equal((await call(emu, 'GET', '/api/actions/connector/soc-log')).status, 200);
    const text = await (await fetch(`${url}/metrics`)).text();
    assert.ok(metric(text, 'svcform_cycles_total{result="failure"}')! >= 1);
  });

  it('stops on SIGTERM: exit 0, the status server closed', async () => {
    run.signal('SIGTERM');
    assert.equal(await run.done, 0);
    assert.match(run.err.join('\n'), /svcform reconcile stopped \(SIGTERM\)/);
    await assert.rejects(fetch(`${url}/healthz`));
  });
});

describe('svcform reconcile as a process', () => {
  let emu: RunningEmulator;
  after(() => emu?.stop());

  it('on SIGTERM finishes the apply in flight, prints its summary, releases the lease and exits 0', async () => {
    emu = await emulator();
    const dir = repo({ 'svcform.yaml': CONFIG, 'manifests/soc-log.yaml': connectorYaml('soc-log') });
    // The create is slow, so the signal comes while it is in flight.
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/actions/connector/soc-log$', delayMs: 1500 }] });
    const child = spawn(process.execPath, [CLI_PATH, 'reconcile', dir, '--url', emu.url, '--interval', '1h', '--policy', 'apply', '--listen', '127.0.0.1:0', '--json', '--no-cache'], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await until('the create in flight', () => (emu.log.all().some((r) => r.method === 'POST' && r.path === '/api/actions/connector/soc-log') ? true : undefined));
      child.kill('SIGTERM');
      assert.equal(await exited, 0, err);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
    const [cycle] = out.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual([cycle.applied, cycle.interrupted, cycle.next_ms], [{ done: 1, failed: 0, skipped: 0 }, 'SIGTERM', undefined]);
    assert.match(err, /SIGTERM: stopping after the current cycle/);
    assert.equal((await call(emu, 'GET', '/api/actions/connector/soc-log')).status, 200);
    // A lease is a connector whose name holds its state (kinds/connector/lease-store.ts).
    const connectors = (await call(emu, 'GET', '/api/actions/connectors')).body as Array<{ id: string; name: string }>;
    const leases = connectors.filter((c) => c.id.startsWith('svcform-lease-')).map((c) => JSON.parse(c.name.slice(c.name.indexOf('{'))));
    assert.ok(leases.length > 0, 'the cycle took the lease');
    assert.ok(leases.every((l) => l.released === true), JSON.stringify(leases));
  });

  it('exits 1 on bad manifests at start, naming the file, having served nothing', async () => {
    const dir = repo({ 'svcform.yaml': CONFIG, 'manifests/bad.yaml': 'apiVersion: svcform/v1\nkind: Connector\nmetadata: {name: soc-x}\nspec: {connector_type_id: .server-log, nme: x}\n' });
    try {
      const r = await cli(['reconcile', dir, '--url', 'http://127.0.0.1:9', '--interval', '1s', '--listen', '127.0.0.1:0', '--no-cache']);
      assert.equal(r.code, 1);
      assert.match(r.err, /bad\.yaml:\d+:\d+/);
      assert.doesNotMatch(r.err, /\/healthz and \/metrics on/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad --interval with a usage error', async () => {
    const r = await cli(['reconcile', '.', '--interval', '5', '--url', 'http://127.0.0.1:9']);
    assert.equal(r.code, 1);
    assert.match(r.err, /--interval must be a duration such as 30s, 5m, 1h/);
  });
});
