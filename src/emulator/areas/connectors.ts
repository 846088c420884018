import type { EmulatorArea } from '../area.js';
import type { EmulatorContext } from '../context.js';
import { licenseAtLeast, type License } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { EmuRequest } from '../router.js';
import { connectorReferenceCounts } from './rules/state.js';

/** The connectors area (/api/actions): service-api.md Connectors, wire-facts §1. */

type ValueCheck = 'string' | 'url' | 'boolean' | 'integer' | 'number' | 'object' | readonly string[];

interface ConnectorType {
  id: string;
  name: string;
  featureIds: string[];
  minimumLicense: License;
  /** Config keys and their value checks; undefined for types whose shape the document leaves open. */
  config?: Record<string, ValueCheck>;
  requiredConfig?: string[];
  /** Server-filled config defaults (wire-facts 1.3), computed from what was sent. */
  defaults?: (config: Record<string, unknown>) => Record<string, unknown>;
  secrets?: string[];
  needsSecrets?: (config: Record<string, unknown>) => boolean;
  isSystemActionType?: boolean;
}

const HEADERS_AND_TLS = { headers: 'object', verificationMode: ['full', 'certificate', 'none'] } as const;

export const CONNECTOR_TYPES: ConnectorType[] = [
  {
    id: '.webhook', name: 'Webhook', featureIds: ['alerting', 'cases', 'uptime', 'siem'], minimumLicense: 'gold',
    config: { url: 'url', method: ['post', 'put'], hasAuth: 'boolean', authType: ['webhook-authentication-basic', 'webhook-authentication-ssl'], certType: ['ssl-crt-key', 'ssl-pfx'], ca: 'string', ...HEADERS_AND_TLS },
    requiredConfig: ['url'],
    defaults: () => ({ method: 'post' }),
    secrets: ['user', 'password', 'crt', 'key', 'pfx'],
    needsSecrets: (c) => c.hasAuth === true,
  },
  {
    id: '.email', name: 'Email', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold',
    config: { from: 'string', host: 'string', port: 'integer', secure: 'boolean', service: 'string', hasAuth: 'boolean', clientId: 'string', tenantId: 'string', oauthTokenUrl: 'url' },
    requiredConfig: ['from'],
    defaults: () => ({ hasAuth: true, service: 'other' }),
    secrets: ['user', 'password', 'clientSecret'],
    needsSecrets: (c) => c.hasAuth !== false,
  },
  {
    id: '.index', name: 'Index', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'basic',
    config: { index: 'string', refresh: 'boolean', executionTimeField: 'string' },
    requiredConfig: ['index'],
    defaults: () => ({ refresh: false }),
    secrets: [],
  },
  {
    id: '.server-log', name: 'Server log', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'basic',
    config: {},
    secrets: [],
  },
  {
    id: '.gen-ai', name: 'OpenAI', featureIds: ['generativeAIForSecurity', 'generativeAIForObservability', 'siem'], minimumLicense: 'enterprise',
    config: { apiProvider: ['OpenAI', 'Azure OpenAI', 'Other'], apiUrl: 'url', defaultModel: 'string', organizationId: 'string', projectId: 'string', contextWindowLength: 'integer', temperature: 'number', ...HEADERS_AND_TLS },
    requiredConfig: ['apiProvider', 'apiUrl'],
    defaults: (c) => (c.apiProvider === 'Other' ? { verificationMode: 'full' } : {}),
    secrets: ['apiKey', 'certificateData', 'privateKeyData', 'caData'],
    needsSecrets: () => true,
  },
  {
    id: '.chat', name: 'Chat', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold',
    config: {},
    secrets: ['webhookUrl'],
    needsSecrets: () => true,
  },
  { id: '.incident', name: 'Incident management', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold' },
  { id: '.ticketing', name: 'Ticketing', featureIds: ['alerting', 'cases', 'uptime', 'siem'], minimumLicense: 'platinum' },
  { id: '.team-chat', name: 'Team chat', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold' },
  { id: '.issue-tracker', name: 'Issue tracker', featureIds: ['alerting', 'cases', 'uptime', 'siem'], minimumLicense: 'gold' },
  // The system action behind the per-space system connector; never creatable through the API.
  { id: '.cases', name: 'Cases', featureIds: ['alerting'], minimumLicense: 'platinum', isSystemActionType: true, config: {}, secrets: [] },
];

const TYPES_BY_ID: Record<string, ConnectorType> = Object.fromEntries(CONNECTOR_TYPES.map((t) => [t.id, t]));
const CREATABLE_TYPE_IDS = CONNECTOR_TYPES.filter((t) => !t.isSystemActionType).map((t) => t.id);

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
const BUILT_IN = [
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
  const records = connectorsState(ctx, space).records;
  const stored = Object.prototype.hasOwnProperty.call(records, id) ? records[id] : undefined;
  if (stored) return { id: stored.id, name: stored.name, connector_type_id: stored.connector_type_id, is_preconfigured: false, is_system_action: false };
  const builtIn = BUILT_IN.find((b) => b.id === id);
  return builtIn && { ...builtIn };
}

function putConnector(state: ConnectorsState, c: StoredConnector): void {
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
  const { config } = validateConfigAndSecrets(TYPES_BY_ID[typeId], input.config, undefined);
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

function builtInResponse(b: (typeof BUILT_IN)[number]): Record<string, unknown> {
  // Preconfigured and system connectors carry neither config nor is_missing_secrets (wire-facts 1.3).
  return { id: b.id, name: b.name, connector_type_id: b.connector_type_id, is_preconfigured: b.is_preconfigured, is_deprecated: false, is_system_action: b.is_system_action, is_connector_type_deprecated: false };
}

// ---- validation (platform error shape, the wording of the server's config-schema validator) ----

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  return typeof v === 'object' ? 'Object' : typeof v;
}

function findEmptyString(value: unknown, path: string): string | undefined {
  if (value === '') return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findEmptyString(value[i], `${path}.${i}`);
      if (hit) return hit;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = findEmptyString(v, `${path}.${k}`);
      if (hit) return hit;
    }
  }
  return undefined;
}

