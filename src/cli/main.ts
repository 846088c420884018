#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { ApiError, SpaceNotFoundError, TransportError } from '../client/errors.js';
import { redactor } from '../manifest/redact.js';
import { processIo, UsageError, type Io } from './context.js';

// Each command's module is loaded when that command runs: `validate` never loads the HTTP client,
// `plan` against a URL never loads the emulator, and nothing loads the exporter but `export`.
const validateCommand = async (...args: Parameters<typeof import('./validate.js').validateCommand>) => (await import('./validate.js')).validateCommand(...args);
const planCommand = async (...args: Parameters<typeof import('./plan.js').planCommand>) => (await import('./plan.js')).planCommand(...args);
const applyCommand = async (...args: Parameters<typeof import('./apply.js').applyCommand>) => (await import('./apply.js')).applyCommand(...args);
const exportCommand = async (...args: Parameters<typeof import('./export.js').exportCommand>) => (await import('./export.js')).exportCommand(...args);
const emulatorCommand = async (...args: Parameters<typeof import('./emulator.js').emulatorCommand>) => (await import('./emulator.js')).emulatorCommand(...args);

export const VERSION = '0.1.0';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Flags every server-facing command takes (design.md "Common flags"). */
function common(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'server URL (or SVC_URL, or url in svcform.yaml); `embedded` for the embedded emulator')
    .option('--space <id>', 'space for manifests without metadata.space (default: svcform.yaml space, then "default")')
    .option('--config <file>', 'configuration file (default: ./svcform.yaml, then beside the first PATH)')
    .option('--select <kind/name>', 'only this resource (repeatable; * matches any characters)', collect)
    .option('--concurrency <n>', 'changes and requests in flight at once (default 8)')
    .option('--ca-cert <file>', 'PEM file of the certificate authority to trust')
    .option('--client-cert <file>', 'PEM client certificate')
    .option('--client-key <file>', 'PEM client key')
    .option('--no-color', 'no colours in the output')
    .option('--quiet', 'print only what is needed (errors, the summary)')
    .option('--verbose', 'print retries and progress notes on stderr')
    .option('--timeout <seconds>', 'per request: connecting, headers and the whole answer (default 30)')
    .option('--deadline <seconds>', 'stop retrying and fail once the whole run has taken this long');
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('svcform')
    .description('Configuration as code for a svc deployment: validate, plan, apply and detect drift.')
    .version(VERSION)
    .showHelpAfterError('(run svcform --help for usage)')
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) })
    .exitOverride();

  common(program.command('validate').description('check manifests offline: YAML, interpolation, schemas, cross-document references').argument('[paths...]', 'files or directories (- for stdin)'))
    .option('--json', 'print diagnostics as JSON')
    .action(async (paths: string[], opts) => setExit(await validateCommand(paths.length ? paths : ['.'], opts, io)));

  common(program.command('plan').description('compare the manifests with the server and print the changes').argument('[paths...]'))
    .option('--out <file>', 'save the plan for `apply --plan`')
    .option('--json', 'print the plan as JSON (docs/plan-format.md)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']))
    .option('--detailed-exitcode', 'exit 2 when there are changes')
    .option('--rotate-secrets', 'plan to re-send connector secrets')
    .action(async (paths: string[], opts) => setExit(await planCommand(paths.length ? paths : ['.'], opts, io)));

  common(program.command('apply').description('compute the plan (or load a saved one) and carry it out').argument('[paths...]'))
    .option('--plan <file>', 'apply a plan saved with `plan --out` (refused if live state changed)')
    .option('--json', 'print the results as JSON')
    .option('--rotate-secrets', 're-send connector secrets even where nothing else changed')
    .option('--lock-timeout <seconds>', "wait this long for another apply's lease on a space (default 0: fail at once)")
    .option('--no-lock', 'take no lease (only when you know no other apply can run)')
    .action(async (paths: string[], opts) => setExit(await applyCommand(paths, opts, io)));

  common(program.command('drift').description('plan for scheduled runs: exit 0 no drift, 2 drift, 1 error').argument('[paths...]'))
    .option('--json', 'print the drift as JSON')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']))
    .action(async (paths: string[], opts) => setExit(await planCommand(paths.length ? paths : ['.'], opts, io, 'drift')));

  program
    .command('export')
    .description('write live objects as manifests, to adopt what a deployment already has')
    .requiredOption('--out <dir>', 'directory to write manifests into')
    .option('--url <url>', 'server URL (or SVC_URL, or url in svcform.yaml); `embedded` for the embedded emulator')
    .option('--config <file>', 'configuration file (default: ./svcform.yaml)')
    .option('--kind <kind>', 'only this kind (repeatable; default: every kind)', collect)
    .option('--space <id>', 'only this space (repeatable; default: the configured default space)', collect)
    .option('--select <kind/name>', 'only this object (repeatable; * matches any characters)', collect)
    .addOption(new Option('--layout <layout>', 'one file per kind and space, or one per object').choices(['per-kind', 'per-object']).default('per-kind'))
    .option('--include-builtin', 'also export built-in, prebuilt, preconfigured and managed objects (marked read-only)')
    .option('--manage-out <file>', 'also write a svcform.yaml `manage` section that covers exactly what was exported')
    .option('--concurrency <n>', 'requests in flight at once (default 8)')
    .option('--timeout <seconds>', 'per request: connecting, headers and the whole answer (default 30)')
    .option('--deadline <seconds>', 'stop retrying and fail once the whole run has taken this long')
    .option('--ca-cert <file>', 'PEM file of the certificate authority to trust')
    .option('--client-cert <file>', 'PEM client certificate')
    .option('--client-key <file>', 'PEM client key')
    .option('--no-color', 'no colours in the output')
    .option('--quiet', 'print only errors')
    .option('--verbose', 'print retries and progress notes on stderr')
    .action(async (opts) => setExit(await exportCommand(opts, io)));

  program
    .command('emulator')
    .description('run the embedded emulator as a server')
    .option('--port <port>', 'port (default 5601; 0 for any)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--state <file>', 'keep the state in this JSON file')
    .option('--latency <ms>', 'delay every answer by this many ms')
    .option('--api-key <key>', 'require this API key (Authorization: ApiKey <key>)')
    .option('--read-only-api-key <key>', 'also accept this key with read-only privileges')
    .option('--spaces <ids>', 'spaces besides default, comma-separated')
    .option('--license <type>', 'licence level (default platinum)')
    .option('--real-routes <names>', 'routes that behave as the real server where it differs from the API document, comma-separated (e.g. saved-query-update)')
    .action(async (opts) => setExit(await emulatorCommand(opts, io)));

  return program;
}

/** Runs the CLI in-process and returns the exit code (tests call this; bin calls it with process I/O). */
export async function runCli(argv: string[], io: Io = processIo()): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 1;
    io.err(redactor.redact(`error: ${describe(err)}`));
    return 1;
  }
}

function describe(err: unknown): string {
  if (err instanceof SpaceNotFoundError || err instanceof UsageError || err instanceof ApiError || err instanceof TransportError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

function isMain(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
