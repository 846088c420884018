// Runs every compiled test file with node's built-in runner. Node 20 has no glob support in
// `node --test`, so the file list is gathered here. Extra arguments narrow it: a substring of a path.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

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
const files = collect('dist/test')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
// Piped (CI, a log), TAP as Node 20 chose by itself; Node 23 and later print their spec report
// there too, so the reporter is named: every version's run ends with the same `# tests N` lines.
const reporter = process.stdout.isTTY ? [] : ['--test-reporter=tap'];
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=300000', ...reporter, ...files], {
  stdio: 'inherit',
  env: { ...process.env, NO_COLOR: '1' },
});
process.exit(result.status ?? 1);
