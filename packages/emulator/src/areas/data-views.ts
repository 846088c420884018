import type { EmulatorArea } from '../area.js';
import type { EmulatorContext } from '../context.js';
import { schema, validateRequest } from '../config-schema.js';
import { EmuError, badRequest, conflict } from '../errors.js';
import type { EmuRequest } from '../router.js';
import { keyOf, objectsOf, type StoredObject } from './saved-objects.js';

/**
 * Data views (/api/data_views; OAS getAllDataViewsDefault, createDataViewDefaultw,
 * getDataViewDefault, updateDataViewDefault, deleteDataViewDefault), platform error shape.
 *
 * A data view IS an `index-pattern` saved object on the real server: this area keeps none of its
 * own but reads and writes those of the saved-objects area, so a data view made here is found by
 * `/api/saved_objects/_find?type=index-pattern` and an index-pattern saved object is a data view.
 * The saved object keeps the maps and lists as JSON strings (`runtimeFieldMap`, `fieldFormatMap`,
 * `sourceFilters`, `fieldAttrs`, `typeMeta`, `fields`), as the real one does.
 */

const TYPE = 'index-pattern';
const RUNTIME_TYPES = ['keyword', 'long', 'double', 'date', 'ip', 'boolean', 'geo_point', 'composite'];

const runtimeField = schema.object({
  type: schema.oneOf(RUNTIME_TYPES.map((t) => schema.literal(t))),
  script: schema.maybe(schema.object({ source: schema.string() })),
  fields: schema.maybe(schema.recordOf(schema.any())),
  customLabel: schema.maybe(schema.string()),
  customDescription: schema.maybe(schema.string()),
  popularity: schema.maybe(schema.number({ min: 0 })),
  format: schema.maybe(schema.any()),
});
const fieldFormat = schema.object({ id: schema.maybe(schema.string()), params: schema.maybe(schema.any()) });
const sourceFilters = schema.arrayOf(schema.object({ value: schema.string(), clientId: schema.maybe(schema.oneOf([schema.string(), schema.number()])) }));

/** The fields a write may set, in the order the plugin declares them (the first failing key is the one reported). */
const specFields = {
  title: schema.string(),
  version: schema.maybe(schema.string()),
  id: schema.maybe(schema.string()),
  type: schema.maybe(schema.string()),
  timeFieldName: schema.maybe(schema.string()),
  sourceFilters: schema.maybe(sourceFilters),
  fields: schema.maybe(schema.recordOf(schema.any())),
  typeMeta: schema.maybe(schema.any()),
  fieldFormats: schema.maybe(schema.recordOf(fieldFormat)),
  fieldAttrs: schema.maybe(schema.recordOf(schema.any())),
  allowNoIndex: schema.maybe(schema.boolean()),
  runtimeFieldMap: schema.maybe(schema.recordOf(runtimeField)),
  name: schema.maybe(schema.string()),
  namespaces: schema.maybe(schema.arrayOf(schema.string())),
  allowHidden: schema.maybe(schema.boolean()),
};
const CreateBody = schema.object({
  override: schema.maybe(schema.boolean()),
  refresh_fields: schema.maybe(schema.boolean()),
  data_view: schema.object(specFields),
});
/** An update names only what changes: every field optional, no id, version or namespaces. */
const UpdateBody = schema.object({
  refresh_fields: schema.maybe(schema.boolean()),
  data_view: schema.object({
    title: schema.maybe(specFields.title),
    type: specFields.type,
    timeFieldName: specFields.timeFieldName,
    sourceFilters: specFields.sourceFilters,
    fields: specFields.fields,
    typeMeta: specFields.typeMeta,
    fieldFormats: specFields.fieldFormats,
    fieldAttrs: specFields.fieldAttrs,
    allowNoIndex: specFields.allowNoIndex,
    runtimeFieldMap: specFields.runtimeFieldMap,
    name: specFields.name,
    allowHidden: specFields.allowHidden,
  }),
});

/** Spec field -> saved-object attribute kept as a JSON string. */
const AS_JSON: Record<string, string> = { runtimeFieldMap: 'runtimeFieldMap', fieldFormats: 'fieldFormatMap', sourceFilters: 'sourceFilters', fieldAttrs: 'fieldAttrs', typeMeta: 'typeMeta', fields: 'fields' };
const PLAIN = ['title', 'name', 'timeFieldName', 'allowNoIndex', 'type', 'allowHidden'];

