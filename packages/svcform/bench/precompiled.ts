/**
 * `npm run bench:precompiled`: how the CLI's code gets compiled, for each Node.js binary given,
 * alternating run by run on the same data:
 *
 * - `bundle+V8 cache`: the precompiled program (dist/precompiled/, loaded through V8's code cache;
 *   src/cli/precompiled.ts), its cache made again by that binary first;
 * - `bundle+V8+compile cache`: the same, with Node's compile cache (NODE_COMPILE_CACHE, warm) for
 *   the CommonJS modules the bundle does not hold (undici's parts, the compiled validators);
 * - `bundle, foreign cache`: the same bundle with the code cache of the build's own Node, which
 *   another V8 refuses: what a user of the published package gets on any other Node version;
 * - `compile cache`: the modules of dist/src with Node's compile cache (NODE_COMPILE_CACHE), warm
 *   (a run of each step before the timed ones), as every run after a user's first would be;
 * - `compile cache, 1st run`: the same with an empty cache, as a user's first run;
 * - `modules`: the modules with neither.
 *
 * The compile-cache ways only for a Node that has one (22.1 and later). Times, as a user runs them
 * (the real CLI in a child process): `svcform --version` (start alone), `validate` and `plan` of
 * realistic rules (bench/realistic.ts; 2,068 rules over 42 files by default) with an empty
 * svcform cache, the plan against the emulator at 20 ms latency. Medians of wall time and, where
 * GNU time is installed, of CPU time (user + system), each against the plain modules.
 *
 *   node dist/bench/precompiled.js [--node PATH]... [--steps version,validate,plan] [--rules N] [--files N] [--latency MS] [--runs N]
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@svcform/emulator/server.js';
import { writeRealisticRepository } from './realistic.js';
import { fmt, median, option, setLatency, stringOption, timeCli, runMain } from './wire.js';

const BUILD_PRECOMPILED = fileURLToPath(new URL('../../scripts/build-precompiled.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Way = 'bundle+V8 cache' | 'bundle+V8+compile cache' | 'bundle, foreign cache' | 'compile cache' | 'compile cache, 1st run' | 'modules';

function nodes(): string[] {
  const given = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--node' ? [a] : []));
  return given.length ? given : [process.execPath];
}

const describeNode = (node: string) => execFileSync(node, ['-p', "process.version + ' ' + typeof require('node:module').enableCompileCache"], { encoding: 'utf8' }).trim().split(' ');

/**
 * A copy of the built CLI as the build made it (with its code cache of the build's Node), the
 * files it reads at run time beside it, as the package installs them.
 */
