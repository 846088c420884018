/**
 * The connector types' own checks of their config and secrets, beyond key names and value types:
 * what each type's validators (stack_connectors server/connector_types/<type>) and refinements
 * (kbn-connector-schemas) refuse, in their words. types.ts runs them in the server's order: config
 * (schema, then the type's customValidator), secrets (likewise), then the connector check.
 * Messages that name a vendor in the real source name the document's neutral type instead.
 */

type Values = Record<string, unknown>;

/** What the server's validators treat as set: JavaScript truthiness (`!secrets.user`). */
const truthy = (v: unknown) => !!v;

/**
 * Webhook-style secrets hold one set of credentials: user and password, crt and key (a password
 * beside them allowed), pfx (likewise), a clientSecret, or none; secret headers go with any of
 * them (kbn-connector-schemas common/auth/schemas/v1.ts, SecretConfigurationSchemaValidation,
 * shared by `.webhook` and `.cases-webhook`).
 */
export function webhookSecretsProblem(s: Values): string | undefined {
  const [user, password, crt, key, pfx, clientSecret] = ['user', 'password', 'crt', 'key', 'pfx', 'clientSecret'].map((k) => truthy(s[k]));
  const none = !password && !user && !crt && !key && !pfx && !clientSecret;
  const basic = password && user && !crt && !key && !pfx && !clientSecret;
  const certificate = crt && key && !user && !pfx && !clientSecret;
  const bundle = !crt && !key && !user && pfx && !clientSecret;
  const oauth = !password && !user && !crt && !key && !pfx && clientSecret;
  if (none || basic || certificate || bundle || oauth) return undefined;
  return 'must specify one of the following schemas: user and password; crt and key (with optional password); pfx (with optional password); or clientSecret (for OAuth2)';
}

const OAUTH2 = 'webhook-oauth2-client-credentials';

/**
 * The webhook's own config check (stack_connectors webhook/validations.ts
 * validateConnectorTypeConfig), in its order after the URL: a webhook that does not authenticate
 * names no method (validateAuthType: `Boolean(authType) && !hasAuth`; hasAuth defaults to true, so
 * only an explicit false counts); additionalFields, when set, is a JSON object with at least one
 * key (validateAdditionalFields); OAuth2 client credentials need the token URL and the client id
 * (validateOAuth2, which lists what is missing). The pfx check depends on kibana.yml, whose default
 * allows pfx. A newer validations.ts also parses accessTokenUrl as a URL, beside an OAuth2 password
 * grant that the auth constants modelled here do not have; that version is not modelled.
 */
export function webhookConfigProblem(c: Values): string | undefined {
  const prefix = 'error validation webhook action config: ';
  if (truthy(c.authType) && c.hasAuth === false) return `${prefix}authType must be null or undefined if hasAuth is false`;
  if (truthy(c.additionalFields) && !isNonEmptyJsonObject(c.additionalFields)) return `${prefix}additionalFields must be a non-empty JSON object.`;
  if (c.authType === OAUTH2) {
    const missing = [['accessTokenUrl', 'Access Token URL'], ['clientId', 'Client ID']].filter(([k]) => !truthy(c[k])).map(([k, label]) => `${label} (${k})`);
    if (missing.length) return `${prefix}missing ${missing.join(', ')} fields`;
  }
  return undefined;
}

function isNonEmptyJsonObject(text: unknown): boolean {
  try {
    const parsed = JSON.parse(String(text));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.keys(parsed).length > 0;
  } catch {
    return false;
  }
}

/**
 * The case-management webhook's config check (stack_connectors cases_webhook/validators.ts
 * validateCasesWebhookConfig): OAuth2 is refused before anything else, then each URL that is set
 * must parse as one (`new URL`, on the text as written: mustache placeholders in the path parse, a
 * placeholder standing for the scheme and host does not). The allowed-hosts check that follows
 * depends on kibana.yml, whose default allows any host.
 */
