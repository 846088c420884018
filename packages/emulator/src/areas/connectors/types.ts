import type { License } from '../../context.js';
import { badRequest } from '../../errors.js';
import { EXTRA_CONNECTOR_TYPES } from '../../facts/connector-types.js';

/**
 * The connector type catalogue and the validation of a connector's config and secrets against its
 * type (platform error shape, the wording of the server's config-schema validator).
 */

type ValueCheck = 'string' | 'url' | 'boolean' | 'integer' | 'number' | 'object' | readonly string[];

export interface ConnectorType {
  id: string;
  name: string;
  featureIds: string[];
  minimumLicense: License;
  /** Config keys and their value checks; undefined for types whose shape the document leaves open. */
  config?: Record<string, ValueCheck>;
  requiredConfig?: string[];
  /** Secrets whose value is a record of strings (a webhook's secret headers), not a string. */
  objectSecrets?: readonly string[];
  /** The type's own check of its config (its customValidator), run after the schema. */
  configProblem?: (config: Record<string, unknown>) => string | undefined;
  /** The type's check of config and secrets together (its `validate.connector`). */
  connectorProblem?: (config: Record<string, unknown>, secrets: Record<string, unknown>) => string | undefined;
  /** A check of the secrets together, as the type's secrets schema refines them. */
  secretsProblem?: (secrets: Record<string, unknown>) => string | undefined;
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
    // kbn-connector-schemas webhook/schemas/v1.ts and common/auth (methods, OAuth2 client
    // credentials, the query-parameter type, secret headers), which the OpenAPI document lags.
    config: {
      url: 'url', method: ['post', 'put', 'patch', 'get', 'delete'], hasAuth: 'boolean',
      authType: ['webhook-authentication-basic', 'webhook-authentication-ssl', 'webhook-oauth2-client-credentials', 'http-authentication-query-param'],
      certType: ['ssl-crt-key', 'ssl-pfx'], ca: 'string', accessTokenUrl: 'string', clientId: 'string', scope: 'string', additionalFields: 'string', ...HEADERS_AND_TLS,
    },
    requiredConfig: ['url'],
    // hasAuth is `schema.boolean({ defaultValue: true })` in the webhook config schema (wire-facts
    // §15 fact 4); authType has no default (its default sits inside schema.maybe, which never applies).
    defaults: () => ({ method: 'post', hasAuth: true }),
    secrets: ['user', 'password', 'crt', 'key', 'pfx', 'clientSecret', 'secretHeaders'],
    objectSecrets: ['secretHeaders'],
    secretsProblem: webhookSecretsProblem,
    needsSecrets: (c) => c.hasAuth !== false,
  },
  {
    id: '.email', name: 'Email', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold',
    config: { from: 'string', host: 'string', port: 'integer', secure: 'boolean', service: 'string', hasAuth: 'boolean', clientId: 'string', tenantId: 'string', oauthTokenUrl: 'url' },
    requiredConfig: ['from'],
    configProblem: emailConfigProblem,
    connectorProblem: emailConnectorProblem,
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
    // Other: verificationMode full (wire-facts 1.3); OpenAI: the release's default model
    // (kbn-connector-schemas/openai/schemas/v1.ts `defaultModel: z.string().default(DEFAULT_MODEL)`, constants.ts).
    defaults: (c) => (c.apiProvider === 'Other' ? { verificationMode: 'full' } : c.apiProvider === 'OpenAI' ? { defaultModel: 'gpt-4.1' } : {}),
    secrets: ['apiKey', 'certificateData', 'privateKeyData', 'caData'],
    needsSecrets: () => true,
  },
  {
    id: '.chat', name: 'Chat', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold',
    config: {},
    secrets: ['webhookUrl'],
    needsSecrets: () => true,
  },
  // The renamed `.servicenow`: isOAuth false and usesTableApi true filled in (wire-facts 1.3).
  { id: '.incident', name: 'Incident management', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold', defaults: () => ({ isOAuth: false, usesTableApi: true }) },
  { id: '.ticketing', name: 'Ticketing', featureIds: ['alerting', 'cases', 'uptime', 'siem'], minimumLicense: 'platinum' },
  { id: '.team-chat', name: 'Team chat', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold' },
  { id: '.issue-tracker', name: 'Issue tracker', featureIds: ['alerting', 'cases', 'uptime', 'siem'], minimumLicense: 'gold' },
  // The system action behind the per-space system connector; never creatable through the API.
  { id: '.cases', name: 'Cases', featureIds: ['alerting'], minimumLicense: 'platinum', isSystemActionType: true, config: {}, secrets: [] },
  // The rest of the real server's types (wire-facts §16 #12): config and secrets are taken as
  // objects (their per-type schemas are not modelled), with the defaults the server fills in.
  ...EXTRA_CONNECTOR_TYPES.map((t): ConnectorType => ({
    id: t.id,
    name: t.name,
    featureIds: [...t.featureIds],
    minimumLicense: t.minimumLicense,
    defaults: t.defaults,
    needsSecrets: t.secretKeys && ((c) => t.secretKeys!(c).length > 0),
    isSystemActionType: t.systemAction,
  })),
];

/**
 * Email config (stack_connectors email/index.ts validateConfig): the `other` service (the default)
 * needs host and port, `exchange_server` needs clientId and tenantId. A service name is checked
 * against nodemailer's well-known list there; the emulator leaves names to the server.
 */
function emailConfigProblem(c: Record<string, unknown>): string | undefined {
  const service = c.service ?? 'other';
  const missing = (keys: string[]) => keys.filter((k) => c[k] === undefined || c[k] === null);
  const need = service === 'other' ? ['host', 'port'] : service === 'exchange_server' ? ['clientId', 'tenantId'] : [];
  const absent = missing(need);
  return absent.length ? `${absent.map((k) => `[${k}]`).join('/')} is required` : undefined;
}

/** Email credentials (validateConnector): exchange_server needs clientSecret, else hasAuth (default true) user and password. */
function emailConnectorProblem(c: Record<string, unknown>, s: Record<string, unknown>): string | undefined {
  if (c.service === 'exchange_server') return s.clientSecret == null ? '[clientSecret] is required' : undefined;
  if (c.hasAuth === false) return undefined;
  if (s.user == null) return '[user] is required';
  return s.password == null ? '[password] is required' : undefined;
}

/**
 * Webhook secrets hold one set of credentials: user and password, crt and key (a password beside
 * them allowed), pfx (likewise), a clientSecret, or none (common/auth/schemas/v1.ts,
 * SecretConfigurationSchemaValidation); secret headers go with any of them.
 */
function webhookSecretsProblem(s: Record<string, unknown>): string | undefined {
  const has = (k: string) => typeof s[k] === 'string' && s[k] !== '';
  const [user, password, crt, key, pfx, clientSecret] = ['user', 'password', 'crt', 'key', 'pfx', 'clientSecret'].map(has);
  const none = !password && !user && !crt && !key && !pfx && !clientSecret;
  const basic = password && user && !crt && !key && !pfx && !clientSecret;
  const certificate = crt && key && !user && !pfx && !clientSecret;
  const bundle = !crt && !key && !user && pfx && !clientSecret;
  const oauth = !password && !user && !crt && !key && !pfx && clientSecret;
  if (none || basic || certificate || bundle || oauth) return undefined;
  return 'must specify one of the following schemas: user and password; crt and key (with optional password); pfx (with optional password); or clientSecret (for OAuth2)';
}

export const TYPES_BY_ID: Record<string, ConnectorType> = Object.fromEntries(CONNECTOR_TYPES.map((t) => [t.id, t]));
export const CREATABLE_TYPE_IDS = CONNECTOR_TYPES.filter((t) => !t.isSystemActionType).map((t) => t.id);

/** A value's type as config-schema names it in messages. */
export function describe(v: unknown): string {
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
export function validateConfigAndSecrets(type: ConnectorType, configIn: unknown, secretsIn: unknown): { config: Record<string, unknown>; secrets: Record<string, unknown> } {
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
    const problem = type.configProblem?.(config);
    if (problem) throw badRequest(`error validating action type config: ${problem}`);
  }
  if (type.secrets) {
    for (const [key, value] of Object.entries(secrets)) {
      if (!type.secrets.includes(key)) throw badRequest(`error validating action type secrets: [${key}]: definition for this key is missing`);
      if (type.objectSecrets?.includes(key)) {
        const record = value === null || (typeof value === 'object' && !Array.isArray(value) && Object.values(value as object).every((v) => typeof v === 'string'));
        if (!record) throw badRequest(`error validating action type secrets: [${key}]: expected a record of strings but got [${describe(value)}]`);
      } else if (value !== null && typeof value !== 'string') throw badRequest(`error validating action type secrets: [${key}]: expected value of type [string] but got [${describe(value)}]`);
    }
    const problem = type.secretsProblem?.(secrets);
    if (problem) throw badRequest(`error validating action type secrets: ${problem}`);
  }
  const stored = { ...(type.defaults?.(config) ?? {}), ...dropUndefined(config) };
  const connectorProblem = type.connectorProblem?.(stored, secrets);
  if (connectorProblem) throw badRequest(`error validating connector: ${connectorProblem}`);
  return { config: stored, secrets: { ...secrets } };
}

function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
