import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { svcform } from './harness.js';
import { repo } from '../helpers/repo.js';

/**
 * What svcform validate refuses and takes in a connector's config and secrets: exactly what the
 * real server surely refuses (each case cites where it was read; KCS is
 * K:src/platform/packages/shared/kbn-connector-schemas and SC is
 * K:x-pack/platform/plugins/shared/stack_connectors/server/connector_types of elastic/kibana).
 * service-api.md renames `.slack`, `.teams`, `.servicenow` and `.jira` to `.chat`, `.team-chat`,
 * `.incident` and `.ticketing`.
 */

/** One connector manifest; config and secrets as YAML flow maps. */
const manifest = (type: string, config?: string, secrets?: string) =>
  ['apiVersion: svcform/v1', 'kind: Connector', 'metadata: {name: soc-c}', 'spec:', '  name: SOC connector', `  connector_type_id: ${type}`, ...(config ? [`  config: ${config}`] : []), ...(secrets ? [`  secrets: ${secrets}`] : []), ''].join('\n');

/** The messages of `validate` on that manifest (`Kind/name: ` left out), and its exit code. */
async function validate(yaml: string, env: Record<string, string> = {}): Promise<{ code: number; messages: string[] }> {
  const run = await svcform(['validate', repo({ 'connector.yaml': yaml })], env);
  return { code: run.code, messages: run.lines.map((l) => l.text.replace(/^Connector\/soc-c: /, '')) };
}

async function refused(yaml: string, message: string): Promise<void> {
  const { code, messages } = await validate(yaml);
  assert.equal(code, 1, messages.join('\n'));
  assert.ok(messages.includes(message), `expected ${JSON.stringify(message)} among:\n${messages.join('\n')}`);
}

async function taken(yaml: string, env: Record<string, string> = {}): Promise<void> {
  const { code, messages } = await validate(yaml, env);
  assert.equal(code, 0, messages.join('\n'));
  assert.deepEqual(messages, []);
}

const HOOK = '{url: "https://hooks.example.com/in"}';
const SECRET_SETS = 'spec.secrets must hold one set of credentials: user and password; crt and key (with optional password); pfx (with optional password); or clientSecret (for OAuth2); the server refuses any other combination';
const CASES_WEBHOOK = [
  'createIncidentUrl: "https://itsm.example.com/api/issues"', "createIncidentJson: '{\"title\":\"{{{case.title}}}\"}'", 'createIncidentResponseKey: id',
  'getIncidentUrl: "https://itsm.example.com/api/issues/{{{external.system.id}}}"', 'getIncidentResponseExternalTitleKey: key',
  'viewIncidentUrl: "https://itsm.example.com/browse/{{{external.system.title}}}"', 'updateIncidentUrl: "https://itsm.example.com/api/issues/{{{external.system.id}}}"',
  "updateIncidentJson: '{\"title\":\"{{{case.title}}}\"}'",
];

