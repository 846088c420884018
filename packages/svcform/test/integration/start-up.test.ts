import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { childEnv, runBuiltCli } from '../helpers/spawn-cli.js';

/**
 * What a run loads is part of its speed (issue 10: module loading was a tenth of a plan). The built
 * CLI runs in a child process with a preload that records every module it loaded: ES modules
 * through a loader hook, CommonJS ones from the require cache at exit. The precompiled program
 * (src/cli/precompiled.ts) holds every module of the program in one script, so there what a run
 * uses is what it initialises: V8's coverage of that script counts each module's init function.
 */

const RULE = `apiVersion: svcform/v1
kind: Rule
metadata:
  name: start-up-rule
spec:
  type: query
  name: Start-up rule
  description: |
    A rule to plan.
  severity: low
  risk_score: 21
  language: kuery
  query: process.name:"cmd.exe" and event.action:start
  index:
    - logs-*
`;

/** Directories this file made, removed after its tests. */
const scratch: string[] = [];
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** A preload recording into a log of its own, and that log. */
function recorder(): { preload: string; log: string } {
  const dir = scratchDir('svcform-start-up-recorder-');
  const log = join(dir, 'loaded.log');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`);
  const preload = join(dir, 'preload.mjs');
  writeFileSync(
    preload,
    `import { register, createRequire } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
      `const require = createRequire(import.meta.url);\nprocess.on('exit', () => appendFileSync(${JSON.stringify(log)}, Object.keys(require.cache).join('\\n') + '\\n'));\n`,
  );
  return { preload, log };
}

describe('start-up: a plan loads only what it uses', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = scratchDir('svcform-start-up-');
    writeFileSync(join(dir, 'rule.yaml'), RULE);
    const applied = await runBuiltCli(['apply', '.', '--url', emu.url, '--quiet'], dir);
    assert.equal(applied.code, 0, applied.err);
  });
  after(async () => {
    await emu.stop();
    for (const d of scratch) rmSync(d, { recursive: true, force: true });
  });

  it('from the modules (SVCFORM_PRECOMPILED=0), an empty plan against a URL loads neither the emulator, nor the yaml package, nor undici beyond its Agent, nor all of diff', async () => {
    const { preload, log } = recorder();
    const run = await runBuiltCli(['plan', '.', '--url', emu.url, '--detailed-exitcode'], dir, childEnv({ SVCFORM_PRECOMPILED: '0', NODE_OPTIONS: `--import ${pathToFileURL(preload).href}` }));
    assert.equal(run.code, 0, run.out + run.err);
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    // The recorder works: it saw the CLI, a grammar and undici's Agent.
    assert.ok(loaded.some((m) => m.endsWith('/cli/main.js')), 'the CLI entry point is recorded');
    assert.ok(loaded.some((m) => m.endsWith('/query/dist/src/kuery/index.js')), 'the kuery grammar is recorded');
    assert.ok(loaded.some((m) => m.endsWith('/undici/lib/dispatcher/agent.js')), "undici's Agent is recorded");
    assert.deepEqual(loaded.filter((m) => m.includes('/emulator/dist/src/')), [], 'no emulator module');
    assert.deepEqual(loaded.filter((m) => m.includes('/node_modules/yaml/')), [], 'no yaml module');
    assert.deepEqual(loaded.filter((m) => /\/node_modules\/undici\/index\.js$|\/undici\/lib\/web\//.test(m)), [], "neither undici's entry point nor its fetch");
    assert.deepEqual(loaded.filter((m) => /\/node_modules\/diff\/lib(esm|cjs)\/index\.js$/.test(m)), [], "the diff package's line diff only, not its index");
  });

  it('precompiled, an empty plan against a URL loads no module of the program but its entry, nor the yaml package, nor undici beyond its Agent, and initialises no emulator module', async () => {
    const { preload, log } = recorder();
    const coverage = scratchDir('svcform-start-up-coverage-');
    const run = await runBuiltCli(['plan', '.', '--url', emu.url, '--detailed-exitcode'], dir, childEnv({ NODE_V8_COVERAGE: coverage, NODE_OPTIONS: `--import ${pathToFileURL(preload).href}` }));
    assert.equal(run.code, 0, run.out + run.err);
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const programModules = loaded.filter((m) => m.includes('/dist/src/') && !m.includes('/manifest/validators/')).map((m) => m.replace(/^.*\/dist\/src\//, ''));
    assert.deepEqual([...new Set(programModules)].sort(), ['cli/main.js', 'cli/precompiled.js', 'cli/runtime-flags.js', 'common/build-id.js', 'common/user-cache.js']);
    assert.ok(loaded.some((m) => m.endsWith('/undici/lib/dispatcher/agent.js')), "undici's Agent is recorded");
    assert.deepEqual(loaded.filter((m) => m.includes('/node_modules/yaml/')), [], 'no yaml module');
    assert.deepEqual(loaded.filter((m) => /\/node_modules\/undici\/index\.js$|\/undici\/lib\/web\//.test(m)), [], "neither undici's entry point nor its fetch");

    // Each bundled module has an init function named after its file; count the calls of each.
    const calls = new Map<string, number>();
    for (const file of readdirSync(coverage)) {
      for (const script of JSON.parse(readFileSync(join(coverage, file), 'utf8')).result as { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[]) {
        if (!script.url.endsWith('/dist/precompiled/svcform.cjs')) continue;
        // Named by path from packages/svcform: the other workspace packages as ../<name>/dist/src/.
        for (const fn of script.functions) if (/^(dist\/src|\.\.\/(query|emulator)\/dist\/src|(\.\.\/\.\.\/)?node_modules)\//.test(fn.functionName)) calls.set(fn.functionName, (calls.get(fn.functionName) ?? 0) + fn.ranges[0].count);
      }
    }
    assert.ok((calls.get('dist/src/cli/plan.js') ?? 0) > 0, 'the coverage shows the plan command initialised');
    assert.ok(calls.has('../emulator/dist/src/server.js'), "the coverage lists the emulator's init function");
    assert.deepEqual([...calls].filter(([name, count]) => name.startsWith('../emulator/') && count > 0), [], 'no emulator module initialised');
    assert.deepEqual([...calls].filter(([name, count]) => /^(\.\.\/\.\.\/)?node_modules\/yaml\//.test(name) && count > 0), [], 'no module of the yaml package initialised');
  });
});
