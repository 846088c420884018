/**
 * `npm run bench:criticality`: 100,000 asset criticality records (a records_file beside the
 * manifest), applied onto an empty emulator (in this process, with latency), then planned by the
 * real CLI in a child process. The goal is plan after apply under 2 s (issue 32). The listing is
 * past the search window, so the plan reads the records in id_value windows of 10,000, ten pages
 * of 1,000 at once each; the run also shows what changing 100 levels costs (one bulk call).
 *
 * `--users` times the same for PrivilegedUserMonitoring: N monitored users from an items_file,
 * written in one CSV upload and read back in one list search. Its default N is 10,000, the real
 * server's limit (maxPrivilegedUsersAllowed, and the list route's one search of 10,000): 100,000
 * monitored users cannot be held by the real server, and svcform refuses such a set.
 *
 *   node dist/bench/asset-criticality.js [--records N] [--latency MS] [--runs N] [--users]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@svcform/emulator/server.js';
import { fmt, median, option, setLatency, timeCli } from './wire.js';

const GOAL_SECONDS = 2;
const LEVELS = ['low_impact', 'medium_impact', 'high_impact', 'extreme_impact'];

function writeSet(dir: string, records: number, changed = 0): void {
  const lines: string[] = [];
  for (let i = 0; i < records; i++) lines.push(`host-${String(i).padStart(6, '0')}.corp.example,${LEVELS[(i + (i < changed ? 1 : 0)) % 4]}`);
  writeFileSync(join(dir, 'hosts.csv'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'criticality.yaml'), ['apiVersion: svcform/v1', 'kind: AssetCriticality', 'metadata:', '  name: host.name', 'spec:', '  records_file: hosts.csv', ''].join('\n'));
}

/** The monitored users variant: `changed` users renamed (one upload of the whole set). */
function writeUsers(dir: string, users: number, changed = 0): void {
  const lines: string[] = [];
  for (let i = 0; i < users; i++) lines.push(`${i < changed ? 'renamed' : 'user'}-${String(i).padStart(6, '0')}`);
  writeFileSync(join(dir, 'users.txt'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'privmon.yaml'), ['apiVersion: svcform/v1', 'kind: PrivilegedUserMonitoring', 'metadata:', '  name: privileged-user-monitoring', 'spec:', '  items_file: users.txt', ''].join('\n'));
}

async function main(): Promise<number> {
  const users = process.argv.includes('--users');
  const writeRecords = users ? writeUsers : writeSet;
  const records = option('records', users ? 10_000 : 100_000);
  const latency = option('latency', 20);
  const runs = option('runs', 3);
  const dir = mkdtempSync(join(tmpdir(), 'svcform-bench-criticality-'));
  const emu = await startEmulator({ port: 0 });
  try {
    writeRecords(dir, records);
    await setLatency(emu.url, latency);
    const applied = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock'], dir);
    if (applied.code !== 0) throw new Error(`apply failed: ${applied.err.slice(0, 2000)}`);
    console.log(`${records} ${users ? 'monitored users' : 'records'}: apply onto an empty server ${fmt(applied.seconds)} (latency ${latency} ms, ${users ? 'one CSV upload' : `${Math.ceil(records / 1000)} bulk calls`})`);
    const plans: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const plan = await timeCli(['plan', dir, '--url', emu.url, '--detailed-exitcode'], dir);
      if (plan.code !== 0) throw new Error(`plan is not empty after apply (exit ${plan.code}): ${(plan.out + plan.err).slice(-1500)}`);
      plans.push(plan.seconds);
      console.log(`run ${run}: plan after apply ${fmt(plan.seconds)} (load average ${loadavg()[0].toFixed(1)})`);
    }
    writeRecords(dir, records, 100);
    const changed = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock'], dir);
    if (changed.code !== 0) throw new Error(`apply (100 changed) failed: ${changed.err.slice(0, 2000)}`);
    console.log(`changing 100 ${users ? 'users' : 'levels'}: apply ${fmt(changed.seconds)} (${users ? 'one CSV upload' : 'one bulk call'})`);
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
