import { RunScope } from '../kinds/run-scope.js';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { SvcClient } from '../client/client.js';
import { ConfigError, EnvironmentError, findConfigFile, loadConfig, withEnvironment, type SvcformConfig } from './config.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { knownKinds } from '../kinds/registry.js';
import type { AdapterContext } from '../kinds/types.js';
import { redactor } from '../manifest/redact.js';
import { Selection, SelectionError } from '../engine/selection.js';
import { colors, colorSupported, type Colors } from '../report/color.js';
import { UsageError } from './usage-error.js';

/** Where output goes; tests pass their own to run the CLI in-process. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Whether stdout is a terminal: colours in what `out` writes. */
  outTty: boolean;
  /** Whether stderr is a terminal: colours and progress lines in what `err` writes. */
  errTty: boolean;
  /** Whether stdin is a terminal: only then may a command ask a question (apply's approval). */
  stdinTty?: boolean;
  /** Asks on the terminal and resolves with the line typed ('' at end of input or on Ctrl-C). */
  prompt?(question: string): Promise<string>;
  /**
   * Shows one line of progress on a terminal, replacing the previous one; '' clears it. Absent:
   * progress goes to `err` as ordinary lines.
   */
  progress?(line: string): void;
  /**
   * Subscribes to SIGINT and SIGTERM for the length of a run (apply finishes what is in flight and
   * prints its summary); returns the unsubscribe function. Absent: signals are not handled.
   */
  onSignal?(handler: (signal: StopSignal) => void): () => void;
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Exit codes after a signal, as shells report them (128 + signal number). */
export const SIGNAL_EXIT: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

export const processIo = (): Io => ({
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
  onSignal(handler) {
    let seen = false;
    const listener = (signal: StopSignal) => {
      // A second signal means "now": stop without waiting for requests in flight.
      if (seen) process.exit(SIGNAL_EXIT[signal]);
      seen = true;
      handler(signal);
    };
    process.on('SIGINT', listener);
    process.on('SIGTERM', listener);
    return () => {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    };
  },
  progress(line) {
    // Cut to the terminal's width: a wrapped line cannot be rewritten in place.
    const width = (process.stderr.columns ?? 80) - 1;
    process.stderr.write(`\r\x1b[2K${line.length > width ? line.slice(0, width - 1) + '…' : line}`);
  },
  env: process.env,
  outTty: !!process.stdout.isTTY,
  errTty: !!process.stderr.isTTY,
  stdinTty: !!process.stdin.isTTY,
  prompt: askOnTerminal,
});

/** One line from stdin; the question goes to stderr so that stdout stays the command's output. */
function askOnTerminal(question: string): Promise<string> {
  return new Promise((resolveAnswer) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    let answered = false;
    const finish = (answer: string) => {
      if (answered) return;
      answered = true;
      rl.close();
      resolveAnswer(answer);
    };
    rl.question(question, finish);
    // Ctrl-D or Ctrl-C at the prompt is a "no", not a hang.
    rl.on('close', () => finish(''));
    rl.on('SIGINT', () => {
      process.stderr.write('\n');
      finish('');
    });
  });
}

/** Options every command that talks to a server shares. */
export interface CommonOptions {
  url?: string;
  space?: string;
  config?: string;
  /** Repository root for files manifests name (see rootOf). */
  root?: string;
  /** Unknown fields in rule queries are errors, not warnings. */
  strict?: boolean;
  select?: string[];
  concurrency?: string;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  caCert?: string;
  clientCert?: string;
  clientKey?: string;
  /** Seconds per request attempt. */
  timeout?: string;
  /** Seconds for the whole run. */
  deadline?: string;
  /** false with --no-cache: nothing is read from or written to the cache directory. */
  cache?: boolean;
  /** false with --no-compression: answers are not asked for compressed (client/compression.ts). */
  compression?: boolean;
  /** `--env NAME`: an environment of svcform.yaml (its target, credentials, space and overlays). */
  env?: string;
}

export { UsageError };

/** How to reach the target and how to speak while doing it: what a command hands on to another (init to export). */
export type ConnectionOptions = Pick<CommonOptions, 'url' | 'concurrency' | 'timeout' | 'deadline' | 'caCert' | 'clientCert' | 'clientKey' | 'compression' | 'color' | 'quiet' | 'verbose'>;

export function connectionOptions(opts: ConnectionOptions): ConnectionOptions {
  const { url, concurrency, timeout, deadline, caCert, clientCert, clientKey, compression, color, quiet, verbose } = opts;
  return { url, concurrency, timeout, deadline, caCert, clientCert, clientKey, compression, color, quiet, verbose };
}

export const EMBEDDED_STATE = '.svcform/emulator-state.json';

