import type { EmulatorArea } from '../../area.js';
import { schema, validateRequest } from '../../config-schema.js';
import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import { packagePoliciesIn } from '../fleet/state.js';

const PATH = '/api/endpoint/protection_updates_note/:package_policy_id';

/** The body both routes take (CreateUpdateProtectionUpdatesNoteSchema): `note`, a string; no other key. */
const NoteBody = schema.object({ note: schema.string() });

interface EndpointState {
  /** The note of each package policy of the space, by package policy id. */
  notes: Record<string, string>;
}

/**
 * Protection-updates notes: one free-text note per Elastic Defend package policy (the OAS:
 * GetProtectionUpdatesNote and CreateUpdateProtectionUpdatesNote; service-api.md Endpoint
 * management names the operation, not its path). As the real handlers do: GET answers the note or
 * 404 `No note found for this policy`; POST creates or replaces it and answers `{note}`; there is
 * no delete route. Endpoint management is space-aware (the experimental flag
 * endpointManagementSpaceAwarenessEnabled defaults to true), so both first check that the package
 * policy is in the caller's space: one that is not is a 404. Reading needs the read privilege,
 * writing all (the routes' endpoint authz: read and write policy management).
 */
export const endpointArea: EmulatorArea = {
  name: 'endpoint',
  register(router) {
    router.get(PATH, (req, ctx) => {
      const id = policyInSpace(ctx, req.space, req.params.package_policy_id!);
      const note = state(ctx, req.space).notes[id];
      if (note === undefined) throw new EmuError(404, 'No note found for this policy');
      return { body: { note } };
    }, { access: 'read' });

    router.post(PATH, (req, ctx) => {
      const { note } = validateRequest<{ note: string }>(NoteBody, req.body ?? null);
      const id = policyInSpace(ctx, req.space, req.params.package_policy_id!);
      state(ctx, req.space).notes[id] = note;
      return { body: { note } };
    }, { access: 'all' });
  },
};

function state(ctx: EmulatorContext, space: string): EndpointState {
  return ctx.store.area<EndpointState>(space, 'endpoint', () => ({ notes: {} }));
}

/** The id, once Fleet has it in this space (the space-aware check the handlers make first). */
function policyInSpace(ctx: EmulatorContext, space: string, id: string): string {
  if (!packagePoliciesIn(ctx, space).some((p) => p.id === id)) throw new EmuError(404, `Package policy ${id} not found`);
  return id;
}
