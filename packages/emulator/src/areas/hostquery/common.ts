import type { EmulatorContext } from '../../context.js';
import { badRequest, EmuError } from '../../errors.js';
import type { EmuRequest } from '../../router.js';

/** Store slot name of the host-query area (per space). */
export const HOSTQUERY_AREA = 'hostquery';

export type EcsMapping = Record<string, { field?: string; value?: string | string[]; [other: string]: unknown }>;

export interface SavedQueryRecord {
  saved_object_id: string;
  /** The user-chosen name, unique per space. */
  id: string;
  query: string;
  /** Seconds, kept as the string the API answers with (wire-facts §8). */
  interval: string;
  description?: string;
  platform?: string;
  version?: string;
  timeout?: number;
  ecs_mapping?: EcsMapping;
  snapshot: boolean;
  removed: boolean;
  prebuilt: boolean;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  /** Creation order, the tie-break when timestamps are equal (never returned). */
  seq: number;
}

export interface PackQuery {
  query: string;
  /** Optional (wire-facts §16 #4): a query without one is stored and answered without one. */
  interval?: number;
  platform?: string;
  version?: string;
  ecs_mapping?: EcsMapping;
  snapshot?: boolean;
  removed?: boolean;
  timeout?: number;
}

export interface PackRecord {
  saved_object_id: string;
  name: string;
  description?: string;
  /** Stored only when a caller sent it: the real server fills no default. */
  enabled?: boolean;
  queries: Record<string, PackQuery>;
  policy_ids: string[];
  shards: Record<string, number>;
  read_only: boolean;
  /** Set on prebuilt (package-installed) packs only. */
  version?: number;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  seq: number;
}

export interface HostQueryState {
  savedQueries: Record<string, SavedQueryRecord>;
  packs: Record<string, PackRecord>;
  seq: number;
}

/** The prebuilt content the host-query integration installs in every space. */
const PREBUILT_SAVED_QUERIES: Array<Pick<SavedQueryRecord, 'id' | 'query' | 'interval' | 'description' | 'platform'>> = [
  { id: 'prebuilt_users', query: 'SELECT * FROM users;', interval: '3600', description: 'Local user accounts.', platform: 'linux,darwin,windows' },
  { id: 'prebuilt_listening_ports', query: 'SELECT pid, port, protocol, address FROM listening_ports;', interval: '600', description: 'Processes with listening sockets.', platform: 'linux,darwin,windows' },
  { id: 'prebuilt_startup_items', query: 'SELECT name, path, source, status FROM startup_items;', interval: '86400', description: 'Programs started at boot or logon.', platform: 'windows' },
];

const PREBUILT_PACK: Pick<PackRecord, 'name' | 'description' | 'queries'> = {
  name: 'prebuilt-hardware-monitoring',
  description: 'Hardware inventory and changes, installed with the host-query integration.',
  queries: {
    pci_devices: { query: 'SELECT * FROM pci_devices;', interval: 86400, platform: 'linux', version: '1.4.5' },
    usb_devices: { query: 'SELECT * FROM usb_devices;', interval: 3600, platform: 'linux,darwin' },
  },
};

const PREBUILT_USER = 'elastic';

export function hostQueryState(req: EmuRequest, ctx: EmulatorContext): HostQueryState {
  return ctx.store.area<HostQueryState>(req.space, HOSTQUERY_AREA, () => seedState(ctx));
}

function seedState(ctx: EmulatorContext): HostQueryState {
  const state: HostQueryState = { savedQueries: {}, packs: {}, seq: 0 };
  const installedAt = ctx.now().toISOString();
  for (const q of PREBUILT_SAVED_QUERIES) {
    const soId = ctx.uuid();
    state.savedQueries[soId] = {
      ...q,
      saved_object_id: soId,
      snapshot: true,
      removed: false,
      prebuilt: true,
      created_at: installedAt,
      created_by: PREBUILT_USER,
      updated_at: installedAt,
      updated_by: PREBUILT_USER,
      seq: ++state.seq,
    };
  }
  const packId = ctx.uuid();
  state.packs[packId] = {
    ...structuredClone(PREBUILT_PACK),
    saved_object_id: packId,
    enabled: false,
    policy_ids: [],
    shards: {},
    read_only: true,
    version: 1,
    created_at: installedAt,
    created_by: PREBUILT_USER,
    updated_at: installedAt,
    updated_by: PREBUILT_USER,
    seq: ++state.seq,
  };
  return state;
}

// ---------------------------------------------------------------------------------------------
// Body validation. The real routes validate bodies with io-ts codecs (osquery
// server/utils/build_validation/route_validation.ts: decode, then exactCheck, then formatErrors from
// @kbn/securitysolution-io-ts-utils), so a failure is a platform 400 whose message reads
// `[request body]: Invalid value "<value>" supplied to "<path>"`, the path being the keys from
// the body down to the field joined with commas. None of the codecs is wrapped in t.exact, so
// exactCheck finds nothing to report: unknown keys are accepted and ignored, at every depth.

/** A path for `invalid`: keys from the body down to the field, as io-ts reports them (integer keys left out). */
export function pathOf(...keys: string[]): string {
  return keys.filter((k) => k.trim() !== '' && !Number.isInteger(Number(k))).join(',');
}

