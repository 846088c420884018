import type { EmulatorArea } from '../../area.js';
import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest } from '../../router.js';
import { array, enumOf, int, object, optional, parseRequest, string, type Schema } from '../../zod.js';
import { BULK_CRITICALITY_LEVELS, CRITICALITY_LEVELS, ID_FIELDS, MAX_BULK_RECORDS, MAX_LIST_PER_PAGE } from '../../facts/asset-criticality.js';
import { compareCodePoints, kueryPredicate, kueryTree, termAndRanges, type DocFields, type TermAndRanges } from './kuery.js';

type Doc = Record<string, unknown>;

/**
 * Asset criticality (service-api.md Entity analytics, lines "POST /api/asset_criticality" to
 * "GET /api/asset_criticality/list"; OAS paths /api/asset_criticality, /bulk and /list, operations
 * CreateAssetCriticalityRecord, GetAssetCriticalityRecord, DeleteAssetCriticalityRecord,
 * BulkUpsertAssetCriticalityRecords, FindAssetCriticalityRecords). One record per
 * (id_field, id_value) in each space. Deprecated since 9.4 but functional (service-api.md
 * Versioning 3): the routes answer as before; the OAS declares no deprecation header or field, so
 * none is sent.
 */

const BASE = '/api/asset_criticality';
/** The search backend's result window (wire-facts 0.4: page x per_page <= 10,000). */
const SEARCH_WINDOW = 10_000;
/** per_page when the request gives none. */
const DEFAULT_PER_PAGE = 10;
const SORT_FIELDS = ['id_value', 'id_field', 'criticality_level', '@timestamp'] as const;

interface Stored {
  id_field: string;
  id_value: string;
  criticality_level: string;
  '@timestamp': string;
}

interface State {
  records: Record<string, Stored>;
}

const state = (ctx: EmulatorContext, space: string) => ctx.store.area<State>(space, 'asset_criticality', () => ({ records: {} }));
const keyOf = (idField: string, idValue: string) => `${idField}:${idValue}`;

// OAS Security_Entity_Analytics_API_AssetCriticalityRecordIdParts, _AssetCriticalityLevel,
// _AssetCriticalityLevelsForBulkUpload: plain zod objects, so unknown keys are stripped.
const idParts = { id_field: enumOf(ID_FIELDS), id_value: string() };
const CreateBody = object({ ...idParts, criticality_level: enumOf(CRITICALITY_LEVELS), refresh: optional(enumOf(['wait_for'])) });
const BulkBody = object({
  records: array(object({ ...idParts, criticality_level: enumOf(BULK_CRITICALITY_LEVELS) }), { min: 1, max: MAX_BULK_RECORDS }),
});
const IdQuery = object({ ...idParts });
const DeleteQuery = object({ ...idParts, refresh: optional(enumOf(['wait_for'])) });

/** A query parameter as `z.coerce.number().int()` reads it, checked against its bounds. */
function coercedInt(min: number, max?: number): Schema<number> {
  const inner = int(min, max);
  return {
    optional: true,
    parse: (v, path, issues) => (v === undefined ? undefined : inner.parse(Number(v), path, issues)),
  } as Schema<number>;
}

const ListQuery = object({
  sort_field: optional(enumOf(SORT_FIELDS)),
  sort_direction: optional(enumOf(['asc', 'desc'])),
  page: coercedInt(1),
  per_page: coercedInt(1, MAX_LIST_PER_PAGE),
  kuery: optional(string()),
});

function queryObject(req: EmuRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of req.query) out[k] = v;
  return out;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Each record's answer as JSON text, made once per write of it (a listing sends every record it pages through). */
const renderedJson = new WeakMap<Stored, string>();

function recordJson(r: Stored): string {
  let text = renderedJson.get(r);
  if (text === undefined) renderedJson.set(r, (text = JSON.stringify(render(r))));
  return text;
}

/**
 * A record as the routes answer it (OAS AssetCriticalityRecord): the id parts, the level, the
 * time of the last write, and the ECS parts (`asset.criticality` and the entity's own field).
 */
function render(r: Stored): Doc {
  const [entity, leaf] = r.id_field.split('.');
  return {
    id_field: r.id_field,
    id_value: r.id_value,
    criticality_level: r.criticality_level,
    '@timestamp': r['@timestamp'],
    asset: { criticality: r.criticality_level },
    [entity]: { [leaf]: r.id_value, asset: { criticality: r.criticality_level } },
  };
}

