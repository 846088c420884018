import { createHash } from 'node:crypto';

/**
 * Fault injection for tests and benchmarks. Rules are deterministic by default: a rule matches
 * requests by method and path pattern, lets the first `skip` matches through, then acts on the
 * next `times` matches (every one, or a `rate` fraction of them).
 *
 * With a `seed`, each `rate` draw is a pure function of the seed, the rule and the request's
 * identity (method, path and query, and the body's content, less the values the server chose)
 * with its ordinal among requests of that identity: which requests fault then does not depend on
 * how concurrent clients interleave, so a seeded campaign replays exactly. Without a seed, draws
 * come from `random`.
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

/** What identifies a request beyond its method and path, for seeded draws. */
export interface RequestIdentity {
  /** The query string (`?a=b`), or empty. */
  query?: string;
  body?: Buffer;
  /** The body's content type: a multipart boundary (random per request) is no part of its content. */
  contentType?: string;
}

/** A number in [0, 1) from a hash of its parts. */
function draw(...parts: Array<string | number>): number {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/**
 * Values the server chose (object ids, `_version` tokens) depend on the order it made things in,
 * which concurrency changes from run to run: they are no part of a request's identity.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const VERSION_TOKEN = /"Wz[0-9A-Za-z+/]*={0,2}"/g;
const withoutServerValues = (text: string) => text.replace(UUID, '<id>').replace(VERSION_TOKEN, '"<version>"');

function bodyDigest(body: Buffer | undefined, contentType: string | undefined): string {
  if (!body || body.length === 0) return '';
  let text = body.toString('latin1');
  // A multipart boundary is chosen at random per request: framing, not content.
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (boundary) text = text.split(boundary[1] ?? boundary[2]).join('');
  return createHash('sha256').update(withoutServerValues(text), 'latin1').digest('hex');
}

export class Faults {
  private rules: ActiveRule[] = [];
  /** The source of `rate` draws when no seed is set. */
  random: () => number = Math.random;
  /** Makes `rate` draws a function of the request (see above) rather than of arrival order. */
  seed: number | undefined;
  /** Requests seen per identity since the rules were set: a repeat of a request draws anew. */
  private ordinals = new Map<string, number>();

  set(rules: FaultRule[], options: { seed?: number } = {}): void {
    this.rules = rules.map((r) => ({ ...r, seen: 0, fired: 0, regex: r.path ? new RegExp(r.path) : undefined }));
    if (options.seed !== undefined) this.seed = options.seed;
    this.ordinals.clear();
  }

  list(): Array<FaultRule & { seen: number; fired: number }> {
    return this.rules.map(({ regex: _regex, ...r }) => r);
  }

  clear(): void {
    this.rules = [];
    this.ordinals.clear();
  }

  /** The first matching rule that fires decides; `undefined` means serve normally. */
  decide(method: string, path: string, request: RequestIdentity = {}): FaultAction | undefined {
    if (this.rules.length === 0) return undefined;
    let drawFor: (rule: number) => number = () => this.random();
    if (this.seed !== undefined) {
      const identity = [method, withoutServerValues(path), withoutServerValues(request.query ?? ''), bodyDigest(request.body, request.contentType)].join(' ');
      const ordinal = (this.ordinals.get(identity) ?? 0) + 1;
      this.ordinals.set(identity, ordinal);
      const seed = this.seed;
      drawFor = (rule) => draw(seed, rule, identity, ordinal);
    }
    for (const [index, rule] of this.rules.entries()) {
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.regex && !rule.regex.test(path)) continue;
      rule.seen += 1;
      if (rule.seen <= (rule.skip ?? 0)) continue;
      if (rule.times !== undefined && rule.fired >= rule.times) continue;
      if (rule.rate !== undefined && drawFor(index) >= rule.rate) continue;
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
