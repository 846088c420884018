import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FILE, CODE_CACHE_FILE, codeCacheFile, loadPrecompiledProgram, ownCodeCacheFile, PRECOMPILED_DIR } from '../../src/cli/precompiled.js';
import { buildId } from '../../src/common/build-id.js';
import { repo, ruleYaml } from '../helpers/repo.js';
import { childEnv, CLI_PATH, precompiledUse, runBuiltCli } from '../helpers/spawn-cli.js';

/**
 * The precompiled program (src/cli/precompiled.ts, scripts/build-precompiled.mjs; issue 10): the
 * CLI loads the bundle of this build through V8's code cache, never a bundle of another build, and
 * behaves exactly as it does from the modules.
 */

/** Directories this file made, removed after its tests. */
const scratch: string[] = [];

/**
 * A copy of the built bundle and code cache, to alter. It runs only beside the build's own: the
 * bundle finds its modules' data (schemas, validators) from its folder.
 */
function copyOfPrecompiled(): string {
  const dir = mkdtempSync(join(dirname(PRECOMPILED_DIR), 'precompiled-copy-'));
  scratch.push(dir);
  for (const f of [BUNDLE_FILE, CODE_CACHE_FILE]) copyFileSync(join(PRECOMPILED_DIR, f), join(dir, f));
  return dir;
}

/**
 * Runs `svcform <args>` through main.ts's runMain in a fresh process with the CLI's V8 flags,
 * loading the precompiled program of `dir`, with XDG_CACHE_HOME at `home`; then says which code
 * cache V8 takes in the next fresh process (in the same one V8 would reuse what it compiled).
 */
function runThenLoad(dir: string, home: string, args: string[], cwd: string): { code: number; codeCache: string; ownCacheUsed: boolean } {
  const at = (file: string) => JSON.stringify(pathToFileURL(join(dirname(CLI_PATH), file)).href);
  const env = childEnv({ XDG_CACHE_HOME: home, HOME: home });
  const options = `{ dir: ${JSON.stringify(dir)} }`;
  const run = `import { setRuntimeFlags } from ${at('runtime-flags.js')}; import { runMain } from ${at('main.js')};
setRuntimeFlags();
process.exitCode = await runMain(${JSON.stringify(args)}, process.env, ${options});`;
  const ran = spawnSync(process.execPath, ['--input-type=module', '-e', run], { cwd, env, encoding: 'utf8' });
  const load = `import { setRuntimeFlags } from ${at('runtime-flags.js')}; import { loadPrecompiledProgram } from ${at('precompiled.js')};
setRuntimeFlags();
const loaded = loadPrecompiledProgram(process.env, ${options});
process.stdout.write(JSON.stringify({ codeCache: loaded.codeCache, ownCacheUsed: loaded.ownCacheUsed }));`;
  const loaded = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', load], { cwd, env, encoding: 'utf8' }));
  assert.equal(ran.status, 0, `svcform ${args.join(' ')}: ${ran.stdout}${ran.stderr}`);
  return { code: ran.status ?? 1, ...loaded };
}

/** A copy of the precompiled program whose code cache V8 refuses, as one another Node version made. */
function withRefusedCodeCache(): string {
  const dir = copyOfPrecompiled();
  writeFileSync(join(dir, CODE_CACHE_FILE), codeCacheFile(buildId()!, Buffer.from('code cache of another V8')));
  return dir;
}

/** A user home (XDG_CACHE_HOME) and a repository of one valid rule, removed after the tests. */
function homeAndProject(): { home: string; project: string } {
  const home = mkdtempSync(join(tmpdir(), 'svcform-home-'));
  const project = repo({ 'rules/good.yaml': ruleYaml('good-rule') });
  scratch.push(home, project);
  return { home, project };
}

