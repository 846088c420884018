import type { CheckIssue, Resource } from '../../manifest/types.js';
import { isPlainObject } from '../normalize.js';

/**
 * Offline checks of a connector's config and secrets that a JSON schema cannot say well: the
 * combinations each type's validators refuse on every server release read (the real source is
 * cited per check). Only what the server surely refuses is an error here. svcform's own copy of
 * these rules; the emulator keeps another (packages/emulator/src/areas/connectors/checks.ts), so a
 * wrong rule on either side fails the conformance tests instead of agreeing by construction.
 */

type Values = Record<string, unknown>;

/** What the server's validators treat as set (`!secrets.user`): a present, non-null, non-empty value. */
const set = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== false;

/**
 * Webhook-style secrets hold one set of credentials (kbn-connector-schemas common/auth/schemas/v1.ts
 * SecretConfigurationSchemaValidation, used by .webhook and .cases-webhook): none, user and
 * password, crt and key (a password beside them allowed), pfx (likewise), or clientSecret.
 */
function webhookSecretsIssue(s: Values): CheckIssue | undefined {
  const [user, password, crt, key, pfx, clientSecret] = ['user', 'password', 'crt', 'key', 'pfx', 'clientSecret'].map((k) => set(s[k]));
  const one =
    (!password && !user && !crt && !key && !pfx && !clientSecret) ||
    (password && user && !crt && !key && !pfx && !clientSecret) ||
    (crt && key && !user && !pfx && !clientSecret) ||
    (!crt && !key && !user && pfx && !clientSecret) ||
    (!password && !user && !crt && !key && !pfx && clientSecret);
  if (one) return undefined;
  return {
    path: ['spec', 'secrets'],
    message: 'spec.secrets must hold one set of credentials: user and password; crt and key (with optional password); pfx (with optional password); or clientSecret (for OAuth2); the server refuses any other combination',
  };
}

const CASES_WEBHOOK_URLS = ['createIncidentUrl', 'createCommentUrl', 'viewIncidentUrl', 'getIncidentUrl', 'updateIncidentUrl'];

/**
 * The case-management webhook's own checks (stack_connectors cases_webhook/validators.ts), in every
 * release read: each URL that is set must parse as written (validateCasesWebhookConfig: `new URL`;
 * a mustache placeholder may stand in the path, not for the scheme and host), and with hasAuth true
 * the secrets must hold something (validateConnector: `hasAuth && isEmpty(secrets)`, on the config
 * as sent, so a left-out hasAuth is not held to it). The refusal of OAuth2 client credentials is
 * in the newer validators.ts only (an older version read has none), so svcform warns, not refuses.
 */
function casesWebhookIssues(res: Resource, c: Values): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (c.authType === 'webhook-oauth2-client-credentials') {
    issues.push({ path: ['spec', 'config', 'authType'], message: 'authType webhook-oauth2-client-credentials: .cases-webhook does not support OAuth2, and newer servers refuse it', severity: 'warning' });
  }
  for (const key of CASES_WEBHOOK_URLS) {
    const url = c[key];
    if (typeof url !== 'string' || url === '') continue;
    try {
      new URL(url);
    } catch {
      issues.push({ path: ['spec', 'config', key], message: `${key} ${JSON.stringify(url)} is not a URL (the server parses it as written: a mustache placeholder may stand in the path, not for the scheme and host)` });
    }
  }
  const secrets = res.spec.secrets;
  if (c.hasAuth === true && !(isPlainObject(secrets) && Object.keys(secrets).length > 0)) {
    issues.push({ path: ['spec', 'secrets'], message: 'spec.secrets must hold credentials when hasAuth is true (the server refuses empty secrets then)' });
  }
  return issues;
}

/**
 * A webhook's OAuth2 client credentials and extra token fields (stack_connectors
 * webhook/validations.ts, every release that knows them): validateOAuth2 refuses the method without
 * accessTokenUrl or clientId, validateAdditionalFields refuses additionalFields, whatever the
 * method, unless it is a JSON object with at least one field.
 */