export function casesWebhookConfigProblem(c: Values): string | undefined {
  if (c.authType === OAUTH2) return 'OAuth2 authentication is not supported for cases webhook connector';
  for (const key of ['createIncidentUrl', 'createCommentUrl', 'viewIncidentUrl', 'getIncidentUrl', 'updateIncidentUrl']) {
    const url = c[key];
    if (!truthy(url)) continue;
    try {
      new URL(String(url));
    } catch (err) {
      // The message carries the error as text (`err.toString()`: "TypeError: Invalid URL").
      return `error configuring cases webhook action: unable to parse ${String(url)}: ${String(err)}`;
    }
  }
  return undefined;
}

/**
 * With hasAuth true the case-management webhook needs some secrets (cases_webhook/validators.ts
 * validateConnector: `hasAuth && isEmpty(secrets)`). The route hands that check the config and
 * secrets as sent, before defaults: a config that leaves hasAuth out is not held to it.
 */
export function casesWebhookConnectorProblem(c: Values, s: Values): string | undefined {
  return c.hasAuth === true && Object.keys(s).length === 0 ? 'must specify a secrets configuration' : undefined;
}

/**
 * Email config (stack_connectors email/index.ts validateConfig): the `other` service (the default)
 * needs host and port, `exchange_server` needs clientId and tenantId. A service name is checked
 * against nodemailer's well-known list there; the emulator leaves names to the server.
 */
export function emailConfigProblem(c: Values): string | undefined {
  const service = c.service ?? 'other';
  const need = service === 'other' ? ['host', 'port'] : service === 'exchange_server' ? ['clientId', 'tenantId'] : [];
  const absent = need.filter((k) => c[k] === undefined || c[k] === null);
  return absent.length ? `${absent.map((k) => `[${k}]`).join('/')} is required` : undefined;
}

/** Email credentials (validateConnector): exchange_server needs clientSecret, else hasAuth (default true) user and password. */
export function emailConnectorProblem(c: Values, s: Values): string | undefined {
  if (c.service === 'exchange_server') return s.clientSecret == null ? '[clientSecret] is required' : undefined;
  if (c.hasAuth === false) return undefined;
  if (s.user == null) return '[user] is required';
  return s.password == null ? '[password] is required' : undefined;
}

const GEN_AI_COMMON = ['apiProvider', 'apiUrl', 'defaultModel', 'headers', 'contextWindowLength', 'temperature'];

/**
 * The keys of each provider's branch of the gen-ai config (kbn-connector-schemas openai/schemas/v1.ts
 * ConfigSchema, a union of strict objects): OpenAI adds organizationId and projectId, Other adds
 * verificationMode and enableNativeFunctionCalling (its client certificate is in the secrets),
 * Azure OpenAI adds nothing.
 */
const GEN_AI_BRANCH_KEYS: Record<string, readonly string[]> = {
  OpenAI: [...GEN_AI_COMMON, 'organizationId', 'projectId'],
  'Azure OpenAI': GEN_AI_COMMON,
  Other: [...GEN_AI_COMMON, 'verificationMode', 'enableNativeFunctionCalling'],
};

/**
 * The gen-ai config against its provider's branch (ConfigSchema above; OAS genai_openai_other_config
 * `required: [apiProvider, apiUrl, defaultModel]`): only `Other` requires a model, and a key of
 * another provider's branch is refused. Worded as the emulator words every missing or unknown
 * config key.
 */
export function genAiConfigProblem(c: Values): string | undefined {
  if (c.apiProvider === 'Other' && (c.defaultModel === undefined || c.defaultModel === null)) {
    return 'invalid connector configuration: [defaultModel]: expected value of type [string] but got [undefined]';
  }
  const allowed = GEN_AI_BRANCH_KEYS[String(c.apiProvider)] ?? [];
  // A null never gets here: no gen-ai key takes null (types.ts `nullable`).
  const foreign = Object.keys(c).find((k) => c[k] !== undefined && !allowed.includes(k));
  return foreign === undefined ? undefined : `[${foreign}]: definition for this key is missing`;
}

/**
 * The chat and team-chat secrets' webhookUrl must parse as a URL (stack_connectors slack/index.ts
 * and teams/index.ts, validateConnectorTypeConfig run on the secrets: `new URL(webhookUrl)`).
 */
