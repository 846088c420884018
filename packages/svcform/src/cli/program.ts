import { Argument, Command, CommanderError, Option } from 'commander';
import { ApiError, SpaceNotFoundError, TransportError } from '../client/errors.js';
import { redactor } from '../manifest/redact.js';
import { processIo, UsageError, type Io } from './context.js';
import { completionScript, SHELLS, type Shell } from './completion.js';
import { VERSION } from '../common/version.js';
import { unlockCommand } from './unlock.js';

/**
 * The svcform program: its commands and options. main.ts runs it as the `svcform` command (from the
 * precompiled bundle when there is one); tests call runCli in-process.
 */

// Each command's module is loaded when that command runs: `validate` never loads the HTTP client,
// `plan` against a URL never loads the emulator, and nothing loads the exporter but `export`.
const validateCommand = async (...args: Parameters<typeof import('./validate.js').validateCommand>) => (await import('./validate.js')).validateCommand(...args);
const planCommand = async (...args: Parameters<typeof import('./plan.js').planCommand>) => (await import('./plan.js')).planCommand(...args);
const applyCommand = async (...args: Parameters<typeof import('./apply.js').applyCommand>) => (await import('./apply.js')).applyCommand(...args);
const reconcileCommand = async (...args: Parameters<typeof import('./reconcile.js').reconcileCommand>) => (await import('./reconcile.js')).reconcileCommand(...args);
const exportCommand = async (...args: Parameters<typeof import('./export.js').exportCommand>) => (await import('./export.js')).exportCommand(...args);
const emulatorCommand = async (...args: Parameters<typeof import('./emulator.js').emulatorCommand>) => (await import('./emulator.js')).emulatorCommand(...args);
const showCommand = async (...args: Parameters<typeof import('./show.js').showCommand>) => (await import('./show.js')).showCommand(...args);
const testCommand = async (...args: Parameters<typeof import('./test.js').testCommand>) => (await import('./test.js')).testCommand(...args);
const initCommand = async (...args: Parameters<typeof import('./init.js').initCommand>) => (await import('./init.js')).initCommand(...args);
const promoteCommand = async (...args: Parameters<typeof import('./promote.js').promoteCommand>) => (await import('./promote.js')).promoteCommand(...args);

const coverageCommand = async (...args: Parameters<typeof import('./coverage.js').coverageCommand>) => (await import('./coverage.js')).coverageCommand(...args);
const schemasCommand = async (...args: Parameters<typeof import('./schemas.js').schemasCommand>) => (await import('./schemas.js')).schemasCommand(...args);

export { VERSION };

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * --quiet and --verbose, on every command: quiet prints only the result and errors, verbose adds
 * notes on stderr (retries, what was read, timings). Asking for both is a mistake.
 */
function verbosity(cmd: Command, quiet = 'print only the result and errors', verbose = 'print retries, what was read and timings on stderr'): Command {
  return cmd.addOption(new Option('--quiet', quiet).conflicts('verbose')).addOption(new Option('--verbose', verbose));
}

