import type { EmulatorContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import {
  ecsMappingToStored,
  findPage,
  hostQueryState,
  invalid,
  isPlainRecord,
  optionalBoolean,
  optionalEcsMapping,
  optionalPositiveInt,
  optionalString,
  parseFindParams,
  pathOf,
  requiredString,
  requireObjectBody,
  type HostQueryState,
  type PackQuery,
  type PackRecord,
} from './common.js';

const BASE = '/api/hostquery/packs';

/** Saved-object type of packs, as GET reports it in `type`. */
const PACK_TYPE = 'hostquery-pack';

const SORT_FIELDS: Record<string, string> = {
  createdAt: 'created_at',
  created_at: 'created_at',
  updatedAt: 'updated_at',
  updated_at: 'updated_at',
  name: 'name',
};

/**
 * Packs (service-api.md Host queries; wire-facts §9). Decisions where the documents leave room:
 * - Pack names are unique per space: a create or rename onto a taken name is a 409 (wire-facts
 *   marks it (I); the server's create and update routes check it before writing).
 * - `enabled` is stored only when sent, as the real server does; a pack without it is not
 *   deployed to agents, i.e. it behaves as disabled.
 * - PUT: "all optional; omitted fields may reset". Omitted description becomes "", omitted
 *   policy_ids, shards and queries become empty; an omitted name or enabled is kept. Callers
 *   that mean to keep a field must send it.
 * - policy_ids are not checked against Fleet (another area, not a dependency of this one).
 * - Unknown keys are accepted and ignored, at every depth, as the real route's io-ts codecs do
 *   (see common.ts).
 */
export function registerPacks(router: Router): void {
  router.post(BASE, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const body = requireObjectBody(req.body);
    const name = requiredString(body, 'name');
    if (body.queries === undefined) throw invalid('queries', undefined);
    const queries = readQueries(body.queries);
    const description = optionalString(body, 'description');
    const enabled = optionalBoolean(body, 'enabled');
    const policyIds = readPolicyIds(body.policy_ids);
    const shards = readShards(body.shards);
    assertNameFree(state, name);
    const now = ctx.now().toISOString();
    const record: PackRecord = {
      saved_object_id: ctx.uuid(),
      name,
      queries,
      policy_ids: policyIds ?? [],
      shards: shards ?? {},
      read_only: false,
      created_at: now,
      created_by: req.user,
      updated_at: now,
      updated_by: req.user,
      seq: ++state.seq,
    };
    if (description !== undefined) record.description = description;
    if (enabled !== undefined) record.enabled = enabled;
    state.packs[record.saved_object_id] = record;
    return { body: { data: createReply(record) } };
  });

  router.get(BASE, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const params = parseFindParams(req.query, SORT_FIELDS);
    const { total, items } = findPage(Object.values(state.packs), params);
    return { body: { page: params.page, per_page: params.pageSize, total, data: items.map(findItem) } };
  });

  router.get(`${BASE}/:id`, (req, ctx) => ({ body: { data: readReply(mustGet(req, ctx), req.space) } }));

  router.put(`${BASE}/:id`, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const record = mustGet(req, ctx);
    if (record.read_only) throw badRequest(`Pack ${record.saved_object_id} is prebuilt (read_only) and cannot be updated.`);
    const body = requireObjectBody(req.body);
    const name = body.name === undefined ? record.name : requiredString(body, 'name');
    const queries = body.queries === undefined ? {} : readQueries(body.queries);
    const description = optionalString(body, 'description') ?? '';
    const enabled = optionalBoolean(body, 'enabled');
    const policyIds = readPolicyIds(body.policy_ids) ?? [];
    const shards = readShards(body.shards) ?? {};
    if (name !== record.name) assertNameFree(state, name);
    const updated: PackRecord = {
      ...record,
      name,
      description,
      queries,
      policy_ids: policyIds,
      shards,
      updated_at: ctx.now().toISOString(),
      updated_by: req.user,
    };
    if (enabled !== undefined) updated.enabled = enabled;
    state.packs[record.saved_object_id] = updated;
    return { body: { data: readReply(updated, req.space) } };
  });

  router.delete(`${BASE}/:id`, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const record = mustGet(req, ctx);
    delete state.packs[record.saved_object_id];
    return { body: {} };
  });
}

function mustGet(req: EmuRequest, ctx: EmulatorContext): PackRecord {
  const record = hostQueryState(req, ctx).packs[req.params.id];
  if (!record) throw notFound(`Pack ${req.params.id} not found`);
  return record;
}

function assertNameFree(state: HostQueryState, name: string): void {
  if (Object.values(state.packs).some((p) => p.name === name)) throw conflict(`Pack with name "${name}" already exists.`);
}

function readPolicyIds(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) throw invalid('policy_ids', v);
  for (const id of v) {
    // io-ts leaves array indexes out of the reported path.
    if (typeof id !== 'string' || id.length === 0) throw invalid('policy_ids', id);
  }
  return [...new Set(v as string[])];
}

