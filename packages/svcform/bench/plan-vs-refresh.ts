/**
 * `npm run bench:plan`: svcform's plan against a Terraform-style refresh, in the same run.
 *
 * Generates realistic rules (bench/realistic.ts: long investigation guides, multi-line queries;
 * 2,068 rules over 42 files by default, as the real set that issue 10 measured) or takes a
 * directory of manifests (--dir), starts the emulator in this process, applies the rules (no
 * latency), then sets the latency (20 ms) and, run after run, times:
 *  - `svcform plan` as a user runs it: the real CLI in a child process, so node's start counts;
 *    first with an empty cache directory (a fresh checkout: every file and query parsed, and
 *    kept), then again with the cache that run left (a repeated plan: nothing parsed), then after
 *    a `validate`, as the pull-request workflow of examples/ci runs them;
 *  - a refresh as a per-resource provider does it: one GET per rule, 10 in flight.
 * Prints every run and the ratios of the medians. The goal is plan >= 3x faster (aim 5x).
 *
 *   node dist/bench/plan-vs-refresh.js [--rules N] [--files N] [--latency MS] [--runs N] [--dir DIR] [--keep]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@svcform/emulator/server.js';
import { loadAndValidate } from '../src/manifest/validate.js';
import { KIND_CATALOG } from '../src/kinds/registry.js';
import { writeRealisticRepository } from './realistic.js';
import { fmt, median, option, PerObjectClient, setLatency, stringOption, timeCli } from './wire.js';

const GOAL = 3;

async function main(): Promise<number> {
  const latency = option('latency', 20);
  const runs = option('runs', 3);
  const given = stringOption('dir');
  const dir = given ?? mkdtempSync(join(tmpdir(), 'svcform-bench-plan-'));
  try {
    if (!given) {
      const repo = writeRealisticRepository(dir, { rules: option('rules', 2068), files: option('files', 42) });
      console.log(`generated ${repo.rules} rules in ${repo.files.length} files, ${(repo.bytes / 1048576).toFixed(1)} MB (${(repo.bytes / repo.rules / 1024).toFixed(1)} KB per rule), in ${dir}`);
    }
    // The rule ids a per-resource provider keeps in its state.
    const loaded = await loadAndValidate([dir], { env: {}, kinds: KIND_CATALOG });
    const ruleIds = loaded.resources.filter((r) => r.kind === 'Rule').map((r) => r.name);

    const emu = await startEmulator({ port: 0 });
    try {
      const applied = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock'], dir);
      if (applied.code !== 0) throw new Error(`apply failed (${applied.code}): ${applied.err.slice(0, 2000)}`);
      console.log(`applied ${ruleIds.length} rules (no latency) in ${fmt(applied.seconds)}`);
      await setLatency(emu.url, latency);
      console.log(`latency ${latency} ms; ${runs} runs of: svcform plan (child process) with an empty cache, again, and after a validate | one GET per rule, 10 in flight`);
      const cold: number[] = [];
      const warm: number[] = [];
      const validated: number[] = [];
      const refreshes: number[] = [];
      for (let run = 1; run <= runs; run++) {
        const cache = mkdtempSync(join(tmpdir(), 'svcform-bench-cache-'));
        const plan = async () => {
          const timed = await timeCli(['plan', dir, '--url', emu.url, '--detailed-exitcode'], dir, { SVCFORM_CACHE_DIR: cache });
          if (timed.code !== 0) throw new Error(`plan is not empty after apply (exit ${timed.code}): ${(timed.out + timed.err).slice(-2000)}`);
          return timed.seconds;
        };
        try {
          cold.push(await plan());
          warm.push(await plan());
          const validate = await timeCli(['validate', dir, '--quiet'], dir, { SVCFORM_CACHE_DIR: cache });
          if (validate.code !== 0) throw new Error(`validate failed (exit ${validate.code}): ${validate.err.slice(-2000)}`);
          validated.push(await plan());
        } finally {
          rmSync(cache, { recursive: true, force: true });
        }
        const client = new PerObjectClient(emu.url, 10);
        const refresh = await client.each(ruleIds, (id) => client.call('GET', `/api/detection_engine/rules?rule_id=${encodeURIComponent(id)}`));
        await client.close();
        refreshes.push(refresh);
        const ratios = [cold, warm, validated].map((t) => `${(refresh / t.at(-1)!).toFixed(2)}x`).join(', ');
        console.log(`run ${run}: plan ${fmt(cold.at(-1)!)} empty cache, ${fmt(warm.at(-1)!)} repeated, ${fmt(validated.at(-1)!)} after validate | refresh ${fmt(refresh)} (${client.requests} GETs) | refresh/plan ${ratios}`);
      }
      const ratio = (plans: number[]) => median(refreshes) / median(plans);
      const line = (label: string, plans: number[]) => `${label} ${fmt(median(plans))}: ${ratio(plans).toFixed(2)}x faster`;
      console.log(`median: refresh ${fmt(median(refreshes))}; ${line('plan with an empty cache', cold)}; ${line('repeated', warm)}; ${line('after validate', validated)} (goal >= ${GOAL}x, aim 5x)`);
      return Math.min(ratio(cold), ratio(warm), ratio(validated)) >= GOAL ? 0 : 1;
    } finally {
      await emu.stop();
    }
  } finally {
    if (given || process.argv.includes('--keep')) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);