export interface Target {
  url: string;
  embedded: boolean;
  client: SvcClient;
  ctx: AdapterContext;
  /** Closes connections and stops the embedded emulator (saving its state). */
  close(): Promise<void>;
}

/**
 * Colours for text written to one stream, decided for that stream alone: `plan > plan.txt` in a
 * terminal gets no escape codes in the file even though stderr is still the terminal.
 */
export function colorsFor(opts: CommonOptions, io: Io, stream: 'out' | 'err'): Colors {
  return colors(colorSupported({ colorFlag: opts.color, env: io.env, isTTY: stream === 'out' ? io.outTty : io.errTty }));
}

/**
 * The repository root: ${file:...} and items_file read only regular files inside it, so a pull
 * request cannot make a run send /proc/self/environ or ../../.ssh/id_rsa to the server. --root,
 * else the directory of the configuration file, else the working directory.
 */
export function rootOf(opts: CommonOptions, config: { file?: string }): string {
  if (opts.root !== undefined) {
    const root = resolve(opts.root);
    let st;
    try {
      st = statSync(root);
    } catch {
      throw new UsageError(`--root ${opts.root}: no such directory`);
    }
    if (!st.isDirectory()) throw new UsageError(`--root ${opts.root}: not a directory`);
    return root;
  }
  return config.file ? dirname(config.file) : process.cwd();
}

export function readConfig(opts: CommonOptions, paths: string[]): SvcformConfig {
  try {
    const file = findConfigFile(opts.config, paths);
    const config = loadConfig(file, knownKinds(), process.env, file ? rootOf(opts, { file }) : undefined);
    if (opts.env === undefined) return config;
    // Two targets named at once: which one a write goes to must never be a guess.
    if (opts.url !== undefined) throw new UsageError(`--url and --env ${opts.env} both name a target: give one`);
    return withEnvironment(config, opts.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(`invalid configuration:\n${err.message}`);
    if (err instanceof EnvironmentError) throw new UsageError(err.message);
    throw err;
  }
}

/** `--select` patterns as the engine's one matcher; a malformed pattern is a usage error. */
export function selectionOf(patterns: string[] | undefined): Selection {
  try {
    return new Selection(patterns ?? []);
  } catch (err) {
    if (err instanceof SelectionError) throw new UsageError(err.message);
    throw err;
  }
}

export function defaultSpace(opts: CommonOptions, config: SvcformConfig): string {
  return opts.space ?? config.space ?? 'default';
}

export function concurrencyOf(opts: CommonOptions, config: SvcformConfig): number {
  const n = opts.concurrency !== undefined ? Number(opts.concurrency) : config.concurrency ?? 8;
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new UsageError(`--concurrency must be an integer from 1 to 256, not ${opts.concurrency}`);
  return n;
}

function secondsOption(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400) throw new UsageError(`${flag} must be a number of seconds from 0 to 86400, not ${JSON.stringify(value)}`);
  return n;
}

/**
 * The server a run names: --url, then SVC_URL, then `url` in svcform.yaml; 'embedded' for the
 * embedded emulator. An empty value is an error, not "none": `--url "$SVC_URL"` with the variable
 * unset must not apply to a sandbox and report success. With none at all, the embedded emulator
 * (state in .svcform/emulator-state.json) so that apply then plan converges on a fresh machine, but
 * only at a terminal: a run without one (stdin or stdout not a terminal: a CI job, cron, a pipe) or
 * under CI must ask for it with `--url embedded`, so a job with a missing secret fails instead of
 * silently planning against an empty sandbox.
 */
export function chosenTarget(opts: CommonOptions, config: SvcformConfig, io: Io): string {
  const empty = (what: string) =>
    new UsageError(`${what} is empty (an unset variable?): give the server URL, or --url embedded to use the embedded emulator on purpose`);
  if (opts.url !== undefined) {
    if (opts.url.trim() === '') throw empty('--url');
    return opts.url;
  }
  // An environment names its own target: SVC_URL, set for another one, must not redirect it.
  if (config.environment) return config.environment.url;
  if (io.env.SVC_URL !== undefined) {
    if (io.env.SVC_URL.trim() === '') throw empty('SVC_URL');
    return io.env.SVC_URL;
  }
  if (config.url !== undefined) {
    if (config.url.trim() === '') throw empty(`url in ${config.file ?? 'svcform.yaml'}`);
    return config.url;
  }
  const ci = io.env.CI !== undefined && !['', '0', 'false'].includes(io.env.CI.toLowerCase());
  const why = ci ? `CI=${io.env.CI}` : !io.stdinTty || !io.outTty ? 'no terminal' : undefined;
  if (why) {
    throw new UsageError(`no target configured and ${why}: set SVC_URL (or --url, or url in svcform.yaml); pass --url embedded to use the embedded emulator on purpose`);
  }
  return 'embedded';
}

