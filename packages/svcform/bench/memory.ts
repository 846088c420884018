/**
 * `npm run bench:memory`: the peak memory of svcform at scale (issue 29: "20,000 rules: plan under
 * 1 GB peak memory, apply under 1.5 GB; cost linear in rules").
 *
 * Generates realistic rules (bench/realistic.ts; 20,000 by default, `--rules N`) or takes a
 * directory of manifests (`--dir DIR`), starts the emulator in this process and runs the real CLI
 * in a child process under GNU time, which reports the child's peak resident set size (%M) and CPU
 * time, for:
 *  - `apply` onto an empty server,
 *  - `plan` with an empty cache directory (every file and query parsed),
 *  - `plan` again with the cache that run left (a repeated plan).
 * Each step runs `--runs` times (default 2; the apply on a fresh emulator each time) and every run
 * is printed, so one quotes figures measured side by side. Exits 1 when a median is over its goal.
 *
 *   node dist/bench/memory.js [--rules N] [--files N] [--dir DIR] [--runs N] [--latency MS]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@svcform/emulator/server.js';
import { writeRealisticRepository } from './realistic.js';
import { fmt, median, medianTimed, option, runMain, setLatency, stringOption, timeCli, type CliTiming, type Timed } from './wire.js';

/** Decimal, as the goals: peak RSS was printed in MiB labelled MB, 985 "MB" over a 1.0 GB goal. */
const MB = 1e6;
/** Issue 29's goals at 20,000 rules, in bytes (decimal GB, as the issue writes them). */
const GOALS = { apply: 1.5e9, plan: 1e9 };

/** A timed run with the child's peak resident set size (bytes). */
interface Measured extends Timed {
  rss: number;
}

function measured(timed: CliTiming): Measured {
  if (timed.peakRss === undefined || timed.cpuSeconds === undefined) throw new Error('bench:memory needs GNU time at /usr/bin/time');
  return { wall: timed.seconds, cpu: timed.cpuSeconds, rss: timed.peakRss };
}

const show = (m: Measured) => `peak RSS ${(m.rss / MB).toFixed(0)} MB, ${fmt(m.wall)} wall, ${fmt(m.cpu)} CPU`;

async function main(): Promise<number> {
  if (!existsSync('/usr/bin/time')) throw new Error('bench:memory needs GNU time at /usr/bin/time (apt-get install time)');
  const runs = option('runs', 2);
  const latency = option('latency', 0);
  const given = stringOption('dir');
  const dir = given ?? mkdtempSync(join(tmpdir(), 'svcform-bench-memory-'));
  try {
    if (given && !existsSync(given)) throw new Error(`--dir ${given}: no such directory`);
    if (given) console.log(`corpus: the manifests under ${given}`);
    else {
      const repo = writeRealisticRepository(dir, { rules: option('rules', 20_000), files: option('files', 42) });
      console.log(`corpus: ${repo.rules} generated realistic rules (bench/realistic.ts) + 3 connectors in ${repo.files.length} files, ${(repo.bytes / MB).toFixed(1)} MB (${(repo.bytes / repo.rules / 1024).toFixed(1)} KB per rule)`);
    }
    console.log(`node ${process.version}, emulator in this process, latency ${latency} ms, ${runs} runs; the CLI in a child process under GNU time`);
    const steps = { apply: [] as Measured[], cold: [] as Measured[], warm: [] as Measured[], saved: [] as Measured[] };
    for (let run = 1; run <= runs; run++) {
      const emu = await startEmulator({ port: 0 });
      const cache = mkdtempSync(join(tmpdir(), 'svcform-bench-cache-'));
      const env = { SVCFORM_CACHE_DIR: cache };
      try {
        await setLatency(emu.url, latency);
        // The apply has a cache directory of its own, so the first plan below finds an empty one.
        const applyCache = mkdtempSync(join(tmpdir(), 'svcform-bench-cache-'));
        const applied = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock'], dir, { SVCFORM_CACHE_DIR: applyCache }, { cpu: true });
        rmSync(applyCache, { recursive: true, force: true });
        if (applied.code !== 0) throw new Error(`apply failed (${applied.code}): ${applied.err.slice(0, 2000)}`);
        steps.apply.push(measured(applied));
        for (const step of ['cold', 'warm'] as const) {
          const plan = await timeCli(['plan', dir, '--url', emu.url, '--detailed-exitcode'], dir, env, { cpu: true });
          if (plan.code !== 0) throw new Error(`plan is not empty after apply (exit ${plan.code}): ${(plan.out + plan.err).slice(-2000)}`);
          steps[step].push(measured(plan));
        }
        // The saved plan of the CI recipe (`plan --out`, then `apply --plan`): it hashes every
        // normalized live object and manifest for its fingerprints, which a text plan never does.
        const saved = await timeCli(['plan', dir, '--url', emu.url, '--detailed-exitcode', '--quiet', '--out', join(cache, 'plan.json')], dir, env, { cpu: true });
        if (saved.code !== 0) throw new Error(`plan --out is not empty after apply (exit ${saved.code}): ${(saved.out + saved.err).slice(-2000)}`);
        steps.saved.push(measured(saved));
      } finally {
        await emu.stop();
        rmSync(cache, { recursive: true, force: true });
      }
      console.log(`run ${run}: apply onto an empty server: ${show(steps.apply.at(-1)!)}`);
      console.log(`run ${run}: plan, empty cache:       ${show(steps.cold.at(-1)!)}`);
      console.log(`run ${run}: plan, repeated:          ${show(steps.warm.at(-1)!)}`);
      console.log(`run ${run}: plan --out, repeated:    ${show(steps.saved.at(-1)!)}`);
    }
    const med = (ms: Measured[]): Measured => ({ ...medianTimed(ms), rss: median(ms.map((m) => m.rss)) });
    const verdict = (m: Measured, goal: number) => `${m.rss <= goal ? 'under' : 'OVER'} the ${(goal / 1e9).toFixed(1)} GB goal`;
    const [apply, cold, warm, saved] = [med(steps.apply), med(steps.cold), med(steps.warm), med(steps.saved)];
    console.log(`median apply: ${show(apply)} (${verdict(apply, GOALS.apply)})`);
    console.log(`median plan, empty cache: ${show(cold)} (${verdict(cold, GOALS.plan)})`);
    console.log(`median plan, repeated: ${show(warm)} (${verdict(warm, GOALS.plan)})`);
    console.log(`median plan --out, repeated: ${show(saved)} (${verdict(saved, GOALS.plan)})`);
    console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    return apply.rss <= GOALS.apply && cold.rss <= GOALS.plan && warm.rss <= GOALS.plan && saved.rss <= GOALS.plan ? 0 : 1;
  } finally {
    if (!given) rmSync(dir, { recursive: true, force: true });
  }
}

runMain(main);
