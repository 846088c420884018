import type { EmulatorContext } from '../../context.js';
import { licenseAtLeast } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmuRequest } from '../../router.js';
import { connectorReferenceCounts } from '../rules/state.js';
import { CONNECTOR_TYPES, CREATABLE_TYPE_IDS, TYPES_BY_ID, validateConfigAndSecrets } from './types.js';
import { schema, validateRequest } from '../../config-schema.js';
import { BUILT_IN, builtInOrThrow, builtInResponse, connectorResponse, connectorsState, putConnector, storedConnector, type StoredConnector } from './state.js';

/** The connector CRUD, list and type routes (service-api.md Connectors, wire-facts §1). */

/**
 * The create and update bodies as the actions plugin declares them (connector create/update body
 * schemas, config-schema; OpenAPI document at b76003905: post-actions-connector-id and
 * put-actions-connector-id, additionalProperties false): `name` a string that is not empty, `config`
 * and `secrets` records defaulting to {}. Declared keys are checked in order, unknown keys after.
 * A create without a path id may carry `id` in the body (service-api.md Connectors: "id ... O").
 */
// validateEmptyStrings (actions plugin lib/validate_empty_strings.ts): whitespace alone is empty too.
const notEmpty = () => schema.string({ check: (v) => (v.trim() === '' ? "value '' is not valid" : undefined) });
const record = () => schema.maybe(schema.recordOf(schema.any()));
const createFields = { name: notEmpty(), connector_type_id: notEmpty(), config: record(), secrets: record() };
const CreateBody = schema.object(createFields);
const CreateBodyWithId = schema.object({ id: schema.maybe(schema.string()), ...createFields });
const UpdateBody = schema.object({ name: notEmpty(), config: record(), secrets: record() });

export function create(req: EmuRequest, ctx: EmulatorContext) {
  const body = validateRequest(req.params.id === undefined ? CreateBodyWithId : CreateBody, req.body ?? null);
  let id = req.params.id ?? (body.id as string | undefined);
  if (id !== undefined && (typeof id !== 'string' || id.length < 1 || id.length > 36)) {
    throw badRequest(`[request params.id]: value has length [${String(id ?? '').length}] but it must be between 1 and 36 characters`);
  }
  // validateConnectorId (x-pack/platform/plugins/shared/actions/common/validate_connector_id.ts): lower-case slug.
  if (id !== undefined && (id.includes('/') || id.includes('..'))) throw badRequest('[request params.id]: Connector ID must not contain path separators ("/") or traversal sequences ("..").');
  if (id !== undefined && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(id)) throw badRequest('[request params.id]: Connector ID must contain only lowercase letters, numbers, and hyphens.');
  const name = body.name as string;
  const typeId = body.connector_type_id as string;
  if (!CREATABLE_TYPE_IDS.includes(typeId)) throw badRequest(`Action type "${typeId}" is not registered.`);
  const { config, secrets } = validateConfigAndSecrets(TYPES_BY_ID[typeId], body.config, body.secrets);
  const state = connectorsState(ctx, req.space);
  id ??= ctx.uuid();
  if (BUILT_IN.some((b) => b.id === id)) throw badRequest(`This ${id} already exists in a preconfigured action.`);
  if (storedConnector(ctx, req.space, id)) throw conflict(`Saved object [action/${id}] conflict`);
  const stored: StoredConnector = { id, name, connector_type_id: typeId, config, secrets };
  putConnector(state, stored);
  return { body: connectorResponse(stored) };
}

export function getOne(req: EmuRequest, ctx: EmulatorContext) {
  const stored = storedConnector(ctx, req.space, req.params.id);
  if (stored) return { body: connectorResponse(stored) };
  const b = BUILT_IN.find((x) => x.id === req.params.id);
  if (b) return { body: builtInResponse(b) };
  throw notFound(`Saved object [action/${req.params.id}] not found`);
}

export function list(req: EmuRequest, ctx: EmulatorContext) {
  const counts = connectorReferenceCounts(ctx, req.space);
  const all = [...BUILT_IN.map(builtInResponse), ...Object.values(connectorsState(ctx, req.space).records).map(connectorResponse)];
  return { body: all.map((c) => ({ ...c, referenced_by_count: counts[c.id as string] ?? 0 })) };
}

export function types(req: EmuRequest, ctx: EmulatorContext) {
  const feature = req.query.get('feature_id');
  const license = ctx.settings.license;
  return {
    body: CONNECTOR_TYPES.filter((t) => !feature || t.featureIds.includes(feature)).map((t) => ({
      id: t.id,
      name: t.name,
      enabled: licenseAtLeast(license, t.minimumLicense),
      enabled_in_config: true,
      enabled_in_license: licenseAtLeast(license, t.minimumLicense),
      minimum_license_required: t.minimumLicense,
      supported_feature_ids: t.featureIds,
      is_system_action_type: !!t.isSystemActionType,
      is_deprecated: false,
    })),
  };
}

export function update(req: EmuRequest, ctx: EmulatorContext) {
  builtInOrThrow(req.params.id, 'updated');
  const body = validateRequest(UpdateBody, req.body ?? null);
  const name = body.name as string;
  const state = connectorsState(ctx, req.space);
  const existing = storedConnector(ctx, req.space, req.params.id);
  if (!existing) throw notFound(`Saved object [action/${req.params.id}] not found`);
  // A PUT replaces config and secrets whole; what is omitted becomes {} (wire-facts 1.2).
  const { config, secrets } = validateConfigAndSecrets(TYPES_BY_ID[existing.connector_type_id], body.config, body.secrets);
  const stored: StoredConnector = { ...existing, name, config, secrets };
  putConnector(state, stored);
  return { body: connectorResponse(stored) };
}

export function remove(req: EmuRequest, ctx: EmulatorContext) {
  builtInOrThrow(req.params.id, 'deleted');
  const state = connectorsState(ctx, req.space);
  if (!storedConnector(ctx, req.space, req.params.id)) throw notFound(`Saved object [action/${req.params.id}] not found`);
  delete state.records[req.params.id];
  return { status: 204 };
}
