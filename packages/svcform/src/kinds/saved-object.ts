import type { Resource } from '../manifest/types.js';
import { clone, isPlainObject, sortKeys } from './normalize.js';
import { listAllPages } from './paging.js';
import type { AdapterContext, KindAdapter, LiveObject, Reference } from './types.js';
import { AREAS } from '../client/areas.js';
import { SECURITY_APP_DATA_VIEW, securityAppDataViews } from './data-view.js';

/**
 * Saved objects (/api/saved_objects; service-api.md Saved objects). metadata.name is the object id
 * and spec.type its type; one listing reads every managed type, so an id names one object of any
 * of them (two live objects of different types with one id are reported as an identity clash).
 *
 * Routes: the CRUD routes (create, update, delete) and `_find`. They are deprecated since 8.7 and
 * flagged in 9.4.3 (service-api.md Versioning 3) but still served, and they are the only routes
 * that take `version`: an update sends the version the plan read, so an object someone changed
 * since then is refused with 409 instead of overwritten. `_import` has no version check (with
 * `overwrite` the last writer wins) and its NDJSON round trip would add a multipart request per
 * object, so it is not used. See README "SavedObject".
 */

const KIND = 'SavedObject';
/** The types managed: service-api.md's list without `config` (the server's own settings object). */
export const SAVED_OBJECT_TYPES = ['index-pattern', 'tag', 'dashboard', 'visualization', 'search', 'lens', 'map', 'canvas-workpad'];
/** page × per_page may not pass the search backend's 10 000 result window. */
const PAGE_SIZE = 1000;

async function createObject(ctx: AdapterContext, res: Resource): Promise<void> {
  await ctx.api.request({
    method: 'POST',
    path: pathOf(res.spec.type, res.name),
    space: res.space,
    body: { attributes: res.spec.attributes, references: res.spec.references ?? [] },
    // The id is ours: a repeat after a lost answer gets 409, which the engine settles by reading back.
    idempotent: true,
  });
}

const pathOf = (type: string, id: string) => `/api/saved_objects/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

type Ref = { name: string; type: string; id: string };

function sortedRefs(refs: unknown): Ref[] {
  const list = (Array.isArray(refs) ? refs : []).map((r: any) => ({ name: r?.name, type: r?.type, id: r?.id }));
  const key = (r: Ref) => `${r.type}\u0000${r.id}\u0000${r.name}`;
  return list.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Attributes in comparable form. An update merges attributes, so a key the manifest drops is
 * written as null: a top-level null attribute reads as absent.
 */
function comparable(source: Record<string, any>): Record<string, any> {
  const attributes = Object.fromEntries(Object.entries(isPlainObject(source.attributes) ? source.attributes : {}).filter(([, v]) => v !== null));
  const out: Record<string, any> = { type: source.type, attributes: sortKeys(clone(attributes)) };
  const refs = sortedRefs(source.references);
  if (refs.length > 0) out.references = refs;
  return out;
}

export const savedObjectAdapter: KindAdapter = {
  kind: KIND,
  schema: 'SavedObject.schema.json',
  area: AREAS.savedObjects,
  setFields: ['/references'],
  referenceKinds: [KIND],

  references(spec): Reference[] {
    const refs: Reference[] = [];
    (spec.references ?? []).forEach((r: any, i: number) => {
      // Accepted when missing: the saved objects API stores references as sent, unchecked (the
      // emulator's saved-objects area likewise). A reference to a type svcform does not manage (a
      // dashboard's `links` panel) names no object it could order or check.
      if (typeof r?.id === 'string' && SAVED_OBJECT_TYPES.includes(r.type)) refs.push({ kind: KIND, name: r.id, path: ['spec', 'references', i, 'id'], whenMissing: 'accepted', missingEffect: 'the object shows a missing reference until it exists' });
    });
    return refs;
  },

  async list(ctx, space) {
    const objects = await listAllPages<Record<string, any>>(ctx.api, {
      path: '/api/saved_objects/_find',
      space,
      query: { type: SAVED_OBJECT_TYPES, sort_field: 'type' },
      sizeParam: 'per_page',
      pageSize: PAGE_SIZE,
      items: (body) => body?.saved_objects ?? [],
      total: (body) => body?.total ?? 0,
    });
    // A data view is an index-pattern saved object: the security app's own stay as under DataView.
    const made = securityAppDataViews(space);
    return objects.map((o): LiveObject => ({
      kind: KIND,
      space,
      name: o.id,
      body: o,
      readOnly: o.managed ? 'managed saved object' : undefined,
      ...(o.type === 'index-pattern' && made.includes(o.id) ? { serverOwned: SECURITY_APP_DATA_VIEW } : {}),
    }));
  },

  normalizeDesired(res) {
    return comparable(res.spec);
  },

  normalizeLive(live) {
    return comparable(live.body);
  },

  create: createObject,

  async update(ctx, res, live) {
    // The type is part of the object's address: another type is another object.
    if (live.body.type !== res.spec.type) {
      await ctx.api.request({ method: 'DELETE', path: pathOf(live.body.type, live.name), space: live.space });
      await createObject(ctx, res);
      return;
    }
    const attributes: Record<string, unknown> = { ...res.spec.attributes };
    for (const key of Object.keys(live.body.attributes ?? {})) if (!(key in attributes)) attributes[key] = null;
    await ctx.api.request({
      method: 'PUT',
      path: pathOf(live.body.type, live.name),
      space: live.space,
      // The version read when planning: a change made since then is a 409, not overwritten.
      body: { attributes, references: res.spec.references ?? [], version: live.body.version },
      // Not repeated: once the first attempt landed, the version is stale and a repeat would fail.
      idempotent: false,
    });
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.body.type, live.name), space: live.space });
  },

  toSpec(live) {
    const { type, attributes, references } = comparable(live.body);
    const spec: Record<string, any> = { type, attributes };
    if (references) spec.references = references;
    return { spec };
  },
};
