import type { EmulatorArea } from '../area.js';
import type { EmulatorContext } from '../context.js';
import { schema, validateRequest } from '../config-schema.js';
import { EmuError, badRequest, conflict } from '../errors.js';
import type { EmuRequest } from '../router.js';

/**
 * Saved objects (/api/saved_objects), platform routes validated with config-schema. service-api.md
 * Saved objects (fields, the create/get/resolve/find table, "update (partial attribute update),
 * delete"; 404 when missing, 409 on a duplicate id without overwrite). Route bodies as the real
 * routes declare them: src/core/packages/saved-objects/server-internal/src/routes/create.ts
 * (attributes, references, initialNamespaces, migration versions; `overwrite` query), update.ts
 * (`attributes`, `version`, `references`, `upsert`), delete.ts (`force` query), find.ts
 * (`type` one or many, `page` default 1, `per_page` default 20, reply `{page, per_page, total,
 * saved_objects}`). A stale `version` on update is a 409 (the repository's conflict error).
 */

/** The types service-api.md lists (`config` is the advanced-settings singleton the server owns). */
export const SAVED_OBJECT_TYPES = ['dashboard', 'visualization', 'index-pattern', 'search', 'config', 'lens', 'map', 'canvas-workpad', 'tag'];
/** The search backend's result window: page × per_page beyond it is refused. */
const MAX_RESULT_WINDOW = 10_000;

export interface StoredObject {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  references: Array<{ name: string; type: string; id: string }>;
  version: string;
  created_at: string;
  updated_at: string;
  managed: boolean;
}

const reference = schema.object({ name: schema.string(), type: schema.string(), id: schema.string() });
const CreateBody = schema.object({
  attributes: schema.recordOf(schema.any()),
  migrationVersion: schema.maybe(schema.recordOf(schema.string())),
  coreMigrationVersion: schema.maybe(schema.string()),
  typeMigrationVersion: schema.maybe(schema.string()),
  references: schema.maybe(schema.arrayOf(reference, { maxSize: 1000 })),
  initialNamespaces: schema.maybe(schema.arrayOf(schema.string(), { minSize: 1 })),
});
const UpdateBody = schema.object({
  attributes: schema.recordOf(schema.any()),
  version: schema.maybe(schema.string()),
  references: schema.maybe(schema.arrayOf(reference, { maxSize: 1000 })),
  upsert: schema.maybe(schema.recordOf(schema.any())),
});

export function objectsOf(ctx: EmulatorContext, space: string): Record<string, StoredObject> {
  return ctx.store.area<{ objects: Record<string, StoredObject> }>(space, 'saved_objects', () => ({ objects: {} })).objects;
}

export const keyOf = (type: string, id: string) => `${type}:${id}`;

function supportedType(type: string): void {
  if (!SAVED_OBJECT_TYPES.includes(type)) throw badRequest(`Unsupported saved object type: '${type}': Bad Request`);
}

const notFoundError = (type: string, id: string) => new EmuError(404, `Saved object [${type}/${id}] not found`, 'platform');

function render(o: StoredObject, space: string, part: 'full' | 'update' = 'full', sent?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: o.id,
    type: o.type,
    namespaces: [space],
    updated_at: o.updated_at,
    created_at: o.created_at,
    version: o.version,
    // The update reply carries the attributes that were sent, not the whole object (update.ts).
    attributes: structuredClone(part === 'update' ? sent ?? {} : o.attributes),
    references: structuredClone(o.references),
    managed: o.managed,
  };
  if (part === 'full') out.coreMigrationVersion = '8.8.0';
  return out;
}

function boolQuery(req: EmuRequest, name: string): boolean {
  const raw = req.query.get(name);
  if (raw === null) return false;
  if (raw !== 'true' && raw !== 'false') throw badRequest(`[request query.${name}]: expected value of type [boolean] but got [string]`);
  return raw === 'true';
}