export function invalid(path: string, value: unknown): EmuError {
  const shown = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  return badRequest(`[request body]: Invalid value "${shown}" supplied to "${path}"`);
}

export function requireObjectBody(body: unknown): Record<string, any> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('', body);
  return body as Record<string, any>;
}

export function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function optionalString(body: Record<string, any>, field: string, path = field): string | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(path, v);
  return v;
}

/**
 * A required string. The codecs take any string, "" included; the emulator also refuses "" for the
 * fields service-api.md marks required (R), since an empty name or query is no value at all.
 */
export function requiredString(body: Record<string, any>, field: string, path = field): string {
  const s = optionalString(body, field, path);
  if (s === undefined || s.length === 0) throw invalid(path, body[field]);
  return s;
}

export function optionalBoolean(body: Record<string, any>, field: string, path = field): boolean | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw invalid(path, v);
  return v;
}

export function optionalPositiveInt(body: Record<string, any>, field: string, path = field): number | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid(path, v);
  return v;
}

/** Query timeout bounds in seconds (osquery-io-ts-types `timeout = inRangeRt(60, 60 * 15)`). */
const TIMEOUT_MIN = 60;
const TIMEOUT_MAX = 900;

export function optionalTimeout(body: Record<string, any>, field: string, path = field): number | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < TIMEOUT_MIN || v > TIMEOUT_MAX) throw invalid(path, v);
  return v;
}

/** `t.array(t.string)`, optional. */
export function optionalStringArray(body: Record<string, any>, field: string, path = field): string[] | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) throw invalid(path, v);
  for (const item of v) if (typeof item !== 'string') throw invalid(path, item);
  return v;
}

/**
 * ecs_mapping: a map of ECS field to `{field?, value?}` (osquery-io-ts-types ecsMapping, a t.partial:
 * neither key is required and other keys pass); `value` is a string or an array of strings.
 */
export function optionalEcsMapping(body: Record<string, any>, field: string, path = field): EcsMapping | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (!isPlainRecord(v)) throw invalid(path, v);
  const out: EcsMapping = {};
  for (const [key, entry] of Object.entries(v)) {
    const at = pathOf(path, key);
    if (!isPlainRecord(entry)) throw invalid(at, entry);
    const { field: column, value } = entry;
    if (column !== undefined && typeof column !== 'string') throw invalid(pathOf(at, 'field'), column);
    const valueOk = value === undefined || typeof value === 'string' || (Array.isArray(value) && value.every((x) => typeof x === 'string'));
    if (!valueOk) throw invalid(pathOf(at, 'value'), value);
    // Kept whole, other keys included: the route passes the decoded entry on to the saved object.
    out[key] = structuredClone(entry) as EcsMapping[string];
  }
  return out;
}

/** ecs_mapping as the saved object stores it: an array of `{key, value}` (osquery routes/utils.ts). */
export function ecsMappingToStored(mapping: EcsMapping): Array<{ key: string; value: EcsMapping[string] }> {
  return Object.entries(mapping).map(([key, value]) => ({ key, value: structuredClone(value) }));
}

// ---------------------------------------------------------------------------------------------
// Find paging: page (default 1), pageSize (default 20), sort (default createdAt), sortOrder
// (default desc). The search window page × pageSize ≤ 10 000 is enforced with a 400.

export const SEARCH_WINDOW = 10_000;

export interface FindParams {
  page: number;
  pageSize: number;
  sortField: string;
  sortOrder: 'asc' | 'desc';
}

/**
 * The wire names are pageSize and sortOrder (wire-facts 0.4); service-api.md writes the caller-side
 * page_size and sort_order, so those spellings are taken too.
 */
export function parseFindParams(query: URLSearchParams, sortFields: Record<string, string>): FindParams {
  const page = intParam(query, 'page', 1, 1);
  const pageSize = intParam(query, query.has('pageSize') ? 'pageSize' : 'page_size', 20, 0);
  if (page * pageSize > SEARCH_WINDOW) {
    throw badRequest(`Result window is too large, page * pageSize must be less than or equal to: [${SEARCH_WINDOW}] but was [${page * pageSize}]`);
  }
  const sortName = query.get('sort') ?? 'createdAt';
  const sortField = sortFields[sortName];
  if (!sortField) throw badRequest(`[request query]: sort: Expected one of ${Object.keys(sortFields).join(', ')}, received '${sortName}'`);
  const order = query.get('sortOrder') ?? query.get('sort_order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw badRequest(`[request query]: sortOrder: Expected 'asc' | 'desc', received '${order}'`);
  return { page, pageSize, sortField, sortOrder: order };
}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw badRequest(`[request query]: ${name}: Expected an integer >= ${min}, received '${raw}'`);
  return n;
}

/** Sorts by the field with the creation order as tie-break (so pages never overlap) and cuts one page. */
export function findPage<T extends { seq: number }>(records: T[], params: FindParams): { total: number; items: T[] } {
  const dir = params.sortOrder === 'asc' ? 1 : -1;
  const sorted = [...records].sort((a, b) => {
    const x = (a as any)[params.sortField];
    const y = (b as any)[params.sortField];
    const c = x < y ? -1 : x > y ? 1 : 0;
    return (c !== 0 ? c : a.seq - b.seq) * dir;
  });
  const start = (params.page - 1) * params.pageSize;
  return { total: records.length, items: sorted.slice(start, start + params.pageSize) };
}
