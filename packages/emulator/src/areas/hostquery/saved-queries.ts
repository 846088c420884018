import type { EmulatorContext } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import {
  findPage,
  hostQueryState,
  invalid,
  optionalBoolean,
  optionalEcsMapping,
  optionalString,
  optionalTimeout,
  parseFindParams,
  requiredString,
  requireObjectBody,
  type HostQueryState,
  type SavedQueryRecord,
} from './common.js';

const BASE = '/api/hostquery/saved_queries';

const SORT_FIELDS: Record<string, string> = {
  createdAt: 'created_at',
  created_at: 'created_at',
  updatedAt: 'updated_at',
  updated_at: 'updated_at',
  id: 'id',
};

/** The fields a caller sets; everything else is server-managed. */
type SavedQueryFields = Pick<SavedQueryRecord, 'id' | 'query' | 'interval' | 'description' | 'platform' | 'version' | 'timeout' | 'ecs_mapping' | 'snapshot' | 'removed'>;

/**
 * Saved queries (service-api.md Host queries; wire-facts §8). Two identities: the caller's `id`
 * (unique per space) and the server's `saved_object_id`, which is the one in paths. Prebuilt
 * queries refuse update and delete with 409, as the real routes answer (service-api.md names no
 * status; osquery server/routes/saved_query/update_saved_query_route.ts and delete_...ts).
 */
export function registerSavedQueries(router: Router): void {
  router.post(BASE, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const fields = readReplacingFields(requireObjectBody(req.body), 'id');
    if (findById(state, fields.id)) throw conflict(`Saved query with id "${fields.id}" already exists.`);
    const now = ctx.now().toISOString();
    const record: SavedQueryRecord = {
      ...fields,
      saved_object_id: ctx.uuid(),
      prebuilt: false,
      created_at: now,
      created_by: req.user,
      updated_at: now,
      updated_by: req.user,
      seq: ++state.seq,
    };
    state.savedQueries[record.saved_object_id] = record;
    return { body: { data: toReply(record) } };
  });

  router.get(BASE, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const params = parseFindParams(req.query, SORT_FIELDS);
    const { total, items } = findPage(Object.values(state.savedQueries), params);
    return { body: { page: params.page, per_page: params.pageSize, total, data: items.map(toReply) } };
  });

  router.get(`${BASE}/:id`, (req, ctx) => ({ body: { data: toReply(mustGet(req, ctx)) } }));

  router.put(`${BASE}/:id`, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const record = mustGet(req, ctx);
    if (record.prebuilt) throw conflict('Elastic prebuilt Saved query cannot be updated.');
    const body = requireObjectBody(req.body);
    const real = ctx.settings.realRoutes.has('saved-query-update');
    const updated = real ? mergedUpdate(record, body) : replacingUpdate(record, body);
    const holder = findById(state, updated.id);
    if (holder && holder.saved_object_id !== record.saved_object_id) throw conflict(`Saved query with id "${updated.id}" already exists.`);
    updated.updated_at = ctx.now().toISOString();
    updated.updated_by = req.user;
    state.savedQueries[record.saved_object_id] = updated;
    return { body: { data: real ? realUpdateReply(updated) : toReply(updated) } };
  });

  router.delete(`${BASE}/:id`, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const record = mustGet(req, ctx);
    if (record.prebuilt) throw conflict('Elastic prebuilt Saved query cannot be deleted.');
    delete state.savedQueries[record.saved_object_id];
    return { body: {} };
  });
}

/**
 * service-api.md: "update always needs new_id (the name) and replaces". Every caller field is taken
 * from the body and omitted ones are removed; this is the emulator's default.
 */
function replacingUpdate(record: SavedQueryRecord, body: Record<string, any>): SavedQueryRecord {
  return { ...readReplacingFields(body, 'new_id'), saved_object_id: record.saved_object_id, prebuilt: false, created_at: record.created_at, created_by: record.created_by, updated_at: record.updated_at, updated_by: record.updated_by, seq: record.seq };
}

