// Makes dist/precompiled/: the CLI program bundled into one script (svcform.cjs) and V8's code
// cache of it (svcform.code-cache), which src/cli/precompiled.ts loads. It runs last in the build,
// after build-id.mjs: the bundle names the build it was made from.
//
// The code cache is taken after a training run of the bundle (`validate` of the examples), so it
// holds the functions a run of svcform calls, not only the script's top level. The training runs
// in a child process with the CLI's own V8 flags and no NODE_OPTIONS, as `svcform` runs; a second
// child checks that V8 accepts the cache, and the build fails if it does not.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = resolve(SCRIPT, '../..');
const SRC = join(ROOT, 'dist/src');
const precompiled = await import('../dist/src/cli/precompiled.js');
const { buildId } = await import('../dist/src/common/build-id.js');
const { PRECOMPILED_DIR, BUNDLE_FILE, CODE_CACHE_FILE } = precompiled;
const TRAINING = ['validate', join(ROOT, 'examples'), '--no-cache', '--quiet'];

async function build() {
  const { build: bundle } = await import('esbuild');
  const id = buildId();
  if (!id) throw new Error('no build id: build-id.mjs runs before this step');
  rmSync(PRECOMPILED_DIR, { recursive: true, force: true });
  mkdirSync(PRECOMPILED_DIR, { recursive: true });
  const result = await bundle({
    entryPoints: [join(SRC, 'cli/program.js')],
    outfile: join(PRECOMPILED_DIR, BUNDLE_FILE),
    bundle: true,
    // Module init functions are named by path from here ("dist/src/cli/plan.js"), which the
    // start-up test reads in V8's coverage.
    absWorkingDir: ROOT,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: `${precompiled.bundleBanner(id)}\n${MODULE_URL_HELPER}` },
    plugins: [moduleUrls()],
    logLevel: 'silent',
  });
  // A warning means some code would behave otherwise bundled (import.meta, a require esbuild cannot see).
  if (result.warnings.length || result.errors.length) {
    for (const w of [...result.errors, ...result.warnings]) console.error(`${w.location?.file ?? ''}:${w.location?.line ?? ''}: ${w.text}`);
    throw new Error('bundling the CLI program gave warnings');
  }
  for (const next of ['train', 'check']) {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const child = spawnSync(process.execPath, [SCRIPT, next], { cwd: ROOT, env, encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`${next} of the precompiled program failed (exit ${child.status}):\n${child.stdout}${child.stderr}`);
  }
}

// Defined in the banner, outside every module: a module's own `require` (from createRequire) may
// shadow the bundle's.
const MODULE_URL_HELPER = [
  '"use strict";',
  'const __svcformModuleUrl = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, file)).href;',
  // A module of another workspace package: found where Node finds that package from the bundle
  // (beside svcform in a global install, through the workspace link in the repository).
  'const __svcformPackageUrl = (name, file) => require("node:url").pathToFileURL(require("node:path").join(require("node:path").dirname(require.resolve(`${name}/package.json`)), file)).href;',
].join('\n');

/** The workspace packages the CLI imports, by the real path of their folder. */
const PACKAGES = ['@svcform/query', '@svcform/emulator'].map((name) => ({ name, dir: dirname(realpathSync(createRequire(SCRIPT).resolve(`${name}/package.json`))) + sep }));

/**
 * Each module's import.meta.url becomes its own file's URL, computed from the bundle's place at run
 * time: the modules find their data (build-id.json, validators, ECS fields, schemas) from there.
 */
function moduleUrls() {
  return {
    name: 'module-urls',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        let url;
        if (args.path.startsWith(SRC)) url = `__svcformModuleUrl(${JSON.stringify(relative(PRECOMPILED_DIR, args.path).split(sep).join('/'))})`;
        else {
          const pkg = PACKAGES.find((p) => args.path.startsWith(p.dir));
          if (!pkg) return undefined;
          url = `__svcformPackageUrl(${JSON.stringify(pkg.name)}, ${JSON.stringify(relative(pkg.dir, args.path).split(sep).join('/'))})`;
        }
        return { contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', url), loader: 'js' };
      });
    },
  };
}

async function train() {
  (await import('../dist/src/cli/runtime-flags.js')).setRuntimeFlags();
  const loaded = precompiled.loadPrecompiledProgram({}, { useCodeCache: false });
  if (!loaded) throw new Error('the bundle just made is not found or names another build');
  const io = { out() {}, err() {}, env: process.env, outTty: false, errTty: false };
  const code = await loaded.program.runCli(TRAINING, io);
  if (code !== 0) throw new Error(`training run \`svcform ${TRAINING.join(' ')}\` exited with ${code}`);
  writeFileSync(join(PRECOMPILED_DIR, CODE_CACHE_FILE), precompiled.codeCacheFile(buildId(), loaded.script.createCachedData()));
}

async function check() {
  (await import('../dist/src/cli/runtime-flags.js')).setRuntimeFlags();
  const loaded = precompiled.loadPrecompiledProgram({}, { ownCacheDir: null });
  if (loaded?.codeCache !== 'accepted') throw new Error(`V8 did not take the code cache it just made: ${loaded?.codeCache ?? 'no bundle'}`);
}

const step = process.argv[2] ?? 'build';
if (step === 'build') await build();
else if (step === 'train') await train();
else if (step === 'check') await check();
else throw new Error(`unknown step ${step}`);
