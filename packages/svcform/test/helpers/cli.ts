import { runCli } from '../../src/cli/program.js';
import type { Io } from '../../src/cli/context.js';
import { TEST_CACHE_HOME } from './cache-home.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
  /** The questions the CLI asked (only with `answers`). */
  asked: string[];
}

/**
 * `tty` makes both streams terminals; `outTty` and `errTty` set one each (say, `plan > file` in a
 * terminal: stdout is a file, stderr the terminal).
 */
export interface CliOptions {
  tty?: boolean;
  outTty?: boolean;
  errTty?: boolean;
  /** Makes stdin a terminal whose user types these answers, one per question. */
  answers?: string[];
}

/** A run's exit code and output, for an assertion's message. */
export const shown = (r: CliRun) => `exit ${r.code}\n--- out\n${r.out}\n--- err\n${r.err}`;

/** Runs the real CLI entry point in-process with captured output and a controlled environment (the test process's cache home). */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}, options: CliOptions = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  const answers = [...(options.answers ?? [])];
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { PATH: process.env.PATH, XDG_CACHE_HOME: TEST_CACHE_HOME, ...env },
    outTty: options.outTty ?? options.tty ?? false,
    errTty: options.errTty ?? options.tty ?? false,
    ...(options.answers
      ? {
          stdinTty: true,
          prompt: async (question: string) => {
            asked.push(question);
            return answers.shift() ?? '';
          },
        }
      : {}),
  };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n'), asked };
}