/** service-api.md Limits: "Host query shards | pack | percent 1 to 100 per policy". */
function readShards(v: unknown): Record<string, number> | undefined {
  if (v === undefined) return undefined;
  if (!isPlainRecord(v)) throw invalid('shards', v);
  const out: Record<string, number> = {};
  for (const [policyId, percent] of Object.entries(v)) {
    if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 1 || percent > 100) throw invalid(pathOf('shards', policyId), percent);
    out[policyId] = percent;
  }
  return out;
}

function readQueries(v: unknown): Record<string, PackQuery> {
  if (!isPlainRecord(v)) throw invalid('queries', v);
  const out: Record<string, PackQuery> = {};
  for (const [queryId, raw] of Object.entries(v)) {
    const at = pathOf('queries', queryId);
    if (!isPlainRecord(raw)) throw invalid(at, raw);
    const entry = raw as Record<string, any>;
    const query = requiredString(entry, 'query', pathOf(at, 'query'));
    // Optional and nullable (wire-facts §16 #4: the real ObjectQueriesItem does not require it,
    // IntervalOrUndefined is nullable); when given, whole seconds. Omitted or null, the stored
    // query has none (the server picks only the keys sent) and the reply shows none.
    const interval = entry.interval === null ? undefined : optionalPositiveInt(entry, 'interval', pathOf(at, 'interval'));
    const out1: PackQuery = { query };
    if (interval !== undefined) out1.interval = interval;
    const platform = optionalString(entry, 'platform', pathOf(at, 'platform'));
    const version = optionalString(entry, 'version', pathOf(at, 'version'));
    const ecsMapping = optionalEcsMapping(entry, 'ecs_mapping', pathOf(at, 'ecs_mapping'));
    const snapshot = optionalBoolean(entry, 'snapshot', pathOf(at, 'snapshot'));
    const removed = optionalBoolean(entry, 'removed', pathOf(at, 'removed'));
    const timeout = optionalPositiveInt(entry, 'timeout', pathOf(at, 'timeout'));
    // Accepted on writes and never returned (wire-facts §9), so it is validated and not kept.
    optionalString(entry, 'saved_query_id', pathOf(at, 'saved_query_id'));
    if (platform) out1.platform = platform;
    if (version) out1.version = version;
    if (ecsMapping && Object.keys(ecsMapping).length > 0) out1.ecs_mapping = ecsMapping;
    if (snapshot !== undefined) out1.snapshot = snapshot;
    if (removed !== undefined) out1.removed = removed;
    if (timeout !== undefined) out1.timeout = timeout;
    out[queryId] = out1;
  }
  return out;
}

/**
 * Queries as the server answers them: the real server converts its stored query list back to a map
 * and keeps `snapshot` and `removed` only when true (osquery server/routes/pack/utils.ts,
 * convertSOQueriesToPack), so a `false` sent on write comes back absent.
 */
function queriesReply(queries: Record<string, PackQuery>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [queryId, q] of Object.entries(queries)) {
    const { snapshot, removed, ...rest } = structuredClone(q);
    out[queryId] = { ...rest, ...(snapshot ? { snapshot } : {}), ...(removed ? { removed } : {}) };
  }
  return out;
}

function common(record: PackRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    saved_object_id: record.saved_object_id,
    name: record.name,
    description: record.description,
    enabled: record.enabled,
    queries: queriesReply(record.queries),
    policy_ids: [...record.policy_ids],
    version: record.version,
    created_at: record.created_at,
    created_by: record.created_by,
    updated_at: record.updated_at,
    updated_by: record.updated_by,
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** wire-facts §9: the create reply is not authoritative: shards as [{key, value}], no read_only. */
function createReply(record: PackRecord): Record<string, unknown> {
  return { ...common(record), shards: Object.entries(record.shards).map(([key, value]) => ({ key, value })) };
}

/**
 * A pack as find answers it: the saved object's attributes as stored, not converted back the way GET
 * converts them (osquery server/routes/pack/find_pack_route.ts): `queries` is the stored array of
 * `{id, query, interval, ...}` with ecs_mapping as `[{key, value}]` (routes/pack/utils.ts,
 * convertPackQueriesToSO), and there is no `shards` at all (the route copies every attribute it
 * answers with by name, and shards is not among them). wire-facts §15 fact 3.
 */
function findItem(record: PackRecord): Record<string, unknown> {
  const { queries: _map, ...rest } = common(record);
  return { ...rest, queries: storedQueries(record.queries), read_only: record.read_only };
}

function storedQueries(queries: Record<string, PackQuery>): Array<Record<string, unknown>> {
  return Object.entries(queries).map(([queryId, q]) => {
    const { ecs_mapping: ecsMapping, ...fields } = structuredClone(q);
    return { id: queryId, ...fields, ...(ecsMapping ? { ecs_mapping: ecsMappingToStored(ecsMapping) } : {}) };
  });
}

function flattened(record: PackRecord): Record<string, unknown> {
  return { ...common(record), shards: { ...record.shards }, read_only: record.read_only };
}

function readReply(record: PackRecord, space: string): Record<string, unknown> {
  return { type: PACK_TYPE, namespaces: [space], ...flattened(record) };
}