/**
 * A record's fields as the index holds them (render's fields, dotted), read without rendering it:
 * a listing filters every record of the space for each page it answers.
 */
const RECORD_FIELDS: DocFields<Stored> = {
  value(r, field) {
    switch (field) {
      case 'id_field':
      case 'id_value':
      case 'criticality_level':
      case '@timestamp':
        return r[field];
      case 'asset.criticality':
        return r.criticality_level;
    }
    if (field === r.id_field) return r.id_value;
    if (field === `${r.id_field.split('.')[0]}.asset.criticality`) return r.criticality_level;
    return undefined;
  },
  names(r) {
    const [entity] = r.id_field.split('.');
    return ['id_field', 'id_value', 'criticality_level', '@timestamp', 'asset.criticality', r.id_field, `${entity}.asset.criticality`];
  },
};

interface Views {
  /** Records in one sort order, by `field:direction`. */
  sorted: Map<string, Stored[]>;
  /** Records of one id_field by id_value ascending, by id_field. */
  byField: Map<string, Stored[]>;
  /** Records a kuery matches in one sort order, by `field:direction|kuery` (the pages of one query share it). */
  matched: Map<string, Stored[]>;
}

/** Orders and filters of a space's records, kept until its next write (a listing reads many pages). */
const viewsCache = new WeakMap<State, Views>();
/** Filtered views kept per space at most; beyond it they are dropped and computed again. */
const MAX_MATCHED_VIEWS = 64;

function views(s: State): Views {
  let v = viewsCache.get(s);
  if (!v) viewsCache.set(s, (v = { sorted: new Map(), byField: new Map(), matched: new Map() }));
  return v;
}

function sortedRecords(s: State, field: string | undefined, direction: 'asc' | 'desc'): Stored[] {
  const byOrder = views(s).sorted;
  const key = `${field ?? ''}:${direction}`;
  let sorted = byOrder.get(key);
  if (!sorted) {
    sorted = Object.values(s.records);
    if (field) {
      const sign = direction === 'desc' ? -1 : 1;
      const value = (r: Stored) => (r as unknown as Record<string, string>)[field];
      // Without surrogates, UTF-16 order is code point order and the plain comparison is exact.
      const plain = !sorted.some((r) => SURROGATE.test(value(r)));
      const cmp =
        field === '@timestamp'
          ? (a: Stored, b: Stored) => Date.parse(value(a)) - Date.parse(value(b))
          : plain
            ? (a: Stored, b: Stored) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : 0)
            : (a: Stored, b: Stored) => compareCodePoints(value(a), value(b));
      // Ties in the key's order: the index's order is not a stable promise, this one is.
      sorted.sort((a, b) => sign * cmp(a, b) || compareCodePoints(keyOf(a.id_field, a.id_value), keyOf(b.id_field, b.id_value)));
    }
    byOrder.set(key, sorted);
  }
  return sorted;
}

