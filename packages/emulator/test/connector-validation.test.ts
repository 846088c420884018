import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { CASES_WEBHOOK_CONFIG } from './cases-webhook-config.js';

/**
 * What the real connector routes refuse and take in a connector's config and secrets, per type,
 * each case with the source it was read in (K: the public repository elastic/kibana;
 * KCS: K:src/platform/packages/shared/kbn-connector-schemas; SC: K:x-pack/platform/plugins/shared/stack_connectors/server/connector_types).
 * service-api.md renames `.slack`, `.teams`, `.servicenow` and `.jira` to `.chat`, `.team-chat`,
 * `.incident` and `.ticketing`.
 */

describe('emulator: connector config and secrets as the real types check them', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ license: 'enterprise' });
  });
  after(() => emu.stop());

  const create = (connector_type_id: string, config?: Record<string, unknown>, secrets?: Record<string, unknown>) =>
    call(emu, 'POST', '/api/actions/connector', { name: 'c', connector_type_id, ...(config ? { config } : {}), ...(secrets ? { secrets } : {}) });
  const refused = async (res: Promise<{ status: number; body: any; text: string }>, message: RegExp | string) => {
    const r = await res;
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error, 'Bad Request');
    if (typeof message === 'string') assert.equal(r.body.message, message);
    else assert.match(r.body.message, message);
  };
  const taken = async (res: Promise<{ status: number; body: any; text: string }>) => {
    const r = await res;
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const HOOK = { url: 'https://hooks.example.com/in' };
  const SECRET_SETS = 'must specify one of the following schemas: user and password; crt and key (with optional password); pfx (with optional password); or clientSecret (for OAuth2)';

  // KCS common/auth/schemas/v1.ts SecretConfigurationSchemaValidation: no set has a user without a password.
  it('.webhook refuses a user without a password', async () => {
    await refused(create('.webhook', HOOK, { user: 'u' }), `error validating action type secrets: ${SECRET_SETS}`);
  });

  // KCS common/auth/schemas/v1.ts SecretConfigurationSchemaValidation: user and password go with no certificate.
  it('.webhook refuses user and password together with a certificate', async () => {
    await refused(create('.webhook', HOOK, { user: 'u', password: 'p', crt: 'c' }), `error validating action type secrets: ${SECRET_SETS}`);
  });

  // KCS common/auth/schemas/v1.ts SecretConfigurationSchemaValidation: crt and key with an optional password, pfx likewise.
  it('.webhook takes crt and key with a password, and pfx with a password', async () => {
    await taken(create('.webhook', { ...HOOK, authType: 'webhook-authentication-ssl', certType: 'ssl-crt-key' }, { crt: 'c', key: 'k', password: 'p' }));
    await taken(create('.webhook', { ...HOOK, authType: 'webhook-authentication-ssl', certType: 'ssl-pfx' }, { pfx: 'x', password: 'p' }));
  });

  // SC webhook/validations.ts validateAuthType: `Boolean(authType) && !hasAuth` throws.
  it('.webhook refuses an authType when hasAuth is false', async () => {
    await refused(
      create('.webhook', { ...HOOK, hasAuth: false, authType: 'webhook-authentication-basic' }),
      'error validating action type config: error validation webhook action config: authType must be null or undefined if hasAuth is false',
    );
  });

  // SC webhook/validations.ts validateAuthType: a null authType is not Boolean-true.
  it('.webhook takes hasAuth false with authType null', async () => {
    await taken(create('.webhook', { ...HOOK, hasAuth: false, authType: null }));
  });

  // KCS webhook/schemas/v1.ts: `headers: HeadersSchema.nullable().default(null)`.
  it('.webhook takes headers null', async () => {
    assert.equal((await taken(create('.webhook', { ...HOOK, headers: null }, { user: 'u', password: 'p' }))).config.headers, null);
  });

  // K:x-pack/platform/plugins/shared/actions/server/lib/validate_empty_strings.ts: `value.trim() === ''`.
  it('refuses a whitespace-only string in config or secrets, naming the key of config or secrets', async () => {
    await refused(create('.webhook', { ...HOOK, ca: '   ' }), "[request body.config.ca]: value '' is not valid");
    await refused(create('.webhook', HOOK, { user: '\t', password: 'p' }), "[request body.secrets.user]: value '' is not valid");
    // Inside a value, the route names the key of config whose value failed (a record of any()).
    await refused(create('.webhook', { ...HOOK, headers: { 'X-Team': ' ' } }), "[request body.config.headers]: value '' is not valid");
  });

  // Actions plugin create body schema: `name: schema.string({ validate: validateEmptyStrings })`.
  it('refuses a whitespace-only connector name', async () => {
    await refused(call(emu, 'POST', '/api/actions/connector', { name: '  ', connector_type_id: '.server-log' }), "[request body.name]: value '' is not valid");
  });

  // KCS slack/schemas/v1.ts SecretsSchema: `webhookUrl: z.string()` (required).
  it('.chat refuses secrets without webhookUrl', async () => {
    await refused(create('.chat', {}, {}), 'error validating action type secrets: [webhookUrl]: expected value of type [string] but got [undefined]');
  });

  // SC slack/index.ts validateConnectorTypeConfig: `new URL(webhookUrl)`.
  it('.chat refuses a webhookUrl that is not a URL', async () => {
    await refused(create('.chat', {}, { webhookUrl: 'chat.example.com/hook' }), 'error validating action type secrets: error configuring chat action: unable to parse host name from webhookUrl');
  });

  // KCS teams/schemas/v1.ts ConfigSchema: `z.object({}).strict()`.
  it('.team-chat refuses any config key', async () => {
    await refused(create('.team-chat', { channel: 'soc' }, { webhookUrl: 'https://teams.example.com/hook' }), 'error validating action type config: [channel]: definition for this key is missing');
  });

  // KCS teams/schemas/v1.ts SecretsSchema: `webhookUrl: z.string()` (required).
  it('.team-chat refuses secrets without webhookUrl', async () => {
    await refused(create('.team-chat', {}, {}), 'error validating action type secrets: [webhookUrl]: expected value of type [string] but got [undefined]');
  });

  // SC teams/index.ts validateConnectorTypeConfig: `new URL(webhookUrl)`.
  it('.team-chat refuses a webhookUrl that is not a URL, and takes one that is', async () => {
    await refused(create('.team-chat', {}, { webhookUrl: 'not a url' }), 'error validating action type secrets: error configuring team-chat action: unable to parse host name from webhookUrl');
    const body = await taken(create('.team-chat', {}, { webhookUrl: 'https://teams.example.com/hook' }));
    assert.deepEqual([body.config, body.is_missing_secrets], [{}, false]);
  });

  // KCS servicenow/schemas/v1.ts ExternalIncidentServiceConfigurationBase: `apiUrl: z.string()`.
  it('.incident refuses config without apiUrl', async () => {
    await refused(create('.incident', {}, { username: 'u', password: 'p' }), /\[apiUrl\]: expected value of type \[string\] but got \[undefined\]/);
  });

  // SC lib/servicenow/validators.ts validateCommonSecrets: CREDENTIALS_ERROR.
  it('.incident refuses secrets without credentials', async () => {
    await refused(create('.incident', { apiUrl: 'https://itsm.example.com' }, {}), 'error validating action type secrets: Either basic auth or OAuth credentials must be specified');
  });

  // SC lib/servicenow/validators.ts validateCommonSecrets: BASIC_AUTH_CREDENTIALS_ERROR.
  it('.incident refuses a username without a password', async () => {
    await refused(create('.incident', { apiUrl: 'https://itsm.example.com' }, { username: 'u' }), 'error validating action type secrets: username and password must both be specified');
  });

  // SC lib/servicenow/validators.ts validateCommonConfig: isOAuth needs userIdentifierValue, clientId, jwtKeyId.
  it('.incident with isOAuth refuses config without the OAuth fields', async () => {
    await refused(
      create('.incident', { apiUrl: 'https://itsm.example.com', isOAuth: true, clientId: 'c', jwtKeyId: 'j' }, { clientSecret: 's', privateKey: 'k' }),
      'error validating action type config: userIdentifierValue must be provided when isOAuth = true',
    );
  });

  // SC lib/servicenow/validators.ts validateCommonConnector: isOAuth false needs username and password.
  it('.incident without isOAuth refuses OAuth credentials alone', async () => {
    await refused(create('.incident', { apiUrl: 'https://itsm.example.com' }, { clientSecret: 's', privateKey: 'k' }), 'error validating action type connector: username must be provided when isOAuth = false');
  });

  // SC lib/servicenow/validators.ts: the complete OAuth form passes config, secrets and connector checks.
  it('.incident takes OAuth with its config fields and client secret and private key', async () => {
    const body = await taken(create('.incident', { apiUrl: 'https://itsm.example.com', isOAuth: true, userIdentifierValue: 'svc', clientId: 'c', jwtKeyId: 'j' }, { clientSecret: 's', privateKey: 'k' }));
    assert.deepEqual([body.config.isOAuth, body.config.usesTableApi, body.is_missing_secrets], [true, true, false]);
  });

  // KCS jira/schemas/v1.ts ExternalIncidentServiceConfiguration: apiUrl and projectKey required.
  it('.ticketing refuses config without projectKey', async () => {
    await refused(create('.ticketing', { apiUrl: 'https://tickets.example.com' }, { email: 'a@example.com', apiToken: 't' }), /\[projectKey\]: expected value of type \[string\] but got \[undefined\]/);
  });

  // KCS jira/schemas/v1.ts ExternalIncidentServiceSecretConfiguration: email and apiToken required.
  it('.ticketing refuses secrets without apiToken, and takes the complete connector', async () => {
    const config = { apiUrl: 'https://tickets.example.com', projectKey: 'SOC' };
    await refused(create('.ticketing', config, { email: 'a@example.com' }), 'error validating action type secrets: [apiToken]: expected value of type [string] but got [undefined]');
    await taken(create('.ticketing', config, { email: 'a@example.com', apiToken: 't' }));
  });

  // KCS pagerduty/schemas/v1.ts SecretsSchema: `routingKey: z.string()` (required).
  it('.pagerduty refuses secrets without routingKey', async () => {
    await refused(create('.pagerduty', {}, {}), 'error validating action type secrets: [routingKey]: expected value of type [string] but got [undefined]');
  });

  // KCS pagerduty/schemas/v1.ts ConfigSchema: only `apiUrl` (nullable, default null), strict.
  it('.pagerduty refuses config keys other than apiUrl, and answers apiUrl null when left out', async () => {
    await refused(create('.pagerduty', { severity: 'critical' }, { routingKey: 'rk' }), 'error validating action type config: [severity]: definition for this key is missing');
    assert.deepEqual((await taken(create('.pagerduty', {}, { routingKey: 'rk' }))).config, { apiUrl: null });
  });

  // KCS cases_webhook/schemas/v1.ts ExternalIncidentServiceConfiguration: eight keys without default.
  it('.cases-webhook refuses config missing any of its required keys', async () => {
    for (const key of Object.keys(CASES_WEBHOOK_CONFIG)) {
      const config: Record<string, unknown> = { ...CASES_WEBHOOK_CONFIG };
      delete config[key];
      await refused(create('.cases-webhook', config, { user: 'u', password: 'p' }), new RegExp(`\\[${key}\\]: expected value of type \\[string\\] but got \\[undefined\\]`));
    }
  });

  // KCS cases_webhook/schemas/v1.ts: getIncidentMethod `.default(WebhookMethods.GET)`; secrets are common/auth's.
  it('.cases-webhook takes the complete config, fills getIncidentMethod get, and checks secrets as the webhook does', async () => {
    const body = await taken(create('.cases-webhook', CASES_WEBHOOK_CONFIG, { user: 'u', password: 'p' }));
    assert.equal(body.config.getIncidentMethod, 'get');
    await refused(create('.cases-webhook', CASES_WEBHOOK_CONFIG, { password: 'p' }), `error validating action type secrets: ${SECRET_SETS}`);
  });

  // SC cases_webhook/validators.ts validateCasesWebhookConfig: each URL set must pass `new URL`, as written.
  it('.cases-webhook refuses a URL that does not parse, and takes mustache placeholders in a URL\'s path', async () => {
    const url = '{{{external.system.base}}}/api/issues';
    await refused(create('.cases-webhook', { ...CASES_WEBHOOK_CONFIG, createIncidentUrl: url }, { user: 'u', password: 'p' }), `error validating action type config: error configuring cases webhook action: unable to parse ${url}: TypeError: Invalid URL`);
    await refused(create('.cases-webhook', { ...CASES_WEBHOOK_CONFIG, createCommentUrl: 'comments' }, { user: 'u', password: 'p' }), /unable to parse comments: TypeError: Invalid URL$/);
    await taken(create('.cases-webhook', { ...CASES_WEBHOOK_CONFIG, createCommentUrl: 'https://itsm.example.com/api/issues/{{{external.system.id}}}/comments' }, { user: 'u', password: 'p' }));
  });

  // SC cases_webhook/validators.ts validateCasesWebhookConfig: `authType === AuthType.OAuth2ClientCredentials` throws OAUTH2_NOT_SUPPORTED.
  it('.cases-webhook refuses OAuth2 client credentials', async () => {
    const config = { ...CASES_WEBHOOK_CONFIG, authType: 'webhook-oauth2-client-credentials', accessTokenUrl: 'https://idp.example.com/token', clientId: 'svc' };
    await refused(create('.cases-webhook', config, { clientSecret: 's' }), 'error validating action type config: OAuth2 authentication is not supported for cases webhook connector');
  });

  // SC cases_webhook/validators.ts validateConnector: `hasAuth && isEmpty(secrets)`, on the config as sent (actions connector create passes the body's).
  it('.cases-webhook with hasAuth true refuses empty secrets; without hasAuth in the body it takes them', async () => {
    await refused(create('.cases-webhook', { ...CASES_WEBHOOK_CONFIG, hasAuth: true }, {}), 'error validating action type connector: must specify a secrets configuration');
    await taken(create('.cases-webhook', { ...CASES_WEBHOOK_CONFIG, hasAuth: true }, { user: null }));
    await taken(create('.cases-webhook', CASES_WEBHOOK_CONFIG, {}));
  });

  // SC webhook/validations.ts validateOAuth2: OAuth2 client credentials list the missing accessTokenUrl and clientId.
  it('.webhook with OAuth2 client credentials refuses config without accessTokenUrl or clientId', async () => {
    const oauth = { ...HOOK, authType: 'webhook-oauth2-client-credentials' };
    await refused(create('.webhook', oauth, { clientSecret: 's' }), 'error validating action type config: error validation webhook action config: missing Access Token URL (accessTokenUrl), Client ID (clientId) fields');
    await refused(create('.webhook', { ...oauth, accessTokenUrl: 'https://idp.example.com/token' }, { clientSecret: 's' }), 'error validating action type config: error validation webhook action config: missing Client ID (clientId) fields');
  });

  // SC webhook/validations.ts validateAdditionalFields: JSON.parse, then an object, not an array, with a key.
  it('.webhook refuses additionalFields that are not a non-empty JSON object', async () => {
    const oauth = { ...HOOK, authType: 'webhook-oauth2-client-credentials', accessTokenUrl: 'https://idp.example.com/token', clientId: 'svc' };
    const message = 'error validating action type config: error validation webhook action config: additionalFields must be a non-empty JSON object.';
    for (const additionalFields of ['audience=x', '{}', '["x"]']) await refused(create('.webhook', { ...oauth, additionalFields }, { clientSecret: 's' }), message);
    await taken(create('.webhook', { ...oauth, additionalFields: '{"audience":"https://api.example.com"}' }, { clientSecret: 's' }));
  });

  // KCS openai/schemas/v1.ts ConfigSchema, Other branch: `defaultModel: z.string()`; OAS genai_openai_other_config required defaultModel.
  it('.gen-ai with apiProvider Other refuses config without defaultModel', async () => {
    await refused(create('.gen-ai', { apiProvider: 'Other', apiUrl: 'https://llm.example.com/v1/chat/completions' }, { apiKey: 'k' }), /\[defaultModel\]: expected value of type \[string\] but got \[undefined\]/);
  });

  // KCS openai/schemas/v1.ts ConfigSchema, Other branch: `enableNativeFunctionCalling: z.boolean().optional()`.
  it('.gen-ai with apiProvider Other takes enableNativeFunctionCalling', async () => {
    const body = await taken(create('.gen-ai', { apiProvider: 'Other', apiUrl: 'https://llm.example.com/v1/chat/completions', defaultModel: 'm', enableNativeFunctionCalling: true }, { apiKey: 'k' }));
    assert.equal(body.config.enableNativeFunctionCalling, true);
  });

  // KCS openai/schemas/v1.ts ConfigSchema: the OpenAI and Azure branches are strict and have no enableNativeFunctionCalling.
  it('.gen-ai with apiProvider OpenAI refuses enableNativeFunctionCalling', async () => {
    await refused(
      create('.gen-ai', { apiProvider: 'OpenAI', apiUrl: 'https://api.example.com/v1/chat/completions', enableNativeFunctionCalling: true }, { apiKey: 'k' }),
      'error validating action type config: [enableNativeFunctionCalling]: definition for this key is missing',
    );
  });

  // KCS openai/schemas/v1.ts ConfigSchema: a union of strict objects, one per provider.
  it('.gen-ai refuses a key its provider\'s branch does not have, and takes the keys it has', async () => {
    const ai = (apiProvider: string, extra: Record<string, unknown>) => create('.gen-ai', { apiProvider, apiUrl: 'https://llm.example.com/v1/chat/completions', ...extra }, { apiKey: 'k' });
    await refused(ai('Azure OpenAI', { organizationId: 'org' }), 'error validating action type config: [organizationId]: definition for this key is missing');
    await refused(ai('Azure OpenAI', { verificationMode: 'none' }), 'error validating action type config: [verificationMode]: definition for this key is missing');
    await refused(ai('OpenAI', { verificationMode: 'full' }), 'error validating action type config: [verificationMode]: definition for this key is missing');
    await refused(ai('Other', { defaultModel: 'm', projectId: 'p' }), 'error validating action type config: [projectId]: definition for this key is missing');
    await taken(ai('OpenAI', { organizationId: 'org', projectId: 'p' }));
    await taken(ai('Other', { defaultModel: 'm', verificationMode: 'none' }));
  });

  // KCS common/auth/schemas/v1.ts AuthConfiguration: certType, ca, verificationMode `.optional()` and hasAuth `z.boolean().default(true)` refuse null.
  it('.webhook refuses null in the auth keys that are not nullable', async () => {
    await refused(create('.webhook', { ...HOOK, ca: null }, { user: 'u', password: 'p' }), 'error validating action type config: [ca]: expected value of type [string] but got [null]');
    await refused(create('.webhook', { ...HOOK, certType: null }, { user: 'u', password: 'p' }), 'error validating action type config: [certType]: expected one of [ssl-crt-key, ssl-pfx] but got [null]');
    await refused(create('.webhook', { ...HOOK, verificationMode: null }, { user: 'u', password: 'p' }), /\[verificationMode\]: expected one of \[full, certificate, none\] but got \[null\]/);
    await refused(create('.webhook', { ...HOOK, hasAuth: null }, { user: 'u', password: 'p' }), 'error validating action type config: [hasAuth]: expected value of type [boolean] but got [null]');
  });

  // KCS common/auth/schemas/v1.ts: authType a union with `z.literal(null)`, additionalFields `.nullish()`; SecretConfiguration every key `.nullable()`.
  it('.webhook takes null in authType, additionalFields and every secret', async () => {
    const secrets = { user: null, password: null, crt: null, key: null, pfx: null, clientSecret: null, secretHeaders: null };
    await taken(create('.webhook', { ...HOOK, hasAuth: false, authType: null, additionalFields: null }, secrets));
  });

  // KCS cases_webhook/schemas/v1.ts: getIncidentJson, createCommentUrl, createCommentMethod, createCommentJson, headers `.nullable()`; the other methods not.
  it('.cases-webhook takes null where its schema is nullable and refuses it in createIncidentMethod', async () => {
    await taken(create('.cases-webhook', { ...CASES_WEBHOOK_CONFIG, getIncidentJson: null, createCommentUrl: null, createCommentMethod: null, createCommentJson: null, headers: null }, { user: 'u', password: 'p' }));
    await refused(create('.cases-webhook', { ...CASES_WEBHOOK_CONFIG, createIncidentMethod: null }, { user: 'u', password: 'p' }), 'error validating action type config: [createIncidentMethod]: expected one of [post, put] but got [null]');
  });

  // KCS openai/schemas/v1.ts ConfigSchema: every key `.optional()` or required, none `.nullable()`.
  it('.gen-ai refuses null in its config keys', async () => {
    await refused(create('.gen-ai', { apiProvider: 'OpenAI', apiUrl: 'https://api.example.com/v1/chat/completions', organizationId: null }, { apiKey: 'k' }), 'error validating action type config: [organizationId]: expected value of type [string] but got [null]');
  });

  // KCS email/schemas/v1.ts ConfigSchema: host, port, secure, tenantId, clientId, oauthTokenUrl `.nullable().default(null)`.
  it('.email takes null for its nullable config keys', async () => {
    const config = { from: 'soc@example.com', service: 'exchange_server', clientId: 'c', tenantId: 't', host: null, port: null, secure: null, oauthTokenUrl: null };
    await taken(create('.email', config, { clientSecret: 's' }));
  });

  // KCS email/schemas/v1.ts portSchema: `z.coerce.number().min(1).max(65535)`.
  it('.email takes a numeric string port and stores the number', async () => {
    const body = await taken(create('.email', { from: 'soc@example.com', host: 'smtp.example.com', port: '587' }, { user: 'u', password: 'p' }));
    assert.equal(body.config.port, 587);
  });

  // KCS openai/schemas/v1.ts ConfigSchema: contextWindowLength and temperature `z.coerce.number().optional()`, no bounds.
  it('.gen-ai takes contextWindowLength and temperature as numbers or numeric strings, stores the numbers, and sets no bounds', async () => {
    const ai = (extra: Record<string, unknown>) => create('.gen-ai', { apiProvider: 'OpenAI', apiUrl: 'https://api.example.com/v1/chat/completions', ...extra }, { apiKey: 'k' });
    const body = await taken(ai({ contextWindowLength: '128000', temperature: '0.2' }));
    assert.equal(body.config.contextWindowLength, 128000);
    assert.equal(body.config.temperature, 0.2);
    const unbounded = await taken(ai({ contextWindowLength: 0.5, temperature: 3 }));
    assert.equal(unbounded.config.temperature, 3);
    await refused(ai({ temperature: 'warm' }), 'error validating action type config: [temperature]: expected value of type [number] but got [string]');
  });

  // KCS email/schemas/v1.ts ConfigSchema: oauthTokenUrl `z.string().nullable()`, no URL check.
  it('.email takes any string as oauthTokenUrl', async () => {
    await taken(create('.email', { from: 'soc@example.com', service: 'exchange_server', clientId: 'c', tenantId: 't', oauthTokenUrl: 'login/token' }, { clientSecret: 's' }));
  });

  // KCS email/schemas/v1.ts portSchema: not a number, or out of 1..65535.
  it('.email refuses a port that is no number or out of range', async () => {
    const mail = (port: unknown) => create('.email', { from: 'soc@example.com', host: 'smtp.example.com', port }, { user: 'u', password: 'p' });
    await refused(mail('smtp'), 'error validating action type config: [port]: expected value of type [number] but got [string]');
    await refused(mail('70000'), 'error validating action type config: [port]: Value must be equal to or lower than [65535].');
    await refused(mail(0), 'error validating action type config: [port]: Value must be equal to or greater than [1].');
  });

  // Rule exports carry connectors without secrets (wire-facts 1.4); the import keeps them, missing their secrets.
  it('a rules import creates a connector whose type needs secrets without them, reported missing', async () => {
    const line = { id: 'imported-itsm', type: 'action', attributes: { name: 'ITSM', actionTypeId: '.incident', config: { apiUrl: 'https://itsm.example.com' }, isMissingSecrets: true } };
    const res = await postFile(emu, '/api/detection_engine/rules/_import', `${JSON.stringify(line)}\n`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.action_connectors_success_count, 1, res.text);
    const stored = await call(emu, 'GET', '/api/actions/connector/imported-itsm');
    assert.deepEqual([stored.body.config.apiUrl, stored.body.is_missing_secrets], ['https://itsm.example.com', true]);
  });
});
