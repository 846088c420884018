import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a svcform process, set when the CLI starts (main.ts), before any request.
 *
 * undici parses HTTP with WebAssembly. V8 compiles it at once with its baseline compiler
 * (Liftoff) and then again, optimized, on a background thread, and Node waits for that background
 * compile before the process exits. A command ends before optimized parsing pays back the
 * compile: a plan of one rule waited 120-200 ms after its last line. Alternating runs against a
 * build without this: a plan of one rule 0.42-0.52 s against 0.53-0.62 s, a plan of 2,068 rules
 * from the cache 1.03-1.31 s against 1.29-1.41 s (the compile runs on the second core, beside the
 * main thread's garbage collection), a cold plan 1.88-2.16 s against 1.91-2.18 s. So the parser
 * stays on Liftoff, which read the cold plan's 16 MB rule listing no slower.
 */

/**
 * Whether this V8 is one known to have `--liftoff-only` (V8 11 to 14: Node 20 to 25). Another
 * would print a complaint on stderr for a flag it does not know, so nothing is set there.
 */
export function keepsWasmOnBaseline(v8Version: string): boolean {
  const major = Number(v8Version.split('.')[0]);
  return major >= 11 && major <= 14;
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
  if (keepsWasmOnBaseline(process.versions.v8)) setFlagsFromString('--liftoff-only');
  detachOnceAtStart();
}
