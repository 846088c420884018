import type { Resource } from '../manifest/types.js';
import { clone, isPlainObject, sortKeys } from './normalize.js';
import { listAllPages } from './paging.js';
import type { AdapterContext, KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';

/**
 * Data views (/api/data_views; OAS createDataViewDefaultw, updateDataViewDefault,
 * deleteDataViewDefault). metadata.name is the data view id, what a rule's `data_view_id` names.
 *
 * A data view is an `index-pattern` saved object on the real server. The data views list route
 * answers only id, title, name and namespaces (OAS get_data_views_response_item), so the plan
 * lists the saved objects instead (`_find?type=index-pattern`, one request per 1,000), whose
 * attributes hold every field, the maps as JSON strings. Writes go through the data views routes.
 * The update changes only the fields sent, so every managed field is always sent: '' clears the
 * time field, {} the runtime fields and field formats.
 */

const KIND = 'DataView';
const BASE = '/api/data_views/data_view';
/** page × per_page may not pass the search backend's 10 000 result window. */
const PAGE_SIZE = 1000;

/**
 * A value the saved object keeps as JSON text (the maps, the source filters) and the data views API
 * answers parsed: `empty` where it is neither, or not of the expected shape.
 */
function parsedJson<T>(value: unknown, isShape: (v: unknown) => v is T, empty: T): T {
  if (isShape(value)) return value;
  if (typeof value !== 'string' || value === '') return empty;
  try {
    const parsed: unknown = JSON.parse(value);
    return isShape(parsed) ? parsed : empty;
  } catch {
    return empty;
  }
}

const parsedMap = (value: unknown): Record<string, unknown> => parsedJson(value, isPlainObject, {});
/** The source filters, `[{value, clientId?}]`. */
const parsedList = (value: unknown): unknown[] => parsedJson(value, Array.isArray, []);

/** A data view in comparable form, from a manifest spec or a listed saved object's view alike. */
function comparable(source: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {
    title: source.title,
    // An unnamed data view shows its title; the server keeps the name empty.
    name: typeof source.name === 'string' ? source.name : '',
    allowNoIndex: source.allowNoIndex === true,
    runtimeFieldMap: sortKeys(clone(parsedMap(source.runtimeFieldMap))),
    fieldFormats: sortKeys(clone(parsedMap(source.fieldFormats))),
  };
  if (typeof source.timeFieldName === 'string' && source.timeFieldName !== '') out.timeFieldName = source.timeFieldName;
  return out;
}

/** The field filters as a sorted set of their values: the UI's `clientId` is bookkeeping, and the order changes nothing. */
function filterValues(filters: unknown): string[] {
  return [...new Set(parsedList(filters).flatMap((f) => (isPlainObject(f) && typeof f.value === 'string' ? [f.value] : [])))].sort();
}

/**
 * Source filters and field attributes are managed only where the manifest declares them (a data
 * view made in the UI often has both, and svcform did not know them before): compared and written
 * then, left as the server has them otherwise.
 */
function withDeclaredExtras(out: Record<string, any>, source: Record<string, any>, declared: Record<string, any>): Record<string, any> {
  if (declared.sourceFilters !== undefined) out.sourceFilters = filterValues(source.sourceFilters);
  if (declared.fieldAttrs !== undefined) out.fieldAttrs = sortKeys(clone(parsedMap(source.fieldAttrs)));
  return out;
}

/** The data view a listed index-pattern saved object is, in the data views API's field names. */
function viewOf(o: Record<string, any>): Record<string, any> {
  const a = isPlainObject(o.attributes) ? o.attributes : {};
  return {
    id: o.id, title: a.title, name: a.name, timeFieldName: a.timeFieldName, allowNoIndex: a.allowNoIndex, runtimeFieldMap: a.runtimeFieldMap, fieldFormats: a.fieldFormatMap,
    sourceFilters: parsedList(a.sourceFilters), fieldAttrs: parsedMap(a.fieldAttrs), managed: o.managed,
  };
}

function writeBody(res: Resource): Record<string, any> {
  const { title, name, allowNoIndex, runtimeFieldMap, fieldFormats, timeFieldName } = comparable(res.spec);
  const body: Record<string, any> = { title, name, allowNoIndex, runtimeFieldMap, fieldFormats, timeFieldName: timeFieldName ?? '' };
  if (res.spec.sourceFilters !== undefined) body.sourceFilters = res.spec.sourceFilters;
  if (res.spec.fieldAttrs !== undefined) body.fieldAttrs = res.spec.fieldAttrs;
  return body;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The popularity counts the server keeps in fieldAttrs (Discover raises `count` as fields are
 * used), where the manifest gives none: not compared, so use is not drift.
 */
function serverCounts(res: Resource, live: LiveObject): string[] {
  const declared = res.spec.fieldAttrs;
  if (!isPlainObject(declared)) return [];
  const out: string[] = [];
  for (const [field, attrs] of Object.entries(parsedMap(live.body.fieldAttrs))) {
    if (!isPlainObject(attrs) || attrs.count === undefined) continue;
    const mine = declared[field];
    if (!isPlainObject(mine)) {
      if (Object.keys(attrs).every((k) => k === 'count')) out.push(`/spec/fieldAttrs/${escapePointer(field)}`);
    } else if (mine.count === undefined) out.push(`/spec/fieldAttrs/${escapePointer(field)}/count`);
  }
  return out;
}

const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/**
 * The data views the security app makes for a space when it is opened (its sourcerer:
 * `security-solution-<space>`, and for alerts and attacks `security-solution-alert-<space>` and
 * `security-solution-attack-<space>`; security_solution common/constants.ts DEFAULT_DATA_VIEW_ID,
 * DEFAULT_ALERT_DATA_VIEW_ID, DEFAULT_ATTACK_DATA_VIEW_ID). They are not marked managed, yet the
 * entity store reads the first, and the app makes them again once deleted.
 */
export function securityAppDataViews(space: string): string[] {
  return ['security-solution', 'security-solution-alert', 'security-solution-attack'].map((prefix) => `${prefix}-${space}`);
}

/** Why a scope leaves them alone (LiveObject.serverOwned), as DataView or as SavedObject. */
export const SECURITY_APP_DATA_VIEW = 'the security app makes it for the space and makes it again when it is gone; a manage scope never deletes it (declare it to manage its patterns)';

export const dataViewAdapter: KindAdapter = {
  kind: KIND,
  schema: 'DataView.schema.json',
  area: AREAS.savedObjects,

  references() {
    return [];
  },

  async list(ctx, space) {
    const objects = await listAllPages<Record<string, any>>(ctx.api, {
      path: '/api/saved_objects/_find',
      space,
      query: { type: 'index-pattern' },
      sizeParam: 'per_page',
      pageSize: PAGE_SIZE,
      items: (body) => body?.saved_objects ?? [],
      total: (body) => body?.total ?? 0,
    });
    const made = securityAppDataViews(space);
    return objects.map((o): LiveObject => ({
      kind: KIND,
      space,
      name: o.id,
      body: viewOf(o),
      readOnly: o.managed ? 'managed data view' : undefined,
      ...(made.includes(o.id) ? { serverOwned: SECURITY_APP_DATA_VIEW } : {}),
    }));
  },

  normalizeDesired(res) {
    return withDeclaredExtras(comparable(res.spec), res.spec, res.spec);
  },

  normalizeLive(live) {
    // Both extras, in compared form; chosenByServer leaves out what the manifest does not declare.
    return withDeclaredExtras(comparable(live.body), live.body, { sourceFilters: true, fieldAttrs: true });
  },

  chosenByServer(res, live) {
    const out = serverCounts(res, live);
    if (res.spec.sourceFilters === undefined) out.push('/spec/sourceFilters');
    if (res.spec.fieldAttrs === undefined) out.push('/spec/fieldAttrs');
    return out;
  },

  async create(ctx: AdapterContext, res) {
    const { timeFieldName, ...body } = writeBody(res);
    await ctx.api.request({
      method: 'POST',
      path: BASE,
      space: res.space,
      body: { data_view: { id: res.name, ...body, ...(timeFieldName ? { timeFieldName } : {}) } },
      // The id is ours: a repeat after a lost answer gets 409, which the engine settles by reading back.
      idempotent: true,
    });
  },

  async update(ctx, res, live) {
    await ctx.api.request({ method: 'POST', path: pathOf(live.name), space: live.space, body: { data_view: writeBody(res) }, idempotent: true });
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.name), space: live.space });
  },

  toSpec(live) {
    const { title, name, allowNoIndex, runtimeFieldMap, fieldFormats, timeFieldName } = comparable(live.body);
    const spec: Record<string, any> = { title };
    if (name !== '') spec.name = name;
    if (timeFieldName !== undefined) spec.timeFieldName = timeFieldName;
    if (allowNoIndex) spec.allowNoIndex = true;
    if (Object.keys(runtimeFieldMap).length > 0) spec.runtimeFieldMap = runtimeFieldMap;
    if (Object.keys(fieldFormats).length > 0) spec.fieldFormats = fieldFormats;
    const filters = filterValues(live.body.sourceFilters);
    if (filters.length > 0) spec.sourceFilters = filters.map((value) => ({ value }));
    // Labels and descriptions are configuration; a popularity count is use, and is not exported.
    const attrs = Object.entries(parsedMap(live.body.fieldAttrs)).flatMap(([field, a]) => {
      if (!isPlainObject(a)) return [];
      const { count: _count, ...kept } = a;
      return Object.keys(kept).length > 0 ? [[field, kept] as const] : [];
    });
    if (attrs.length > 0) spec.fieldAttrs = sortKeys(Object.fromEntries(attrs));
    return { spec };
  },
};