describe('svcform validate: connector config and secrets as the real types check them', () => {
  // KCS common/auth/schemas/v1.ts SecretConfigurationSchemaValidation: a user needs its password.
  it('.webhook: a user without a password is an error', async () => {
    await refused(manifest('.webhook', HOOK, '{user: svc}'), SECRET_SETS);
  });

  // KCS common/auth/schemas/v1.ts SecretConfigurationSchemaValidation: user and password go with no certificate.
  it('.webhook: user and password beside a certificate are an error', async () => {
    await refused(manifest('.webhook', HOOK, '{user: svc, password: pw, crt: CRT}'), SECRET_SETS);
  });

  // KCS common/auth/schemas/v1.ts SecretConfigurationSchemaValidation: crt and key (or pfx) with an optional password.
  it('.webhook: a certificate with its password validates', async () => {
    await taken(manifest('.webhook', '{url: "https://hooks.example.com/in", authType: webhook-authentication-ssl, certType: ssl-crt-key}', '{crt: CRT, key: KEY, password: pw}'));
    await taken(manifest('.webhook', '{url: "https://hooks.example.com/in", authType: webhook-authentication-ssl, certType: ssl-pfx}', '{pfx: PFX, password: pw}'));
  });

  // SC webhook/validations.ts validateAuthType: `Boolean(authType) && !hasAuth` is refused.
  it('.webhook: an authType with hasAuth false is an error', async () => {
    await refused(manifest('.webhook', '{url: "https://hooks.example.com/in", hasAuth: false, authType: webhook-authentication-basic}'), 'authType must be null or left out when hasAuth is false (the server refuses it)');
  });

  // SC webhook/validations.ts validateOAuth2: `!accessTokenUrl || !clientId` with OAuth2 client credentials.
  it('.webhook: OAuth2 client credentials without accessTokenUrl or clientId are errors; with both they validate', async () => {
    const { code, messages } = await validate(manifest('.webhook', '{url: "https://hooks.example.com/in", authType: webhook-oauth2-client-credentials}', '{clientSecret: cs}'));
    assert.equal(code, 1, messages.join('\n'));
    for (const key of ['accessTokenUrl', 'clientId']) assert.ok(messages.includes(`config.${key} is required when authType is webhook-oauth2-client-credentials (the server refuses the connector without it)`), messages.join('\n'));
    await taken(manifest('.webhook', '{url: "https://hooks.example.com/in", authType: webhook-oauth2-client-credentials, accessTokenUrl: "https://idp.example.com/token", clientId: svc}', '{clientSecret: cs}'));
  });

  // SC webhook/validations.ts validateAdditionalFields: a non-empty JSON object, not an array.
  it('.webhook: additionalFields that are not a non-empty JSON object are an error', async () => {
    const oauth = (fields: string) => manifest('.webhook', `{url: "https://hooks.example.com/in", authType: webhook-oauth2-client-credentials, accessTokenUrl: "https://idp.example.com/token", clientId: svc, additionalFields: '${fields}'}`, '{clientSecret: cs}');
    for (const fields of ['audience=x', '{}', '["x"]']) await refused(oauth(fields), 'additionalFields must be a JSON object with at least one field, written as a string (the server refuses anything else)');
    await taken(oauth('{"audience": "https://api.example.com"}'));
  });

  // KCS webhook/schemas/v1.ts: `headers: HeadersSchema.nullable().default(null)`; OAS webhook_config headers nullable.
  it('.webhook: headers null validates', async () => {
    await taken(manifest('.webhook', '{url: "https://hooks.example.com/in", headers: null}', '{user: svc, password: pw}'));
  });

  // KCS common/auth/schemas/v1.ts SecretConfiguration: every secret `.nullable().default(null)`.
  it('.webhook: null in every secret validates', async () => {
    await taken(manifest('.webhook', '{url: "https://hooks.example.com/in", hasAuth: false}', '{user: null, password: null, crt: null, key: null, pfx: null, clientSecret: null, secretHeaders: null}'));
  });

  // KCS common/auth/schemas/v1.ts AuthConfiguration: ca, certType, verificationMode `.optional()` refuse null; authType and additionalFields take it.
  it('.webhook: null in ca, certType or verificationMode is an error; in authType and additionalFields it validates', async () => {
    for (const key of ['ca', 'certType', 'verificationMode']) {
      const { code, messages } = await validate(manifest('.webhook', `{url: "https://hooks.example.com/in", ${key}: null}`, '{user: u, password: p}'));
      assert.equal(code, 1, messages.join('\n'));
      assert.ok(messages.some((m) => m.endsWith(`spec.config.${key} must be a string, not null`)), messages.join('\n'));
    }
    await taken(manifest('.webhook', '{url: "https://hooks.example.com/in", hasAuth: false, authType: null, additionalFields: null}'));
  });

  // KCS email/schemas/v1.ts ConfigSchema: host, port, secure, tenantId, clientId, oauthTokenUrl `.nullable()`.
  it('.email: null in its nullable config keys validates', async () => {
    await taken(manifest('.email', '{from: soc@example.com, service: exchange_server, clientId: c, tenantId: t, host: null, port: null, secure: null, oauthTokenUrl: null}', '{clientSecret: s}'));
  });

  // SC email/index.ts validateConfig: `config.host == null` is "[host] is required" for the other service.
  it('.email: host null for the other service is an error', async () => {
    await refused(manifest('.email', '{from: soc@example.com, host: null, port: 25}', '{user: u, password: p}'), 'spec.config.host must be a string, not null');
  });

  // KCS email/schemas/v1.ts portSchema: `z.coerce.number().min(1).max(65535)`.
  it('.email: a numeric string port validates, one out of range is an error', async () => {
    await taken(manifest('.email', '{from: soc@example.com, host: smtp.example.com, port: "587"}', '{user: u, password: p}'));
    await refused(manifest('.email', '{from: soc@example.com, host: smtp.example.com, port: "70000"}', '{user: u, password: p}'), 'port "70000" is not a number from 1 to 65535 (the server reads a string port as a number)');
  });

  // KCS openai/schemas/v1.ts ConfigSchema: contextWindowLength and temperature `z.coerce.number().optional()`, no bounds.
  it('.gen-ai: contextWindowLength and temperature take numbers and numeric strings without bounds; another string is an error', async () => {
    await taken(manifest('.gen-ai', '{apiProvider: OpenAI, apiUrl: "https://api.example.com/v1/chat/completions", contextWindowLength: "128000", temperature: 3}', '{apiKey: k}'));
    await taken(manifest('.gen-ai', '{apiProvider: OpenAI, apiUrl: "https://api.example.com/v1/chat/completions", contextWindowLength: 0.5, temperature: "0.2"}', '{apiKey: k}'));
    await refused(manifest('.gen-ai', '{apiProvider: OpenAI, apiUrl: "https://api.example.com/v1/chat/completions", temperature: warm}', '{apiKey: k}'), 'temperature "warm" is not a number (the server reads a string temperature as a number)');
  });

  // KCS email/schemas/v1.ts ConfigSchema: oauthTokenUrl `z.string().nullable()`, no URL check.
  it('.email: oauthTokenUrl takes any string', async () => {
    await taken(manifest('.email', '{from: soc@example.com, service: exchange_server, clientId: c, tenantId: t, oauthTokenUrl: login/token}', '{clientSecret: s}'));
  });

  // KCS openai/schemas/v1.ts ConfigSchema Other branch `defaultModel: z.string()`; OAS genai_openai_other_config required.
  it('.gen-ai: apiProvider Other without defaultModel is an error', async () => {
    await refused(manifest('.gen-ai', '{apiProvider: Other, apiUrl: "https://llm.example.com/v1/chat/completions"}', '{apiKey: k}'), 'spec.config.defaultModel is required for apiProvider Other');
  });

  // KCS openai/schemas/v1.ts ConfigSchema Other branch: `enableNativeFunctionCalling: z.boolean().optional()`.
  it('.gen-ai: apiProvider Other with enableNativeFunctionCalling validates', async () => {
    await taken(manifest('.gen-ai', '{apiProvider: Other, apiUrl: "https://llm.example.com/v1/chat/completions", defaultModel: m, enableNativeFunctionCalling: true}', '{apiKey: k}'));
  });

  // KCS openai/schemas/v1.ts ConfigSchema: the OpenAI and Azure branches are strict, without enableNativeFunctionCalling.
  it('.gen-ai: enableNativeFunctionCalling with apiProvider OpenAI is an error', async () => {
    await refused(manifest('.gen-ai', '{apiProvider: OpenAI, apiUrl: "https://api.example.com/v1/chat/completions", enableNativeFunctionCalling: true}', '{apiKey: k}'), 'enableNativeFunctionCalling is not a setting of apiProvider OpenAI, only of Other (the server refuses it; no release stores it)');
  });

  // KCS openai/schemas/v1.ts ConfigSchema: strict branches; organizationId and projectId are OpenAI's, verificationMode Other's.
  it('.gen-ai: a key of another provider\'s branch is an error naming the key and the provider', async () => {
    const ai = (config: string) => manifest('.gen-ai', `{apiUrl: "https://llm.example.com/v1/chat/completions", ${config}}`, '{apiKey: k}');
    await refused(ai('apiProvider: Azure OpenAI, organizationId: org'), 'organizationId is not a setting of apiProvider Azure OpenAI, only of OpenAI (the server refuses it; no release stores it)');
    await refused(ai('apiProvider: OpenAI, verificationMode: full'), 'verificationMode is not a setting of apiProvider OpenAI, only of Other (the server refuses it; no release stores it)');
    await refused(ai('apiProvider: Other, defaultModel: m, projectId: p'), 'projectId is not a setting of apiProvider Other, only of OpenAI (the server refuses it; no release stores it)');
    await taken(ai('apiProvider: OpenAI, organizationId: org, projectId: p'));
    await taken(ai('apiProvider: Azure OpenAI, defaultModel: m, headers: {X-Team: soc}'));
  });

  // SC slack/index.ts validateConnectorTypeConfig: `new URL(webhookUrl)`.
  it('.chat: a webhookUrl that is not a URL is an error; one apply reads later is not judged', async () => {
    await refused(manifest('.chat', undefined, '{webhookUrl: "chat.example.com/hook"}'), 'webhookUrl is not a URL (the server cannot parse a host name from it)');
    await taken(manifest('.chat', undefined, '{webhookUrl: "${env:SOC_CHAT_URL}"}'));
  });

  // KCS teams/schemas/v1.ts: ConfigSchema `z.object({}).strict()`, SecretsSchema `webhookUrl: z.string()`.
  it('.team-chat: a config key, or secrets without webhookUrl, are errors', async () => {
    await refused(manifest('.team-chat', '{channel: soc}', '{webhookUrl: "https://teams.example.com/hook"}'), 'spec.config.channel is not allowed: spec.config takes no fields for connector_type_id .team-chat');
    await refused(manifest('.team-chat', undefined, '{}'), 'spec.secrets.webhookUrl is required for connector_type_id .team-chat');
  });

  // SC teams/index.ts validateConnectorTypeConfig: `new URL(webhookUrl)`.
  it('.team-chat: a webhookUrl that is not a URL is an error, a URL validates', async () => {
    await refused(manifest('.team-chat', undefined, '{webhookUrl: not-a-url}'), 'webhookUrl is not a URL (the server cannot parse a host name from it)');
    await taken(manifest('.team-chat', undefined, '{webhookUrl: "https://teams.example.com/hook"}'));
  });

  // KCS servicenow/schemas/v1.ts ExternalIncidentServiceConfigurationBase: `apiUrl: z.string()`.
  it('.incident: config without apiUrl is an error', async () => {
    await refused(manifest('.incident', '{isOAuth: false}', '{username: u, password: p}'), 'spec.config.apiUrl is required');
  });

  // SC lib/servicenow/validators.ts validateCommonSecrets and validateCommonConnector: username and password together.
  it('.incident: a username without a password is an error', async () => {
    await refused(manifest('.incident', '{apiUrl: "https://itsm.example.com"}', '{username: u}'), 'secrets.password is required unless isOAuth is true');
  });

  // SC lib/servicenow/validators.ts validateCommonConfig and validateCommonConnector: OAuth's config fields and keys.
  it('.incident: isOAuth without its config fields is an error; the complete OAuth form validates', async () => {
    await refused(manifest('.incident', '{apiUrl: "https://itsm.example.com", isOAuth: true, clientId: c}', '{clientSecret: s, privateKey: k}'), 'config.jwtKeyId is required when isOAuth is true');
    await taken(manifest('.incident', '{apiUrl: "https://itsm.example.com", isOAuth: true, clientId: c, userIdentifierValue: svc, jwtKeyId: j}', '{clientSecret: s, privateKey: k}'));
  });

  // SC lib/servicenow/validators.ts validateCommonConnector: no OAuth key beside a user and password.
  it('.incident: an OAuth key without isOAuth is an error', async () => {
    await refused(manifest('.incident', '{apiUrl: "https://itsm.example.com"}', '{username: u, password: p, privateKey: k}'), 'privateKey must not be given unless isOAuth is true');
  });

  // KCS jira/schemas/v1.ts: apiUrl, projectKey, email and apiToken `z.string()`, all required.
  it('.ticketing: config without projectKey and secrets without apiToken are errors', async () => {
    await refused(manifest('.ticketing', '{apiUrl: "https://tickets.example.com"}', '{email: a@example.com, apiToken: t}'), 'spec.config.projectKey is required');
    await refused(manifest('.ticketing', '{apiUrl: "https://tickets.example.com", projectKey: SOC}', '{email: a@example.com}'), 'spec.secrets.apiToken is required');
  });

  // KCS pagerduty/schemas/v1.ts SecretsSchema: `routingKey: z.string()`.
  it('.pagerduty: secrets without routingKey are an error', async () => {
    await refused(manifest('.pagerduty', '{apiUrl: "https://events.example.com/v2/enqueue"}', '{}'), 'spec.secrets.routingKey is required for connector_type_id .pagerduty');
  });

  // KCS cases_webhook/schemas/v1.ts ExternalIncidentServiceConfiguration: eight keys without a default.
  it('.cases-webhook: config without updateIncidentJson is an error; the complete config validates', async () => {
    const without = CASES_WEBHOOK.filter((line) => !line.startsWith('updateIncidentJson'));
    await refused(manifest('.cases-webhook', `{${without.join(', ')}}`, '{user: u, password: p}'), 'spec.config.updateIncidentJson is required for connector_type_id .cases-webhook');
    await taken(manifest('.cases-webhook', `{${CASES_WEBHOOK.join(', ')}}`, '{user: u, password: p}'));
  });

  // SC cases_webhook/validators.ts validateCasesWebhookConfig: `new URL(url)` on each URL set, as written.
  it('.cases-webhook: a URL that does not parse is an error; placeholders in its path validate', async () => {
    const base = CASES_WEBHOOK.filter((line) => !line.startsWith('createIncidentUrl'));
    await refused(manifest('.cases-webhook', `{${[...base, 'createIncidentUrl: "{{{external.system.base}}}/api/issues"'].join(', ')}}`, '{user: u, password: p}'), 'createIncidentUrl "{{{external.system.base}}}/api/issues" is not a URL (the server parses it as written: a mustache placeholder may stand in the path, not for the scheme and host)');
    await taken(manifest('.cases-webhook', `{${[...base, 'createIncidentUrl: "https://itsm.example.com/{{{external.system.project}}}/issues"'].join(', ')}}`, '{user: u, password: p}'));
  });

  // SC cases_webhook/validators.ts validateConnector: `hasAuth && isEmpty(secrets)` on the config as sent.
  it('.cases-webhook: hasAuth true without secrets is an error; without hasAuth it validates', async () => {
    await refused(manifest('.cases-webhook', `{${[...CASES_WEBHOOK, 'hasAuth: true'].join(', ')}}`), 'spec.secrets must hold credentials when hasAuth is true (the server refuses empty secrets then)');
    await taken(manifest('.cases-webhook', `{${CASES_WEBHOOK.join(', ')}}`));
  });

  // SC cases_webhook/validators.ts validateCasesWebhookConfig: OAUTH2_NOT_SUPPORTED, a check older releases' validators lack (a warning).
  it('.cases-webhook: OAuth2 client credentials are a warning', async () => {
    const config = [...CASES_WEBHOOK, 'authType: webhook-oauth2-client-credentials', 'accessTokenUrl: "https://idp.example.com/token"', 'clientId: svc'];
    const { code, messages } = await validate(manifest('.cases-webhook', `{${config.join(', ')}}`, '{clientSecret: s}'));
    assert.equal(code, 0, messages.join('\n'));
    assert.ok(messages.some((m) => m.includes('authType webhook-oauth2-client-credentials: .cases-webhook does not support OAuth2, and newer servers refuse it')), messages.join('\n'));
  });

  // KCS cases_webhook/schemas/v1.ts: its secrets are common/auth's SecretConfigurationSchema.
  it('.cases-webhook: a password without a user is an error', async () => {
    await refused(manifest('.cases-webhook', `{${CASES_WEBHOOK.join(', ')}}`, '{password: p}'), SECRET_SETS);
  });
});
