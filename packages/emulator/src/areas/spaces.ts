import type { EmulatorArea } from '../area.js';
import type { EmulatorContext } from '../context.js';
import { schema, validateRequest } from '../config-schema.js';
import { badRequest, conflict, notFound } from '../errors.js';

/**
 * The spaces API (/api/spaces/space; OAS get-spaces-space, post-spaces-space, get/put/delete
 * -spaces-space-id), platform error shape. The body is the spaces plugin's space schema: `id` of
 * a-z, 0-9, `_` and `-`; `name` at least one character; `initials` at most 2; `color` a 6-digit hex
 * colour with `#`; `imageUrl` a data URL; `solution` one of four; `disabledFeatures` default [];
 * unknown keys refused (the OAS says additionalProperties: false). `default` is reserved: it
 * always exists and cannot be deleted. Deleting a space deletes everything in it (OAS
 * delete-spaces-space-id: "all saved objects that belong to the space are automatically deleted").
 */

/** The space ids the plugin accepts (OAS: "limited to lowercase alphanumeric, underscore, and hyphen"). */
const SPACE_ID = /^[a-z0-9_-]+$/;
/** xpack.spaces.maxSpaces, the plugin's default. */
const MAX_SPACES = 1000;

export interface SpaceRecord {
  id: string;
  name: string;
  description?: string;
  color?: string;
  initials?: string;
  imageUrl?: string;
  disabledFeatures: string[];
  solution?: string;
  _reserved?: boolean;
}

// Keys in the order the plugin declares them: the first failing key is the one reported.
const SpaceBody = schema.object({
  id: schema.string({ check: (v) => (SPACE_ID.test(v) ? undefined : "must be lower case, a-z, 0-9, '_', and '-' are allowed") }),
  name: schema.string({ minLength: 1 }),
  description: schema.maybe(schema.string()),
  initials: schema.maybe(schema.string({ maxLength: 2 })),
  color: schema.maybe(schema.string({ check: (v) => (/^#[a-zA-Z0-9]{6}$/.test(v) ? undefined : 'must be a 6 digit hex color, starting with #') })),
  disabledFeatures: schema.maybe(schema.arrayOf(schema.string())),
  _reserved: schema.maybe(schema.boolean()),
  imageUrl: schema.maybe(schema.string({ check: (v) => (v === '' || v.startsWith('data:image') ? undefined : "must start with 'data:image'") })),
  solution: schema.maybe(schema.oneOf(['security', 'oblt', 'es', 'classic'].map((s) => schema.literal(s)))),
});

/** The default space as the server creates it at start. */
const DEFAULT_SPACE: SpaceRecord = { id: 'default', name: 'Default', description: 'This is your default space!', color: '#00bfb3', disabledFeatures: [], _reserved: true };

function records(ctx: EmulatorContext): Record<string, SpaceRecord> {
  return ctx.store.global<Record<string, SpaceRecord>>('space_records', () => ({}));
}

/** A space's record; spaces added with `--spaces` (or the control route) have their id as name. */
export function spaceRecord(ctx: EmulatorContext, id: string): SpaceRecord {
  return records(ctx)[id] ?? (id === 'default' ? DEFAULT_SPACE : { id, name: id, disabledFeatures: [] });
}

function existing(ctx: EmulatorContext, id: string): SpaceRecord {
  if (!ctx.store.hasSpace(id)) throw notFound(`Saved object [space/${id}] not found`);
  return spaceRecord(ctx, id);
}

/** The attributes a write sets; an update leaves what it omits as it was (a partial update of the space's saved object). */
function attributes(body: Record<string, any>): Partial<SpaceRecord> {
  const out: Partial<SpaceRecord> = { name: body.name };
  for (const key of ['description', 'color', 'initials', 'imageUrl', 'solution', 'disabledFeatures'] as const) if (body[key] !== undefined) (out as any)[key] = body[key];
  return out;
}

export const spacesArea: EmulatorArea = {
  name: 'spaces',
  register(router) {
    router.get('/api/spaces/space', (_req, ctx) => ({
      body: ctx.store.data.spaces.map((id) => spaceRecord(ctx, id)),
    }), { access: 'none' });

    router.get('/api/spaces/space/:id', (req, ctx) => ({ body: existing(ctx, req.params.id) }), { access: 'none' });

    router.post('/api/spaces/space', (req, ctx) => {
      const body = validateRequest(SpaceBody, req.body);
      if (ctx.store.hasSpace(body.id)) throw conflict(`A space with the identifier ${body.id} already exists.`);
      if (ctx.store.data.spaces.length >= MAX_SPACES) throw badRequest('Unable to create Space, this exceeds the maximum number of spaces set by the xpack.spaces.maxSpaces setting');
      const record: SpaceRecord = { id: body.id, disabledFeatures: [], ...attributes(body) } as SpaceRecord;
      records(ctx)[body.id] = record;
      ctx.store.addSpace(body.id);
      ctx.store.touch();
      return { body: record };
    }, { access: 'all' });

    router.put('/api/spaces/space/:id', (req, ctx) => {
      const body = validateRequest(SpaceBody, req.body);
      const id = req.params.id;
      const record: SpaceRecord = { ...existing(ctx, id), ...attributes(body), id };
      records(ctx)[id] = record;
      ctx.store.touch();
      return { body: record };
    }, { access: 'all' });

    router.delete('/api/spaces/space/:id', (req, ctx) => {
      const id = req.params.id;
      const record = existing(ctx, id);
      if (record._reserved) throw badRequest(`The ${id} space cannot be deleted because it is reserved.`);
      delete records(ctx)[id];
      ctx.store.removeSpace(id);
      return { status: 204 };
    }, { access: 'all' });
  },
};
