import type { Resource } from '../manifest/types.js';
import { isPlainObject } from './normalize.js';
import type { AdapterContext, KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';

/**
 * Spaces (/api/spaces/space; OAS get-spaces-space, post-spaces-space, put/delete-spaces-space-id).
 * metadata.name is the space id; the reserved `default` space is read-only. A space belongs to no space: the adapter is `spaceless` (read once
 * per run, at the API's root) and `containsSpaces`, so the engine creates a declared space before
 * anything in it and deletes one only with `--allow-space-delete` (engine/space-objects.ts).
 *
 * The update is a partial update of the space's saved object: a field it leaves out keeps its
 * value. `description` and `imageUrl` are cleared by sending '' (the space schema takes an empty
 * imageUrl) and `disabledFeatures` by []; `solution`, `color` and `initials` have no empty value
 * the server takes, so once set they can be changed but not removed (the update refuses to
 * pretend otherwise).
 */

const KIND = 'Space';
const BASE = '/api/spaces/space';
/** Fields the server keeps when an update leaves them out and that have no value meaning "none". */
const KEPT_WHEN_OMITTED = ['solution', 'color', 'initials', 'imageUrl'] as const;

/** A space in comparable form, from a manifest spec or a server reply alike. */
function comparable(source: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {
    name: source.name,
    description: typeof source.description === 'string' ? source.description : '',
    disabledFeatures: Array.isArray(source.disabledFeatures) ? source.disabledFeatures : [],
  };
  for (const key of KEPT_WHEN_OMITTED) if (typeof source[key] === 'string') out[key] = source[key];
  return out;
}

function bodyOf(res: Resource): Record<string, any> {
  return { id: res.name, ...comparable(res.spec) };
}

const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

async function listSpaces(ctx: AdapterContext, home: string): Promise<LiveObject[]> {
  const res = await ctx.api.request({ method: 'GET', path: BASE });
  const spaces: unknown[] = Array.isArray(res.body) ? res.body : [];
  // The reserved default space is the server's own: it always exists and is never deleted, so
  // svcform neither deletes, exports nor writes it.
  return spaces.filter(isPlainObject).map((s): LiveObject => ({ kind: KIND, space: home, name: String(s.id), body: s, readOnly: s._reserved === true ? 'the reserved default space' : undefined }));
}

export const spaceAdapter: KindAdapter = {
  kind: KIND,
  schema: 'Space.schema.json',
  area: AREAS.spaces,
  setFields: ['/disabledFeatures'],
  containsSpaces: true,
  spaceless: {
    declared: () => true,
    list: listSpaces,
  },

  references() {
    return [];
  },

  // A space holds no spaces: every one is listed once per run through `spaceless`.
  async list() {
    return [];
  },

  normalizeDesired(res) {
    return comparable(res.spec);
  },

  normalizeLive(live) {
    return comparable(live.body);
  },

  async create(ctx, res) {
    // The id is ours: a repeat after a lost answer gets 409, which the engine settles by reading back.
    await ctx.api.request({ method: 'POST', path: BASE, body: bodyOf(res), idempotent: true });
  },

  async update(ctx, res, live) {
    const dropped = KEPT_WHEN_OMITTED.filter((key) => live.body[key] !== undefined && res.spec[key] === undefined);
    if (dropped.length > 0) {
      throw new Error(`the server keeps a space's ${dropped.join(', ')} when an update leaves ${dropped.length === 1 ? 'it' : 'them'} out, so svcform cannot remove ${dropped.length === 1 ? 'it' : 'them'}: declare ${dropped.length === 1 ? 'it' : 'them'} in the manifest (the live value is shown in the plan)${dropped.includes('imageUrl') ? "; imageUrl: '' clears the image" : ''}`);
    }
    await ctx.api.request({ method: 'PUT', path: pathOf(live.name), body: bodyOf(res), idempotent: true });
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.name) });
  },

  toSpec(live) {
    const { name, description, disabledFeatures, ...rest } = comparable(live.body);
    const spec: Record<string, any> = { name };
    if (description !== '') spec.description = description;
    if (disabledFeatures.length > 0) spec.disabledFeatures = disabledFeatures;
    return { spec: { ...spec, ...rest } };
  },
};
