#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadPrecompiledProgram, type LoadOptions } from './precompiled.js';
import { setRuntimeFlags } from './runtime-flags.js';

/**
 * The `svcform` command. The program itself is program.ts (tests call its runCli in-process);
 * this entry only sets V8's flags and loads it, precompiled when the build made it so
 * (precompiled.ts). The flags come first: a code cache is V8's only under the flags it was made
 * with.
 */

function isMain(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * Runs the command `argv` from the precompiled program (from the modules when there is none), and
 * when V8 refused the package's code cache, keeps one made by this Node (own-code-cache.ts).
 */
export async function runMain(argv: string[], env: NodeJS.ProcessEnv = process.env, options?: LoadOptions): Promise<number> {
  const precompiled = loadPrecompiledProgram(env, options);
  const { runCli } = precompiled?.program ?? (await import('./program.js'));
  const code = await runCli(argv);
  if (precompiled?.ownCache) (await import('./own-code-cache.js')).keepOwnCodeCache(precompiled.ownCache, argv);
  return code;
}

if (isMain()) {
  setRuntimeFlags();
  // Not awaited at the top level: a command that runs until a signal (`emulator`) would leave the
  // await unsettled at exit, which Node reports as exit code 13.
  void runMain(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