function checkValue(key: string, value: unknown, check: ValueCheck): string | undefined {
  if (value === null) return undefined;
  if (Array.isArray(check)) {
    return check.includes(value as string) ? undefined : `[${key}]: expected one of [${check.join(', ')}] but got [${String(value)}]`;
  }
  const ok =
    check === 'string' || check === 'url' ? typeof value === 'string'
      : check === 'boolean' ? typeof value === 'boolean'
        : check === 'integer' ? Number.isInteger(value)
          : check === 'number' ? typeof value === 'number'
            : value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!ok) return `[${key}]: expected value of type [${check === 'url' ? 'string' : check}] but got [${describe(value)}]`;
  if (check === 'url') {
    try {
      new URL(value as string);
    } catch {
      return `[${key}]: error validating url: invalid URL "${String(value)}"`;
    }
  }
  return undefined;
}

function asObject(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`[request body.${field}]: expected value of type [object] but got [${describe(value)}]`);
  }
  return value as Record<string, unknown>;
}

/** Validates config and secrets for a type; returns the config as stored (server defaults filled in). */
function validateConfigAndSecrets(type: ConnectorType, configIn: unknown, secretsIn: unknown): { config: Record<string, unknown>; secrets: Record<string, unknown> } {
  const config = asObject(configIn, 'config');
  const secrets = asObject(secretsIn, 'secrets');
  for (const [field, value] of [['config', config], ['secrets', secrets]] as const) {
    const empty = findEmptyString(value, field);
    if (empty) throw badRequest(`[request body.${empty}]: value '' is not valid`);
  }
  if (type.config) {
    for (const [key, value] of Object.entries(config)) {
      const check = Object.prototype.hasOwnProperty.call(type.config, key) ? type.config[key] : undefined;
      if (!check) throw badRequest(`error validating action type config: [${key}]: definition for this key is missing`);
      const problem = checkValue(key, value, check);
      if (problem) throw badRequest(`error validating action type config: ${problem}`);
    }
    for (const key of type.requiredConfig ?? []) {
      if (config[key] === undefined || config[key] === null) {
        throw badRequest(`error validating action type config: invalid connector configuration: [${key}]: expected value of type [string] but got [undefined]`);
      }
    }
  }
  if (type.secrets) {
    for (const [key, value] of Object.entries(secrets)) {
      if (!type.secrets.includes(key)) throw badRequest(`error validating action type secrets: [${key}]: definition for this key is missing`);
      if (value !== null && typeof value !== 'string') throw badRequest(`error validating action type secrets: [${key}]: expected value of type [string] but got [${describe(value)}]`);
    }
  }
  const stored = { ...(type.defaults?.(config) ?? {}), ...dropUndefined(config) };
  return { config: stored, secrets: { ...secrets } };
}

function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function rejectUnknownKeys(body: Record<string, unknown>, allowed: string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw badRequest(`[request body.${key}]: definition for this key is missing`);
  }
}

function requireName(body: Record<string, unknown>): string {
  if (typeof body.name !== 'string') throw badRequest(`[request body.name]: expected value of type [string] but got [${body.name === undefined ? 'undefined' : describe(body.name)}]`);
  if (body.name === '') throw badRequest(`[request body.name]: value '' is not valid`);
  return body.name;
}

function bodyObject(req: EmuRequest): Record<string, unknown> {
  if (req.body === undefined) throw badRequest('[request body]: expected a plain object value, but found [null] instead.');
  if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
    throw badRequest(`[request body]: expected a plain object value, but found [${describe(req.body)}] instead.`);
  }
  return req.body as Record<string, unknown>;
}

