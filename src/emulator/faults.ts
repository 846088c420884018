/**
 * Fault injection for tests and benchmarks. Rules are deterministic by default: a rule matches
 * requests by method and path pattern, lets the first `skip` matches through, then acts on the
 * next `times` matches (every one, or a `rate` fraction of them).
 */
export interface FaultRule {
  method?: string;
  /** Regular expression source matched against the full request path (with any space prefix). */
  path?: string;
  /** Answer with this status (500, 503, 429, ...) instead of serving the request. */
  status?: number;
  /** Seconds to put in Retry-After (with status 429 or 503). */
  retryAfter?: number;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Serve the request, but this many ms late. */
  delayMs?: number;
  /** Serve the request (the write happens), then drop the connection before the answer. */
  dropAfterServe?: boolean;
  /**
   * Serve the request (the write happens), then answer this status instead (a gateway's 504 after
   * the server committed): the client cannot tell whether its write took effect.
   */
  statusAfterServe?: number;
  skip?: number;
  times?: number;
  rate?: number;
}

interface ActiveRule extends FaultRule {
  seen: number;
  fired: number;
  regex?: RegExp;
}

export type FaultAction =
  | { kind: 'status'; status: number; retryAfter?: number }
  | { kind: 'drop' }
  | { kind: 'delay'; ms: number }
  | { kind: 'dropAfterServe' }
  | { kind: 'statusAfterServe'; status: number };

export class Faults {
  private rules: ActiveRule[] = [];
  /** The source of `rate` draws; a seeded one makes a fault campaign repeatable. */
  random: () => number = Math.random;

  set(rules: FaultRule[]): void {
    this.rules = rules.map((r) => ({ ...r, seen: 0, fired: 0, regex: r.path ? new RegExp(r.path) : undefined }));
  }

  list(): Array<FaultRule & { seen: number; fired: number }> {
    return this.rules.map(({ regex: _regex, ...r }) => r);
  }

  clear(): void {
    this.rules = [];
  }

  /** The first matching rule that fires decides; `undefined` means serve normally. */
  decide(method: string, path: string): FaultAction | undefined {
    for (const rule of this.rules) {
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.regex && !rule.regex.test(path)) continue;
      rule.seen += 1;
      if (rule.seen <= (rule.skip ?? 0)) continue;
      if (rule.times !== undefined && rule.fired >= rule.times) continue;
      if (rule.rate !== undefined && this.random() >= rule.rate) continue;
      rule.fired += 1;
      if (rule.drop) return { kind: 'drop' };
      if (rule.dropAfterServe) return { kind: 'dropAfterServe' };
      if (rule.statusAfterServe) return { kind: 'statusAfterServe', status: rule.statusAfterServe };
      if (rule.status) return { kind: 'status', status: rule.status, retryAfter: rule.retryAfter };
      if (rule.delayMs) return { kind: 'delay', ms: rule.delayMs };
    }
    return undefined;
  }
}
