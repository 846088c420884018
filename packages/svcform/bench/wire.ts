/**
 * What the wire benchmarks share: the emulator's control routes, the real CLI run as a child
 * process (so node's start and module loading count, as they do for a user), a per-object client
 * that works the way a Terraform-style provider does (one request per object, 10 in flight), and
 * small statistics.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

/** The compiled CLI, found from this file (dist/bench/wire.js -> dist/src/cli/main.js). */
export const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

export function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a number`);
  return n;
}

export function stringOption(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

export async function control(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}/__emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`control ${method} ${path} -> ${res.status}: ${await res.text()}`);
  return res.json();
}

export const setLatency = (url: string, ms: number) => control(url, 'PUT', '/latency', { ms });

export interface CliTiming {
  code: number;
  seconds: number;
  /** User and system CPU seconds of the child, when timed with `cpu` (GNU time's -f '%U %S'). */
  cpuSeconds?: number;
  /** Peak resident set size of the child in bytes, when timed with `cpu` (GNU time's %M). */
  peakRss?: number;
  out: string;
  err: string;
}

const GNU_TIME = '/usr/bin/time';

export interface TimeOptions {
  /** The Node.js binary (default: this one). */
  node?: string;
  /** The CLI entry point (default: this build's). */
  cli?: string;
  /** Also the child's CPU time, through GNU time where it is installed: on a loaded machine CPU time shows the work a run did when wall time mostly shows the others' load. */
  cpu?: boolean;
}

/** Runs `svcform ...args` in a child process and times it from spawn to exit. */
export function timeCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, { node = process.execPath, cli = CLI, cpu = false }: TimeOptions = {}): Promise<CliTiming> {
  const cpuFile = cpu && existsSync(GNU_TIME) ? join(mkdtempSync(join(tmpdir(), 'svcform-bench-time-')), 'cpu') : undefined;
  const [command, argv] = cpuFile ? [GNU_TIME, ['-f', '%U %S %M', '-o', cpuFile, node, cli, ...args]] : [node, [cli, ...args]];
  const started = process.hrtime.bigint();
  const child = spawn(command, argv, { cwd, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      let cpuSeconds: number | undefined;
      let peakRss: number | undefined;
      if (cpuFile) {
        // GNU time writes "Command exited with non-zero status N" first when the command failed.
        const [user, system, maxRssKb] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
        cpuSeconds = user + system;
        peakRss = maxRssKb * 1024;
        rmSync(dirname(cpuFile), { recursive: true, force: true });
      }
      resolve({ code: code ?? 1, seconds, cpuSeconds, peakRss, out, err });
    });
  });
}

/** One request per object, `inFlight` at once, as a per-resource provider refreshes and writes. */
export class PerObjectClient {
  private readonly pool: Pool;
  requests = 0;

  constructor(url: string, private readonly inFlight = 10) {
    this.pool = new Pool(url, { connections: inFlight, pipelining: 1 });
  }

  async call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<any> {
    this.requests += 1;
    const res = await this.pool.request({
      method,
      path,
      headers: { 'kbn-xsrf': 'true', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${method} ${path} -> ${res.statusCode}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  }

  /** Runs `fn` over `items`, `inFlight` at once; returns the seconds it took. */
  async each<T>(items: T[], fn: (item: T) => Promise<unknown>): Promise<number> {
    const started = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(this.inFlight, items.length) }, async () => {
        while (next < items.length) await fn(items[next++]);
      }),
    );
    return Number(process.hrtime.bigint() - started) / 1e9;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const fmt = (s: number) => `${s.toFixed(2)} s`;

/** One timed CLI run: wall and CPU seconds (the child's user + system). */
export interface Timed {
  wall: number;
  cpu: number;
}

/** The medians of timed runs, wall and CPU apart. */
export const medianTimed = (runs: Timed[]): Timed => ({ wall: median(runs.map((t) => t.wall)), cpu: median(runs.map((t) => t.cpu)) });

export const fmtTimed = (t: Timed) => `${fmt(t.wall)} (${fmt(t.cpu)} CPU)`;

/** Runs a benchmark's main: its result is the exit code; an error is printed and exits 1. */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => (process.exitCode = code),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}

/** The CLI of the build in a checkout: the workspace's svcform package, or a checkout from before the workspace. */
export function cliOf(checkout: string): string {
  const workspace = join(resolvePath(checkout), 'packages', 'svcform', 'dist', 'src', 'cli', 'main.js');
  return existsSync(workspace) ? workspace : join(resolvePath(checkout), 'dist', 'src', 'cli', 'main.js');
}
