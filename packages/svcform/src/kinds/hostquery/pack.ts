import type { CheckIssue, Resource } from '../../manifest/types.js';
import { asSet, isPlainObject, sortKeys } from '../normalize.js';
import { listHostQueryObjects } from './listing.js';
import { canonicalEcsMapping, canonicalPlatform, ecsMappingWarnings, platformWarnings, trimmedOrUndefined } from './saved-query.js';
import type { KindAdapter, Reference } from '../types.js';
import { AREAS } from '../../client/areas.js';

const KIND = 'HostQueryPack';
const BASE = '/api/hostquery/packs';

/**
 * What the server holds when a manifest says nothing. `enabled`: the server stores no default and
 * a pack without it is not deployed to agents, so an omitted value means disabled. Pack queries
 * come back with `snapshot`/`removed` only when true, so false and absent are the same.
 */
const PACK_DEFAULTS = { enabled: false };
const QUERY_DEFAULTS = { snapshot: false, removed: false };

/** The shard key that means "every policy" rather than naming one. */
const ALL_POLICIES_SHARD = '*';

function canonicalShards(shards: unknown): Record<string, number> {
  // A create reply carries shards as [{key, value}]; GET as a map; find not at all (see unreported).
  if (Array.isArray(shards)) return sortKeys(Object.fromEntries(shards.map((s: any) => [s.key, s.value])));
  return isPlainObject(shards) ? sortKeys({ ...shards }) : {};
}

/**
 * A pack's queries by query id, from either shape a reply carries: the map GET and create answer,
 * or the stored array of `{id, ...}` the find reply answers (wire-facts §15 fact 3).
 */
function queriesById(queries: unknown): Record<string, Record<string, any>> {
  if (!Array.isArray(queries)) return isPlainObject(queries) ? queries : {};
  const out: Record<string, Record<string, any>> = {};
  queries.forEach((q, i) => {
    if (isPlainObject(q)) out[typeof q.id === 'string' && q.id !== '' ? q.id : String(i)] = q;
  });
  return out;
}

function canonicalQuery(q: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { query: q.query };
  // interval is optional (wire-facts §16 #4): absent (or null) on both sides compares equal.
  if (q.interval !== undefined && q.interval !== null) out.interval = Number(q.interval);
  const platform = canonicalPlatform(q.platform);
  const version = trimmedOrUndefined(q.version);
  const ecsMapping = canonicalEcsMapping(q.ecs_mapping);
  if (platform !== undefined) out.platform = platform;
  if (version !== undefined) out.version = version;
  if (typeof q.timeout === 'number') out.timeout = q.timeout;
  out.snapshot = typeof q.snapshot === 'boolean' ? q.snapshot : QUERY_DEFAULTS.snapshot;
  out.removed = typeof q.removed === 'boolean' ? q.removed : QUERY_DEFAULTS.removed;
  if (ecsMapping !== undefined) out.ecs_mapping = ecsMapping;
  // saved_query_id is write-only (never returned, wire-facts §9): not compared.
  return out;
}

/** A pack in comparable form, from a manifest spec or a server reply alike. */
function canonical(source: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  const description = trimmedOrUndefined(source.description);
  if (description !== undefined) out.description = description;
  out.enabled = typeof source.enabled === 'boolean' ? source.enabled : PACK_DEFAULTS.enabled;
  out.policy_ids = asSet<string>(Array.isArray(source.policy_ids) ? source.policy_ids : []);
  out.shards = canonicalShards(source.shards);
  const queries: Record<string, any> = {};
  const byId = queriesById(source.queries);
  for (const queryId of Object.keys(byId).sort()) queries[queryId] = canonicalQuery(byId[queryId]);
  out.queries = queries;
  return out;
}

function writeQueries(queries: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [queryId, q] of Object.entries<Record<string, any>>(queries ?? {})) out[queryId] = q.interval === undefined ? { ...q } : { ...q, interval: Number(q.interval) };
  return out;
}

/**
 * The full write body. PUT says "omitted fields may reset", so every field is sent, defaults
 * included, on update as on create.
 */
function writeBody(res: Resource): Record<string, any> {
  const spec = res.spec;
  return {
    name: res.name,
    description: spec.description ?? '',
    enabled: spec.enabled ?? PACK_DEFAULTS.enabled,
    policy_ids: spec.policy_ids ?? [],
    shards: spec.shards ?? {},
    queries: writeQueries(spec.queries),
  };
}

