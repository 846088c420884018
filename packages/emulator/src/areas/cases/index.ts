import type { EmulatorArea } from '../../area.js';
import type { EmulatorContext } from '../../context.js';
import type { EmuRequest } from '../../router.js';
import { EmuError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { connectorsState, BUILT_IN } from '../connectors/state.js';
import { TYPES_BY_ID } from '../connectors/types.js';
import { CASE_CONNECTOR_TYPES, ConfigurationBodyError, OWNERS, decodeCreate, decodePatch, type ConfigurationBody } from './configure-body.js';

/**
 * Case configuration (/api/cases/configure), one per owner per space (wire-facts 0.1, §13).
 *
 * - POST replaces: every configuration of the owner in the space is deleted and a new one with a
 *   new id is created (cases server/client/configure/client.ts `create`).
 * - PATCH needs `version`; a stale one is 409 "This configuration has been updated. Please refresh
 *   before saving additional updates." (client.ts `update`; wire-facts 0.5). A custom field may
 *   not change its type (validateCustomFieldTypesInRequest).
 * - GET answers a bare array, filtered by `owner` (one value or several); there is no delete route.
 * - Errors come out wrapped the way the plugin's client wraps them (createCaseError):
 *   `Failed to create case configuration: Error: <reason>` and
 *   `Failed to get patch configure in route: Error: <reason>`, with the inner status.
 */

interface StoredConfiguration {
  id: string;
  owner: string;
  closure_type: string;
  connector: { id: string; name: string; type: string; fields: Record<string, unknown> | null };
  customFields: NonNullable<ConfigurationBody['customFields']>;
  templates: unknown[];
  observableTypes: unknown[];
  created_at: string;
  created_by: User;
  updated_at: string | null;
  updated_by: User | null;
  version: string;
}

interface User {
  email: string | null;
  full_name: string | null;
  username: string | null;
}

interface CasesState {
  configurations: Record<string, StoredConfiguration>;
}

function casesState(ctx: EmulatorContext, space: string): CasesState {
  return ctx.store.area<CasesState>(space, 'cases', () => ({ configurations: {} }));
}

const userOf = (req: EmuRequest): User => ({ email: null, full_name: null, username: req.user });

/**
 * Field mappings the server derives for a connector (from the connector type's mapping; none for
 * the none connector). The emulator gives the issue and ticket systems the common three.
 */
function mappingsFor(type: string): Array<{ source: string; target: string; action_type: string }> {
  if (type === '.none') return [];
  return [
    { source: 'title', target: 'summary', action_type: 'overwrite' },
    { source: 'description', target: 'description', action_type: 'overwrite' },
    { source: 'comments', target: 'comments', action_type: 'append' },
  ];
}

function response(c: StoredConfiguration) {
  return { ...structuredClone(c), mappings: mappingsFor(c.connector.type), error: null };
}

/** Decoding errors become 400s, conflicts and lookups keep their status; all get the client's prefix. */
function wrapped<T>(prefix: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ConfigurationBodyError) throw badRequest(`${prefix}: Error: ${err.message}`);
    if (err instanceof EmuError) throw new EmuError(err.status, `${prefix}: Error: ${err.message}`, 'platform');
    throw err;
  }
}

function ownersQuery(req: EmuRequest): string[] {
  const owners = req.query.getAll('owner').flatMap((o) => o.split(',')).filter(Boolean);
  for (const o of owners) if (!OWNERS.includes(o)) throw forbidden(`Unauthorized to get case configuration with owners: "${o}"`);
  return owners;
}

/** Connectors of the space that cases can use (client.ts getConnectors: type supports the cases feature). */
function caseConnectors(req: EmuRequest, ctx: EmulatorContext) {
  const records = Object.values(connectorsState(ctx, req.space).records);
  const supported = (typeId: string) => CASE_CONNECTOR_TYPES.includes(typeId) && typeId !== '.none';
  const created = records.filter((r) => supported(r.connector_type_id)).map((r) => ({
    id: r.id,
    actionTypeId: r.connector_type_id,
    name: r.name,
    config: structuredClone(r.config),
    isPreconfigured: false,
    isDeprecated: false,
    isMissingSecrets: false,
    referencedByCount: 0,
  }));
  const builtIn = BUILT_IN.filter((b) => supported(b.connector_type_id) && TYPES_BY_ID[b.connector_type_id]).map((b) => ({
    id: b.id, actionTypeId: b.connector_type_id, name: b.name, config: {}, isPreconfigured: true, isDeprecated: false, referencedByCount: 0,
  }));
  return [...builtIn, ...created];
}

export const casesArea: EmulatorArea = {
  name: 'cases',
  register(router) {
    router.get('/api/cases/configure', (req, ctx) => {
      const owners = ownersQuery(req);
      const all = Object.values(casesState(ctx, req.space).configurations).filter((c) => owners.length === 0 || owners.includes(c.owner));
      return { body: all.map(response) };
    });

    router.post('/api/cases/configure', (req, ctx) => {
      const prefix = 'Failed to create case configuration';
      const body = wrapped(prefix, () => decodeCreate(req.body ?? null));
      if (!OWNERS.includes(body.owner!)) throw forbidden(`Unauthorized to create case configuration with owners: "${body.owner}"`);
      const state = casesState(ctx, req.space);
      // POST replaces: whatever the owner had in this space is deleted first.
      for (const c of Object.values(state.configurations)) if (c.owner === body.owner) delete state.configurations[c.id];
      const record: StoredConfiguration = {
        id: ctx.uuid(),
        owner: body.owner!,
        closure_type: body.closure_type!,
        connector: structuredClone(body.connector!),
        customFields: structuredClone(body.customFields ?? []),
        templates: structuredClone(body.templates ?? []),
        observableTypes: structuredClone(body.observableTypes ?? []),
        created_at: ctx.now().toISOString(),
        created_by: userOf(req),
        updated_at: null,
        updated_by: null,
        version: ctx.store.versionToken(),
      };
      if (record.connector.fields === undefined) record.connector.fields = null;
      state.configurations[record.id] = record;
      return { body: response(record) };
    });

    router.patch('/api/cases/configure/:configuration_id', (req, ctx) => {
      const prefix = 'Failed to get patch configure in route';
      return wrapped(prefix, () => {
        const body = decodePatch(req.body ?? null);
        const id = req.params.configuration_id;
        const current = casesState(ctx, req.space).configurations[id];
        if (!current) throw notFound(`Saved object [cases-configure/${id}] not found`);
        const changedTypes = (body.customFields ?? []).filter((f) => current.customFields.some((o) => o.key === f.key && o.type !== f.type));
        if (changedTypes.length) throw new ConfigurationBodyError(`Invalid custom field types in request for the following labels: ${changedTypes.map((f) => `"${f.label}"`).join(', ')}`);
        if (body.version !== current.version) throw conflict('This configuration has been updated. Please refresh before saving additional updates.');
        if (body.closure_type !== undefined) current.closure_type = body.closure_type;
        if (body.connector !== undefined) current.connector = { ...structuredClone(body.connector), fields: body.connector.fields ?? null };
        if (body.customFields !== undefined) current.customFields = structuredClone(body.customFields);
        if (body.templates !== undefined) current.templates = structuredClone(body.templates);
        if (body.observableTypes !== undefined) current.observableTypes = structuredClone(body.observableTypes);
        current.updated_at = ctx.now().toISOString();
        current.updated_by = userOf(req);
        current.version = ctx.store.versionToken();
        return { body: response(current) };
      });
    });

    router.get('/api/cases/configure/connectors/_find', (req, ctx) => ({ body: caseConnectors(req, ctx) }));
  },
};
