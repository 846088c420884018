import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUNDLE_FILE, CODE_CACHE_FILE, codeCacheFile, loadPrecompiledProgram, PRECOMPILED_DIR } from '../../src/cli/precompiled.js';
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

/** A copy of the built bundle and code cache, to alter. */
function copyOfPrecompiled(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-precompiled-'));
  scratch.push(dir);
  for (const f of [BUNDLE_FILE, CODE_CACHE_FILE]) copyFileSync(join(PRECOMPILED_DIR, f), join(dir, f));
  return dir;
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
    assert.ok(loadPrecompiledProgram({}, { dir }), 'the copy is used as it is');
    assert.equal(loadPrecompiledProgram({}, { dir, expectedBuild: '0123456789abcdef' }), undefined);
    assert.equal(loadPrecompiledProgram({ SVCFORM_PRECOMPILED: '0' }, { dir }), undefined);
    const bundle = join(dir, BUNDLE_FILE);
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(id, '0123456789abcdef'));
    assert.equal(loadPrecompiledProgram({}, { dir }), undefined, 'a bundle naming another build');
  });

  it('ignores a code cache filed under another build', () => {
    const dir = copyOfPrecompiled();
    const cache = join(dir, CODE_CACHE_FILE);
    const data = readFileSync(cache);
    writeFileSync(cache, codeCacheFile('0123456789abcdef', data.subarray(data.indexOf(10) + 1)));
    assert.equal(loadPrecompiledProgram({}, { dir })?.codeCache, 'absent');
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
});