/**
 * The credentials of a run: SVC_API_KEY, SVC_USERNAME, SVC_PASSWORD, SVC_TOKEN over svcform.yaml
 * `auth`; with `--env`, only the variables the environment names (prod's run must never pick up
 * a key exported for dev). A named variable that is unset is a usage error naming it.
 */
export function credentialsOf(config: SvcformConfig, env: NodeJS.ProcessEnv): { apiKey?: string; username?: string; password?: string; token?: string } {
  const environment = config.environment;
  if (environment) {
    const out: Record<string, string> = {};
    for (const [key, variable] of Object.entries(environment.credentials)) {
      const value = env[variable];
      if (value === undefined || value === '') throw new UsageError(`environment ${environment.name}: credentials.${key} names ${variable}, which is not set`);
      out[key] = value;
    }
    return out;
  }
  const auth = config.auth ?? {};
  return { apiKey: env.SVC_API_KEY ?? auth.apiKey, username: env.SVC_USERNAME ?? auth.username, password: env.SVC_PASSWORD ?? auth.password, token: env.SVC_TOKEN ?? auth.token };
}

export async function openTarget(opts: CommonOptions, config: SvcformConfig, io: Io, spaces: string[]): Promise<Target> {
  const configured = chosenTarget(opts, config, io);
  const concurrency = concurrencyOf(opts, config);
  const log = (message: string) => {
    if (opts.verbose) io.err(redactor.redact(message));
  };
  let emulator: RunningEmulator | undefined;
  let url: string;
  if (configured === 'embedded') {
    const state = resolve(EMBEDDED_STATE);
    // Loaded only for the embedded target: a run against a URL never loads the emulator.
    const { startEmulator } = await import('@svcform/emulator/server.js');
    const { emulatorPackageOptions } = await import('./emulator-packages.js');
    emulator = await startEmulator({ port: 0, stateFile: state, ...emulatorPackageOptions({}, io.env, config.emulator) });
    // The embedded emulator is a local sandbox: the spaces the manifests use exist in it.
    for (const s of spaces) emulator.store.addSpace(s);
    url = emulator.url;
    if (!opts.quiet) io.err(`Target: embedded emulator (state ${EMBEDDED_STATE})`);
  } else {
    url = configured;
    if (!opts.quiet) io.err(`Target: ${safeUrl(url)}`);
  }
  const auth = credentialsOf(config, io.env);
  const { SvcClient, validateSpaces } = await import('../client/client.js');
  const client = new SvcClient({
    url,
    ...auth,
    caCert: opts.caCert ?? config.tls?.caCert,
    clientCert: opts.clientCert ?? config.tls?.clientCert,
    clientKey: opts.clientKey ?? config.tls?.clientKey,
    concurrency,
    areas: config.areas,
    timeoutMs: secondsOption('--timeout', opts.timeout, 30) * 1000,
    ...(opts.compression === false ? { compressed: false } : {}),
    deadline: opts.deadline !== undefined ? Date.now() + secondsOption('--deadline', opts.deadline, 0) * 1000 : undefined,
    onRetry: (info) => log(`retry ${info.method} ${info.path} (attempt ${info.attempt}, in ${info.delayMs} ms): ${info.reason}`),
    redact: (text) => redactor.redact(text),
  });
  for (const secret of [io.env.SVC_API_KEY, io.env.SVC_PASSWORD, io.env.SVC_TOKEN, auth.apiKey, auth.password, auth.token]) if (secret) redactor.add(secret);
  // The basic-auth header carries user:password as one base64 string.
  if (auth.username && auth.password) redactor.add(`${auth.username}:${auth.password}`);
  try {
    const inUrl = new URL(url);
    if (inUrl.password) {
      redactor.add(decodeURIComponent(inUrl.password));
      redactor.add(`${decodeURIComponent(inUrl.username)}:${decodeURIComponent(inUrl.password)}`);
    }
  } catch {
    // The client reports an unusable URL.
  }
  const ctx: AdapterContext = { api: client, log, run: new RunScope() };
  try {
    await validateSpaces(client, spaces);
  } catch (err) {
    await client.close();
    await emulator?.stop();
    throw err;
  }
  return {
    url: emulator ? 'embedded' : safeUrl(url),
    embedded: !!emulator,
    client,
    ctx,
    async close() {
      await client.close();
      await emulator?.stop();
    },
  };
}

/**
 * Writes a file only its owner can read (0600), also when it already existed with a wider mode:
 * saved plans and emulator state may name things a CI log must not.
 */
export function writePrivateFile(path: string, content: string): void {
  writeFileSync(path, content, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** A URL without user:password, for messages. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
