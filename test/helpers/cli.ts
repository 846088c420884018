import { runCli } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/context.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the real CLI entry point in-process with captured output and a controlled environment. */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}, options: { tty?: boolean } = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { PATH: process.env.PATH, ...env },
    tty: options.tty ?? false,
  };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