function webhookOAuth2Issues(c: Values): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (typeof c.additionalFields === 'string' && c.additionalFields !== '' && !isNonEmptyJsonObject(c.additionalFields)) {
    issues.push({ path: ['spec', 'config', 'additionalFields'], message: 'additionalFields must be a JSON object with at least one field, written as a string (the server refuses anything else)' });
  }
  if (c.authType === 'webhook-oauth2-client-credentials') {
    for (const key of ['accessTokenUrl', 'clientId']) {
      if (!set(c[key])) issues.push({ path: ['spec', 'config'], message: `config.${key} is required when authType is webhook-oauth2-client-credentials (the server refuses the connector without it)` });
    }
  }
  return issues;
}

function isNonEmptyJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) && Object.keys(parsed).length > 0;
  } catch {
    return false;
  }
}

/** stack_connectors webhook/validations.ts validateAuthType: no authentication method without authentication. */
function webhookAuthTypeIssue(c: Values): CheckIssue | undefined {
  if (c.hasAuth !== false || !set(c.authType)) return undefined;
  return { path: ['spec', 'config', 'authType'], message: 'authType must be null or left out when hasAuth is false (the server refuses it)' };
}

/**
 * The email port as the server reads it (kbn-connector-schemas email/schemas/v1.ts portSchema:
 * `z.coerce.number().min(1).max(65535)`): a string must be a number in that range.
 */
function emailPortIssue(c: Values): CheckIssue | undefined {
  if (typeof c.port !== 'string') return undefined;
  const n = Number(c.port);
  if (!Number.isNaN(n) && n >= 1 && n <= 65535) return undefined;
  return { path: ['spec', 'config', 'port'], message: `port ${JSON.stringify(c.port)} is not a number from 1 to 65535 (the server reads a string port as a number)` };
}

/**
 * The AI connectors' contextWindowLength and temperature (kbn-connector-schemas openai/schemas/v1.ts:
 * `z.coerce.number().optional()`, no bounds): a string must read as a finite number.
 */
function coercedNumberIssues(c: Values): CheckIssue[] {
  return ['contextWindowLength', 'temperature'].flatMap((key): CheckIssue[] => {
    const v = c[key];
    if (typeof v !== 'string' || (v.trim() !== '' && Number.isFinite(Number(v)))) return [];
    return [{ path: ['spec', 'config', key], message: `${key} ${JSON.stringify(v)} is not a number (the server reads a string ${key} as a number)` }];
  });
}

const GEN_AI_COMMON = ['apiProvider', 'apiUrl', 'defaultModel', 'headers', 'contextWindowLength', 'temperature'];

/**
 * The keys of each provider's branch of the gen-ai config (kbn-connector-schemas openai/schemas/v1.ts
 * ConfigSchema, a union of objects, one per provider): OpenAI adds organizationId and projectId,
 * Other verificationMode and enableNativeFunctionCalling, Azure OpenAI nothing.
 */
const GEN_AI_BRANCH_KEYS: Record<string, readonly string[]> = {
  OpenAI: [...GEN_AI_COMMON, 'organizationId', 'projectId'],
  'Azure OpenAI': GEN_AI_COMMON,
  Other: [...GEN_AI_COMMON, 'verificationMode', 'enableNativeFunctionCalling'],
};

/**
 * A key of another provider's branch. The branches are strict objects in kbn-connector-schemas and
 * in the older config-schema version (stack_connectors common/openai/schema.ts), which refuse it;
 * the zod version between them was not strict and drops it unstored. No release keeps it, so the
 * manifest could never converge: an error.
 */
function genAiBranchIssues(c: Values): CheckIssue[] {
  const allowed = GEN_AI_BRANCH_KEYS[String(c.apiProvider)];
  if (!allowed) return [];
  return Object.keys(c).filter((k) => !allowed.includes(k)).map((k) => {
    const owners = Object.keys(GEN_AI_BRANCH_KEYS).filter((p) => GEN_AI_BRANCH_KEYS[p].includes(k));
    return { path: ['spec', 'config', k], message: `${k} is not a setting of apiProvider ${String(c.apiProvider)}, only of ${owners.join(' and ')} (the server refuses it; no release stores it)` };
  });
}

