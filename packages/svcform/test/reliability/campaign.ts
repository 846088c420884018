/**
 * The fault campaign: svcform applies a few hundred resources of every kind to an emulator that
 * answers about one write in ten with a 5xx, a 429 with Retry-After, a dropped connection, or a
 * commit followed by a 504, in three phases: creates, an update of every document, and the
 * removal of some documents of each kind (deletes). Each phase starts with two applies at once,
 * then applies until nothing is left to do. After each apply it checks that the summary matches
 * what the server holds; after each phase, that the server converged with nothing duplicated or
 * lost. Fault draws are seeded by request (src/emulator/faults.ts), so a seed replays exactly
 * however the two applies interleave: `npm run campaign -- --runs 100 --seed 1`.
 */
import { rmSync } from 'node:fs';
import { startEmulator, type RunningEmulator } from '@svcform/emulator/server.js';
import { runCli } from '../../src/cli/program.js';
import type { Io } from '../../src/cli/context.js';
import { countKinds, NEVER_DELETED, removeSome, updateEvery, workload } from './campaign-workload.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

export interface CampaignOptions {
  runs: number;
  seed: number;
  /** Copies of each multipliable example (rules, connectors, saved queries, windows, lists). */
  copies: number;
  /** Fraction of writes that meet a fault. */
  rate: number;
  log?: (line: string) => void;
}

export type PhaseName = 'create' | 'update' | 'delete';

export interface PhaseResult {
  phase: PhaseName;
  /** Changes of this phase's kind the first plan of the phase held, per kind. */
  planned: Record<string, number>;
  applies: number;
  converged: boolean;
}

