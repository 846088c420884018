import type { Credential } from '@svcform/emulator/auth.js';
import { startEmulator } from '@svcform/emulator/server.js';
import { DEPLOYMENTS, isRealRoute, REAL_ROUTES, type Deployment, type License } from '@svcform/emulator/context.js';
import { UsageError, type Io } from './context.js';
import { emulatorPackageOptions } from './emulator-packages.js';

export interface EmulatorCommandOptions {
  port?: string;
  host?: string;
  state?: string;
  latency?: string;
  apiKey?: string;
  readOnlyApiKey?: string;
  spaces?: string;
  license?: string;
  deployment?: string;
  realRoutes?: string;
  quiet?: boolean;
  verbose?: boolean;
  packages?: string[];
  registry?: string;
  insecure?: boolean;
}

/** Loopback addresses: only this machine reaches an emulator bound there. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** `svcform emulator`: the embedded emulator as a server, until SIGINT/SIGTERM. */
export async function emulatorCommand(opts: EmulatorCommandOptions, io: Io): Promise<number> {
  const port = opts.port !== undefined ? Number(opts.port) : 5601;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, not ${opts.port}`);
  const latency = opts.latency !== undefined ? Number(opts.latency) : 0;
  if (!Number.isFinite(latency) || latency < 0) throw new UsageError(`--latency must be a number of ms >= 0, not ${opts.latency}`);
  const credentials: Credential[] = [];
  const apiKey = opts.apiKey ?? io.env.SVC_EMULATOR_API_KEY;
  if (apiKey) credentials.push({ type: 'apiKey', secret: apiKey, user: 'svcform' });
  if (opts.readOnlyApiKey) credentials.push({ type: 'apiKey', secret: opts.readOnlyApiKey, user: 'viewer', readOnly: true });
  const host = opts.host ?? '127.0.0.1';
  // The emulator holds connector secrets and answers its state route with them: open to whoever
  // reaches it. Beyond loopback that must be asked for (docker run -p, a CI service container).
  if (!isLoopback(host) && credentials.length === 0 && !opts.insecure) {
    throw new UsageError(`--host ${host} serves the emulator beyond this machine: require a key with --api-key KEY (or SVC_EMULATOR_API_KEY), or pass --insecure to serve it open`);
  }
  const licenses = ['basic', 'gold', 'platinum', 'enterprise', 'trial'];
  if (opts.license && !licenses.includes(opts.license)) throw new UsageError(`--license must be one of ${licenses.join(', ')}`);
  if (opts.deployment && !(DEPLOYMENTS as readonly string[]).includes(opts.deployment)) throw new UsageError(`--deployment must be one of ${DEPLOYMENTS.join(', ')}`);
  const realRoutes = opts.realRoutes ? opts.realRoutes.split(',').map((s) => s.trim()).filter(Boolean) : [];
  const unknownRoute = realRoutes.find((r) => !isRealRoute(r));
  if (unknownRoute) throw new UsageError(`--real-routes: unknown route ${unknownRoute}; known: ${Object.keys(REAL_ROUTES).join(', ')}`);
  // svcform.yaml is not read here: the command serves no repository; flags and environment only.
  const packages = emulatorPackageOptions({ packages: opts.packages, registry: opts.registry }, io.env, undefined);
  const emu = await startEmulator({
    ...packages,
    port,
    host,
    stateFile: opts.state,
    latencyMs: latency,
    credentials,
    spaces: opts.spaces ? opts.spaces.split(',').map((s) => s.trim()).filter(Boolean) : [],
    license: opts.license as License | undefined,
    deployment: opts.deployment as Deployment | undefined,
    realRoutes: realRoutes.filter(isRealRoute),
    onAnswered: opts.verbose ? (a) => io.err(`${a.method} ${a.path} ${a.status} ${a.ms} ms`) : undefined,
  });
  // Say where it is bound; for a wildcard address, also the URL this machine reaches it at.
  const bound = isLoopback(host) ? emu.url : `${host.includes(':') ? `[${host}]` : host}:${emu.port} (from this machine: ${emu.url})`;
  if (!opts.quiet) io.err(`svcform emulator listening on ${bound}${opts.state ? ` (state ${opts.state})` : ''}${credentials.length ? ' (API key required)' : ' (open: no credentials required)'}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await emu.stop();
  if (!opts.quiet) io.err(`svcform emulator stopped${opts.state ? '; state saved' : ''}`);
  return 0;
}