// ---- handlers ----

function create(req: EmuRequest, ctx: EmulatorContext) {
  const body = bodyObject(req);
  rejectUnknownKeys(body, ['name', 'connector_type_id', 'config', 'secrets', ...(req.params.id === undefined ? ['id'] : [])]);
  let id = req.params.id ?? (body.id as string | undefined);
  if (id !== undefined && (typeof id !== 'string' || id.length < 1 || id.length > 36)) {
    throw badRequest(`[request params.id]: value has length [${String(id ?? '').length}] but it must be between 1 and 36 characters`);
  }
  // validateConnectorId (x-pack/platform/plugins/shared/actions/common/validate_connector_id.ts): lower-case slug.
  if (id !== undefined && (id.includes('/') || id.includes('..'))) throw badRequest('[request params.id]: Connector ID must not contain path separators ("/") or traversal sequences ("..").');
  if (id !== undefined && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(id)) throw badRequest('[request params.id]: Connector ID must contain only lowercase letters, numbers, and hyphens.');
  const name = requireName(body);
  const typeId = body.connector_type_id;
  if (typeof typeId !== 'string') throw badRequest(`[request body.connector_type_id]: expected value of type [string] but got [${typeId === undefined ? 'undefined' : describe(typeId)}]`);
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

function builtInOrThrow(id: string, verb: 'updated' | 'deleted' | 'executed'): void {
  const b = BUILT_IN.find((x) => x.id === id);
  if (!b) return;
  const what = b.is_preconfigured ? 'Preconfigured action' : 'System action';
  throw badRequest(verb === 'deleted' ? `${what} ${id} is not allowed to delete.` : `${what} ${id} can not be ${verb}.`);
}

function getOne(req: EmuRequest, ctx: EmulatorContext) {
  const stored = storedConnector(ctx, req.space, req.params.id);
  if (stored) return { body: connectorResponse(stored) };
  const b = BUILT_IN.find((x) => x.id === req.params.id);
  if (b) return { body: builtInResponse(b) };
  throw notFound(`Saved object [action/${req.params.id}] not found`);
}

function list(req: EmuRequest, ctx: EmulatorContext) {
  const counts = connectorReferenceCounts(ctx, req.space);
  const all = [...BUILT_IN.map(builtInResponse), ...Object.values(connectorsState(ctx, req.space).records).map(connectorResponse)];
  return { body: all.map((c) => ({ ...c, referenced_by_count: counts[c.id as string] ?? 0 })) };
}

function types(req: EmuRequest, ctx: EmulatorContext) {
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

function update(req: EmuRequest, ctx: EmulatorContext) {
  builtInOrThrow(req.params.id, 'updated');
  const body = bodyObject(req);
  if ('connector_type_id' in body) throw badRequest('[request body.connector_type_id]: definition for this key is missing');
  rejectUnknownKeys(body, ['name', 'config', 'secrets']);
  const name = requireName(body);
  const state = connectorsState(ctx, req.space);
  const existing = storedConnector(ctx, req.space, req.params.id);
  if (!existing) throw notFound(`Saved object [action/${req.params.id}] not found`);
  // A PUT replaces config and secrets whole; what is omitted becomes {} (wire-facts 1.2).
  const { config, secrets } = validateConfigAndSecrets(TYPES_BY_ID[existing.connector_type_id], body.config, body.secrets);
  const stored: StoredConnector = { ...existing, name, config, secrets };
  putConnector(state, stored);
  return { body: connectorResponse(stored) };
}

function remove(req: EmuRequest, ctx: EmulatorContext) {
  builtInOrThrow(req.params.id, 'deleted');
  const state = connectorsState(ctx, req.space);
  if (!storedConnector(ctx, req.space, req.params.id)) throw notFound(`Saved object [action/${req.params.id}] not found`);
  delete state.records[req.params.id];
  return { status: 204 };
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** Params problems come back as an execution result with status error, not as an HTTP error. */
function paramsProblem(typeId: string, params: Record<string, unknown>): string | undefined {
  if (typeId === '.server-log') {
    if (typeof params.message !== 'string') return `[message]: expected value of type [string] but got [${params.message === undefined ? 'undefined' : describe(params.message)}]`;
    if (params.level !== undefined && !LOG_LEVELS.includes(params.level as string)) return `[level]: expected one of [${LOG_LEVELS.join(', ')}] but got [${String(params.level)}]`;
  } else if (typeId === '.webhook') {
    if (params.body !== undefined && typeof params.body !== 'string') return `[body]: expected value of type [string] but got [${describe(params.body)}]`;
  } else if (typeId === '.index') {
    const docs = params.documents;
    if (!Array.isArray(docs)) return `[documents]: expected value of type [array] but got [${docs === undefined ? 'undefined' : describe(docs)}]`;
    const bad = docs.findIndex((d) => d === null || typeof d !== 'object' || Array.isArray(d));
    if (bad >= 0) return `[documents.${bad}]: expected value of type [object] but got [${describe(docs[bad])}]`;
  }
  return undefined;
}

function execute(req: EmuRequest, ctx: EmulatorContext) {
  const body = bodyObject(req);
  if (body.params === undefined || body.params === null || typeof body.params !== 'object' || Array.isArray(body.params)) {
    throw badRequest(`[request body.params]: expected value of type [object] but got [${body.params === undefined ? 'undefined' : describe(body.params)}]`);
  }
  const params = body.params as Record<string, unknown>;
  const state = connectorsState(ctx, req.space);
  const connector = findConnector(ctx, req.space, req.params.id);
  if (!connector) throw notFound(`Saved object [action/${req.params.id}] not found`);
  if (BUILT_IN.some((b) => b.id === connector.id && b.is_system_action)) builtInOrThrow(connector.id, 'executed');
  const problem = paramsProblem(connector.connector_type_id, params);
  if (problem) {
    return { body: { connector_id: connector.id, status: 'error', message: `error validating action params: ${problem}`, retry: false, errorSource: 'user' } };
  }
  const recorded: Record<string, unknown> = { ...params };
  if (connector.connector_type_id === '.server-log') recorded.level = params.level ?? 'info';
  state.executions.push({ connector_id: connector.id, connector_type_id: connector.connector_type_id, at: ctx.now().toISOString(), params: recorded });
  if (connector.connector_type_id === '.index') {
    const index = String(storedConnector(ctx, req.space, connector.id)?.config.index);
    if (!Object.prototype.hasOwnProperty.call(state.indices, index)) {
      Object.defineProperty(state.indices, index, { value: [], enumerable: true, writable: true, configurable: true });
    }
    state.indices[index].push(...(params.documents as Record<string, unknown>[]));
  }
  return { body: { connector_id: connector.id, status: 'ok' } };
}

// ---- OAuth authorization-code callback (added 9.4.0) ----

/** Tells the window that opened the authorization page how it went, then closes it. */
const OAUTH_SCRIPT = `(function () {
  var el = document.getElementById('oauth-result');
  var result = el ? JSON.parse(el.textContent) : { status: 'error' };
  if (window.opener) window.opener.postMessage({ type: 'connector_oauth_callback', result: result }, window.location.origin);
  window.close();
})();
`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function oauthPage(result: Record<string, string>, message: string) {
  const json = JSON.stringify(result).replace(/</g, '\\u003c');
  return {
    text: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Connector authorization</title></head><body><p>${escapeHtml(message)}</p><script type="application/json" id="oauth-result">${json}</script><script src="/api/actions/connector/_oauth_callback_script"></script></body></html>`,
    contentType: 'text/html; charset=utf-8',
  };
}

function oauthCallback(req: EmuRequest, ctx: EmulatorContext) {
  const error = req.query.get('error');
  if (error) {
    const description = req.query.get('error_description') ?? '';
    return oauthPage({ status: 'error', error }, `Authorization failed: ${error}${description ? `: ${description}` : ''}`);
  }
  const code = req.query.get('code');
  const stateParam = req.query.get('state');
  const state = connectorsState(ctx, req.space);
  const pending = stateParam && state.oauthStates && Object.prototype.hasOwnProperty.call(state.oauthStates, stateParam) ? state.oauthStates[stateParam] : undefined;
  if (!code || !pending) return oauthPage({ status: 'error', error: 'invalid_state' }, 'Authorization failed: the authorization state is missing, unknown or expired.');
  delete state.oauthStates![stateParam!];
  (state.oauthCallbacks ??= []).push({ connector_id: pending.connector_id, code, at: ctx.now().toISOString() });
  if (pending.return_url) return { status: 302, headers: { location: pending.return_url }, text: '' };
  return oauthPage({ status: 'success', connector_id: pending.connector_id }, 'Authorization complete. You can close this window.');
}

export const connectorsArea: EmulatorArea = {
  name: 'connectors',
  register(router) {
    router.post('/api/actions/connector', create);
    router.post('/api/actions/connector/:id', create);
    router.get('/api/actions/connector/:id', getOne);
    router.put('/api/actions/connector/:id', update);
    router.delete('/api/actions/connector/:id', remove);
    router.post('/api/actions/connector/:id/_execute', execute);
    router.get('/api/actions/connectors', list);
    router.get('/api/actions/connector_types', types, { access: 'none' });
    router.get('/api/actions/connector/_oauth_callback', oauthCallback);
    router.get('/api/actions/connector/_oauth_callback_script', () => ({ text: OAUTH_SCRIPT, contentType: 'application/javascript; charset=utf-8' }));
  },
};