export interface RunResult {
  seed: number;
  resources: number;
  /** Kinds of the workload's documents. */
  kinds: number;
  applies: number;
  converged: boolean;
  duplicated: number;
  lost: number;
  misreported: number;
  /** Faults the emulator injected, and changes apply reported failed (and then finished on a re-run). */
  faults: number;
  failedChanges: number;
  phases: PhaseResult[];
  notes: string[];
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), env: { PATH: process.env.PATH, XDG_CACHE_HOME: TEST_CACHE_HOME, ...env }, outTty: false, errTty: false };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Faults on about `rate` of writes (and a few reads), of every kind a real network produces. */
function faultRules(rate: number, options: { reads: boolean }) {
  // The apply lease is left alone: how often the waiting apply of a pair reads it, and whether the
  // holder renews it, depend on the clock, not on the seed, and would make a seed replay
  // differently. (Its reads are the connector listing, so that listing is not faulted either.)
  // The lease under faults is tested on its own (lease.test.ts).
  const api = '^/api/(?!actions/connector/svcform-lease-)';
  return [
    ...(options.reads ? [{ path: '^/api/(?!spaces|actions/connectors$)', status: 503, rate: rate / 10, method: 'GET' }] : []),
    ...['POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => [
      { method, path: api, status: 500, rate: rate / 5 },
      { method, path: api, status: 429, retryAfter: 0, rate: rate / 5 },
      { method, path: api, drop: true, rate: rate / 5 },
      { method, path: api, dropAfterServe: true, rate: rate / 5 },
      { method, path: api, statusAfterServe: 504, rate: rate / 5 },
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

/** An apply's reported results; an apply that reported none (it stopped before writing) is noted. */
function resultsOf(applied: { code: number; out: string; err: string }, result: RunResult, phase: PhaseName): ApplyJson['results'] {
  try {
    return (JSON.parse(applied.out) as ApplyJson).results ?? [];
  } catch {
    result.notes.push(`${phase}: an apply wrote no results (exit ${applied.code}): ${(applied.err || applied.out).split('\n').slice(0, 3).join(' ')}`);
    return [];
  }
}

const APPLY = ['--json', '--auto-approve', '--timeout', '20'];
/** Applies per phase after the pair, at most. */
const MAX_APPLIES = 8;

/**
 * One phase: two applies at once (the lease makes the second wait, then plan what the first left),
 * then applies until the plan is empty, each under faults drawn from its own seed.
 */
async function phase(name: PhaseName, emu: RunningEmulator, dir: string, options: CampaignOptions, result: RunResult, nextSeed: () => number): Promise<boolean> {
  const before = await pending(emu, dir);
  const planned: Record<string, number> = {};
  for (const [id, action] of before.ids) if (action === name || (name === 'update' && action === 'replace')) planned[id.split('/')[0]] = (planned[id.split('/')[0]] ?? 0) + 1;
  const record: PhaseResult = { phase: name, planned, applies: 0, converged: false };
  result.phases.push(record);
  const countFaults = () => {
    result.faults += emu.faults.list().reduce((n, r) => n + r.fired, 0);
    emu.faults.clear();
  };
  // Reads are not faulted in the pair: what the waiting apply reads ahead (before it learns that the
  // other holds the lease) depends on how far the other has got, so their number, and with it the
  // ordinals of reads (faults.ts), would differ from one replay to the next. Its writes wait for
  // the lease, so they replay exactly. The applies after the pair run alone and fault reads too.
  emu.faults.set(faultRules(options.rate, { reads: false }), { seed: nextSeed() });
  const pair = await Promise.all([0, 1].map(() => run(['apply', dir, '--url', emu.url, ...APPLY, '--lock-timeout', '600'])));
  record.applies += 2;
  countFaults();
  let left = await pending(emu, dir);
  // The lease serialises the pair, so the second planned after the first had finished: a change
  // only one of them made is judged exactly against the state after both.
  const [first, second] = pair.map((a) => resultsOf(a, result, name));
  result.failedChanges += [...first, ...second].filter((r) => r.outcome === 'failed').length;
  const madeByBoth = new Set(first.map(idOf).filter((id) => second.some((r) => idOf(r) === id)));
  for (const results of [first, second]) result.notes.push(...misreports(results.filter((r) => !madeByBoth.has(idOf(r))), left.ids).map((n) => `${name}: ${n}`));
  for (let attempt = 0; attempt < MAX_APPLIES && (left.ids.size > 0 || left.errors.length > 0); attempt++) {
    emu.faults.set(faultRules(options.rate, { reads: true }), { seed: nextSeed() });
    const applied = await run(['apply', dir, '--url', emu.url, ...APPLY]);
    record.applies += 1;
    countFaults();
    const next = await pending(emu, dir);
    const results = resultsOf(applied, result, name);
    result.failedChanges += results.filter((r) => r.outcome === 'failed').length;
    result.notes.push(...misreports(results, next.ids).map((n) => `${name}: ${n}`));
    left = next;
  }
  result.applies += record.applies;
  result.duplicated += left.errors.filter((e) => /share this identity/.test(e)).length;
  // Lost: an object the manifests declare that the server does not hold after the phase.
  result.lost += [...left.ids.values()].filter((a) => a === 'create').length;
  record.converged = left.ids.size === 0 && left.errors.length === 0;
  if (!record.converged) result.notes.push(`${name}: not converged: ${left.ids.size} changes left (${[...left.ids].slice(0, 3).map(([id, a]) => `${a} ${id}`).join(', ')}), errors: ${left.errors.slice(0, 3).join('; ')}`);
  return record.converged;
}

async function oneRun(seed: number, options: CampaignOptions): Promise<RunResult> {
  const { dir, resources } = workload(options.copies);
  const emu = await startEmulator({ port: 0 });
  const result: RunResult = { seed, resources, kinds: countKinds(dir).size, applies: 0, converged: false, duplicated: 0, lost: 0, misreported: 0, faults: 0, failedChanges: 0, phases: [], notes: [] };
  // Each apply draws from a seed of its own, made from the run's: the same request meets other
  // faults in the next apply, and the run replays exactly.
  let applySeed = 0;
  const nextSeed = () => seed * 1000 + ++applySeed;
  try {
    const steps: Array<[PhaseName, () => unknown]> = [
      ['create', () => undefined],
      ['update', () => updateEvery(dir)],
      ['delete', () => removeSome(dir)],
    ];
    result.converged = true;
    for (const [name, prepare] of steps) {
      prepare();
      if (!(await phase(name, emu, dir, options, result, nextSeed))) {
        result.converged = false;
        break;
      }
    }
    result.misreported = result.notes.filter((n) => !/not converged/.test(n)).length;
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
    const phases = r.phases.map((p) => `${p.phase} ${sumOf(p.planned)} in ${p.applies} applies`).join(', ');
    options.log?.(`run ${i + 1}/${options.runs} seed ${r.seed}: ${r.resources} resources; ${phases}; ${r.faults} faults injected, ${r.failedChanges} changes failed then finished, ${r.converged ? 'converged' : 'NOT converged'}, ${r.duplicated} duplicated, ${r.lost} lost, ${r.misreported} misreported${r.notes.length ? `\n    ${r.notes.join('\n    ')}` : ''}`);
  }
  return results;
}

const sumOf = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Kinds each phase changed in every run (a kind counts only when every run planned it). */
function coverage(results: RunResult[]): string[] {
  return (['create', 'update', 'delete'] as const).map((name) => {
    const perRun = results.map((r) => r.phases.find((p) => p.phase === name)?.planned ?? {});
    const kinds = Object.keys(perRun[0] ?? {}).filter((k) => perRun.every((p) => (p[k] ?? 0) > 0));
    const changes = perRun.reduce((s, p) => s + sumOf(p), 0);
    return `${name}s under faults: ${changes} in all, kinds ${kinds.length} (${kinds.sort().join(', ')})`;
  });
}

export function summarize(results: RunResult[]): string {
  const n = results.length;
  const sum = (f: (r: RunResult) => number) => results.reduce((s, r) => s + f(r), 0);
  return [
    ...coverage(results),
    `kinds in the workload: ${Math.min(...results.map((r) => r.kinds))}`,
    `not deleted (no manage scope in examples/svcform.yaml): ${NEVER_DELETED.join(', ')}`,
    `runs converged: ${results.filter((r) => r.converged).length}/${n}`,
    `duplicated: ${sum((r) => r.duplicated)}`,
    `lost: ${sum((r) => r.lost)}`,
    `summaries that did not match the server: ${sum((r) => r.misreported)}`,
    `resources per run: ${results[0]?.resources ?? 0}; applies in all: ${sum((r) => r.applies)}; faults injected: ${sum((r) => r.faults)}; changes that failed and were finished by a re-run: ${sum((r) => r.failedChanges)}`,
  ].join('\n');
}