function copyOfBuild(into: string): string {
  for (const part of ['dist/src', 'dist/precompiled', 'schemas', 'data', 'package.json']) cpSync(join(ROOT, part), join(into, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(into, 'node_modules'), 'dir');
  return join(into, 'dist/src/cli/main.js');
}

/** Makes dist/precompiled/ again with `node`, so its V8 takes the code cache. */
function precompileWith(node: string): void {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  execFileSync(node, [BUILD_PRECOMPILED], { cwd: ROOT, env, stdio: 'inherit' });
}

async function main(): Promise<number> {
  const runs = option('runs', 7);
  const dir = mkdtempSync(join(tmpdir(), 'svcform-bench-precompiled-'));
  const warm = mkdtempSync(join(tmpdir(), 'svcform-bench-compile-cache-'));
  const copy = mkdtempSync(join(tmpdir(), 'svcform-bench-build-'));
  try {
    const foreignCli = copyOfBuild(copy);
    const buildNode = describeNode(process.execPath)[0];
    const repo = writeRealisticRepository(dir, { rules: option('rules', 2068), files: option('files', 42) });
    console.log(`generated ${repo.rules} rules in ${repo.files.length} files, ${(repo.bytes / 1048576).toFixed(1)} MB, in ${dir}`);
    const emu = await startEmulator({ port: 0 });
    try {
      const applied = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock', '--no-cache'], dir);
      if (applied.code !== 0) throw new Error(`apply failed (${applied.code}): ${applied.err.slice(0, 2000)}`);
      await setLatency(emu.url, option('latency', 20));
      const all: Record<string, string[]> = {
        '--version': ['--version'],
        'validate, empty cache': ['validate', dir],
        'plan, empty cache': ['plan', dir, '--url', emu.url, '--detailed-exitcode'],
      };
      // --steps version,validate: only those (first word of each name).
      const chosen = stringOption('steps')?.split(',');
      const steps = Object.fromEntries(Object.entries(all).filter(([name]) => !chosen || chosen.includes(name.replace(/^--/, '').split(/[ ,]/)[0])));
      for (const node of nodes()) {
        const [version, api] = describeNode(node);
        const ways: Way[] = ['bundle+V8 cache'];
        if (version !== buildNode) ways.push('bundle, foreign cache');
        if (api === 'function') ways.push('bundle+V8+compile cache', 'compile cache', 'compile cache, 1st run');
        ways.push('modules');
        precompileWith(node);
        const warmCache = join(warm, version);
        const envOf = (way: Way, fresh: string): NodeJS.ProcessEnv => {
          if (way === 'bundle+V8 cache' || way === 'bundle, foreign cache') return { NODE_DISABLE_COMPILE_CACHE: '1' };
          if (way === 'modules') return { SVCFORM_PRECOMPILED: '0', NODE_DISABLE_COMPILE_CACHE: '1' };
          if (way === 'bundle+V8+compile cache') return { NODE_COMPILE_CACHE: warmCache };
          return { SVCFORM_PRECOMPILED: '0', NODE_COMPILE_CACHE: way === 'compile cache' ? warmCache : fresh };
        };
        const timed = async (way: Way, args: string[]) => {
          const cache = mkdtempSync(join(tmpdir(), 'svcform-bench-cache-'));
          try {
            const cli = way === 'bundle, foreign cache' ? foreignCli : undefined;
            const run = await timeCli(args, dir, { ...envOf(way, join(cache, 'compile-cache')), SVCFORM_CACHE_DIR: cache }, { node, cli, cpu: true });
            if (run.code !== 0) throw new Error(`${args[0]} (${way}, ${version}) exited with ${run.code}: ${(run.out + run.err).slice(-2000)}`);
            return run;
          } finally {
            rmSync(cache, { recursive: true, force: true });
          }
        };
        for (const way of ['compile cache', 'bundle+V8+compile cache'] as const) if (ways.includes(way)) for (const args of Object.values(steps)) await timed(way, args);
        const times = new Map(Object.keys(steps).map((s) => [s, new Map<Way, { wall: number[]; cpu: number[] }>(ways.map((w) => [w, { wall: [], cpu: [] }]))]));
        console.log(`Node ${version}: ${runs} runs; each step in each way, alternating (load average ${loadavg().map((l) => l.toFixed(2)).join(', ')})`);
        for (let run = 1; run <= runs; run++) {
          for (const [step, args] of Object.entries(steps)) {
            // Rotate which goes first, so no way always runs on a machine another just warmed.
            const order = ways.map((_, i) => ways[(i + run) % ways.length]);
            for (const way of order) {
              const run = await timed(way, args);
              const t = times.get(step)!.get(way)!;
              t.wall.push(run.seconds);
              if (run.cpuSeconds !== undefined) t.cpu.push(run.cpuSeconds);
            }
          }
        }
        for (const [step, t] of times) {
          console.log(`  ${step}:`);
          const base = t.get('modules')!;
          for (const [way, { wall, cpu }] of t) {
            const cpuCell = cpu.length ? `, CPU ${fmt(median(cpu))} (${(median(base.cpu) / median(cpu)).toFixed(2)}x)` : '';
            console.log(`    ${way.padEnd(22)} wall ${fmt(median(wall))} (${fmt(Math.min(...wall))}-${fmt(Math.max(...wall))}, ${(median(base.wall) / median(wall)).toFixed(2)}x)${cpuCell}`);
          }
        }
      }
      return 0;
    } finally {
      await emu.stop();
    }
  } finally {
    // dist/precompiled/ as the build made it, for the Node running this.
    precompileWith(process.execPath);
    rmSync(dir, { recursive: true, force: true });
    rmSync(warm, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  }
}

runMain(main);