/** Flags every server-facing command takes (design.md "Common flags"). */
function common(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'server URL (or SVC_URL, or url in svcform.yaml); `embedded` for the embedded emulator')
    .option('--space <id>', 'space for manifests without metadata.space (default: svcform.yaml space, then "default")')
    .option('--config <file>', 'configuration file (default: ./svcform.yaml, then beside the first PATH)')
    .option('--root <dir>', 'repository root: ${file:...} and items_file may read only files inside it (default: the directory of svcform.yaml, else the working directory)')
    .option('--strict', "unknown fields in rule queries are errors, not warnings")
    .option('--select <kind/name>', 'only this resource (repeatable; * matches any characters)', collect)
    .option('--concurrency <n>', 'changes and requests in flight at once (default 8)')
    .option('--ca-cert <file>', 'PEM file of the certificate authority to trust')
    .option('--client-cert <file>', 'PEM client certificate')
    .option('--client-key <file>', 'PEM client key')
    .option('--no-color', 'no colours (also NO_COLOR=1; FORCE_COLOR=1 colours output that is not a terminal)')
    .option('--timeout <seconds>', 'per request: connecting, headers and the whole answer (default 30)')
    .option('--deadline <seconds>', 'stop retrying and fail once the whole run has taken this long')
    .option('--no-compression', 'do not ask the server for gzip answers (asked unless the server is on a loopback address)')
    .option('--no-cache', "neither read nor write the cache of query checks and manifest documents (svcform's folder in the user cache directory, or SVCFORM_CACHE_DIR)")
    .option('--env <name>', 'an environment of svcform.yaml: its URL, credentials, space and overlays')
    .addOption(new Option('--quiet', 'print only what is needed (errors, the summary)').conflicts('verbose'))
    .addOption(new Option('--verbose', 'print retries, each list read and timings on stderr'));
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
    .addOption(new Option('--format <format>', 'output format: text, json (as --json), or github (workflow-command annotations on stdout)').choices(['text', 'json', 'github']))
    .option('--offline-secrets', 'no secret need be set: a missing ${env:} variable or ${file:} outside write-only fields is a warning too (pull requests from forks); write-only connector secrets never need one')
    .action(async (paths: string[], opts) => setExit(await validateCommand(paths.length ? paths : ['.'], opts, io)));

  verbosity(
    program
      .command('test')
      .description('run rule tests (*.test.yaml: sample events and expected alerts) offline against the rules')
      .argument('[paths...]', 'files or directories holding manifests and test files')
      .option('--config <file>', 'configuration file (default: ./svcform.yaml, then beside the first PATH)')
      .option('--root <dir>', 'repository root: files manifests and field lists name must be inside it')
      .option('--space <id>', 'space for manifests without metadata.space')
      .option('--strict', 'unknown fields in rule queries are errors, not warnings')
      .option('--no-cache', "neither read nor write the cache of query checks and manifest documents (svcform's folder in the user cache directory, or SVCFORM_CACHE_DIR)")
      .option('--json', 'print the results as JSON')
      .option('--junit <file>', 'also write the results as JUnit XML to this file'),
    'print only failed cases and the summary',
    'print every case (the default already does)',
  ).action(async (paths: string[], opts) => setExit(await testCommand(paths.length ? paths : ['.'], opts, io)));

  common(program.command('plan').description('compare the manifests with the server and print the changes').argument('[paths...]'))
    .option('--out <file>', 'save the plan for `apply --plan`')
    .option('--json', 'print the plan as JSON (docs/plan-format.md)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown', 'html']))
    .option('--hide-target', 'leave the target URL out of the Markdown or HTML plan (a URL kept secret in CI)')
    .option('--detailed-exitcode', 'exit 2 when there are changes')
    .option('--rotate-secrets', 'plan to re-send connector secrets')
    .option('--show-unmanaged', 'name each live object outside every manage scope in text and Markdown (JSON and HTML always list them)')
    .option('--allow-space-delete <id>', 'approve deleting this space and everything in it (repeatable); a manage scope alone never deletes a space', collect)
    .action(async (paths: string[], opts) => setExit(await planCommand(paths.length ? paths : ['.'], opts, io)));

  common(program.command('apply').description('compute the plan (or load a saved one) and carry it out').argument('[paths...]'))
    .addOption(new Option('--plan <file>', 'apply a plan saved with `plan --out` (refused if live state changed)').conflicts('ifMatches'))
    .option('--if-matches <file>', 'plan afresh and apply only if every change is one a reviewed plan (`plan --out` or `--json`) shows; repeatable', collect)
    .option('--json', 'print the results as JSON')
    .option('--rotate-secrets', 're-send connector secrets even where nothing else changed')
    .option('--lock-timeout <seconds>', "wait this long for another apply's lease on a space (default 0: fail at once)")
    .option('--no-lock', 'take no lease (only when you know no other apply can run)')
    .option('--auto-approve', "apply deletes without asking (without a terminal, needed unless CI=true)")
    .option('--allow-space-delete <id>', 'approve deleting this space and everything in it (repeatable); a manage scope alone never deletes a space', collect)
    .action(async (paths: string[], opts) => setExit(await applyCommand(paths, opts, io)));

  common(program.command('drift').description('plan for scheduled runs: exit 0 no drift, 2 drift, 1 error').argument('[paths...]'))
    .option('--json', 'print the drift as JSON')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown', 'html']))
    .option('--hide-target', 'leave the target URL out of the Markdown or HTML drift report')
    .option('--show-unmanaged', 'name each live object outside every manage scope in text and Markdown (JSON and HTML always list them)')
    .action(async (paths: string[], opts) => setExit(await planCommand(paths.length ? paths : ['.'], opts, io, 'drift')));

  common(program.command('promote').description('plan what would make the live objects of one environment match another\'s (writes nothing)').argument('[paths...]'))
    .requiredOption('--from <env>', 'the environment whose live objects are the model (svcform.yaml environments)')
    .requiredOption('--to <env>', 'the environment the plan would change')
    .option('--json', 'print the plan as JSON (docs/plan-format.md)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']))
    .option('--detailed-exitcode', 'exit 2 when the environments differ')
    .option('--show-unmanaged', 'name each live object of --to outside every manage scope')
    .action(async (paths: string[], opts) => setExit(await promoteCommand(paths.length ? paths : ['.'], opts, io)));

  common(program.command('reconcile').description('plan every interval and apply per policy, serving /healthz and Prometheus /metrics, until SIGTERM').argument('[paths...]'))
    .option('--interval <duration>', 'time between cycles: 30s, 5m, 1h (default 5m)')
    .addOption(new Option('--policy <policy>', 'report: apply nothing; heal-drift: undo changes made on the server to objects last seen in sync; apply: the whole plan').choices(['report', 'heal-drift', 'apply']).default('report'))
    .option('--listen <host:port>', 'address of /healthz and /metrics (default 127.0.0.1:9464)')
    .option('--json', 'one JSON line per cycle')
    .option('--auto-approve', 'policy apply may delete (and replace) objects; without it deletes are held')
    .option('--allow-space-delete <id>', 'approve deleting this space and everything in it (repeatable)', collect)
    .option('--failure-grace <n>', 'failed cycles in a row /healthz still answers 200 for (default 2)')
    .option('--max-backoff <duration>', 'longest wait after failed cycles (default the interval, at least 5m)')
    .option('--lock-timeout <seconds>', "wait this long for another apply's lease on a space (default 0: the cycle fails and is retried)")
    .option('--no-lock', 'take no lease (only when you know no other apply can run)')
    .action(async (paths: string[], opts) => setExit(await reconcileCommand(paths.length ? paths : ['.'], opts, io)));

  common(program.command('coverage').description("print the MITRE ATT&CK matrix of the enabled rules: the manifests' (offline), or the server's with --live").argument('[paths...]'))
    .option('--live', "the rules the server holds in the space, not the manifests' (needs --url)")
    .option('--json', 'print the matrix as JSON')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']))
    .action(async (paths: string[], opts) => setExit(await coverageCommand(paths.length ? paths : ['.'], opts, io)));

  verbosity(
    program
      .command('show')
      .description('render a plan saved with `plan --out`, without contacting a server')
      .argument('<planfile>', 'the saved plan')
      .option('--json', 'print the plan as JSON (docs/plan-format.md)')
      .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown', 'html']))
      .option('--hide-target', 'leave the target URL out of the Markdown or HTML plan')
      .option('--show-unmanaged', 'name each live object outside every manage scope in text and Markdown (JSON and HTML always list them)')
      .option('--no-color', 'no colours in the output'),
    'print only the plan',
    'print nothing more: a saved plan is rendered as it was saved',
  ).action(async (file: string, opts) => setExit(await showCommand(file, opts, io)));

  program
    .command('init')
    .description('start a repository: svcform.yaml with a manage scope, a manifests folder, the GitHub Actions kit, .gitignore')
    .argument('[dir]', 'the repository to write into (default: the working directory)')
    .option('--force', 'overwrite the files init writes where they already exist')
    .option('--from-server', 'export the live objects into manifests/ and own exactly them, so a plan right after is empty')
    .option('--url <url>', 'with --from-server: server URL (or SVC_URL, or url in svcform.yaml); `embedded` for the embedded emulator')
    .option('--space <id>', 'the default space; with --from-server, the spaces to export (repeatable; default: default)', collect)
    .option('--concurrency <n>', 'with --from-server: requests in flight at once (default 8)')
    .option('--timeout <seconds>', 'with --from-server: per request: connecting, headers and the whole answer (default 30)')
    .option('--deadline <seconds>', 'with --from-server: stop retrying and fail once the whole run has taken this long')
    .option('--ca-cert <file>', 'with --from-server: PEM file of the certificate authority to trust')
    .option('--client-cert <file>', 'with --from-server: PEM client certificate')
    .option('--client-key <file>', 'with --from-server: PEM client key')
    .option('--no-color', 'no colours (also NO_COLOR=1; FORCE_COLOR=1 colours output that is not a terminal)')
    .addOption(new Option('--quiet', 'print only errors').conflicts('verbose'))
    .option('--verbose', 'with --from-server: print retries, each list read and timings on stderr')
    .action(async (dir: string | undefined, opts) => setExit(await initCommand(dir ?? '.', opts, io)));

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
    .option('--schemas <dir>', 'point modelines at the schemas in this directory (written by `svcform schemas --out`) instead of the release URL')
    .option('--no-color', 'no colours (also NO_COLOR=1; FORCE_COLOR=1 colours output that is not a terminal)')
    .addOption(new Option('--quiet', 'print only errors').conflicts('verbose'))
    .option('--verbose', 'print retries, each list read and timings on stderr')
    .action(async (opts) => setExit(await exportCommand(opts, io)));

  verbosity(
    program
      .command('schemas')
      .description('write the JSON Schema of every kind into a directory, for editors and export --schemas')
      .requiredOption('--out <dir>', 'directory to write <Kind>.schema.json files into'),
    'print nothing but errors',
    'print each file written',
  ).action(async (opts) => setExit(await schemasCommand(opts, io)));

  verbosity(
    program
      .command('completion')
      .description('print a shell completion script (bash, zsh or fish)')
      .addArgument(new Argument('<shell>', 'the shell').choices([...SHELLS])),
    'print the script only (the default)',
    'also say on stderr how to install the script',
  ).action((shell: Shell, opts: { verbose?: boolean }) => {
    io.out(completionScript(program, shell).replace(/\n$/, ''));
    if (opts.verbose) io.err(INSTALL_HINT[shell]);
    setExit(0);
  });

  verbosity(
    program
      .command('unlock')
      .description("show who holds a space's apply lease and release one a killed apply left behind")
      .option('--url <url>', 'server URL (or SVC_URL, or url in svcform.yaml)')
      .option('--space <id>', 'the space whose lease to release (default: svcform.yaml space, then "default")')
      .option('--config <file>', 'configuration file (default: ./svcform.yaml)')
      .option('--force', 'release without asking (needed without a terminal)')
      .option('--timeout <seconds>', 'per request: connecting, headers and the whole answer (default 30)')
      .option('--ca-cert <file>', 'PEM file of the certificate authority to trust')
      .option('--client-cert <file>', 'PEM client certificate')
      .option('--client-key <file>', 'PEM client key')
  )
    .action(async (opts) => setExit(await unlockCommand(opts, io)));

  program
    .command('emulator')
    .description('run the embedded emulator as a server')
    .option('--port <port>', 'port (default 5601; 0 for any)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1); any other than loopback needs --api-key or --insecure')
    .option('--insecure', 'serve without credentials on an address other than loopback (anyone who reaches it reads and changes everything, secrets included)')
    .option('--state <file>', 'keep the state in this JSON file')
    .option('--latency <ms>', 'delay every answer by this many ms')
    .option('--api-key <key>', 'require this API key (Authorization: ApiKey <key>)')
    .option('--read-only-api-key <key>', 'also accept this key with read-only privileges')
    .option('--spaces <ids>', 'spaces besides default, comma-separated')
    .option('--license <type>', 'licence level (default platinum)')
    .option('--deployment <type>', 'self-managed (default; agentless Fleet policies answer 400), cloud or serverless')
    .option('--packages <dir>', 'a folder of Fleet packages (<name>-<version>/manifest.yml, package-spec layout) the package registry reads before its own; repeatable', (dir: string, dirs: string[] = []) => [...dirs, dir])
    .option('--registry <url>', 'read Fleet packages from this package registry over HTTP instead of the bundled ones (the server\'s xpack.fleet.registryUrl)')
    .option('--real-routes <names>', 'routes that behave as the real server where it differs from the API document, comma-separated (e.g. saved-query-update)')
    .addOption(new Option('--quiet', 'print only errors (no listening and stopped lines)').conflicts('verbose'))
    .option('--verbose', 'print every request answered (method, path, status, ms) on stderr')
    .action(async (opts) => setExit(await emulatorCommand(opts, io)));

  return program;
}

const INSTALL_HINT: Record<Shell, string> = {
  bash: 'Load it with: source <(svcform completion bash); keep it with: svcform completion bash > ~/.local/share/bash-completion/completions/svcform',
  zsh: 'Load it with: source <(svcform completion zsh); keep it with: svcform completion zsh > "${fpath[1]}/_svcform"',
  fish: 'Load it with: svcform completion fish | source; keep it with: svcform completion fish > ~/.config/fish/completions/svcform.fish',
};

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
