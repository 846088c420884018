import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from './usage-error.js';

/**
 * What `svcform reconcile` tells the outside world between cycles: `/healthz` for probes and
 * `/metrics` in the Prometheus text exposition format (0.0.4), written by hand (a few lines; no
 * client library needed).
 */

export interface CycleRecord {
  ok: boolean;
  /** Epoch ms when the cycle ended. */
  at: number;
  ms: number;
  /** Drift the cycle's plan found, per kind and space (before anything was applied). */
  drift?: Map<string, { kind: string; space: string; count: number }>;
  /** Changes applied, and those that failed. */
  applied?: number;
  failed?: number;
  error?: string;
}

export class ReconcileStatus {
  private cyclesOk = 0;
  private cyclesFailed = 0;
  private applyFailures = 0;
  private changesApplied = 0;
  private consecutiveFailures = 0;
  private lastSuccess?: number;
  private last?: CycleRecord;
  /** Every (kind, space) that ever drifted keeps its series, so its count is seen going back to 0. */
  private readonly drift = new Map<string, { kind: string; space: string; count: number }>();

  constructor(
    /** Failed cycles in a row that /healthz still answers 200 for. */
    private readonly grace: number,
  ) {}

  record(cycle: CycleRecord): void {
    this.last = cycle;
    this.applyFailures += cycle.failed ?? 0;
    this.changesApplied += cycle.applied ?? 0;
    if (cycle.ok) {
      this.cyclesOk++;
      this.consecutiveFailures = 0;
      this.lastSuccess = cycle.at;
    } else {
      this.cyclesFailed++;
      this.consecutiveFailures++;
    }
    // A failed cycle may not have planned: the drift last seen stands.
    if (cycle.drift) {
      for (const d of this.drift.values()) d.count = 0;
      for (const [key, d] of cycle.drift) this.drift.set(key, { ...d });
    }
  }

  get failuresInARow(): number {
    return this.consecutiveFailures;
  }

  health(): { status: number; body: Record<string, unknown> } {
    const facts = {
      cycles: this.cyclesOk + this.cyclesFailed,
      consecutive_failures: this.consecutiveFailures,
      failure_grace: this.grace,
      ...(this.lastSuccess !== undefined ? { last_success: new Date(this.lastSuccess).toISOString() } : {}),
      ...(this.last?.error ? { last_error: this.last.error } : {}),
    };
    if (!this.last) return { status: 503, body: { status: 'starting', reason: 'no cycle has finished yet', ...facts } };
    if (this.last.ok) return { status: 200, body: { status: 'ok', ...facts } };
    if (this.consecutiveFailures <= this.grace) return { status: 200, body: { status: 'degraded', reason: `${this.consecutiveFailures} failed cycle(s) in a row, within the grace of ${this.grace}`, ...facts } };
    return { status: 503, body: { status: 'failing', reason: `${this.consecutiveFailures} failed cycles in a row (grace ${this.grace}): ${this.last.error ?? 'unknown error'}`, ...facts } };
  }

  metrics(): string {
    const out: string[] = [];
    const family = (name: string, type: 'gauge' | 'counter', help: string, samples: Array<[Record<string, string>, number]>) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, value] of samples) out.push(`${name}${labelText(labels)} ${formatValue(value)}`);
    };
    const drift = [...this.drift.values()].sort((a, b) => (a.kind === b.kind ? compare(a.space, b.space) : compare(a.kind, b.kind)));
    family('svcform_drift_objects', 'gauge', 'Changes the last plan found needed to bring the server back to the manifests, per kind and space.', drift.map((d) => [{ kind: d.kind, space: d.space }, d.count]));
    family('svcform_cycles_total', 'counter', 'Reconcile cycles finished, by result.', [[{ result: 'success' }, this.cyclesOk], [{ result: 'failure' }, this.cyclesFailed]]);
    family('svcform_apply_failures_total', 'counter', 'Changes that failed to apply.', [[{}, this.applyFailures]]);
    family('svcform_changes_applied_total', 'counter', 'Changes applied successfully.', [[{}, this.changesApplied]]);
    family('svcform_consecutive_failures', 'gauge', 'Failed cycles in a row.', [[{}, this.consecutiveFailures]]);
    if (this.lastSuccess !== undefined) family('svcform_last_success_timestamp_seconds', 'gauge', 'When the last successful cycle ended (Unix time).', [[{}, this.lastSuccess / 1000]]);
    if (this.last) family('svcform_cycle_duration_seconds', 'gauge', 'How long the last cycle took.', [[{}, this.last.ms / 1000]]);
    return out.join('\n') + '\n';
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Label values escape backslash, double quote and line feed (the exposition format's three). */
function labelText(labels: Record<string, string>): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

function formatValue(n: number): string {
  return Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
}

/** `HOST:PORT`, `[v6]:PORT` or `:PORT` (every address). */
export function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--listen must be HOST:PORT (e.g. 127.0.0.1:9464, 0.0.0.0:9464, [::1]:9464, :9464), not ${JSON.stringify(text)}`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

export interface StatusServer {
  url: string;
  close(): Promise<void>;
}

export async function serveStatus(status: ReconcileStatus, listen: { host: string; port: number }): Promise<StatusServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    } else if (path === '/healthz') {
      const { status: code, body } = status.health();
      res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body) + '\n');
    } else if (path === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' }).end(status.metrics());
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: /healthz and /metrics are served\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new UsageError(`--listen ${listen.host}:${listen.port}: ${err.code ?? err.message}`)));
    server.listen(listen.port, listen.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
