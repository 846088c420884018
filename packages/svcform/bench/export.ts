/**
 * Benchmark of `svcform export`: an in-process emulator holding 2,000 rules and 500 other objects
 * (seeded directly through the API), exported with the real CLI. Prints the wall time and the
 * requests made per route (from the emulator's request log).
 *
 *   node dist/bench/export.js [--rules N] [--latency MS] [--layout per-kind|per-object]
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@svcform/emulator/server.js';
import { runCli } from '../src/cli/program.js';

interface Emu {
  url: string;
}

async function send(emu: Emu, method: string, path: string, body?: unknown, query = ''): Promise<any> {
  const res = await fetch(`${emu.url}${path}${query}`, {
    method,
    headers: { 'kbn-xsrf': 'true', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`seeding ${method} ${path} -> ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

async function sendFile(emu: Emu, path: string, content: string, filename: string): Promise<any> {
  const form = new FormData();
  form.append('file', new Blob([content]), filename);
  const res = await fetch(emu.url + path, { method: 'POST', headers: { 'kbn-xsrf': 'true' }, body: form });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`seeding POST ${path} -> ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, fn: (item: T, i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

const pad = (i: number) => String(i).padStart(4, '0');

export interface WorkloadCounts {
  rules: number;
  connectors: number;
  valueLists: number;
  agentPolicies: number;
  packagePolicies: number;
  savedQueries: number;
  packs: number;
  maintenanceWindows: number;
}

export const DEFAULT_WORKLOAD: WorkloadCounts = {
  rules: 2000,
  connectors: 150,
  valueLists: 100,
  agentPolicies: 50,
  packagePolicies: 50,
  savedQueries: 50,
  packs: 50,
  maintenanceWindows: 50,
};

/**
 * Seeds the export workload through the API (never through svcform): rules imported in one
 * `_import` (each third one notifying a connector), and the other kinds created one request each.
 */