describe('precompiled program', () => {
  after(() => {
    for (const d of scratch) rmSync(d, { recursive: true, force: true });
  });

  it('the build made a bundle of this build whose code cache V8 takes under the CLI flags', () => {
    assert.equal(precompiledUse(dirname(CLI_PATH)), 'accepted');
  });

  it('is not used when made from another build, nor when SVCFORM_PRECOMPILED=0', () => {
    const dir = copyOfPrecompiled();
    const id = buildId();
    assert.ok(id, 'the suite runs on a build with an id');
    assert.ok(loadPrecompiledProgram({}, { dir, ownCacheDir: null }), 'the copy is used as it is');
    assert.equal(loadPrecompiledProgram({}, { dir, expectedBuild: '0123456789abcdef', ownCacheDir: null }), undefined);
    assert.equal(loadPrecompiledProgram({ SVCFORM_PRECOMPILED: '0' }, { dir, ownCacheDir: null }), undefined);
    const bundle = join(dir, BUNDLE_FILE);
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(id, '0123456789abcdef'));
    assert.equal(loadPrecompiledProgram({}, { dir, ownCacheDir: null }), undefined, 'a bundle naming another build');
  });

  // ownCacheDir null: a cache this user's Node kept for this build (a run of it on Node 24) would
  // go first, and the answer would be about that one.
  it('ignores a code cache filed under another build', () => {
    const dir = copyOfPrecompiled();
    const cache = join(dir, CODE_CACHE_FILE);
    const data = readFileSync(cache);
    writeFileSync(cache, codeCacheFile('0123456789abcdef', data.subarray(data.indexOf(10) + 1)));
    assert.equal(loadPrecompiledProgram({}, { dir, ownCacheDir: null })?.codeCache, 'absent');
  });

  it('runs exactly as the modules do: the same findings, output and exit code', async () => {
    const dir = repo({
      'rules/good.yaml': ruleYaml('good-rule'),
      'rules/bad.yaml': ruleYaml('bad-rule').replace('severity: low', 'severity: lowest'),
      'rules/misspelt.yaml': ruleYaml('misspelt-rule').replace("query: 'a:b'", "query: 'process.nmae:cmd.exe'"),
    });
    scratch.push(dir);
    for (const args of [['validate', '.'], ['validate', '.', '--strict'], ['--version'], ['completion', 'bash']]) {
      const precompiled = await runBuiltCli(args, dir);
      const modules = await runBuiltCli(args, dir, childEnv({ SVCFORM_PRECOMPILED: '0' }));
      assert.deepEqual(precompiled, modules, args.join(' '));
    }
    const validated = await runBuiltCli(['validate', '.'], dir);
    assert.equal(validated.code, 1, validated.err);
    assert.match(validated.err, /^rules\/bad\.yaml:\d+:\d+: Rule\/bad-rule: spec\.severity /m, 'a schema finding at its line');
    assert.match(validated.err, /^rules\/misspelt\.yaml:\d+:\d+: .*process\.nmae/m, 'a query finding at its line');
  });

  // own-code-cache.ts: users run Node 22, 24 and 26 on a package built by one of them, and V8 takes
  // a code cache only from its own version (measured there: repeated plans 6-11% slower without).
  it('keeps a code cache of this Node in the user cache directory when V8 refuses the package\'s, and loads it next time', () => {
    const dir = withRefusedCodeCache();
    const { home, project } = homeAndProject();
    const own = ownCodeCacheFile(join(home, 'svcform', 'code-cache'), buildId()!);

    runThenLoad(dir, home, ['--version'], project);
    assert.equal(existsSync(own), false, '--version compiles too little to keep');
    assert.deepEqual(runThenLoad(dir, home, ['validate', '.', '--no-cache'], project), { code: 0, codeCache: 'rejected', ownCacheUsed: false }, '--no-cache keeps none');
    assert.equal(existsSync(own), false);

    const ownDir = dirname(own);
    mkdirSync(ownDir, { recursive: true });
    const week = 7 * 24 * 3600;
    for (const [name, age] of [['0123456789abcdef-node-1.0.0-x64.code-cache', week + 3600], ['fedcba9876543210-node-1.0.0-x64.code-cache', 3600]] as const) {
      writeFileSync(join(ownDir, name), 'another build');
      utimesSync(join(ownDir, name), Date.now() / 1000 - age, Date.now() / 1000 - age);
    }
    assert.deepEqual(runThenLoad(dir, home, ['validate', '.'], project), { code: 0, codeCache: 'accepted', ownCacheUsed: true });
    assert.deepEqual(readdirSync(ownDir).sort(), [own.slice(ownDir.length + 1), 'fedcba9876543210-node-1.0.0-x64.code-cache'].sort(), 'another build\'s cache unwritten for a week is removed');
    const kept = statSync(own).mtimeMs;
    const bytes = readFileSync(own);
    assert.equal(bytes.subarray(0, bytes.indexOf(10)).toString(), buildId(), 'filed under the build id, as the package\'s');
    assert.deepEqual(runThenLoad(dir, home, ['validate', '.'], project), { code: 0, codeCache: 'accepted', ownCacheUsed: true });
    assert.equal(statSync(own).mtimeMs, kept, 'a cache V8 took is not written again');
    assert.equal(readdirSync(ownDir).filter((n) => n.endsWith('.tmp')).length, 0, 'no temporary file left');
  });

  it('keeps none when V8 takes the package\'s code cache', () => {
    const dir = copyOfPrecompiled();
    const { home, project } = homeAndProject();
    assert.deepEqual(runThenLoad(dir, home, ['validate', '.'], project), { code: 0, codeCache: 'accepted', ownCacheUsed: false });
    assert.equal(existsSync(join(home, 'svcform', 'code-cache')), false);
  });
});
