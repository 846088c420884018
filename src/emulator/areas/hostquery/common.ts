import type { EmulatorContext } from '../../context.js';
import { badRequest, EmuError } from '../../errors.js';
import type { EmuRequest } from '../../router.js';

/** Store slot name of the host-query area (per space). */
export const HOSTQUERY_AREA = 'hostquery';

export type EcsMapping = Record<string, { field?: string; value?: string | string[] }>;

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
  interval: number;
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
// Body validation. Route-schema failures are platform 400s worded like the real route validation
// ("[request body]: name: Required", wire-facts 0.3).

export function invalid(field: string, problem: string): EmuError {
  return badRequest(`[request body]: ${field}: ${problem}`);
}

export function requireObjectBody(body: unknown): Record<string, any> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('[request body]: Expected object, received ' + describe(body));
  }
  return body as Record<string, any>;
}

export function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function optionalString(body: Record<string, any>, field: string, path = field): string | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(path, `Expected string, received ${describe(v)}`);
  return v;
}

export function requiredString(body: Record<string, any>, field: string, path = field): string {
  const v = body[field];
  if (v === undefined) throw invalid(path, 'Required');
  const s = optionalString(body, field, path) as string;
  if (s.length === 0) throw invalid(path, 'String must contain at least 1 character(s)');
  return s;
}

export function optionalBoolean(body: Record<string, any>, field: string, path = field): boolean | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw invalid(path, `Expected boolean, received ${describe(v)}`);
  return v;
}

export function optionalPositiveInt(body: Record<string, any>, field: string, path = field): number | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid(path, 'Expected a positive integer');
  return v;
}

export function optionalEcsMapping(body: Record<string, any>, field: string, path = field): EcsMapping | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(path, `Expected object, received ${describe(v)}`);
  for (const [key, entry] of Object.entries(v as Record<string, unknown>)) {
    const at = `${path}.${key}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid(at, `Expected object, received ${describe(entry)}`);
    const { field: column, value, ...rest } = entry as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw invalid(at, `Unrecognized key(s) in object: ${Object.keys(rest).map((k) => `'${k}'`).join(', ')}`);
    if (column === undefined && value === undefined) throw invalid(at, 'Expected field or value');
    if (column !== undefined && typeof column !== 'string') throw invalid(`${at}.field`, `Expected string, received ${describe(column)}`);
    const valueOk = value === undefined || typeof value === 'string' || (Array.isArray(value) && value.every((x) => typeof x === 'string'));
    if (!valueOk) throw invalid(`${at}.value`, 'Expected string or array of strings');
  }
  return structuredClone(v) as EcsMapping;
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
