/**
 * What the wire benchmarks share: the emulator's control routes, the real CLI run as a child
 * process (so node's start and module loading count, as they do for a user), a per-object client
 * that works the way a Terraform-style provider does (one request per object, 10 in flight), and
 * small statistics.
 */
import { spawn } from 'node:child_process';
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
  out: string;
  err: string;
}

/** Runs `svcform ...args` in a child process and times it from spawn to exit. */
export function timeCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliTiming> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, seconds: Number(process.hrtime.bigint() - started) / 1e9, out, err }));
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
