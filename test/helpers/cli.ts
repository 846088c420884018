import { runCli } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/context.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the real CLI entry point in-process with captured output and a controlled environment. */
/**
 * `tty` makes both streams terminals; `outTty` and `errTty` set one each (say, `plan > file` in a
 * terminal: stdout is a file, stderr the terminal).
 */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}, options: { tty?: boolean; outTty?: boolean; errTty?: boolean } = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { PATH: process.env.PATH, ...env },
    outTty: options.outTty ?? options.tty ?? false,
    errTty: options.errTty ?? options.tty ?? false,
  };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
