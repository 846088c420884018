import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a svcform process, set when the CLI starts (main.ts), before any request.
 *
 * undici parses HTTP with WebAssembly. V8 compiles it at once with its baseline compiler
 * (Liftoff) and then again, optimized, on a background thread, and Node waits for that background
 * compile before the process exits. A command ends before optimized parsing pays back the
 * compile: a plan of one rule waited 120-200 ms after its last line, and a plan of 2,068 rules
 * read from the cache took 1.32-1.46 s against 1.43-1.56 s (the compile took the second core
 * from the main thread's garbage collection). So the parser stays on Liftoff, which read a
 * 16 MB rule listing no slower (cold plans of the 2,068 rules, five alternating runs each).
 */

/**
 * Whether this V8 is one known to have `--liftoff-only` (V8 11 to 14: Node 20 to 25). Another
 * would print a complaint on stderr for a flag it does not know, so nothing is set there.
 */
export function keepsWasmOnBaseline(v8Version: string): boolean {
  const major = Number(v8Version.split('.')[0]);
  return major >= 11 && major <= 14;
}

export function setRuntimeFlags(): void {
  if (keepsWasmOnBaseline(process.versions.v8)) setFlagsFromString('--liftoff-only');
}
