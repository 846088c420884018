import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a svcform process, set when the CLI starts (main.ts), before any request and
 * before any function is optimized.
 *
 * `--liftoff-only`: undici parses HTTP with WebAssembly. V8 compiles it at once with its baseline
 * compiler (Liftoff) and then again, optimized, on a background thread, and Node waits for that
 * background compile before the process exits. A command ends before optimized parsing pays back
 * the compile: a plan of one rule waited 120-200 ms after its last line. Alternating runs against
 * a build without this: a plan of one rule 0.42-0.52 s against 0.53-0.62 s, a plan of 2,068 rules
 * from the cache 1.03-1.31 s against 1.29-1.41 s (the compile runs on the second core, beside the
 * main thread's garbage collection), a cold plan 1.88-2.16 s against 1.91-2.18 s. So the parser
 * stays on Liftoff, which read the cold plan's 16 MB rule listing no slower.
 *
 * `--max-inlined-bytecode-size-cumulative=100` (V8's default is 920): the optimizing compiler
 * inlines less into each function. With the default it spent about 1.5 s of a cold plan's 1.6 s
 * on its background thread (`--log-function-events`), 40-60 ms for each of the YAML reader's
 * methods, so on two cores it took the second one from the server and the collector's helpers,
 * and the reader ran unoptimized until each compile was done. Cold plans of the 2,068 rules, 10
 * alternating runs against the build without it: medians 1.49 s against 1.64 s wall, 1.62 s
 * against 1.94 s CPU; plans from the cache no different (1.13 s against 1.12 s); the 1M-value
 * list's plan no different (bench medians 1.69 and 1.74 s against 1.62-1.70 s).
 */

/**
 * The flags above, for a V8 known to have them (V8 11 to 14: Node 20 to 26). Another would print
 * a complaint on stderr for a flag it does not know, so nothing is set there.
 */
export function v8FlagsFor(v8Version: string): string[] {
  const major = Number(v8Version.split('.')[0]);
  return major >= 11 && major <= 14 ? ['--liftoff-only', '--max-inlined-bytecode-size-cumulative=100'] : [];
}

/**
 * Detaches a small ArrayBuffer of its own. The first detach in a process tells V8 that buffers can
 * be detached, and V8 then throws away every optimized function that reads a typed array (the YAML
 * reader's line tables among them), which must warm up again. undici's HTTP parser detaches its
 * WebAssembly memory when the memory grows for a large chunk, which in a plan happens in the middle
 * of reading manifests: cold plans of 2,068 rules lost 14 to 20 optimized functions there, 12 to 16
 * of them the YAML reader's (--trace-deopt, three runs). Done at start, before anything is
 * optimized, nothing is lost. Alternating cold plans of the 2,068 rules (10 of each, emulator at
 * 20 ms) against a build without it: medians 1.77 s against 1.92 s wall, 2.02 s against 2.22 s CPU.
 */
function detachOnceAtStart(): void {
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
}

export function setRuntimeFlags(): void {
  for (const flag of v8FlagsFor(process.versions.v8)) setFlagsFromString(flag);
  detachOnceAtStart();
}
