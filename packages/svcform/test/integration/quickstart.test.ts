import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

const BIN = resolve('dist/src/cli/main.js');
const EXAMPLES = resolve('examples');

function run(args: string[], cwd: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: TEST_CACHE_HOME };
  delete env.CI; // the quick start is a person at a terminal
  delete env.SVC_URL;
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8' });
}

describe("README quick start: the compiled CLI against the embedded emulator", () => {
  it('apply then plan on examples/ converges, with state kept in .svcform/emulator-state.json', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svcform-quickstart-'));
    // The quick start is the repository's: its README, and the demo script of the workspace root.
    const readme = readFileSync('../../README.md', 'utf8');
    assert.match(readme, /npm ci && npm run demo/);
    const root = JSON.parse(readFileSync('../../package.json', 'utf8'));
    // `npm ci` builds nothing (no package has a prepare script), so the demo builds first.
    const cli = 'node packages/svcform/dist/src/cli/main.js';
    assert.equal(root.scripts.demo, `npm run build && ${cli} apply packages/svcform/examples/ --url embedded && ${cli} plan packages/svcform/examples/ --url embedded --detailed-exitcode`);

    const applied = run(['apply', EXAMPLES, '--url', 'embedded', '--no-color'], cwd);
    assert.equal(applied.status, 0, applied.stdout + applied.stderr);
    assert.match(applied.stderr, /Target: embedded emulator \(state \.svcform\/emulator-state\.json\)/);
    assert.ok(existsSync(join(cwd, '.svcform/emulator-state.json')));

    const planned = run(['plan', EXAMPLES, '--url', 'embedded', '--detailed-exitcode', '--no-color'], cwd);
    assert.equal(planned.status, 0, planned.stdout + planned.stderr);
    assert.match(planned.stdout, /Plan: 0 to create, 0 to update, 0 to delete, \d+ unchanged/);
  });

  it('naming no URL falls back to the embedded emulator only at a terminal', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svcform-quickstart-'));
    // spawnSync gives the child pipes: no terminal, as in any CI job or cron.
    const piped = run(['plan', EXAMPLES, '--no-color'], cwd);
    assert.equal(piped.status, 1, piped.stdout + piped.stderr);
    assert.match(piped.stderr, /no target configured and no terminal: .*pass --url embedded/);
    assert.ok(!existsSync(join(cwd, '.svcform')), 'nothing started, nothing written');
    // util-linux `script` runs it on a pseudo-terminal (stdin and stdout), as a person would.
    const command = [process.execPath, BIN, 'plan', EXAMPLES, '--no-color'].map((s) => `'${s.replace(/'/g, `'\\''`)}'`).join(' ');
    const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'dumb', XDG_CACHE_HOME: TEST_CACHE_HOME };
    delete env.CI;
    delete env.SVC_URL;
    const tty = spawnSync('script', ['-qec', command, '/dev/null'], { cwd, env, encoding: 'utf8', input: '' });
    assert.equal(tty.status, 0, tty.stdout + tty.stderr);
    assert.match(tty.stdout, /Target: embedded emulator/);
    assert.match(tty.stdout, /Plan: \d+ to create/);
  });
});
