#!/usr/bin/env node
/**
 * The HTML plan's browser test (packages/svcform/test/integration/plan-html-browser.test.ts) opens
 * the page in Debian's chromium through playwright-core, which downloads no browser of its own.
 * `npm test` and `.ci/run` make sure it is there: installed from Debian's packages when missing
 * (as root, with apt-get), else a clear message and a non-zero exit rather than a failed test later.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) process.exit(0);
const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (!hasApt || !root) {
  console.error(`${CHROMIUM} is missing: the HTML plan's browser test needs Debian's chromium (as root: apt-get install -y --no-install-recommends chromium).`);
  process.exit(1);
}
console.error(`${CHROMIUM} is missing: installing Debian's chromium for the HTML plan's browser test...`);
try {
  execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
} catch {
  console.error('could not install chromium with apt-get: the HTML plan\'s browser test needs it');
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`apt-get installed chromium, but ${CHROMIUM} is still missing`);
  process.exit(1);
}
