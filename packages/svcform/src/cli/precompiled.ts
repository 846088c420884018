import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { buildId } from '../common/build-id.js';
import { userCacheHome } from '../common/user-cache.js';
import type { OwnCodeCache } from './own-code-cache.js';

/**
 * The CLI program as one precompiled script (issue 10). Node 20 keeps no compiled code between
 * runs of ES modules, so every run parsed and compiled the ~150 modules of a command afresh:
 * about a tenth of a cold plan of 2,068 rules (V8's function events: 0.2-0.35 s of parsing and
 * compiling on the main thread). Node 22.1 and later can keep it (`module.enableCompileCache`),
 * but `bench:precompiled` found the modules with that cache no faster than without it, and this
 * script faster than both, on Node 22, 24 and 26 (docs/architecture.md, "Precompiled program"):
 * one script loads without resolving and linking ~150 modules, and its cache holds the functions
 * a run calls, where Node keeps only what a module's first compile made. The build
 * (scripts/build-precompiled.mjs) bundles
 * dist/src/cli/program.js into dist/precompiled/svcform.cjs and keeps V8's code cache of it,
 * taken after a training run (`validate` of the examples), in svcform.code-cache. Loaded here
 * through that cache, the functions that run come compiled.
 *
 * It is only a faster way to load the same code: the bundle is made from the built modules, and
 * is used only while it was made from the very build found in dist/src (its build id); otherwise,
 * with no bundle, or with SVCFORM_PRECOMPILED=0, the CLI imports dist/src/cli/program.js.
 * V8 itself refuses a code cache made by another V8 version or under other V8 flags; the script
 * is then compiled from its source, as fast as the modules, and the run keeps a cache of its own
 * Node in the user's cache directory for the next ones (own-code-cache.ts).
 */

export const PRECOMPILED_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../precompiled');
export const BUNDLE_FILE = 'svcform.cjs';
export const CODE_CACHE_FILE = 'svcform.code-cache';

/** The first line of the bundle names the build it was made from. */
export const bundleBanner = (id: string) => `/* svcform precompiled program, build ${id} */`;
const BANNER = /^\/\* svcform precompiled program, build ([0-9a-f]{16}) \*\//;

export type Program = typeof import('./program.js');
/** What V8 did with the code cache: used it, refused it (another V8 or other flags), or there was none. */
export type CodeCacheUse = 'accepted' | 'rejected' | 'absent';

export interface PrecompiledProgram {
  program: Program;
  codeCache: CodeCacheUse;
  /** Whether the code cache was one this user's Node made (own-code-cache.ts), not the package's. */
  ownCacheUsed: boolean;
  /** The compiled script, whose code cache the build takes after its training run. */
  script: Script;
  /** Where to keep a code cache made by this Node, when V8 did not take one (keepOwnCodeCache). */
  ownCache?: OwnCodeCache;
}

export interface LoadOptions {
  dir?: string;
  /** The build the bundle must have been made from (default: this build's id). */
  expectedBuild?: string;
  /** false: compile from source, as the build's training run does. */
  useCodeCache?: boolean;
  /** Where code caches made by this Node are kept (default: the user's, ownCodeCacheDir); null: none. */
  ownCacheDir?: string | null;
}

/** The precompiled program, or undefined when there is none for this build or it is turned off. */
export function loadPrecompiledProgram(env: NodeJS.ProcessEnv, options: LoadOptions = {}): PrecompiledProgram | undefined {
  if (env.SVCFORM_PRECOMPILED === '0') return undefined;
  const dir = options.dir ?? PRECOMPILED_DIR;
  const bundlePath = join(dir, BUNDLE_FILE);
  let source: string;
  try {
    source = readFileSync(bundlePath, 'utf8');
  } catch {
    return undefined;
  }
  const made = BANNER.exec(source)?.[1];
  const expected = options.expectedBuild ?? buildId();
  if (!made || made !== expected) return undefined;
  const useCache = options.useCodeCache !== false;
  const ownDir = !useCache ? undefined : options.ownCacheDir === undefined ? ownCodeCacheDir(env) : (options.ownCacheDir ?? undefined);
  const ownFile = ownDir && ownCodeCacheFile(ownDir, made);
  // A cache of this user's Node exists only because V8 refused the package's for this build on
  // this Node: it goes first, and the package's is not tried after it (a second compile).
  const ownData = ownFile ? codeCacheOf(ownFile, made) : undefined;
  const cachedData = !useCache ? undefined : (ownData ?? codeCacheOf(join(dir, CODE_CACHE_FILE), made));
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundlePath, cachedData });
  const codeCache: CodeCacheUse = !cachedData ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const module = { exports: {} as Program };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundlePath), module, bundlePath, dir);
  const ownCache = ownFile && codeCache !== 'accepted' ? { file: ownFile, build: made, script, encode: codeCacheFile } : undefined;
  return { program: module.exports, codeCache, ownCacheUsed: ownData !== undefined, script, ownCache };
}

/** The code cache file is the build id, a newline, then V8's data; a cache of another build is ignored. */
export function codeCacheFile(id: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${id}\n`), data]);
}

function codeCacheOf(path: string, id: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  const newline = file.indexOf(10);
  return newline > 0 && file.toString('latin1', 0, newline) === id ? file.subarray(newline + 1) : undefined;
}

/** Where code caches made by this Node are kept: the user's cache directory (user-cache.ts), never the repository. */
export function ownCodeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const home = userCacheHome(env);
  return home && join(home, 'code-cache');
}

/** The file of the cache made for build `id` by this Node on this architecture. */
export function ownCodeCacheFile(dir: string, id: string): string {
  return join(dir, `${id}-node-${process.versions.node}-${process.arch}.code-cache`);
}