function toAttributes(spec: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of PLAIN) if (spec[key] !== undefined) out[key] = spec[key];
  for (const [key, attr] of Object.entries(AS_JSON)) if (spec[key] !== undefined) out[attr] = JSON.stringify(spec[key]);
  return out;
}

function parsed(text: unknown, fallback: unknown): unknown {
  if (typeof text !== 'string') return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** The data view of a saved object, as GET /api/data_views/data_view/{id} answers it. */
function render(o: StoredObject, space: string): Record<string, unknown> {
  const a = o.attributes as Record<string, any>;
  const view: Record<string, unknown> = {
    id: o.id,
    version: o.version,
    title: a.title,
    name: a.name ?? '',
    sourceFilters: parsed(a.sourceFilters, []),
    fields: {},
    fieldFormats: parsed(a.fieldFormatMap, {}),
    runtimeFieldMap: parsed(a.runtimeFieldMap, {}),
    fieldAttrs: parsed(a.fieldAttrs, {}),
    allowNoIndex: a.allowNoIndex === true,
    allowHidden: a.allowHidden === true,
    namespaces: [space],
  };
  if (a.timeFieldName !== undefined) view.timeFieldName = a.timeFieldName;
  if (a.type !== undefined) view.type = a.type;
  if (a.typeMeta !== undefined) view.typeMeta = parsed(a.typeMeta, undefined);
  return view;
}

const notFound = (id: string) => new EmuError(404, `Saved object [${TYPE}/${id}] not found`, 'platform');
const displayName = (a: Record<string, any>) => (typeof a.name === 'string' && a.name !== '' ? a.name : a.title);

function existing(ctx: EmulatorContext, req: EmuRequest): StoredObject {
  const o = objectsOf(ctx, req.space)[keyOf(TYPE, req.params.id)];
  if (!o) throw notFound(req.params.id);
  return o;
}

export const dataViewsArea: EmulatorArea = {
  name: 'data_views',
  register(router) {
    router.get('/api/data_views', (req, ctx) => ({
      body: {
        data_view: Object.values(objectsOf(ctx, req.space))
          .filter((o) => o.type === TYPE)
          .map((o) => {
            const a = o.attributes as Record<string, any>;
            const item: Record<string, unknown> = { id: o.id, namespaces: [req.space], title: a.title, name: a.name ?? '' };
            if (a.typeMeta !== undefined) item.typeMeta = parsed(a.typeMeta, undefined);
            return item;
          }),
      },
    }), { access: 'read' });

    router.post('/api/data_views/data_view', (req, ctx) => {
      const body = validateRequest<Record<string, any>>(CreateBody, req.body);
      const spec = body.data_view;
      const objects = objectsOf(ctx, req.space);
      const id = spec.id ?? ctx.uuid();
      if (objects[keyOf(TYPE, id)]) throw conflict(`Saved object [${TYPE}/${id}] conflict`);
      // One data view per display name (name, else title) in a space; `override` replaces it.
      const name = displayName(spec);
      const dupe = Object.values(objects).find((o) => o.type === TYPE && displayName(o.attributes) === name);
      if (dupe && !body.override) throw badRequest(`Duplicate data view: ${name}`);
      if (dupe) delete objects[keyOf(TYPE, dupe.id)];
      const now = ctx.now().toISOString();
      const o: StoredObject = { type: TYPE, id, attributes: { fields: '[]', ...toAttributes(spec) }, references: [], version: ctx.store.versionToken(), created_at: now, updated_at: now, managed: false };
      objects[keyOf(TYPE, id)] = o;
      ctx.store.touch();
      return { body: { data_view: render(o, req.space) } };
    }, { access: 'all' });

    router.get('/api/data_views/data_view/:id', (req, ctx) => ({ body: { data_view: render(existing(ctx, req), req.space) } }), { access: 'read' });

    router.post('/api/data_views/data_view/:id', (req, ctx) => {
      const body = validateRequest<Record<string, any>>(UpdateBody, req.body);
      const o = existing(ctx, req);
      // Only the fields sent change; the others stay as they are (OAS Data_views_update_data_view_request_object_inner).
      o.attributes = { ...o.attributes, ...toAttributes(body.data_view) };
      o.version = ctx.store.versionToken();
      o.updated_at = ctx.now().toISOString();
      ctx.store.touch();
      return { body: { data_view: render(o, req.space) } };
    }, { access: 'all' });

    router.delete('/api/data_views/data_view/:id', (req, ctx) => {
      existing(ctx, req);
      delete objectsOf(ctx, req.space)[keyOf(TYPE, req.params.id)];
      ctx.store.touch();
      return { status: 204 };
    }, { access: 'all' });
  },
};