export const webhookUrlProblem = (typeName: string) => (s: Values): string | undefined => {
  try {
    new URL(String(s.webhookUrl));
    return undefined;
  } catch {
    return `error configuring ${typeName} action: unable to parse host name from webhookUrl`;
  }
};

const isOAuthText = (isOAuth: boolean) => (isOAuth ? 'true' : 'false');
const missingWithOAuth = (field: string, isOAuth: boolean) => `${field} must be provided when isOAuth = ${isOAuthText(isOAuth)}`;

/**
 * The incident type (the renamed `.servicenow`): OAuth needs its three config fields
 * (stack_connectors lib/servicenow/validators.ts validateCommonConfig).
 */
export function incidentConfigProblem(c: Values): string | undefined {
  if (!c.isOAuth) return undefined;
  for (const field of ['userIdentifierValue', 'clientId', 'jwtKeyId']) if (c[field] == null) return missingWithOAuth(field, true);
  return undefined;
}

/** Some credentials, and each pair whole (validateCommonSecrets). */
export function incidentSecretsProblem(s: Values): string | undefined {
  const [username, password, clientSecret, privateKey] = ['username', 'password', 'clientSecret', 'privateKey'].map((k) => truthy(s[k]));
  if (!username && !password && !clientSecret && !privateKey) return 'Either basic auth or OAuth credentials must be specified';
  if (username || password) return username && password ? undefined : 'username and password must both be specified';
  return clientSecret && privateKey ? undefined : 'clientSecret and privateKey must both be specified';
}

/** The credentials that go with isOAuth, and none of the other kind (validateCommonConnector). */
export function incidentConnectorProblem(c: Values, s: Values): string | undefined {
  if (c.isOAuth) {
    for (const field of ['userIdentifierValue', 'clientId', 'jwtKeyId']) if (c[field] == null) return missingWithOAuth(field, true);
    for (const field of ['clientSecret', 'privateKey']) if (s[field] == null) return missingWithOAuth(field, true);
    if (s.username || s.password) return 'Username and password should not be provided with isOAuth = true';
    return undefined;
  }
  for (const field of ['username', 'password']) if (s[field] == null) return missingWithOAuth(field, false);
  if (s.clientSecret || c.clientId || c.userIdentifierValue || c.jwtKeyId || s.privateKey) {
    return 'clientId, clientSecret, userIdentifierValue, jwtKeyId and privateKey should not be provided with isOAuth = false';
  }
  return undefined;
}

const PORT_MAX = 65535;

/**
 * The email port as the schema coerces it (kbn-connector-schemas email/schemas/v1.ts portSchema:
 * `z.coerce.number().min(1).max(65535)`, nullable; the older config-schema `schema.number` took
 * numeric strings as well): "587" is stored as 587. Returns the problem, or the number.
 */
export function coercePort(value: unknown): { problem: string } | { value: unknown } {
  if (value === null) return { value };
  const n = typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN;
  if (Number.isNaN(n)) return { problem: `[port]: expected value of type [number] but got [${typeof value === 'string' ? 'string' : describeValue(value)}]` };
  if (n < 1) return { problem: '[port]: Value must be equal to or greater than [1].' };
  if (n > PORT_MAX) return { problem: `[port]: Value must be equal to or lower than [${PORT_MAX}].` };
  return { value: n };
}

/**
 * `z.coerce.number()` (the AI connectors' contextWindowLength and temperature, kbn-connector-schemas
 * openai/schemas/v1.ts ConfigSchema): a number or a numeric string, stored as the number, any value.
 */
export function coerceNumber(key: string, value: unknown): { problem: string } | { value: unknown } {
  if (value === null) return { value };
  const n = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? Number(value) : NaN;
  if (!Number.isFinite(n)) return { problem: `[${key}]: expected value of type [number] but got [${typeof value === 'string' ? 'string' : describeValue(value)}]` };
  return { value: n };
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  return typeof v === 'object' ? 'Object' : typeof v;
}
