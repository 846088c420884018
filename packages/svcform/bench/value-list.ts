/**
 * `npm run bench:lists`: a value list of a million values (an items_file beside its manifest),
 * applied onto an empty emulator (in this process, with latency), then planned by the real CLI in
 * a child process. The goal is plan after apply under 3 s; the run also shows what removing 100
 * values costs (one delete per value: the lists API has no bulk delete).
 *
 *   node dist/bench/value-list.js [--values N] [--latency MS] [--runs N]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@svcform/emulator/server.js';
import { fmt, median, option, setLatency, timeCli } from './wire.js';

const GOAL_SECONDS = 3;

function ip(i: number): string {
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
}

function writeList(dir: string, values: number, skip = 0): void {
  const lines: string[] = [];
  for (let i = skip; i < values; i++) lines.push(i < 16_777_216 ? ip(i) : `11.0.0.${i}`);
  writeFileSync(join(dir, 'feed.txt'), lines.join('\n') + '\n');
  writeFileSync(
    join(dir, 'list.yaml'),
    ['apiVersion: svcform/v1', 'kind: ValueList', 'metadata:', '  name: threat-feed', 'spec:', '  name: Threat feed', '  description: Nightly feed', '  type: ip', '  items_file: feed.txt', ''].join('\n'),
  );
}

async function main(): Promise<number> {
  const values = option('values', 1_000_000);
  const latency = option('latency', 20);
  const runs = option('runs', 3);
  const dir = mkdtempSync(join(tmpdir(), 'svcform-bench-list-'));
  const emu = await startEmulator({ port: 0 });
  try {
    writeList(dir, values);
    await setLatency(emu.url, latency);
    const applied = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock'], dir);
    if (applied.code !== 0) throw new Error(`apply failed: ${applied.err.slice(0, 2000)}`);
    console.log(`${values} values: apply onto an empty server ${fmt(applied.seconds)} (latency ${latency} ms)`);
    const plans: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const plan = await timeCli(['plan', dir, '--url', emu.url, '--detailed-exitcode'], dir);
      if (plan.code !== 0) throw new Error(`plan is not empty after apply (exit ${plan.code}): ${(plan.out + plan.err).slice(-1500)}`);
      plans.push(plan.seconds);
      console.log(`run ${run}: plan after apply ${fmt(plan.seconds)}`);
    }
    writeList(dir, values, 100);
    const removed = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock'], dir);
    if (removed.code !== 0) throw new Error(`apply (100 removed) failed: ${removed.err.slice(0, 2000)}`);
    console.log(`removing 100 values: apply ${fmt(removed.seconds)} (100 DELETE requests: the API deletes items one at a time)`);
    const best = median(plans);
    console.log(`median plan ${fmt(best)} (${best < GOAL_SECONDS ? 'under' : 'OVER'} the ${GOAL_SECONDS} s goal)`);
    return best < GOAL_SECONDS ? 0 : 1;
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);
