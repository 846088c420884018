import { EXTRA_CONNECTOR_TYPES, EXTRA_CONNECTOR_TYPES_BY_ID, serviceNowSecrets } from '../../common/connector-types.js';
import { closest } from '@svcform/query/suggest.js';
import type { Resource } from '../../manifest/types.js';
import type { AdapterContext, TargetOffer } from '../types.js';
import { clone, dropNulls } from '../normalize.js';

/**
 * What the Connector kind knows of connector types: the ten of service-api.md (config and secrets
 * checked by the schema), the rest of the real server's types (src/common/connector-types.ts), and
 * what a target offers (`GET /api/actions/connector_types`), the authority at plan time.
 */

/** The types of service-api.md, whose config and secrets the manifest schema checks. */
export const DOCUMENTED_TYPES = ['.webhook', '.email', '.index', '.server-log', '.gen-ai', '.chat', '.incident', '.ticketing', '.team-chat', '.issue-tracker'] as const;

/** Every type id svcform knows offline (system action types excepted: never created). */
export const KNOWN_TYPE_IDS: readonly string[] = [...DOCUMENTED_TYPES, ...EXTRA_CONNECTOR_TYPES.filter((t) => !t.systemAction).map((t) => t.id)];

/** Config defaults the server fills per type (wire-facts 1.3), as a function of what was sent. */
export function configDefaults(typeId: string, config: Record<string, unknown>): Record<string, unknown> {
  switch (typeId) {
    case '.webhook':
      // hasAuth: `schema.boolean({ defaultValue: true })` in the webhook config (wire-facts §15 fact 4).
      // authType: kbn-connector-schemas common/auth authTypeSchema `.default(Basic).optional()`,
      // which zod v4 servers apply and zod v3 ones do not; while the webhook authenticates, a
      // missing authType means basic authentication either way.
      return { method: 'post', hasAuth: true, ...(config.hasAuth !== false ? { authType: 'webhook-authentication-basic' } : {}) };
    case '.email':
      return { hasAuth: true, service: 'other' };
    case '.index':
      return { refresh: false };
    case '.gen-ai':
      return config.apiProvider === 'Other' ? { verificationMode: 'full' } : {};
    case '.incident':
      // The renamed `.servicenow` (wire-facts 1.3 and its glossary).
      return { isOAuth: false, usesTableApi: true };
    default:
      return EXTRA_CONNECTOR_TYPES_BY_ID.get(typeId)?.defaults?.(config) ?? {};
  }
}

/**
 * A connector's config in the form plan compares, desired and live alike: nulls dropped (the server
 * answers unset keys as null), values the server converts converted (an email port "587" is stored
 * as 587: kbn-connector-schemas email portSchema coerces; likewise an AI connector's
 * contextWindowLength and temperature), and the defaults of configDefaults filled.
 */
export function canonicalConfig(typeId: string, configIn: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = dropNulls(clone(configIn));
  const numeric = (key: string) => {
    const v = config[key];
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) config[key] = Number(v);
  };
  if (typeId === '.email') numeric('port');
  // kbn-connector-schemas openai ConfigSchema: z.coerce.number() for both.
  if (typeId === '.gen-ai') for (const key of ['contextWindowLength', 'temperature']) numeric(key);
  return { ...configDefaults(typeId, config), ...config };
}

/**
 * The secret keys a connector holds, for export's ${env:...} placeholders; undefined where svcform
 * cannot know them (types whose secrets the API document leaves open, types it does not know).
 */
export function secretKeys(typeId: string, config: Record<string, unknown>): string[] | undefined {
  switch (typeId) {
    case '.webhook':
      // The server defaults hasAuth to true; only an explicit false means no credentials.
      if (config.hasAuth === false) return [];
      // Certificate authentication carries the certificate in secrets, not a user and password.
      if (config.authType === 'webhook-authentication-ssl') return config.certType === 'ssl-pfx' ? ['pfx'] : ['crt', 'key'];
      if (config.authType === 'webhook-oauth2-client-credentials') return ['clientSecret'];
      // Query-parameter authentication keeps its secrets in keys svcform does not know.
      if (config.authType === 'http-authentication-query-param') return undefined;
      return ['user', 'password'];
    case '.gen-ai':
      return ['apiKey'];
    case '.email':
      return config.hasAuth === false ? [] : ['user', 'password'];
    case '.chat':
    case '.team-chat':
      // The renamed .slack and .teams (slack_secrets, teams_secrets: webhookUrl).
      return ['webhookUrl'];
    case '.incident':
      // The renamed .servicenow.
      return serviceNowSecrets(config);
    case '.ticketing':
      // The renamed .jira (jira_secrets: apiToken and email required).
      return ['email', 'apiToken'];
    case '.index':
    case '.server-log':
      return [];
    default:
      return EXTRA_CONNECTOR_TYPES_BY_ID.get(typeId)?.secretKeys?.(config);
  }
}

/** A type id svcform does not know: a warning (the target decides at plan), with a likely intended one. */
export function unknownTypeWarning(typeId: string): string | undefined {
  if (KNOWN_TYPE_IDS.includes(typeId)) return undefined;
  const near = closest(typeId, [...KNOWN_TYPE_IDS]);
  const hint = near ? ` (did you mean ${near}?)` : '';
  return `spec.connector_type_id ${JSON.stringify(typeId)} is not a connector type svcform knows${hint}; plan checks it against the types the target offers`;
}

interface OfferedType {
  id: string;
  enabled?: boolean;
  is_system_action_type?: boolean;
}

/** The target's connector types of a space, read once per space per run (service-api.md Connectors). */
export const connectorTypesOffer: TargetOffer = {
  description: 'connector types',
  async read(ctx: AdapterContext, space: string) {
    const res = await ctx.api.request<OfferedType[]>({ method: 'GET', path: '/api/actions/connector_types', space });
    if (!Array.isArray(res.body)) throw new Error('GET /api/actions/connector_types did not answer an array');
    return res.body.filter((t) => t && typeof t.id === 'string');
  },
  check(res: Resource, offered: unknown) {
    const types = offered as OfferedType[];
    const typeId = res.spec.connector_type_id;
    const creatable = types.filter((t) => !t.is_system_action_type).map((t) => t.id);
    const found = types.find((t) => t.id === typeId);
    const path = ['spec', 'connector_type_id'];
    if (found?.is_system_action_type) return { path, message: `connector type ${typeId} is a system action type of the target: its connector is built in and cannot be created` };
    if (found) return undefined;
    return { path, message: `connector type ${JSON.stringify(typeId)} is not offered by the target in space ${res.space}; it offers: ${creatable.join(', ')}` };
  },
};

/**
 * Fields the server fills with a default of the release when a manifest leaves them out, whose
 * value changes between releases: an OpenAI connector's model (kbn-connector-schemas openai
 * `defaultModel: z.string().default(DEFAULT_MODEL)`) and a Gemini connector's (gemini_config
 * `default: gemini-2.5-pro` in the OpenAPI document). Not compared while the manifest has none.
 */
export function modelChosenByServer(typeId: unknown, config: Record<string, unknown>): boolean {
  return config.defaultModel === undefined && ((typeId === '.gen-ai' && config.apiProvider === 'OpenAI') || typeId === '.gemini');
}
