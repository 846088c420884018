import { randomUUID } from 'node:crypto';
import type { Store } from './store.js';
import type { Credential } from './auth.js';

export type License = 'basic' | 'gold' | 'platinum' | 'enterprise' | 'trial';

/** Where the deployment runs: agentless Fleet policies exist only on hosted ones (service-api.md Fleet policies). */
export const DEPLOYMENTS = ['self-managed', 'cloud', 'serverless'] as const;
export type Deployment = (typeof DEPLOYMENTS)[number];

/**
 * Routes where service-api.md and the real server disagree. By default the emulator does what the
 * document says; a route named here behaves as the real server does instead, so a client can be
 * tested against both (the project rule: svcform converges against either).
 */
export const REAL_ROUTES = {
  /** Saved-query PUT: the name in `id` (no `new_id`), a partial update, "" for an omitted description (wire-facts §15 fact 5). */
  'saved-query-update': 'PUT /api/hostquery/saved_queries/{id}',
  /** Rule create/update: `query` required for threshold, threat_match and new_terms rules too (service-api.md leaves it optional). */
  'rules.query-required': 'POST|PUT /api/detection_engine/rules',
  /** Rule preview: the parameters are `invocationCount`/`timeframeEnd` (OAS RulePreviewParams); service-api.md names them `invocation_count`/`timeframe_end`. */
  'rules.preview-params': 'POST /api/detection_engine/rules/preview',
  /** Timeline routes: top-level parameters in camel case (templateTimelineId, timelineId, savedObjectIds) as in the OAS, not snake case as service-api.md spells them. */
  'timelines.camel-case': 'POST|PATCH|DELETE /api/timeline',
} as const;

export type RealRoute = keyof typeof REAL_ROUTES;

export function isRealRoute(name: unknown): name is RealRoute {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(REAL_ROUTES, name);
}

export interface EmulatorSettings {
  license: License;
  /** Whether the deployment is self-managed (agentless Fleet calls are refused with 400). */
  selfManaged: boolean;
  /** Routes switched from the document's behaviour to the real server's. */
  realRoutes: Set<RealRoute>;
  /**
   * Where Fleet's package registry reads packages: these folders first, then the HTTP registry at
   * `registryUrl`, or else the packages bundled with svcform (areas/fleet/package-registry.ts).
   */
  packages: { dirs: string[]; registryUrl?: string };
}

/** What every area handler may use besides the request. */
export interface EmulatorContext {
  store: Store;
  settings: EmulatorSettings;
  now(): Date;
  uuid(): string;
}

export function makeContext(store: Store, settings: EmulatorSettings, now: () => Date = () => new Date()): EmulatorContext {
  return { store, settings, now, uuid: randomUUID };
}

/** Licence tiers in order, for "Platinum or higher" checks. */
export function licenseAtLeast(have: License, need: License): boolean {
  const order: License[] = ['basic', 'gold', 'platinum', 'enterprise'];
  const h = have === 'trial' ? order.indexOf('enterprise') : order.indexOf(have);
  return h >= order.indexOf(need);
}

/** What a running emulator can change while it runs (the control routes, control.ts). */
export interface EmulatorRuntime {
  latencyMs: number;
  credentials: Credential[];
  /** The real routes chosen at start, restored by a reset. */
  initialRealRoutes: RealRoute[];
}
