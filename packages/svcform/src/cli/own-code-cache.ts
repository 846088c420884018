import { dirname } from 'node:path';
import type { Script } from 'node:vm';
import { makeDirectory } from '../common/make-directory.js';
import { removeUntouched } from '../common/remove-untouched.js';
import { writeWhole } from '../common/write-whole.js';

/**
 * A code cache of the precompiled program made by the user's own Node (precompiled.ts). The
 * package carries the cache its build made, and V8 takes a cache only from the V8 version that
 * made it: a package built with one Node major runs on the others compiled from source. Measured
 * on the 2,068 rules of the public detection-rules repository, repeated plans against the emulator
 * at 20 ms, 5 alternating runs each (docs/architecture.md, "Precompiled program"): medians 0.56 s
 * against 0.62 s on Node 22.23, 0.57 s against 0.64 s on Node 26.10; `--version` 0.07 s against
 * 0.10 s.
 *
 * So when V8 refuses the package's cache, the first run of a command that reads manifests keeps
 * one made at its end, with the functions it ran, and later runs on the same Node load it. It is
 * kept in the user's cache directory, never in the repository or the working directory: a code
 * cache is compiled code, and one a pull request could commit would run in the job that plans it.
 * Where it is kept and loading it are precompiled.ts's (`ownCodeCacheDir`); this module, which
 * writes it, is loaded only by a run that keeps one.
 */

/** Commands whose run compiles what later runs need (not --version, --help, completion, init...). */
const TRAINING_COMMANDS = new Set(['validate', 'test', 'plan', 'apply', 'drift', 'promote', 'coverage', 'export']);

export interface OwnCodeCache {
  /** Where this run keeps its cache. */
  file: string;
  /** The build the program was made from. */
  build: string;
  script: Script;
  /** Turns the cache into the file's bytes (precompiled.ts's format, the build id first). */
  encode: (id: string, data: Buffer) => Buffer;
}

/**
 * Keeps the code cache of `script` when this run (`argv`) is one that trains it and did not ask for
 * no cache; true when a file was written. A failure (a read-only home) is only a slower next run.
 */
export function keepOwnCodeCache(cache: OwnCodeCache, argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const options = end < 0 ? argv : argv.slice(0, end);
  if (!TRAINING_COMMANDS.has(argv[0] ?? '') || options.includes('--no-cache')) return false;
  try {
    makeDirectory(dirname(cache.file));
  } catch {
    return false;
  }
  if (!writeWhole(cache.file, () => cache.encode(cache.build, cache.script.createCachedData()))) return false;
  // Caches of other builds not written for a week go.
  removeUntouched(dirname(cache.file), (name) => !name.startsWith(`${cache.build}-`));
  return true;
}
