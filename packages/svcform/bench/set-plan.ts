/**
 * The harness of the large-set benchmarks (bench:lists, bench:criticality): a manifest whose file
 * holds a large set, applied onto an empty emulator (in this process, with latency), then planned
 * by the real CLI in a child process, run after run; then the set is changed a little and applied,
 * to show what a small change costs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@svcform/emulator/server.js';
import { fmt, median, option, setLatency, timeCli } from './wire.js';

export interface SetBench {
  /** The command-line option that sets the size, and what it counts (`values`, `records`). */
  sizeOption: string;
  defaultSize: number;
  goalSeconds: number;
  /** Writes the manifest and its file into `dir`: `size` members, `changed` of them different from the first writing. */
  write(dir: string, size: number, changed: number): void;
  /** How the first apply writes (`100 bulk calls`), for the figure. */
  applyNote(size: number): string;
  /** The small change's size and what applying it costs (`one bulk call`). */
  change: { size: number; what: string; note: string };
  /** Puts on the emulator what the set needs before the first apply (the entities a watchlist names). */
  prepare?(url: string, size: number): Promise<void>;
}

export async function runSetBench(bench: SetBench): Promise<number> {
  const size = option(bench.sizeOption, bench.defaultSize);
  const latency = option('latency', 20);
  const runs = option('runs', 3);
  const dir = mkdtempSync(join(tmpdir(), `svcform-bench-${bench.sizeOption}-`));
  const emu = await startEmulator({ port: 0 });
  try {
    bench.write(dir, size, 0);
    await bench.prepare?.(emu.url, size);
    await setLatency(emu.url, latency);
    const applied = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock'], dir);
    if (applied.code !== 0) throw new Error(`apply failed: ${applied.err.slice(0, 2000)}`);
    console.log(`${size} ${bench.sizeOption}: apply onto an empty server ${fmt(applied.seconds)} (latency ${latency} ms, ${bench.applyNote(size)})`);
    const plans: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const plan = await timeCli(['plan', dir, '--url', emu.url, '--detailed-exitcode'], dir);
      if (plan.code !== 0) throw new Error(`plan is not empty after apply (exit ${plan.code}): ${(plan.out + plan.err).slice(-1500)}`);
      plans.push(plan.seconds);
      console.log(`run ${run}: plan after apply ${fmt(plan.seconds)} (load average ${loadavg()[0].toFixed(1)})`);
    }
    bench.write(dir, size, bench.change.size);
    const changed = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock'], dir);
    if (changed.code !== 0) throw new Error(`apply (${bench.change.what}) failed: ${changed.err.slice(0, 2000)}`);
    console.log(`${bench.change.what}: apply ${fmt(changed.seconds)} (${bench.change.note})`);
    const best = median(plans);
    console.log(`median plan ${fmt(best)} (${best < bench.goalSeconds ? 'under' : 'OVER'} the ${bench.goalSeconds} s goal)`);
    return best < bench.goalSeconds ? 0 : 1;
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
