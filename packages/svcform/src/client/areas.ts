/**
 * The API areas, each a bucket for in-flight limits and retry policy, in one table. A kind adapter
 * declares its area once (`area: AREAS.fleet`); the engine binds it to every request the adapter
 * makes, so no request names an area by string. `svcform.yaml` may override a policy per area
 * (`areas: {fleet: {concurrency: 2}}`).
 */

export interface AreaPolicy {
  /** Requests of this area in flight at once, on top of the overall limit. Absent: only the overall limit. */
  concurrency?: number;
  /**
   * Whether a 409 answer means "locked, try again" here. Fleet answers 409 while another writer
   * holds its short lock (wire-facts 0.5); elsewhere a 409 is a real conflict (duplicate id, stale version).
   */
  retryConflict: boolean;
}

/** An area: a name, as requests are counted, and its default policy. */
export interface Area {
  readonly name: string;
  readonly defaults: AreaPolicy;
}

const area = (name: string, defaults: Partial<AreaPolicy> = {}): Area => ({ name, defaults: { retryConflict: false, ...defaults } });

export const AREAS = {
  actions: area('actions'),
  detectionEngine: area('detection_engine'),
  // The server installs prebuilt rules one request at a time and answers 429 to a second one.
  prebuiltRules: area('prebuilt_rules', { concurrency: 1 }),
  lists: area('lists'),
  exceptionLists: area('exception_lists'),
  fleet: area('fleet', { retryConflict: true }),
  hostquery: area('hostquery'),
  maintenanceWindow: area('maintenance_window'),
  timeline: area('timeline'),
  spaces: area('spaces'),
  uptime: area('uptime'),
  cases: area('cases'),
  agentBuilder: area('agent_builder'),
  attackDiscovery: area('attack_discovery'),
  savedObjects: area('saved_objects'),
  endpoint: area('endpoint'),
  entityAnalytics: area('entity_analytics'),
  workflows: area('workflows'),
} as const satisfies Record<string, Area>;

const BY_NAME = new Map<string, Area>(Object.values(AREAS).map((a) => [a.name, a]));

export function knownAreaNames(): string[] {
  return [...BY_NAME.keys()];
}

/** Per-area overrides from svcform.yaml, by area name. */
export type AreaOverrides = Record<string, Partial<AreaPolicy>>;

/**
 * The policies in force: the table's defaults with the overrides laid over them. An area the table
 * does not know (a request to an unlisted path) gets no limit of its own and no 409 retries.
 */
export class AreaPolicies {
  private readonly policies = new Map<string, AreaPolicy>();

  constructor(overrides: AreaOverrides = {}) {
    for (const [name, a] of BY_NAME) this.policies.set(name, { ...a.defaults, ...(overrides[name] ?? {}) });
    for (const [name, o] of Object.entries(overrides)) if (!this.policies.has(name)) this.policies.set(name, { retryConflict: false, ...o });
  }

  of(name: string): AreaPolicy {
    return this.policies.get(name) ?? { retryConflict: false };
  }

  /** The per-area in-flight limits, for the limiter. */
  concurrencyLimits(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, p] of this.policies) if (p.concurrency !== undefined) out[name] = p.concurrency;
    return out;
  }
}
