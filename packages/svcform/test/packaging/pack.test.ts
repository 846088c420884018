import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { withEmulatorCommand } from '../helpers/emulator-command.js';
import { precompiledUse } from '../helpers/spawn-cli.js';

const ROOT = resolve('.');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** svcform and the two workspace packages it depends on, each published as a package of its own. */
const WORKSPACE = resolve('../..');
const DEPENDENCIES = ['packages/query', 'packages/emulator'];

/**
 * npm as a user runs it: none of the npm_* variables `npm test` exports to its scripts, and an
 * empty user configuration, so the machine's own ~/.npmrc (whatever it holds) cannot add or hide
 * warnings. The cache stays the default one, which `npm ci` filled.
 */
function npm(args: string[], cwd: string, home: string) {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  const userconfig = join(home, 'npmrc');
  if (!existsSync(userconfig)) writeFileSync(userconfig, '');
  Object.assign(env, { npm_config_userconfig: userconfig, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
  const run = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 150_000 });
  assert.equal(run.error, undefined, String(run.error));
  return run;
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => /\bwarn/i.test(l));

/** Whether the Node running the suite is in the `engines` range (a lower bound, >=X.Y.Z). */
function nodeSupported(): boolean {
  const floor = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines.node)!.slice(1).map(Number);
  const running = process.versions.node.split('.').map(Number);
  const i = floor.findIndex((part, at) => running[at] !== part);
  return i === -1 || running[i] > floor[i];
}

/**
 * An install's warnings: none on a supported Node. Below the engines range (CI runs the suite on
 * Node 20 too) npm rightly warns that svcform does not support it, and warns of nothing else.
 */