/** Host-query packs. metadata.name is the pack name; paths use the server's `saved_object_id`. */
export const hostQueryPackAdapter: KindAdapter = {
  kind: KIND,
  schema: 'HostQueryPack.schema.json',
  referenceKinds: ['AgentPolicy', 'HostQuerySavedQuery'],
  area: AREAS.hostquery,
  setFields: ['/policy_ids'],

  /**
   * What the real pack routes do with names they cannot find (K:x-pack/platform/plugins/shared/
   * osquery/server/routes/pack/create_pack_route.ts and utils.ts):
   * - policy_ids: refused, 400 "The following policy ids are invalid" for an agent policy without
   *   the hostquery integration (getInitialPolicies);
   * - shards: accepted, a shard of an agent policy the server does not hold is dropped (findMatchingShards);
   * - a query's saved_query_id: accepted, stored with the query as written.
   */
  references(spec) {
    const refs: Reference[] = [];
    (Array.isArray(spec.policy_ids) ? spec.policy_ids : []).forEach((id: unknown, i: number) => {
      if (typeof id === 'string') refs.push({ kind: 'AgentPolicy', name: id, path: ['spec', 'policy_ids', i], whenMissing: 'refused' });
    });
    for (const policyId of Object.keys(isPlainObject(spec.shards) ? spec.shards : {})) {
      if (policyId !== ALL_POLICIES_SHARD) {
        refs.push({ kind: 'AgentPolicy', name: policyId, path: ['spec', 'shards', policyId], whenMissing: 'accepted', missingEffect: 'the server drops the shard of a policy it does not hold' });
      }
    }
    for (const [queryId, q] of Object.entries(isPlainObject(spec.queries) ? spec.queries : {})) {
      if (isPlainObject(q) && typeof q.saved_query_id === 'string') {
        refs.push({ kind: 'HostQuerySavedQuery', name: q.saved_query_id, path: ['spec', 'queries', queryId, 'saved_query_id'], whenMissing: 'accepted', missingEffect: 'the query is linked to no saved query until it exists' });
      }
    }
    return refs;
  },

  /** Each query's platform and ecs_mapping, as a saved query's (platformWarnings, ecsMappingWarnings). */
  check(res: Resource): CheckIssue[] {
    const queries = isPlainObject(res.spec.queries) ? res.spec.queries : {};
    return Object.entries(queries).flatMap(([id, q]) =>
      isPlainObject(q) ? [...platformWarnings(q.platform, ['spec', 'queries', id, 'platform']), ...ecsMappingWarnings(q.ecs_mapping, ['spec', 'queries', id, 'ecs_mapping'])] : [],
    );
  },

  // The find reply carries the packs (service-api.md: "flattened pack objects") with their queries in
  // stored form and without shards, and planning makes no GET per pack: shards are left out of
  // the comparison when a listing lacks them (unreported). Two packs of one name are both
  // returned; the engine reports the clash.
  async list(ctx, space) {
    return listHostQueryObjects(ctx, space, { kind: KIND, path: BASE, name: (body) => body.name, readOnly: (body) => (body.read_only ? 'prebuilt pack (read_only)' : undefined) });
  },

  normalizeDesired(res) {
    return canonical(res.spec);
  },

  normalizeLive(live) {
    return canonical(live.body);
  },

  unreported(live) {
    return 'shards' in live.body ? [] : ['/spec/shards'];
  },

  // An exported manifest without the pack's shards would wipe them at its first update (PUT resets
  // omitted fields), so export reads each pack whose listing left them out: one GET per pack,
  // the price of an export that round-trips.
  async complete(ctx, live) {
    if ('shards' in live.body) return live;
    const res = await ctx.api.request<{ data?: Record<string, any> }>({ method: 'GET', path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`, space: live.space });
    return { ...live, body: { ...live.body, shards: res.body?.data?.shards ?? {} } };
  },

  // Pack names are unique per space, so a repeated create answers 409 rather than duplicating.
  async create(ctx, res) {
    await ctx.api.request({ method: 'POST', path: BASE, space: res.space, idempotent: true, body: writeBody(res) });
  },

  async update(ctx, res, live) {
    await ctx.api.request({
      method: 'PUT',
      path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`,
      space: live.space,
      body: writeBody(res),
    });
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`, space: live.space });
  },

  toSpec(live) {
    const n = canonical(live.body);
    const spec: Record<string, any> = {};
    if (n.description !== undefined) spec.description = n.description;
    if (n.enabled !== PACK_DEFAULTS.enabled) spec.enabled = n.enabled;
    if (n.policy_ids.length > 0) spec.policy_ids = n.policy_ids;
    if (Object.keys(n.shards).length > 0) spec.shards = n.shards;
    spec.queries = {};
    for (const [queryId, q] of Object.entries<Record<string, any>>(n.queries)) {
      const entry: Record<string, any> = { query: q.query };
      if (q.interval !== undefined) entry.interval = q.interval;
      if (q.platform !== undefined) entry.platform = q.platform;
      if (q.version !== undefined) entry.version = q.version;
      if (q.timeout !== undefined) entry.timeout = q.timeout;
      if (q.snapshot !== QUERY_DEFAULTS.snapshot) entry.snapshot = q.snapshot;
      if (q.removed !== QUERY_DEFAULTS.removed) entry.removed = q.removed;
      if (q.ecs_mapping !== undefined) entry.ecs_mapping = q.ecs_mapping;
      spec.queries[queryId] = entry;
    }
    return { spec };
  },
};
