import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TEST_CACHE_HOME } from './cache-home.js';

/** The built CLI entry point (dist/src/cli/main.js), as `npx svcform` runs it. */
export const CLI_PATH = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** An environment for a child CLI: no CI, no colours, nothing inherited but PATH; the test process's cache home. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, NO_COLOR: '1', XDG_CACHE_HOME: TEST_CACHE_HOME, ...extra };
}

/**
 * Runs the built CLI as a child process in `cwd` (asynchronously, so an emulator in this process
 * keeps answering). stdin is closed: the child sees no terminal.
 */
export function runBuiltCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = childEnv()): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, out, err }));
  });
}

/** The `file:line:col: ...` findings of a run's stderr, in order (what a second run must repeat exactly). */
export function findingLines(err: string): string[] {
  return err.split('\n').filter((l) => /^\S+\.yaml:\d+:\d+: /.test(l));
}

/**
 * How a fresh process with the CLI's V8 flags loads the precompiled program of the CLI in `cliDir`
 * (a dist/src/cli directory): 'accepted' when V8 takes the code cache the build made
 * (src/cli/precompiled.ts), not one the user's Node made (own-code-cache.ts).
 */
export function precompiledUse(cliDir: string, env: NodeJS.ProcessEnv = childEnv()): string {
  const at = (file: string) => JSON.stringify(pathToFileURL(join(cliDir, file)).href);
  const script = `import { setRuntimeFlags } from ${at('runtime-flags.js')}; import { loadPrecompiledProgram } from ${at('precompiled.js')};
setRuntimeFlags();
process.stdout.write(loadPrecompiledProgram({}, { ownCacheDir: null })?.codeCache ?? 'not loaded');`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
}
