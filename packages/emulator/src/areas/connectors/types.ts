import type { License } from '../../context.js';
import { badRequest } from '../../errors.js';
import { EXTRA_CONNECTOR_TYPES } from '../../facts/connector-types.js';
import {
  casesWebhookConfigProblem, casesWebhookConnectorProblem, coerceNumber, coercePort, emailConfigProblem, emailConnectorProblem, genAiConfigProblem, incidentConfigProblem,
  incidentConnectorProblem, incidentSecretsProblem, webhookConfigProblem, webhookSecretsProblem, webhookUrlProblem,
} from './checks.js';

/**
 * The connector type catalogue and the validation of a connector's config and secrets against its
 * type (platform error shape, the wording of the server's config-schema validator).
 */

/** `port`: a number or a numeric string, stored as the number (checks.ts coercePort). */
type ValueCheck = 'string' | 'url' | 'boolean' | 'integer' | 'number' | 'coercedNumber' | 'object' | 'port' | readonly string[];

export interface ConnectorType {
  id: string;
  name: string;
  featureIds: string[];
  minimumLicense: License;
  /** Config keys and their value checks; undefined for types whose shape the document leaves open. */
  config?: Record<string, ValueCheck>;
  requiredConfig?: string[];
  /**
   * The config keys whose schema takes null; when given, null in any other key is refused as that
   * schema refuses it. Left out, every key takes null (types whose nullability was not read).
   */
  nullable?: readonly string[];
  /** Secrets that must be there, as strings (null is no value). */
  requiredSecrets?: string[];
  /** Secrets whose value is a record of strings (a webhook's secret headers), not a string. */
  objectSecrets?: readonly string[];
  /** The type's own check of its config (its customValidator), run after the schema. */
  configProblem?: (config: Record<string, unknown>) => string | undefined;
  /**
   * The type's check of config and secrets together (its `validate.connector`), given them as sent:
   * the route passes the body's config and secrets to it, not the validated ones with defaults
   * (actions plugin connector create and update).
   */
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

/**
 * Authentication config of webhook-style types (kbn-connector-schemas common/auth AuthConfiguration).
 * Of these only authType (a union with null) and additionalFields (`nullish`) take null: hasAuth is
 * a boolean with a default, the rest `.optional()`, which refuses null (as `schema.maybe` did in
 * the older config-schema version of the same keys).
 */
const WEBHOOK_AUTH_NULLABLE = ['authType', 'additionalFields'] as const;
const WEBHOOK_AUTH = {
  hasAuth: 'boolean',
  authType: ['webhook-authentication-basic', 'webhook-authentication-ssl', 'webhook-oauth2-client-credentials', 'http-authentication-query-param'],
  certType: ['ssl-crt-key', 'ssl-pfx'], ca: 'string', verificationMode: ['full', 'certificate', 'none'], accessTokenUrl: 'string', clientId: 'string', scope: 'string', additionalFields: 'string',
} as const;

/** Secrets of webhook-style types (common/auth SecretConfiguration and its validation). */
const WEBHOOK_SECRETS = {
  secrets: ['user', 'password', 'crt', 'key', 'pfx', 'clientSecret', 'secretHeaders'],
  objectSecrets: ['secretHeaders'],
  secretsProblem: webhookSecretsProblem,
} satisfies Partial<ConnectorType>;

/**
 * Types beyond the document's ten whose config and secrets are modelled (the others take any
 * objects): merged over their catalogue entry from facts/connector-types.ts.
 */
const MODELLED_EXTRA_TYPES: Record<string, Partial<ConnectorType>> = {
  // kbn-connector-schemas pagerduty/schemas/v1.ts: config only apiUrl (nullable), routingKey required.
  '.pagerduty': { config: { apiUrl: 'string' }, secrets: ['routingKey'], requiredSecrets: ['routingKey'] },
  // kbn-connector-schemas cases_webhook/schemas/v1.ts ExternalIncidentServiceConfiguration (its
  // defaults are the catalogue's), secrets those of the webhook.
  '.cases-webhook': {
    config: {
      createIncidentUrl: 'string', createIncidentMethod: ['post', 'put'], createIncidentJson: 'string', createIncidentResponseKey: 'string',
      getIncidentMethod: ['get', 'post'], getIncidentUrl: 'string', getIncidentJson: 'string', getIncidentResponseExternalTitleKey: 'string',
      viewIncidentUrl: 'string', updateIncidentUrl: 'string', updateIncidentMethod: ['post', 'patch', 'put'], updateIncidentJson: 'string',
      createCommentUrl: 'string', createCommentMethod: ['post', 'put', 'patch'], createCommentJson: 'string', headers: 'object', ...WEBHOOK_AUTH,
    },
    requiredConfig: [
      'createIncidentUrl', 'createIncidentJson', 'createIncidentResponseKey', 'getIncidentUrl', 'getIncidentResponseExternalTitleKey', 'viewIncidentUrl', 'updateIncidentUrl', 'updateIncidentJson',
    ],
    // `.nullable()` in the same schema; the methods with a default but without it refuse null.
    nullable: ['getIncidentJson', 'createCommentUrl', 'createCommentMethod', 'createCommentJson', 'headers', ...WEBHOOK_AUTH_NULLABLE],
    // stack_connectors cases_webhook/validators.ts validateCasesWebhookConfig and validateConnector.
    configProblem: casesWebhookConfigProblem,
    connectorProblem: casesWebhookConnectorProblem,
    ...WEBHOOK_SECRETS,
  },
};

export const CONNECTOR_TYPES: ConnectorType[] = [
  {
    id: '.webhook', name: 'Webhook', featureIds: ['alerting', 'cases', 'uptime', 'siem'], minimumLicense: 'gold',
    // kbn-connector-schemas webhook/schemas/v1.ts and common/auth (methods, OAuth2 client
    // credentials, the query-parameter type, secret headers), which the OpenAPI document lags.
    config: { url: 'url', method: ['post', 'put', 'patch', 'get', 'delete'], headers: 'object', ...WEBHOOK_AUTH },
    requiredConfig: ['url'],
    // webhook/schemas/v1.ts: `headers: HeadersSchema.nullable().default(null)`; url and method refuse null.
    nullable: ['headers', ...WEBHOOK_AUTH_NULLABLE],
    configProblem: webhookConfigProblem,
    // hasAuth defaults to true (wire-facts §15 fact 4). authType's default sits inside `.optional()`:
    // zod v3 never applies it, zod v4 does, so older servers leave authType out and newer ones fill
    // webhook-authentication-basic. The emulator answers as the older ones; svcform takes both alike.
    defaults: () => ({ method: 'post', hasAuth: true }),
    ...WEBHOOK_SECRETS,
    needsSecrets: (c) => c.hasAuth !== false,
  },
  {
    id: '.email', name: 'Email', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold',
    config: { from: 'string', host: 'string', port: 'port', secure: 'boolean', service: 'string', hasAuth: 'boolean', clientId: 'string', tenantId: 'string', oauthTokenUrl: 'string' },
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
    config: { apiProvider: ['OpenAI', 'Azure OpenAI', 'Other'], apiUrl: 'url', defaultModel: 'string', organizationId: 'string', projectId: 'string', contextWindowLength: 'coercedNumber', temperature: 'coercedNumber', enableNativeFunctionCalling: 'boolean', ...HEADERS_AND_TLS },
    requiredConfig: ['apiProvider', 'apiUrl'],
    // openai/schemas/v1.ts ConfigSchema: no key of any provider's branch takes null.
    nullable: [],
    configProblem: genAiConfigProblem,
    // Other: verificationMode full (wire-facts 1.3); OpenAI: the release's default model
    // (kbn-connector-schemas/openai/schemas/v1.ts `defaultModel: z.string().default(DEFAULT_MODEL)`, constants.ts).
    defaults: (c) => (c.apiProvider === 'Other' ? { verificationMode: 'full' } : c.apiProvider === 'OpenAI' ? { defaultModel: 'gpt-4.1' } : {}),
    secrets: ['apiKey', 'certificateData', 'privateKeyData', 'caData'],
    needsSecrets: () => true,
  },
  {
    // The renamed `.slack`: config an empty object, secrets the webhook URL (kbn-connector-schemas
    // slack/schemas/v1.ts; stack_connectors slack/index.ts validateConnectorTypeConfig).
    id: '.chat', name: 'Chat', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold',
    config: {},
    secrets: ['webhookUrl'],
    requiredSecrets: ['webhookUrl'],
    secretsProblem: webhookUrlProblem('chat'),
    needsSecrets: () => true,
  },
  {
    // The renamed `.servicenow` (ITSM): kbn-connector-schemas servicenow/schemas/v1.ts
    // ExternalIncidentServiceConfiguration and its secrets; stack_connectors servicenow_itsm/index.ts
    // with lib/servicenow/validators.ts. isOAuth false and usesTableApi true filled in (wire-facts 1.3).
    id: '.incident', name: 'Incident management', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold',
    config: { apiUrl: 'string', isOAuth: 'boolean', userIdentifierValue: 'string', clientId: 'string', jwtKeyId: 'string', usesTableApi: 'boolean' },
    requiredConfig: ['apiUrl'],
    configProblem: incidentConfigProblem,
    defaults: () => ({ isOAuth: false, usesTableApi: true }),
    secrets: ['password', 'username', 'clientSecret', 'privateKey', 'privateKeyPassword'],
    secretsProblem: incidentSecretsProblem,
    connectorProblem: incidentConnectorProblem,
    needsSecrets: () => true,
  },
  {
    // The renamed `.jira`: kbn-connector-schemas jira/schemas/v1.ts (every key required); gold as
    // stack_connectors jira/index.ts registers it (`minimumLicenseRequired: 'gold'`).
    id: '.ticketing', name: 'Ticketing', featureIds: ['alerting', 'cases', 'uptime', 'siem'], minimumLicense: 'gold',
    config: { apiUrl: 'string', projectKey: 'string' },
    requiredConfig: ['apiUrl', 'projectKey'],
    secrets: ['email', 'apiToken'],
    requiredSecrets: ['email', 'apiToken'],
    needsSecrets: () => true,
  },
  {
    // The renamed `.teams`: kbn-connector-schemas teams/schemas/v1.ts; stack_connectors teams/index.ts.
    id: '.team-chat', name: 'Team chat', featureIds: ['alerting', 'uptime', 'siem'], minimumLicense: 'gold',
    config: {},
    secrets: ['webhookUrl'],
    requiredSecrets: ['webhookUrl'],
    secretsProblem: webhookUrlProblem('team-chat'),
    needsSecrets: () => true,
  },
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
    ...MODELLED_EXTRA_TYPES[t.id],
  })),
];

