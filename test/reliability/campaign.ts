/**
 * The fault campaign: svcform applies a few hundred resources of every kind to an emulator that
 * answers about one write in ten with a 5xx, a 429 with Retry-After, a dropped connection, or a
 * commit followed by a 504, and runs two applies at once. After each apply it checks that the
 * summary matches what the server holds; after the run, that the server converged with nothing
 * duplicated or lost. Seeded, so a failing run can be replayed: `npm run campaign -- --runs 100`.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runCli } from '../../src/cli/program.js';
import { seededRandom } from '../../bench/generate.js';
import type { Io } from '../../src/cli/context.js';

export interface CampaignOptions {
  runs: number;
  seed: number;
  /** Copies of each multipliable example (rules, connectors, saved queries, windows, lists). */
  copies: number;
  /** Fraction of writes that meet a fault. */
  rate: number;
  log?: (line: string) => void;
}

export interface RunResult {
  seed: number;
  resources: number;
  applies: number;
  converged: boolean;
  duplicated: number;
  lost: number;
  misreported: number;
  /** Faults the emulator injected, and changes apply reported failed (and then finished on a re-run). */
  faults: number;
  failedChanges: number;
  notes: string[];
}

/** Fault draws from the benchmarks' seeded generator, so a run can be replayed. */
export const seeded = seededRandom;

/** Kinds whose examples are copied under new names; the others (Fleet, packs) stay as written. */
const MULTIPLY = new Set(['Rule', 'Connector', 'HostQuerySavedQuery', 'MaintenanceWindow', 'ValueList']);

/** examples/ with `copies` extra copies of each multipliable document, in a temporary directory. */
export function workload(copies: number): { dir: string; resources: number } {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-campaign-'));
  cpSync('examples', dir, { recursive: true });
  let resources = 0;
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.yaml') && entry.name !== 'svcform.yaml') {
        const docs = parseAllDocuments(readFileSync(full, 'utf8')).map((doc) => doc.toJS());
        resources += docs.length;
        const out: unknown[] = [];
        for (let i = 1; i <= copies; i++) {
          for (const doc of docs) {
            if (!MULTIPLY.has(doc.kind)) continue;
            const name = doc.kind === 'Connector' ? `soc-c${i}-${doc.metadata.name.slice(4)}`.slice(0, 36) : `${doc.metadata.name}-c${i}`;
            out.push({ ...doc, metadata: { ...doc.metadata, name } });
          }
        }
        if (out.length) {
          writeFileSync(join(d, `copies-${entry.name}`), out.map((o) => stringify(o)).join('---\n'));
          resources += out.length;
        }
      }
    }
  };
  walk(dir);
  return { dir, resources };
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), env: { PATH: process.env.PATH, ...env }, outTty: false, errTty: false };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Faults on about `rate` of writes (and a few reads), of every kind a real network produces. */
function faultRules(rate: number) {
  return [
    { path: '^/api/(?!spaces)', status: 503, rate: rate / 10, method: 'GET' },
    ...['POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => [
      { method, path: '^/api/', status: 500, rate: rate / 5 },
      { method, path: '^/api/', status: 429, retryAfter: 0, rate: rate / 5 },
      { method, path: '^/api/', drop: true, rate: rate / 5 },
      { method, path: '^/api/', dropAfterServe: true, rate: rate / 5 },
      { method, path: '^/api/', statusAfterServe: 504, rate: rate / 5 },
    ]),
  ];
}

type ApplyJson = { results: Array<{ kind: string; space: string; name: string; action: string; outcome: string; error?: string }> };
const idOf = (c: { kind: string; space: string; name: string }) => `${c.kind}/${c.space}/${c.name}`;

/** What still needs doing, by change id and action (a plan without faults). */
async function pending(emu: RunningEmulator, dir: string): Promise<{ ids: Map<string, string>; errors: string[] }> {
  const planned = await run(['plan', dir, '--url', emu.url, '--json']);
  const plan = JSON.parse(planned.out);
  return { ids: new Map(plan.changes.filter((c: any) => c.action !== 'prerequisite').map((c: any) => [idOf(c), c.action])), errors: plan.errors.map((e: any) => `${e.subject}: ${e.message}`) };
}

/**
 * A change reported done must be gone from the next plan; a change reported failed or skipped
 * must still be in it (a failed update whose last attempt did land is the one honest exception:
 * it then shows nothing left to do, and is counted as misreported all the same).
 */