/**
 * The chat and team-chat webhook URL must parse (stack_connectors slack/index.ts and teams/index.ts
 * validateConnectorTypeConfig: `new URL(webhookUrl)`). A value apply reads later is not judged.
 */
function webhookUrlIssue(res: Resource, s: Values): CheckIssue | undefined {
  const deferred = res.deferred?.some((d) => d.path.join('.') === 'spec.secrets.webhookUrl');
  if (deferred || typeof s.webhookUrl !== 'string') return undefined;
  try {
    new URL(s.webhookUrl);
    return undefined;
  } catch {
    return { path: ['spec', 'secrets', 'webhookUrl'], message: 'webhookUrl is not a URL (the server cannot parse a host name from it)' };
  }
}

/**
 * The incident type's credentials (the renamed `.servicenow`; stack_connectors
 * lib/servicenow/validators.ts validateCommonConfig, validateCommonSecrets, validateCommonConnector).
 */
function incidentIssues(c: Values, s: Values): CheckIssue[] {
  const secret = (key: string) => ['spec', 'secrets', key];
  if (c.isOAuth === true) {
    const missingConfig = ['userIdentifierValue', 'clientId', 'jwtKeyId'].filter((k) => c[k] === undefined || c[k] === null);
    const missingSecrets = ['clientSecret', 'privateKey'].filter((k) => s[k] === undefined || s[k] === null);
    const issues: CheckIssue[] = [
      ...missingConfig.map((k) => ({ path: ['spec', 'config'], message: `config.${k} is required when isOAuth is true` })),
      ...missingSecrets.map((k) => ({ path: ['spec', 'secrets'], message: `secrets.${k} is required when isOAuth is true` })),
    ];
    for (const k of ['username', 'password']) if (set(s[k])) issues.push({ path: secret(k), message: `${k} must not be given when isOAuth is true` });
    return issues;
  }
  const issues: CheckIssue[] = ['username', 'password']
    .filter((k) => s[k] === undefined || s[k] === null)
    .map((k) => ({ path: ['spec', 'secrets'], message: `secrets.${k} is required unless isOAuth is true` }));
  for (const k of ['clientSecret', 'privateKey']) if (set(s[k])) issues.push({ path: secret(k), message: `${k} must not be given unless isOAuth is true` });
  for (const k of ['clientId', 'userIdentifierValue', 'jwtKeyId']) if (set(c[k])) issues.push({ path: ['spec', 'config', k], message: `${k} must not be given unless isOAuth is true` });
  return issues;
}

/** Errors in the config and secrets of the connector types these rules cover. */
export function connectorShapeIssues(res: Resource): CheckIssue[] {
  const config: Values = isPlainObject(res.spec.config) ? res.spec.config : {};
  const secrets: Values = isPlainObject(res.spec.secrets) ? res.spec.secrets : {};
  const found: Array<CheckIssue | undefined> = [];
  switch (res.spec.connector_type_id) {
    case '.webhook':
      found.push(webhookAuthTypeIssue(config), ...webhookOAuth2Issues(config), webhookSecretsIssue(secrets));
      break;
    case '.cases-webhook':
      found.push(webhookSecretsIssue(secrets), ...casesWebhookIssues(res, config));
      break;
    case '.email':
      found.push(emailPortIssue(config));
      break;
    case '.gen-ai':
      found.push(...genAiBranchIssues(config), ...coercedNumberIssues(config));
      break;
    case '.chat':
    case '.team-chat':
      found.push(webhookUrlIssue(res, secrets));
      break;
    case '.incident':
      found.push(...incidentIssues(config, secrets));
      break;
  }
  return found.filter((i): i is CheckIssue => i !== undefined);
}