export const TYPES_BY_ID: Record<string, ConnectorType> = Object.fromEntries(CONNECTOR_TYPES.map((t) => [t.id, t]));
export const CREATABLE_TYPE_IDS = CONNECTOR_TYPES.filter((t) => !t.isSystemActionType).map((t) => t.id);

/** A value's type as config-schema names it in messages. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  return typeof v === 'object' ? 'Object' : typeof v;
}

/**
 * The route's `validateEmptyStrings` on each value of config and secrets (actions plugin
 * lib/validate_empty_strings.ts): a string that is empty or only whitespace anywhere inside the
 * value fails it. The route's record schema reports the key of config or secrets whose value failed.
 */
function hasEmptyString(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.some(hasEmptyString);
  if (value && typeof value === 'object') return Object.values(value).some(hasEmptyString);
  return false;
}

function checkValue(key: string, value: unknown, check: ValueCheck): string | undefined {
  if (value === null) return undefined;
  if (check === 'port' || check === 'coercedNumber') {
    const coerced = check === 'port' ? coercePort(value) : coerceNumber(key, value);
    return 'problem' in coerced ? coerced.problem : undefined;
  }
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

/** A null the key's schema refuses, worded as checkValue words a value of the wrong type. */
function nullProblem(key: string, check: ValueCheck): string {
  if (Array.isArray(check)) return `[${key}]: expected one of [${check.join(', ')}] but got [null]`;
  const expected = check === 'url' ? 'string' : check === 'port' || check === 'coercedNumber' ? 'number' : check;
  return `[${key}]: expected value of type [${expected}] but got [null]`;
}

function asObject(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`[request body.${field}]: expected value of type [object] but got [${describe(value)}]`);
  }
  return value as Record<string, unknown>;
}

