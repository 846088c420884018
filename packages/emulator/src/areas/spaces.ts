import type { EmulatorArea } from '../area.js';
import { notFound } from '../errors.js';

/** The spaces API, enough for a client to check that a space exists before using it. */
export const spacesArea: EmulatorArea = {
  name: 'spaces',
  register(router) {
    router.get('/api/spaces/space', (_req, ctx) => ({
      body: ctx.store.data.spaces.map((id) => spaceRecord(id)),
    }), { access: 'none' });
    router.get('/api/spaces/space/:id', (req, ctx) => {
      if (!ctx.store.hasSpace(req.params.id)) throw notFound(`Saved object [space/${req.params.id}] not found`);
      return { body: spaceRecord(req.params.id) };
    }, { access: 'none' });
  },
};

function spaceRecord(id: string) {
  return { id, name: id === 'default' ? 'Default' : id, disabledFeatures: [], _reserved: id === 'default' ? true : undefined };
}
