import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI entry point (dist/src/cli/main.js), as `npx svcform` runs it. */
export const CLI_PATH = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** An environment for a child CLI: no CI, no colours, nothing inherited but PATH. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, NO_COLOR: '1', ...extra };
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