function misreports(results: ApplyJson['results'], left: Map<string, string>): string[] {
  const out: string[] = [];
  for (const r of results) {
    if (r.action === 'prerequisite') continue;
    const still = left.has(idOf(r));
    if (r.outcome === 'done' && still) out.push(`${idOf(r)}: ${r.action} reported done, but the server does not hold it`);
    if (r.outcome !== 'done' && !still) out.push(`${idOf(r)}: ${r.action} reported ${r.outcome}, but the server holds it${r.error ? ` (${r.error})` : ''}`);
  }
  return out;
}

async function oneRun(seed: number, options: CampaignOptions): Promise<RunResult> {
  const { dir, resources } = workload(options.copies);
  const emu = await startEmulator({ port: 0 });
  emu.faults.random = seeded(seed);
  const result: RunResult = { seed, resources, applies: 0, converged: false, duplicated: 0, lost: 0, misreported: 0, faults: 0, failedChanges: 0, notes: [] };
  const countFaults = () => {
    result.faults += emu.faults.list().reduce((n, r) => n + r.fired, 0);
    emu.faults.clear();
  };
  try {
    emu.faults.set(faultRules(options.rate));
    // Two applies at once first: the lease makes the second wait.
    const pair = await Promise.all([0, 1].map(() => run(['apply', dir, '--url', emu.url, '--json', '--lock-timeout', '120', '--timeout', '5'])));
    result.applies += 2;
    countFaults();
    let left = await pending(emu, dir);
    // The lease serialises the pair, so the second planned after the first had finished: a change
    // only one of them made is judged exactly against the state after both.
    const [first, second] = pair.map((a) => (a.out.trim() ? (JSON.parse(a.out) as ApplyJson).results : []));
    result.failedChanges += [...first, ...second].filter((r) => r.outcome === 'failed').length;
    const madeByBoth = new Set(first.map(idOf).filter((id) => second.some((r) => idOf(r) === id)));
    for (const results of [first, second]) result.notes.push(...misreports(results.filter((r) => !madeByBoth.has(idOf(r))), left.ids));
    for (let attempt = 0; attempt < 6 && (left.ids.size > 0 || left.errors.length > 0); attempt++) {
      emu.faults.set(faultRules(options.rate));
      const applied = await run(['apply', dir, '--url', emu.url, '--json', '--timeout', '5']);
      result.applies += 1;
      countFaults();
      const next = await pending(emu, dir);
      if (applied.out.trim()) {
        const results = (JSON.parse(applied.out) as ApplyJson).results;
        result.failedChanges += results.filter((r) => r.outcome === 'failed').length;
        result.notes.push(...misreports(results, next.ids));
      }
      left = next;
    }
    result.misreported = result.notes.length;
    result.duplicated = left.errors.filter((e) => /share this identity/.test(e)).length;
    result.converged = left.ids.size === 0 && left.errors.length === 0;
    // Lost: an object the manifests declare that the server does not hold after convergence.
    result.lost = [...left.ids.values()].filter((a) => a === 'create').length;
    if (!result.converged) result.notes.push(`not converged: ${left.ids.size} changes left, errors: ${left.errors.slice(0, 3).join('; ')}`);
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

export async function runCampaign(options: CampaignOptions): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (let i = 0; i < options.runs; i++) {
    const r = await oneRun(options.seed + i, options);
    results.push(r);
    options.log?.(`run ${i + 1}/${options.runs} seed ${r.seed}: ${r.resources} resources, ${r.applies} applies, ${r.faults} faults injected, ${r.failedChanges} changes failed then finished, ${r.converged ? 'converged' : 'NOT converged'}, ${r.duplicated} duplicated, ${r.lost} lost, ${r.misreported} misreported${r.notes.length ? `\n    ${r.notes.join('\n    ')}` : ''}`);
  }
  return results;
}

export function summarize(results: RunResult[]): string {
  const n = results.length;
  const sum = (f: (r: RunResult) => number) => results.reduce((s, r) => s + f(r), 0);
  return [
    `runs converged: ${results.filter((r) => r.converged).length}/${n}`,
    `duplicated: ${sum((r) => r.duplicated)}`,
    `lost: ${sum((r) => r.lost)}`,
    `summaries that did not match the server: ${sum((r) => r.misreported)}`,
    `resources per run: ${results[0]?.resources ?? 0}; applies in all: ${sum((r) => r.applies)}; faults injected: ${sum((r) => r.faults)}; changes that failed and were finished by a re-run: ${sum((r) => r.failedChanges)}`,
  ].join('\n');
}
