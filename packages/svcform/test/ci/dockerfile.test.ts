import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { withEmulatorCommand } from '../helpers/emulator-command.js';
import { precompiledUse } from '../helpers/spawn-cli.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

/**
 * No Docker engine runs on the machines this suite runs on, so the image is never built here.
 * Instead: the Dockerfile's structure is checked, and the final stage's file layout is rebuilt in a
 * temporary directory (the same COPY instructions, the local node_modules for `npm ci`) and run
 * with the local Node.js: the CLI through a `svcform` link on PATH, and the emulator with its health
 * route.
 */
/** The repository root: the Dockerfile builds all three workspace packages from there. */
const ROOT = resolve('../..');
const PACKAGE = 'packages/svcform';

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  name?: string;
  body: Instruction[];
}

function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const joined = text.replace(/\\\n/g, ' ');
  for (const raw of joined.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(line);
    assert.ok(m, `not an instruction: ${line}`);
    const op = m[1].toUpperCase();
    if (op === 'FROM') {
      const [from, , name] = m[2].split(/\s+/);
      stages.push({ from, name, body: [] });
    } else stages.at(-1)!.body.push({ op, args: m[2] });
  }
  return stages;
}

const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const build = stages.find((s) => s.name === 'build')!;
const final = stages.at(-1)!;
const index = (stage: Stage, pred: (i: Instruction) => boolean) => stage.body.findIndex(pred);
const copies = (stage: Stage) => stage.body.filter((i) => i.op === 'COPY').map((i) => i.args.split(/\s+/));

