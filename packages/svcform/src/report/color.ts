import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

export function colors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}

/** What decides whether one output stream gets ANSI colours. */
export interface ColorInputs {
  /** False when `--no-color` was given. */
  colorFlag?: boolean;
  env: NodeJS.ProcessEnv;
  /** Whether this stream (not some other one) is a terminal. */
  isTTY: boolean;
}

/**
 * picocolors' own rules (its `isColorSupported`), applied to the stream being written instead of
 * always to process.stdout, and to the environment svcform was given instead of process.env:
 * `--no-color` and NO_COLOR switch colours off; FORCE_COLOR switches them on for any stream (CI
 * logs that render ANSI); otherwise only a terminal that is not TERM=dumb gets them.
 *
 * Two of picocolors' rules are left out on purpose: `CI` alone turning colours on (a CI job
 * redirecting a plan to a file would get escape codes in it; set FORCE_COLOR instead) and Windows
 * always getting colours (the same problem with redirection). FORCE_COLOR=0 and FORCE_COLOR=false
 * mean "no colours", as they do for Node itself and supports-color.
 */
export function colorSupported({ colorFlag, env, isTTY }: ColorInputs): boolean {
  if (colorFlag === false) return false;
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return isTTY && env.TERM !== 'dumb';
}
