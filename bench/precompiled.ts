/**
 * `npm run bench:precompiled`: the CLI run from its precompiled program (dist/precompiled/, loaded
 * through V8's code cache; src/cli/precompiled.ts) against the same build run from its modules
 * (SVCFORM_PRECOMPILED=0), alternating run by run on the same data.
 *
 * Times, as a user runs them (the real CLI in a child process): `svcform --version` (start alone),
 * `validate` and `plan` of realistic rules (bench/realistic.ts; 2,068 rules over 42 files by
 * default) with an empty cache, the plan against the emulator at 20 ms latency.
 *
 *   node dist/bench/precompiled.js [--rules N] [--files N] [--latency MS] [--runs N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../src/emulator/server.js';
import { writeRealisticRepository } from './realistic.js';
import { fmt, median, option, setLatency, timeCli } from './wire.js';

const WAYS = { precompiled: {}, modules: { SVCFORM_PRECOMPILED: '0' } } as const;
type Way = keyof typeof WAYS;

async function main(): Promise<number> {
  const runs = option('runs', 7);
  const dir = mkdtempSync(join(tmpdir(), 'svcform-bench-precompiled-'));
  try {
    const repo = writeRealisticRepository(dir, { rules: option('rules', 2068), files: option('files', 42) });
    console.log(`generated ${repo.rules} rules in ${repo.files.length} files, ${(repo.bytes / 1048576).toFixed(1)} MB, in ${dir}`);
    const emu = await startEmulator({ port: 0 });
    try {
      const applied = await timeCli(['apply', dir, '--url', emu.url, '--quiet', '--no-lock', '--no-cache'], dir);
      if (applied.code !== 0) throw new Error(`apply failed (${applied.code}): ${applied.err.slice(0, 2000)}`);
      await setLatency(emu.url, option('latency', 20));
      const steps: Record<string, string[]> = {
        '--version': ['--version'],
        'validate, empty cache': ['validate', dir],
        'plan, empty cache': ['plan', dir, '--url', emu.url, '--detailed-exitcode'],
      };
      const times = new Map<string, Record<Way, number[]>>(Object.keys(steps).map((s) => [s, { precompiled: [], modules: [] }]));
      console.log(`${runs} runs; each step from the precompiled program and from the modules, alternating`);
      for (let run = 1; run <= runs; run++) {
        for (const [step, args] of Object.entries(steps)) {
          // Alternate which goes first, so neither always runs on a machine the other just warmed.
          const order: Way[] = run % 2 ? ['precompiled', 'modules'] : ['modules', 'precompiled'];
          for (const way of order) {
            const cache = mkdtempSync(join(tmpdir(), 'svcform-bench-cache-'));
            try {
              const timed = await timeCli(args, dir, { ...WAYS[way], SVCFORM_CACHE_DIR: cache });
              if (timed.code !== 0) throw new Error(`${step} (${way}) exited with ${timed.code}: ${(timed.out + timed.err).slice(-2000)}`);
              times.get(step)![way].push(timed.seconds);
            } finally {
              rmSync(cache, { recursive: true, force: true });
            }
          }
        }
      }
      for (const [step, t] of times) {
        const p = median(t.precompiled);
        const m = median(t.modules);
        console.log(`${step}: precompiled ${fmt(p)} (${fmt(Math.min(...t.precompiled))}-${fmt(Math.max(...t.precompiled))}), modules ${fmt(m)} (${fmt(Math.min(...t.modules))}-${fmt(Math.max(...t.modules))}): ${(m / p).toFixed(2)}x`);
      }
      return 0;
    } finally {
      await emu.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);