/** The first index of `sorted` (by id_value ascending) whose id_value is not before `bound` (`strict`: after it). */
function firstFrom(sorted: Stored[], bound: string, strict: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareCodePoints(sorted[mid].id_value, bound);
    if (c < 0 || (strict && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `id_field: "x" and id_value > "y"` sorted by id_value: a slice of the id_field's records, found
 * by binary search, as the backend answers a keyword range from its index instead of a scan (a
 * caller paging past the search window sends one such query per 10,000 records).
 */
function rangeOfField(s: State, q: TermAndRanges, direction: 'asc' | 'desc'): Stored[] {
  const v = views(s);
  let sorted = v.byField.get(q.term);
  if (!sorted) v.byField.set(q.term, (sorted = sortedRecords(s, 'id_value', 'asc').filter((r) => r.id_field === q.term)));
  let from = 0;
  let to = sorted.length;
  for (const { op, bound } of q.ranges) {
    if (op === '>' || op === '>=') from = Math.max(from, firstFrom(sorted, bound, op === '>'));
    else to = Math.min(to, firstFrom(sorted, bound, op === '<='));
  }
  const out = from < to ? sorted.slice(from, to) : [];
  return direction === 'desc' ? out.reverse() : out;
}

function matchingRecords(s: State, field: string | undefined, direction: 'asc' | 'desc', kuery: string | undefined): Stored[] {
  if (!kuery) return sortedRecords(s, field, direction);
  const matched = views(s).matched;
  const key = `${field ?? ''}:${direction}|${kuery}`;
  let out = matched.get(key);
  if (!out) {
    const tree = kueryTree(kuery);
    const indexed = field === 'id_value' ? termAndRanges(tree, 'id_field', 'id_value') : undefined;
    out = indexed ? rangeOfField(s, indexed, direction) : sortedRecords(s, field, direction).filter(kueryPredicate(tree, RECORD_FIELDS));
    if (matched.size >= MAX_MATCHED_VIEWS) matched.clear();
    matched.set(key, out);
  }
  return out;
}

function written(ctx: EmulatorContext, s: State): void {
  viewsCache.delete(s);
  ctx.store.touch();
}

function upsert(s: State, idField: string, idValue: string, level: string, now: string): Stored {
  const r: Stored = { id_field: idField, id_value: idValue, criticality_level: level, '@timestamp': now };
  s.records[keyOf(idField, idValue)] = r;
  return r;
}

export const assetCriticalityArea: EmulatorArea = {
  name: 'asset_criticality',
  register(router) {
    const security = { errors: 'security' as const };

    router.post(BASE, (req, ctx) => {
      const body = parseRequest(CreateBody, req.body);
      const s = state(ctx, req.space);
      const r = upsert(s, body.id_field, body.id_value, body.criticality_level, ctx.now().toISOString());
      written(ctx, s);
      return { body: render(r) };
    }, { ...security, access: 'all' });

    router.get(BASE, (req, ctx) => {
      const q = parseRequest(IdQuery, queryObject(req), 'request query');
      const r = state(ctx, req.space).records[keyOf(q.id_field, q.id_value)];
      // OAS GetAssetCriticalityRecord: "404 Criticality record not found".
      if (!r) throw new EmuError(404, 'Not Found', 'platform');
      return { body: render(r) };
    }, { ...security, access: 'read' });

    router.delete(BASE, (req, ctx) => {
      const q = parseRequest(DeleteQuery, queryObject(req), 'request query');
      const s = state(ctx, req.space);
      const key = keyOf(q.id_field, q.id_value);
      const r = s.records[key];
      // service-api.md: "deleted (bool) and the deleted record; no error when none existed".
      if (!r) return { body: { deleted: false } };
      delete s.records[key];
      written(ctx, s);
      return { body: { deleted: true, record: render(r) } };
    }, { ...security, access: 'all' });

    router.post(`${BASE}/bulk`, (req, ctx) => {
      const body = parseRequest(BulkBody, req.body);
      const s = state(ctx, req.space);
      const now = ctx.now().toISOString();
      for (const rec of body.records) {
        // `unassigned` removes the assignment (service-api.md "bulk also unassigned").
        if (rec.criticality_level === 'unassigned') delete s.records[keyOf(rec.id_field, rec.id_value)];
        else upsert(s, rec.id_field, rec.id_value, rec.criticality_level, now);
      }
      written(ctx, s);
      const total = body.records.length;
      return { body: { errors: [], stats: { successful: total, failed: 0, total } } };
    }, { ...security, access: 'all' });

    router.get(`${BASE}/list`, (req, ctx) => {
      const q = parseRequest(ListQuery, queryObject(req), 'request query');
      const page: number = q.page ?? 1;
      const perPage: number = q.per_page ?? DEFAULT_PER_PAGE;
      if (page * perPage > SEARCH_WINDOW) {
        throw new EmuError(
          400,
          `Result window is too large, from + size must be less than or equal to: [${SEARCH_WINDOW}] but was [${page * perPage}]. ` +
            'See the scroll api for a more efficient way to request large data sets.',
          'security',
        );
      }
      const matching = matchingRecords(state(ctx, req.space), q.sort_field, q.sort_direction ?? 'asc', q.kuery);
      const from = (page - 1) * perPage;
      const records = matching.slice(from, from + perPage).map(recordJson);
      const text = `{"records":[${records.join(',')}],"total":${matching.length},"page":${page},"per_page":${perPage}}`;
      return { text, contentType: 'application/json; charset=utf-8' };
    }, { ...security, access: 'read' });
  },
};
