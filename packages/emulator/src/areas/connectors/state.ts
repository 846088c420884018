import type { EmulatorContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { CREATABLE_TYPE_IDS, TYPES_BY_ID, validateConfigAndSecrets } from './types.js';

/** Connectors per space: the stored records, the built-in ones, and how the API answers both. */

export interface StoredConnector {
  id: string;
  name: string;
  connector_type_id: string;
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
}

export interface ConnectorExecution {
  connector_id: string;
  connector_type_id: string;
  at: string;
  params: Record<string, unknown>;
}

export interface ConnectorsState {
  records: Record<string, StoredConnector>;
  /** Every _execute call, in order: what a real connector would have sent out. */
  executions: ConnectorExecution[];
  /** Documents written by .index connectors, per target index. */
  indices: Record<string, Record<string, unknown>[]>;
  /**
   * Pending OAuth authorizations by their `state` (CSRF) value. No documented operation starts
   * one, so they only come from a saved state file; completed callbacks are recorded below.
   */
  oauthStates?: Record<string, { connector_id: string; return_url?: string }>;
  oauthCallbacks?: Array<{ connector_id: string; code: string; at: string }>;
}

/** Connectors every space sees without creating them (kibana.yml preconfigured and system actions). */
export const BUILT_IN = [
  { id: 'preconfigured-server-log', name: 'Preconfigured server log', connector_type_id: '.server-log', is_preconfigured: true, is_system_action: false },
  { id: 'system-connector-.cases', name: 'Cases', connector_type_id: '.cases', is_preconfigured: false, is_system_action: true },
];

export function connectorsState(ctx: EmulatorContext, space: string): ConnectorsState {
  return ctx.store.area<ConnectorsState>(space, 'connectors', () => ({ records: {}, executions: [], indices: {} }));
}

/** A connector of the space (created or built in), for areas that reference connectors (rule actions). */
export interface ConnectorRef {
  id: string;
  name: string;
  connector_type_id: string;
  is_preconfigured: boolean;
  is_system_action: boolean;
}

export function findConnector(ctx: EmulatorContext, space: string, id: string): ConnectorRef | undefined {
  const stored = storedConnector(ctx, space, id);
  if (stored) return { id: stored.id, name: stored.name, connector_type_id: stored.connector_type_id, is_preconfigured: false, is_system_action: false };
  const builtIn = BUILT_IN.find((b) => b.id === id);
  return builtIn && { ...builtIn };
}

export function putConnector(state: ConnectorsState, c: StoredConnector): void {
  // defineProperty, not assignment: an id such as `__proto__` must stay an ordinary key.
  Object.defineProperty(state.records, c.id, { value: c, enumerable: true, writable: true, configurable: true });
}

/** Stored connectors of a space with their config as stored (no null-filled keys), for rule exports. */
export function storedConnector(ctx: EmulatorContext, space: string, id: string): StoredConnector | undefined {
  const records = connectorsState(ctx, space).records;
  return Object.prototype.hasOwnProperty.call(records, id) ? records[id] : undefined;
}

/**
 * Creates or replaces a connector from a rule import file (no secrets there: types that need
 * them come out with is_missing_secrets). Throws the same 400s as the create route.
 */
export function importConnector(ctx: EmulatorContext, space: string, input: { id: string; name: unknown; connector_type_id: unknown; config: unknown }): void {
  if (typeof input.name !== 'string' || input.name === '') throw badRequest(`[name]: expected a non-empty string`);
  const typeId = input.connector_type_id;
  if (typeof typeId !== 'string' || !CREATABLE_TYPE_IDS.includes(typeId)) throw badRequest(`Action type "${String(typeId)}" is not registered.`);
  if (input.id.length < 1 || input.id.length > 36) throw badRequest(`connector id must be between 1 and 36 characters`);
  if (BUILT_IN.some((b) => b.id === input.id)) throw badRequest(`This ${input.id} already exists in a preconfigured action.`);
  // The file carries no secrets: only the config is checked (the connector is then missing them).
  const { config } = validateConfigAndSecrets(TYPES_BY_ID[typeId], input.config, undefined, { secrets: false });
  putConnector(connectorsState(ctx, space), { id: input.id, name: input.name, connector_type_id: typeId, config, secrets: {} });
}

/** The connector as the API answers it: every optional config key present (null when unset), secrets never. */
export function connectorResponse(c: StoredConnector): Record<string, unknown> {
  const type = TYPES_BY_ID[c.connector_type_id];
  const config: Record<string, unknown> = {};
  for (const key of Object.keys(type?.config ?? {})) config[key] = null;
  Object.assign(config, c.config);
  return {
    id: c.id,
    name: c.name,
    connector_type_id: c.connector_type_id,
    config,
    is_missing_secrets: !!type?.needsSecrets?.(c.config) && Object.keys(c.secrets).length === 0,
    is_preconfigured: false,
    is_deprecated: false,
    is_system_action: false,
    is_connector_type_deprecated: false,
  };
}

export function builtInResponse(b: (typeof BUILT_IN)[number]): Record<string, unknown> {
  // Preconfigured and system connectors carry neither config nor is_missing_secrets (wire-facts 1.3).
  return { id: b.id, name: b.name, connector_type_id: b.connector_type_id, is_preconfigured: b.is_preconfigured, is_deprecated: false, is_system_action: b.is_system_action, is_connector_type_deprecated: false };
}

/** Preconfigured and system connectors refuse writes with the server's wording. */
export function builtInOrThrow(id: string, verb: 'updated' | 'deleted' | 'executed'): void {
  const b = BUILT_IN.find((x) => x.id === id);
  if (!b) return;
  const what = b.is_preconfigured ? 'Preconfigured action' : 'System action';
  throw badRequest(verb === 'deleted' ? `${what} ${id} is not allowed to delete.` : `${what} ${id} can not be ${verb}.`);
}