export async function seedExportWorkload(emu: Emu, counts: WorkloadCounts = DEFAULT_WORKLOAD): Promise<void> {
  await pool(Array.from({ length: counts.connectors }, (_, i) => i), 16, (i) =>
    send(emu, 'POST', `/api/actions/connector/bench-conn-${pad(i)}`, i % 2 === 0
      ? { name: `Bench webhook ${i}`, connector_type_id: '.webhook', config: { url: `https://hooks.example.com/${i}` }, secrets: { user: 'bench', password: `bench-password-${i}` } }
      : { name: `Bench log ${i}`, connector_type_id: '.server-log' }),
  );
  const lines = Array.from({ length: counts.rules }, (_, i) =>
    JSON.stringify({
      rule_id: `bench-rule-${pad(i)}`,
      type: i % 4 === 1 ? 'eql' : 'query',
      language: i % 4 === 1 ? 'eql' : 'kuery',
      name: `Bench rule ${i}`,
      description: `Generated rule ${i} for the export benchmark: detects nothing in particular.`,
      severity: ['low', 'medium', 'high', 'critical'][i % 4],
      risk_score: (i * 7) % 101,
      enabled: i % 2 === 0,
      index: ['logs-*', `bench-${i % 10}-*`],
      query: i % 4 === 1 ? `process where process.name == "bench-${i}.exe"` : `event.category:process and process.name:"bench-${i}"`,
      tags: ['bench', `group:${i % 20}`],
      note: `## Triage\n\nLook at host.name and user.name for rule ${i}.\n`,
      actions: i % 3 === 0 && counts.connectors > 1 ? [{ id: `bench-conn-${pad(1)}`, group: 'default', action_type_id: '.server-log', params: { message: `Rule ${i} fired` } }] : [],
    }),
  );
  const imported = await sendFile(emu, '/api/detection_engine/rules/_import', lines.join('\n') + '\n', 'rules.ndjson');
  if (imported.success_count !== counts.rules) throw new Error(`rule import: ${JSON.stringify(imported).slice(0, 500)}`);

  if (counts.valueLists > 0) await send(emu, 'POST', '/api/lists/index');
  await pool(Array.from({ length: counts.valueLists }, (_, i) => i), 16, async (i) => {
    const id = `bench-list-${pad(i)}`;
    await send(emu, 'POST', '/api/lists', { id, name: `Bench list ${i}`, description: `Addresses ${i}`, type: 'ip' });
    await sendFile(emu, `/api/lists/items/_import?list_id=${id}`, Array.from({ length: 5 }, (_, j) => `10.${i % 250}.${j}.1`).join('\n') + '\n', 'items.txt');
  });
  await pool(Array.from({ length: counts.agentPolicies }, (_, i) => i), 8, (i) =>
    send(emu, 'POST', '/api/fleet/agent_policies', { id: `bench-policy-${pad(i)}`, name: `Bench policy ${i}`, namespace: 'default', description: `Policy ${i}` }),
  );
  await pool(Array.from({ length: counts.packagePolicies }, (_, i) => i), 8, (i) =>
    send(emu, 'POST', '/api/fleet/package_policies', {
      id: `bench-pp-${pad(i)}`,
      name: `bench-system-${i}`,
      namespace: 'default',
      package: { name: 'system', version: i % 2 === 0 ? '1.60.0' : '1.58.0' },
      policy_ids: counts.agentPolicies > 0 ? [`bench-policy-${pad(i % counts.agentPolicies)}`] : [],
    }, '?format=simplified'),
  );
  await pool(Array.from({ length: counts.savedQueries }, (_, i) => i), 16, (i) =>
    send(emu, 'POST', '/api/hostquery/saved_queries', { id: `bench-sq-${pad(i)}`, query: `SELECT * FROM processes WHERE pid = ${i};`, interval: '3600', description: `Query ${i}` }),
  );
  await pool(Array.from({ length: counts.packs }, (_, i) => i), 16, (i) =>
    send(emu, 'POST', '/api/hostquery/packs', { name: `bench-pack-${pad(i)}`, description: `Pack ${i}`, enabled: i % 2 === 0, queries: { q1: { query: 'SELECT * FROM users;', interval: 600 } } }),
  );
  await pool(Array.from({ length: counts.maintenanceWindows }, (_, i) => i), 16, (i) =>
    send(emu, 'POST', '/api/maintenance_window', {
      title: `Bench window ${pad(i)}`,
      enabled: true,
      schedule: { custom: { start: '2030-01-06T02:00:00.000Z', duration: '2h', recurring: { every: '1w', onWeekDay: ['SU'] } } },
    }),
  );
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const rules = Number(arg('rules', '2000'));
  const latency = Number(arg('latency', '0'));
  const layout = arg('layout', 'per-kind');
  const emu = await startEmulator({ port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'svcform-bench-export-'));
  try {
    const seedStart = Date.now();
    await seedExportWorkload(emu, { ...DEFAULT_WORKLOAD, rules });
    console.log(`seeded ${rules} rules + 500 other objects in ${Date.now() - seedStart} ms`);
    emu.log.clear();
    await send(emu, 'PUT', '/__emulator/latency', { ms: latency });
    const err: string[] = [];
    const started = process.hrtime.bigint();
    const code = await runCli(['export', '--out', join(dir, 'out'), '--url', emu.url, '--layout', layout], {
      out: () => undefined,
      err: (t) => err.push(t),
      env: { NO_COLOR: '1' },
      outTty: false,
      errTty: false,
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (code !== 0) throw new Error(`export exited ${code}:\n${err.join('\n')}`);
    const counts = emu.log.countsObject();
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(`export (${layout}, latency ${latency} ms): ${ms.toFixed(0)} ms, ${total} requests`);
    for (const [route, n] of Object.entries(counts)) console.log(`  ${String(n).padStart(5)}  ${route}`);
    console.log(err.join('\n').split('\n').filter((l) => /^Exported/.test(l)).join('\n'));
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function isMain(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