/**
 * The real route (realRoutes 'saved-query-update'; wire-facts §15 fact 5; osquery server/routes/
 * saved_query/update_saved_query_route.ts): the name comes from `id` (required, as is `query`;
 * `new_id` is an unknown key and ignored), and the write is a saved-object partial update: a field
 * the body leaves out keeps its value, except `description`, which becomes "" (`description || ''`).
 * Values are stored as sent, empty ones included, so a cleared platform reads back "" and a
 * cleared ecs_mapping `{}`. `interval` may be a number or a string of digits (toNumberRt).
 */
function mergedUpdate(record: SavedQueryRecord, body: Record<string, any>): SavedQueryRecord {
  const out: SavedQueryRecord = { ...structuredClone(record), id: requiredString(body, 'id'), query: requiredString(body, 'query') };
  out.description = optionalString(body, 'description') || '';
  if (body.interval !== undefined) out.interval = readInterval(body.interval, { numbers: true });
  for (const field of ['platform', 'version'] as const) {
    const v = optionalString(body, field);
    if (v !== undefined) out[field] = v;
  }
  for (const field of ['snapshot', 'removed'] as const) {
    const v = optionalBoolean(body, field);
    if (v !== undefined) out[field] = v;
  }
  const timeout = optionalTimeout(body, 'timeout');
  if (timeout !== undefined) out.timeout = timeout;
  const ecsMapping = optionalEcsMapping(body, 'ecs_mapping');
  if (ecsMapping !== undefined) out.ecs_mapping = ecsMapping;
  return out;
}

function mustGet(req: EmuRequest, ctx: EmulatorContext): SavedQueryRecord {
  const record = hostQueryState(req, ctx).savedQueries[req.params.id];
  if (!record) throw notFound(`Saved query ${req.params.id} not found`);
  return record;
}

function findById(state: HostQueryState, id: string): SavedQueryRecord | undefined {
  return Object.values(state.savedQueries).find((q) => q.id === id);
}

/**
 * The caller fields of a create (`id`) or document-style update (`new_id`) body. Empty strings and
 * empty maps are not stored (the real create drops empty values before saving); snapshot and
 * removed get the server defaults when omitted (wire-facts §8: "treat snapshot and removed as
 * server-defaulted").
 */
function readReplacingFields(body: Record<string, any>, idField: 'id' | 'new_id'): SavedQueryFields {
  const id = requiredString(body, idField);
  const query = requiredString(body, 'query');
  const interval = readInterval(body.interval, { numbers: false });
  const ecsMapping = optionalEcsMapping(body, 'ecs_mapping');
  const fields: SavedQueryFields = {
    id,
    query,
    interval,
    snapshot: optionalBoolean(body, 'snapshot') ?? true,
    removed: optionalBoolean(body, 'removed') ?? false,
  };
  const description = optionalString(body, 'description');
  const platform = optionalString(body, 'platform');
  const version = optionalString(body, 'version');
  const timeout = optionalTimeout(body, 'timeout');
  if (description) fields.description = description;
  if (platform) fields.platform = platform;
  if (version) fields.version = version;
  if (timeout !== undefined) fields.timeout = timeout;
  if (ecsMapping && Object.keys(ecsMapping).length > 0) fields.ecs_mapping = ecsMapping;
  return fields;
}

/**
 * Seconds as a string of digits (service-api.md Resources: "interval (R, string of seconds)"; the
 * real create codec is a string too). The real update also takes a number (toNumberRt). Stored and
 * answered as a string.
 */
function readInterval(v: unknown, accept: { numbers: boolean }): string {
  if (typeof v === 'string' && /^[1-9][0-9]*$/.test(v)) return v;
  if (accept.numbers && typeof v === 'number' && Number.isInteger(v) && v >= 1) return String(v);
  throw invalid('interval', v);
}

function toReply(record: SavedQueryRecord): Record<string, unknown> {
  const { seq: _seq, ...reply } = record;
  return structuredClone(reply);
}

/** The real update answers only these fields (no created_*, no prebuilt). */
function realUpdateReply(record: SavedQueryRecord): Record<string, unknown> {
  const keys = ['description', 'id', 'removed', 'snapshot', 'version', 'ecs_mapping', 'interval', 'timeout', 'platform', 'query', 'updated_at', 'updated_by', 'saved_object_id'] as const;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = structuredClone(record[key]);
  return out;
}