describe('Dockerfile (checked structurally: no Docker engine here)', () => {
  it('builds on node:26 (the active LTS; test/ci/node-versions.test.ts), installs from the lock file with npm ci before copying sources, and runs the whole build', () => {
    assert.equal(stages.length, 2);
    for (const s of stages) assert.match(s.from, /^node:26-trixie-slim$/);
    const lock = index(build, (i) => i.op === 'COPY' && /\bpackage\.json\b/.test(i.args) && /\bpackage-lock\.json\b/.test(i.args));
    const ci = index(build, (i) => i.op === 'RUN' && /\bnpm ci\b/.test(i.args));
    const src = index(build, (i) => i.op === 'COPY' && /^packages\s/.test(i.args));
    const built = index(build, (i) => i.op === 'RUN' && /\bnpm run build\b/.test(i.args));
    assert.ok(lock >= 0 && lock < ci && ci < src && src < built, 'lock file, npm ci, sources, build: in that order (dependencies cached apart from sources)');
    // npm ci installs the workspaces the root names: each one's package.json is there before it.
    for (const workspace of JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces as string[]) {
      const manifest = index(build, (i) => i.op === 'COPY' && i.args.startsWith(`${workspace}/package.json `));
      assert.ok(manifest >= 0 && manifest < ci, `${workspace}/package.json is copied before npm ci`);
    }
    // The build reads these besides the packages: the root scripts and the TypeScript projects.
    for (const input of ['scripts', 'tsconfig.json', 'tsconfig.base.json']) assert.ok(copies(build).some((c) => c.includes(input) && index(build, (i) => i.op === 'COPY' && i.args.includes(input)) < built), `${input} is copied before the build`);
  });

  it('runs with production dependencies from the same lock file, as a non-root user, svcform on PATH', () => {
    const lock = index(final, (i) => i.op === 'COPY' && /package-lock\.json/.test(i.args));
    const ci = index(final, (i) => i.op === 'RUN' && /\bnpm ci --omit=dev\b/.test(i.args));
    assert.ok(lock >= 0 && lock < ci);
    for (const built of ['query/dist/src', 'emulator/dist/src', 'svcform/dist/src', 'svcform/dist/precompiled']) assert.ok(copies(final).some((c) => c[0] === '--from=build' && c[1] === `/src/packages/${built}`), `${built} is copied from the build`);
    for (const needed of ['query/data', 'emulator/data', 'svcform/schemas']) assert.ok(copies(final).some((c) => c[0] === `packages/${needed}`), `${needed}/ is read at run time`);
    assert.ok(final.body.some((i) => i.op === 'RUN' && /ln -s \/opt\/svcform\/packages\/svcform\/dist\/src\/cli\/main\.js \/usr\/local\/bin\/svcform/.test(i.args)));
    assert.equal(final.body.filter((i) => i.op === 'USER').at(-1)?.args, 'node');
    // svcform's cache (src/cli/cache-location.ts) is the user's ~/.cache/svcform: there for a volume, and the node user's.
    assert.ok(final.body.some((i) => i.op === 'RUN' && /mkdir -p [^&]*\/home\/node\/\.cache\/svcform\b.*chown -R node:node [^&]*\/home\/node\/\.cache\b/.test(i.args)), 'the cache folder is made, owned by node');
    assert.ok(final.body.some((i) => i.op === 'EXPOSE' && i.args === '5601'));
    assert.equal(final.body.find((i) => i.op === 'CMD')?.args, '["svcform", "--help"]', 'exec form, so `docker run IMAGE svcform emulator ...` replaces it');
  });

  it('copies only files that exist and that .dockerignore lets into the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    for (const must of ['node_modules', 'dist', '.svcform', '.git']) assert.ok(ignored.includes(must), `.dockerignore leaves out ${must}`);
    for (const stage of stages) {
      for (const args of copies(stage)) {
        if (args[0].startsWith('--from=')) continue;
        for (const src of args.slice(0, -1)) {
          assert.ok(existsSync(join(ROOT, src)), `COPY ${src}: no such file`);
          assert.ok(!ignored.some((p) => src === p || src.startsWith(`${p}/`)), `COPY ${src} is excluded by .dockerignore`);
        }
      }
    }
  });

  it("the final stage's files run: svcform --version through the PATH link, the emulator answers /__emulator/health, apply works against it", async () => {
    const image = mkdtempSync(join(tmpdir(), 'svcform-image-'));
    try {
      const workdir = join(image, 'opt/svcform');
      mkdirSync(workdir, { recursive: true });
      const buildDir = build.body.filter((i) => i.op === 'WORKDIR').at(-1)!.args;
      for (const args of copies(final)) {
        const from = args[0].startsWith('--from=') ? args.slice(1) : args;
        const dest = from.at(-1)!;
        for (const src of from.slice(0, -1)) {
          // The build stage's WORKDIR is this checkout: its dist/ holds what tsc built.
          const local = args[0] === '--from=build' ? posix.relative(buildDir, src) : src;
          const target = dest.endsWith('/') || from.length > 2 ? join(workdir, dest, posix.basename(src)) : join(workdir, dest);
          cpSync(join(ROOT, local), target, { recursive: true });
        }
      }
      // npm ci's node_modules: the installed dependencies, and the workspace packages linked to
      // the image's own copies of them (not to this checkout's).
      const modules = join(workdir, 'node_modules');
      mkdirSync(join(modules, '@svcform'), { recursive: true });
      for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
        if (entry !== '@svcform' && entry !== 'svcform' && entry !== '.bin') symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
      }
      for (const name of ['query', 'emulator']) symlinkSync(join(workdir, 'packages', name), join(modules, '@svcform', name), 'dir');
      const main = join(workdir, PACKAGE, 'dist/src/cli/main.js');
      const bin = join(image, 'usr/local/bin');
      mkdirSync(bin, { recursive: true });
      symlinkSync(main, join(bin, 'svcform'));
      spawnSync('chmod', ['+x', main]);
      const env = { PATH: `${bin}:${process.env.PATH}`, NODE_ENV: 'production', XDG_CACHE_HOME: TEST_CACHE_HOME };

      const version = spawnSync('svcform', ['--version'], { env, encoding: 'utf8' });
      assert.equal(version.status, 0, version.stderr);
      assert.equal(version.stdout.trim(), JSON.parse(readFileSync(join(ROOT, PACKAGE, 'package.json'), 'utf8')).version);
      // The image's CLI finds its precompiled program and V8 takes the code cache under its flags.
      assert.equal(precompiledUse(join(workdir, PACKAGE, 'dist/src/cli'), env), 'accepted');

      await withEmulatorCommand(env, ROOT, async (url) => {
        assert.equal((await (await fetch(`${url}/__emulator/health`)).json()).status, 'ok');
        const applied = spawn('svcform', ['apply', 'examples/', '--url', url, '--quiet', '--no-color'], { cwd: join(ROOT, PACKAGE), env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        applied.stdout.on('data', (d) => (out += d));
        applied.stderr.on('data', (d) => (out += d));
        const code = await new Promise<number | null>((done) => applied.on('close', done));
        assert.equal(code, 0, out);
      });
    } finally {
      rmSync(image, { recursive: true, force: true });
    }
  });
});