function numberQuery(req: EmuRequest, name: string, fallback: number, min: number): number {
  const raw = req.query.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || Number.isNaN(n)) throw badRequest(`[request query.${name}]: expected value of type [number] but got [string]`);
  if (n < min) throw badRequest(`[request query.${name}]: Value must be equal to or greater than [${min}].`);
  return n;
}

export const savedObjectsArea: EmulatorArea = {
  name: 'saved_objects',
  register(router) {
    const create = (req: EmuRequest, ctx: EmulatorContext) => {
      const { type } = req.params;
      supportedType(type);
      const overwrite = boolQuery(req, 'overwrite');
      const body = validateRequest<Record<string, any>>(CreateBody, req.body);
      const id = req.params.id ?? ctx.uuid();
      const objects = objectsOf(ctx, req.space);
      const current = objects[keyOf(type, id)];
      if (current && !overwrite) throw conflict(`Saved object [${type}/${id}] conflict`);
      const now = ctx.now().toISOString();
      const o: StoredObject = {
        type,
        id,
        attributes: body.attributes,
        references: body.references ?? [],
        version: ctx.store.versionToken(),
        created_at: current?.created_at ?? now,
        updated_at: now,
        managed: false,
      };
      objects[keyOf(type, id)] = o;
      return { body: render(o, req.space) };
    };
    router.post('/api/saved_objects/:type', create);
    router.post('/api/saved_objects/:type/:id', create);

    router.get('/api/saved_objects/_find', (req, ctx) => {
      const types = req.query.getAll('type');
      if (types.length === 0) throw badRequest('[request query.type]: expected at least one defined value but got [undefined]');
      const page = numberQuery(req, 'page', 1, 0);
      const perPage = numberQuery(req, 'per_page', 20, 0);
      if (page * perPage > MAX_RESULT_WINDOW) throw badRequest(`Result window is too large, page * per_page must be less than or equal to: [${MAX_RESULT_WINDOW}]`);
      // Unknown types are left out of the search (find.ts filters them against the registry).
      const all = Object.values(objectsOf(ctx, req.space))
        .filter((o) => types.includes(o.type))
        .sort((a, b) => (a.type === b.type ? (a.id < b.id ? -1 : 1) : a.type < b.type ? -1 : 1));
      const start = (Math.max(page, 1) - 1) * perPage;
      return { body: { page, per_page: perPage, total: all.length, saved_objects: all.slice(start, start + perPage).map((o) => ({ ...render(o, req.space), score: 0 })) } };
    }, { access: 'read' });

    router.get('/api/saved_objects/:type/:id', (req, ctx) => {
      supportedType(req.params.type);
      const o = objectsOf(ctx, req.space)[keyOf(req.params.type, req.params.id)];
      if (!o) throw notFoundError(req.params.type, req.params.id);
      return { body: render(o, req.space) };
    }, { access: 'read' });

    router.put('/api/saved_objects/:type/:id', (req, ctx) => {
      const { type, id } = req.params;
      supportedType(type);
      const body = validateRequest<Record<string, any>>(UpdateBody, req.body);
      const objects = objectsOf(ctx, req.space);
      const o = objects[keyOf(type, id)];
      if (!o) throw notFoundError(type, id);
      if (body.version !== undefined && body.version !== o.version) throw conflict(`Saved object [${type}/${id}] conflict`);
      // A partial update: the attributes sent replace theirs, the others stay (service-api.md).
      o.attributes = { ...o.attributes, ...body.attributes };
      if (body.references !== undefined) o.references = body.references;
      o.version = ctx.store.versionToken();
      o.updated_at = ctx.now().toISOString();
      return { body: render(o, req.space, 'update', body.attributes) };
    });

    router.delete('/api/saved_objects/:type/:id', (req, ctx) => {
      const { type, id } = req.params;
      supportedType(type);
      boolQuery(req, 'force');
      const objects = objectsOf(ctx, req.space);
      if (!objects[keyOf(type, id)]) throw notFoundError(type, id);
      delete objects[keyOf(type, id)];
      return { body: {} };
    });
  },
};