/**
 * Validates config and secrets for a type; returns them as stored (server defaults filled in,
 * coerced values converted). `secrets: false` checks the config alone: a rule import brings
 * connectors without their secrets, which the server then reports missing.
 */
export function validateConfigAndSecrets(
  type: ConnectorType,
  configIn: unknown,
  secretsIn: unknown,
  options: { secrets?: boolean } = {},
): { config: Record<string, unknown>; secrets: Record<string, unknown> } {
  const config = { ...asObject(configIn, 'config') };
  const secrets = asObject(secretsIn, 'secrets');
  for (const [field, value] of [['config', config], ['secrets', secrets]] as const) {
    const empty = Object.keys(value).find((k) => hasEmptyString(value[k]));
    if (empty !== undefined) throw badRequest(`[request body.${field}.${empty}]: value '' is not valid`);
  }
  if (type.config) {
    for (const [key, value] of Object.entries(config)) {
      const check = Object.prototype.hasOwnProperty.call(type.config, key) ? type.config[key] : undefined;
      if (!check) throw badRequest(`error validating action type config: [${key}]: definition for this key is missing`);
      if (value === null && type.nullable && !type.nullable.includes(key)) throw badRequest(`error validating action type config: ${nullProblem(key, check)}`);
      const problem = checkValue(key, value, check);
      if (problem) throw badRequest(`error validating action type config: ${problem}`);
      if (check === 'port' && value !== null) config[key] = (coercePort(value) as { value: unknown }).value;
      if (check === 'coercedNumber' && value !== null) config[key] = (coerceNumber(key, value) as { value: unknown }).value;
    }
    for (const key of type.requiredConfig ?? []) {
      if (config[key] === undefined || config[key] === null) {
        throw badRequest(`error validating action type config: invalid connector configuration: [${key}]: expected value of type [string] but got [undefined]`);
      }
    }
    const problem = type.configProblem?.(config);
    if (problem) throw badRequest(`error validating action type config: ${problem}`);
  }
  const stored = { ...(type.defaults?.(config) ?? {}), ...dropUndefined(config) };
  if (options.secrets === false) return { config: stored, secrets: {} };
  if (type.secrets) {
    for (const [key, value] of Object.entries(secrets)) {
      if (!type.secrets.includes(key)) throw badRequest(`error validating action type secrets: [${key}]: definition for this key is missing`);
      if (type.objectSecrets?.includes(key)) {
        const record = value === null || (typeof value === 'object' && !Array.isArray(value) && Object.values(value as object).every((v) => typeof v === 'string'));
        if (!record) throw badRequest(`error validating action type secrets: [${key}]: expected a record of strings but got [${describe(value)}]`);
      } else if (value !== null && typeof value !== 'string') throw badRequest(`error validating action type secrets: [${key}]: expected value of type [string] but got [${describe(value)}]`);
    }
    for (const key of type.requiredSecrets ?? []) {
      if (typeof secrets[key] !== 'string') {
        throw badRequest(`error validating action type secrets: [${key}]: expected value of type [string] but got [${secrets[key] === undefined ? 'undefined' : describe(secrets[key])}]`);
      }
    }
    const problem = type.secretsProblem?.(secrets);
    if (problem) throw badRequest(`error validating action type secrets: ${problem}`);
  }
  // The connector check's prefix: actions plugin lib/validate_with_schema.ts validateConnector.
  const connectorProblem = type.connectorProblem?.(config, secrets);
  if (connectorProblem) throw badRequest(`error validating action type connector: ${connectorProblem}`);
  return { config: stored, secrets: { ...secrets } };
}

function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