function installWarnings(stderr: string): string[] {
  const all = warnings(stderr);
  if (nodeSupported()) return all;
  assert.ok(all.some((l) => /^npm warn EBADENGINE\s+package: 'svcform@/.test(l)), `npm warns that Node ${process.version} is below engines: ${all.join('\n')}`);
  return all.filter((l) => !/^npm warn EBADENGINE\s/.test(l));
}

describe('packaging: npm pack, then a global install of the tarball', { timeout: 180_000 }, () => {
  it('package.json: addresses, licence, and a build on pack rather than on every install', () => {
    assert.equal(pkg.license, 'Apache-2.0');
    assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0, January 2004/);
    assert.equal(pkg.repository.url, 'git+https://github.com/svcform/svcform.git');
    assert.equal(pkg.homepage, 'https://github.com/svcform/svcform#readme');
    assert.equal(pkg.bugs.url, 'https://github.com/svcform/svcform/issues');
    assert.equal(pkg.scripts.prepare, undefined, 'installing svcform from the registry must not run tsc');
    // The build is the workspace's: every package, in order (svcform bundles the other two).
    assert.equal(pkg.scripts.prepack, 'npm run build --prefix ../..');
    for (const dir of DEPENDENCIES) {
      const dependency = JSON.parse(readFileSync(join(WORKSPACE, dir, 'package.json'), 'utf8'));
      assert.equal(pkg.dependencies[dependency.name], dependency.version, `svcform depends on ${dependency.name} at its version`);
      assert.equal(dependency.license, pkg.license);
      assert.deepEqual(dependency.engines, pkg.engines);
    }
  });

  it('packs what the CLI needs, with no npm warnings; source maps point at files in the package', async () => {
    const home = mkdtempSync(join(tmpdir(), 'svcform-pack-'));
    try {
      // The suite has just built dist/ (npm test runs tsc first); prepack would rebuild it while
      // other test files read it, so scripts are off here and prepack is checked above.
      const pack = (dir: string, required: string[]) => {
        const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', home], dir, home);
        assert.equal(packed.status, 0, packed.stderr);
        assert.deepEqual(warnings(packed.stderr), []);
        const { files: list, filename } = JSON.parse(packed.stdout)[0] as { files: { path: string }[]; filename: string };
        const files = new Set(list.map((f) => f.path));
        for (const f of ['LICENSE', 'README.md', 'package.json', ...required]) assert.ok(files.has(f), `${dir}: ${f} is packed`);
        for (const f of files) assert.doesNotMatch(f, /^(dist\/test|dist\/bench|test|bench|node_modules|\.svcform)\//, `${dir}: ${f} is not packed`);
        let maps = 0;
        for (const f of files) {
          if (!f.endsWith('.js.map')) continue;
          maps++;
          const map = JSON.parse(readFileSync(join(dir, f), 'utf8'));
          for (const source of map.sources as string[]) {
            const target = posix.normalize(posix.join(posix.dirname(f), map.sourceRoot ?? '', source));
            assert.ok(files.has(target), `${dir}: ${f} points at ${target}, which is not in the package`);
          }
        }
        assert.ok(maps > 0, `${dir}: source maps are packed`);
        // Every relative link in the README goes to a file that is packed (npm shows the README).
        const readme = readFileSync(join(dir, 'README.md'), 'utf8');
        for (const [, link] of readme.matchAll(/\]\((?!https?:|#)([^)#]+)(#[^)]*)?\)/g)) assert.ok(files.has(link), `${dir}: README links to ${link}, which is not packed`);
        return { files, tarball: join(home, filename) };
      };
      const { files, tarball } = pack(ROOT, ['dist/src/cli/main.js', 'dist/precompiled/svcform.cjs', 'dist/precompiled/svcform.code-cache', 'schemas/Rule.schema.json', 'docs/plan-format.md', 'docs/export.md']);
      const query = pack(join(WORKSPACE, DEPENDENCIES[0]), ['dist/src/languages.js', 'dist/src/kuery/kuery.generated.js', 'data/ecs-fields.txt']);
      const emulator = pack(join(WORKSPACE, DEPENDENCIES[1]), ['dist/src/server.js', 'dist/src/facts/connector-types.js', 'data/packages/system-1.60.0/manifest.yml', 'docs/emulator.md']);

      // One command, as `npm install -g svcform` from the registry fetches the other two.
      const prefix = join(home, 'prefix');
      const installed = npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball, query.tarball, emulator.tarball], home, home);
      assert.equal(installed.status, 0, installed.stderr);
      assert.deepEqual(installWarnings(installed.stderr), []);

      const bin = join(prefix, 'bin', 'svcform');
      const env = { PATH: `${dirname(bin)}:${process.env.PATH}`, HOME: home };
      const version = spawnSync('svcform', ['--version'], { env, encoding: 'utf8' });
      assert.equal(version.status, 0, version.stderr);
      assert.equal(version.stdout.trim(), pkg.version);
      const validated = spawnSync('svcform', ['validate', 'examples/'], { cwd: ROOT, env, encoding: 'utf8' });
      assert.equal(validated.status, 0, validated.stderr);
      assert.match(validated.stdout, /^\d+ resources in \d+ files: valid \(0 errors, 0 warnings\)$/m);
      assert.equal(validated.stderr, '');
      // `init` copies the GitHub Actions kit from the installed package, as the package holds it.
      const repo = join(home, 'new-repo');
      const init = spawnSync('svcform', ['init', repo], { cwd: home, env, encoding: 'utf8' });
      assert.equal(init.status, 0, init.stderr);
      const kit = 'examples/ci/github-actions/.github';
      const kitFiles = readdirSync(join(ROOT, kit), { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(ROOT, kit, f)).isFile());
      assert.ok(kitFiles.length >= 3, kitFiles.join(', '));
      for (const rel of kitFiles) {
        assert.ok(files.has(`${kit}/${rel}`), `${kit}/${rel} is packed`);
        assert.equal(readFileSync(join(repo, '.github', rel), 'utf8'), readFileSync(join(ROOT, kit, rel), 'utf8'), rel);
      }
      // The installed CLI finds its precompiled program and V8 takes the code cache under its flags.
      assert.equal(precompiledUse(join(prefix, 'lib/node_modules/svcform/dist/src/cli'), env), 'accepted');

      // `svcform emulator` runs the installed @svcform/emulator, with the Fleet packages it ships.
      await withEmulatorCommand(env, home, async (url) => {
        const system = await fetch(`${url}/api/fleet/epm/packages/system`);
        assert.equal(system.status, 200, await system.text());
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
