// Runs the compiled tests of every workspace package with node's built-in runner, package by
// package in the order of the root package.json's workspaces, each from its own folder (a
// package's tests name its files from there). Node 20 has no glob support in `node --test`, so the
// file list is gathered here. Extra arguments narrow it: a substring of a path under packages/.
// The end prints one line that adds up every package's counts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';

function collect(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (entry.endsWith('.test.js')) out.push(full);
  }
  return out;
}

const filters = process.argv.slice(2);
const runs = JSON.parse(readFileSync('package.json', 'utf8')).workspaces.map((dir) => ({
  dir,
  files: collect(join(dir, 'dist/test'))
    .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
    .sort()
    .map((f) => f.slice(dir.length + 1)),
})).filter((run) => run.files.length > 0);
if (runs.length === 0) {
  console.error('no test files found under packages/*/dist/test');
  process.exit(1);
}

// Piped (CI, a log), TAP as Node 20 chose by itself; Node 23 and later print their spec report
// there too, so the reporter is named: every version's run ends with the same `# tests N` lines.
const reporter = process.stdout.isTTY ? [] : ['--test-reporter=tap'];
// `cancelled` too: a suite whose hook fails cancels its tests, fails the run, and counts no `fail`.
const totals = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0 };
let status = 0;
for (const run of runs) {
  console.log(`# package ${run.dir}: ${run.files.length} test files`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=300000', ...reporter, ...run.files], {
      cwd: run.dir,
      stdio: ['inherit', 'pipe', 'inherit'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let tail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-4096);
    });
    child.on('close', (exit) => {
      // The runner's closing counts: `# tests 12` in TAP, `ℹ tests 12` in the spec report.
      for (const key of Object.keys(totals)) {
        const found = [...tail.matchAll(new RegExp(`^(?:#|ℹ) ${key} (\\d+)$`, 'gm'))].at(-1);
        if (found) totals[key] += Number(found[1]);
      }
      resolve(exit ?? 1);
    });
  });
  if (code !== 0) status = code;
}
console.log(`# all packages: tests ${totals.tests}, pass ${totals.pass}, fail ${totals.fail}, cancelled ${totals.cancelled}, skipped ${totals.skipped}`);
process.exit(status);
