import type { EmulatorContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import {
  findPage,
  hostQueryState,
  invalid,
  optionalBoolean,
  optionalEcsMapping,
  optionalPositiveInt,
  optionalString,
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
 * (unique per space) and the server's `saved_object_id`, which is the one in paths.
 */
export function registerSavedQueries(router: Router): void {
  router.post(BASE, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const fields = readFields(requireObjectBody(req.body), 'id');
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

  // service-api.md: "update always needs new_id (the name) and replaces". It wins over the merge
  // wire-facts §8 describes: every caller field is taken from the body, omitted ones are removed.
  router.put(`${BASE}/:id`, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const record = mustGet(req, ctx);
    if (record.prebuilt) throw badRequest('Prebuilt saved query cannot be updated.');
    const fields = readFields(requireObjectBody(req.body), 'new_id');
    const holder = findById(state, fields.id);
    if (holder && holder.saved_object_id !== record.saved_object_id) throw conflict(`Saved query with id "${fields.id}" already exists.`);
    const replaced: SavedQueryRecord = {
      ...fields,
      saved_object_id: record.saved_object_id,
      prebuilt: false,
      created_at: record.created_at,
      created_by: record.created_by,
      updated_at: ctx.now().toISOString(),
      updated_by: req.user,
      seq: record.seq,
    };
    state.savedQueries[record.saved_object_id] = replaced;
    return { body: { data: toReply(replaced) } };
  });

  router.delete(`${BASE}/:id`, (req, ctx) => {
    const state = hostQueryState(req, ctx);
    const record = mustGet(req, ctx);
    if (record.prebuilt) throw badRequest('Prebuilt saved query cannot be deleted.');
    delete state.savedQueries[record.saved_object_id];
    return { body: {} };
  });
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
 * The caller fields of a create (`id`) or update (`new_id`) body. Empty strings and empty maps are
 * not stored (the real server drops empty values before saving); snapshot and removed get the
 * server defaults when omitted (wire-facts §8: "treat snapshot and removed as server-defaulted").
 */
function readFields(body: Record<string, any>, idField: 'id' | 'new_id'): SavedQueryFields {
  const id = requiredString(body, idField);
  const query = requiredString(body, 'query');
  const interval = readInterval(body.interval);
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
  const timeout = optionalPositiveInt(body, 'timeout');
  if (description) fields.description = description;
  if (platform) fields.platform = platform;
  if (version) fields.version = version;
  if (timeout !== undefined) fields.timeout = timeout;
  if (ecsMapping && Object.keys(ecsMapping).length > 0) fields.ecs_mapping = ecsMapping;
  return fields;
}

/** Seconds as an integer or a string of digits; stored and answered as a string. */
function readInterval(v: unknown): string {
  if (v === undefined) throw invalid('interval', 'Required');
  if (typeof v === 'number' && Number.isInteger(v) && v >= 1) return String(v);
  if (typeof v === 'string' && /^[1-9][0-9]*$/.test(v)) return v;
  throw invalid('interval', 'Expected a positive number of seconds (integer or string of digits)');
}

function toReply(record: SavedQueryRecord): Record<string, unknown> {
  const { seq: _seq, ...reply } = record;
  return structuredClone(reply);
}
