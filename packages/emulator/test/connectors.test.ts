import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, KEYS } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import type { ConnectorsState } from '../src/areas/connectors/index.js';

const DOCUMENTED_TYPES = ['.webhook', '.email', '.index', '.server-log', '.gen-ai', '.chat', '.incident', '.ticketing', '.team-chat', '.issue-tracker'];

describe('emulator: connectors (/api/actions)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'], credentials: KEYS.credentials });
  });
  after(() => emu.stop());

  const auth = KEYS.full;
  const api = (method: string, path: string, body?: unknown) => call(emu, method, path, body, auth);
  const state = (space = 'default') => emu.store.data.bySpace[space].connectors as ConnectorsState;
  const webhook = (url = 'https://hooks.example.com/in') => ({ name: 'Hook', connector_type_id: '.webhook', config: { url } });

  it('creates with a random UUID id when none is given (service-api.md Connectors: "random UUID when omitted on create")', async () => {
    const res = await api('POST', '/api/actions/connector', { name: 'Log', connector_type_id: '.server-log' });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('accepts the create path with a trailing slash (wire-facts 1.5: "accept both /connector and /connector/")', async () => {
    const res = await api('POST', '/api/actions/connector/', { name: 'Log', connector_type_id: '.server-log' });
    assert.equal(res.status, 200);
  });

  it('creates with the id from the path (service-api.md Connectors: "POST /api/actions/connector/{id} ... id from path")', async () => {
    const res = await api('POST', '/api/actions/connector/my-hook', webhook());
    assert.equal(res.status, 200);
    assert.equal(res.body.id, 'my-hook');
    assert.equal((await api('GET', '/api/actions/connector/my-hook')).body.name, 'Hook');
  });

  it('takes ids of 1 to 36 characters and answers 400 beyond (service-api.md Limits: "Connector id length ... 1 to 36 characters")', async () => {
    assert.equal((await api('POST', `/api/actions/connector/${'a'.repeat(36)}`, webhook())).status, 200);
    const long = await api('POST', `/api/actions/connector/${'b'.repeat(37)}`, webhook());
    assert.equal(long.status, 400);
    assert.equal(long.body.error, 'Bad Request');
  });

  it('takes only lower-case letters, digits and hyphens in an id, starting and ending with a letter or digit (real source: x-pack/platform/plugins/shared/actions/common/validate_connector_id.ts)', async () => {
    for (const id of ['a', 'soc-log-2', '0f8e2b1c-6d3a-4b5e-9c7d-1a2b3c4d5e6f']) assert.equal((await api('POST', `/api/actions/connector/${id}`, webhook())).status, 200, id);
    for (const id of ['SOC-log', 'soc_log', 'soc.log', '-soc', 'soc-', 'soc%20log', '%0Asoc']) {
      const res = await api('POST', `/api/actions/connector/${id}`, webhook());
      assert.equal(res.status, 400, id);
      assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: '[request params.id]: Connector ID must contain only lowercase letters, numbers, and hyphens.' }, id);
    }
    const traversal = await api('POST', '/api/actions/connector/a..b', webhook());
    assert.equal(traversal.body.message, '[request params.id]: Connector ID must not contain path separators ("/") or traversal sequences ("..").');
    assert.equal((await api('GET', '/api/actions/connectors')).body.filter((c: any) => /[A-Z_.]|^-|-$/.test(c.id) && !c.is_preconfigured && !c.is_system_action).length, 0, 'nothing was created');
  });

  it('answers 409 for a duplicate id (wire-facts 1.1: "duplicate id gives 409")', async () => {
    await api('POST', '/api/actions/connector/dup', webhook());
    const res = await api('POST', '/api/actions/connector/dup', webhook());
    assert.equal(res.status, 409);
    assert.equal(res.body.statusCode, 409);
  });

  it('requires name and connector_type_id (service-api.md Endpoints: "name, connector_type_id R")', async () => {
    const noName = await api('POST', '/api/actions/connector', { connector_type_id: '.server-log' });
    assert.equal(noName.status, 400);
    assert.match(noName.body.message, /name/);
    const noType = await api('POST', '/api/actions/connector', { name: 'x' });
    assert.equal(noType.status, 400);
    assert.match(noType.body.message, /connector_type_id/);
  });

  it('checks bodies as the config-schema declarations do: declared keys in order, then unknown keys (OAS post-actions-connector-id, put-actions-connector-id and post-actions-connector-id-execute: additionalProperties false; kbn-config-schema object_type.ts)', async () => {
    const message = async (method: string, path: string, body: unknown) => (await api(method, path, body)).body.message;
    assert.equal(await message('POST', '/api/actions/connector/order', { name: 5, colour: 'red' }), '[request body.name]: expected value of type [string] but got [number]');
    assert.equal(await message('POST', '/api/actions/connector/order', { name: 'n', connector_type_id: '.server-log', colour: 'red' }), '[request body.colour]: definition for this key is missing');
    assert.equal(await message('POST', '/api/actions/connector/order', { id: 'x', name: 'n', connector_type_id: '.server-log' }), '[request body.id]: definition for this key is missing');
    assert.equal(await message('POST', '/api/actions/connector/order', { name: 'n', connector_type_id: '.server-log', config: [] }), '[request body.config]: expected value of type [object] but got [Array]');
    await api('POST', '/api/actions/connector/order', { name: 'n', connector_type_id: '.server-log' });
    assert.equal(await message('PUT', '/api/actions/connector/order', { name: 'n', connector_type_id: '.server-log' }), '[request body.connector_type_id]: definition for this key is missing');
    assert.equal(await message('POST', '/api/actions/connector/order/_execute', { params: { message: 'm' }, dry_run: true }), '[request body.dry_run]: definition for this key is missing');
  });

  it('accepts only the documented connector type ids (service-api.md Connectors: "Connector type ids")', async () => {
    // Each with the config and secrets its type requires (the checks of connector-validation.test.ts).
    const bodies = [
      { name: 't', connector_type_id: '.server-log' },
      { name: 't', connector_type_id: '.incident', config: { apiUrl: 'https://itsm.example.com' }, secrets: { username: 'u', password: 'p' } },
      { name: 't', connector_type_id: '.team-chat', secrets: { webhookUrl: 'https://teams.example.com/hook' } },
    ];
    for (const body of bodies) assert.equal((await api('POST', '/api/actions/connector', body)).status, 200, body.connector_type_id);
    const res = await api('POST', '/api/actions/connector', { name: 'x', connector_type_id: '.pager' });
    assert.equal(res.status, 400);
  });

  it('rejects empty-string values in config and secrets (wire-facts 1.2: "Empty-string values are rejected")', async () => {
    const inConfig = await api('POST', '/api/actions/connector', { name: 'x', connector_type_id: '.webhook', config: { url: 'https://a.example', ca: '' } });
    assert.equal(inConfig.status, 400);
    const inSecrets = await api('POST', '/api/actions/connector', { name: 'x', connector_type_id: '.webhook', config: { url: 'https://a.example' }, secrets: { user: '' } });
    assert.equal(inSecrets.status, 400);
  });

  it('answers 400 "invalid connector configuration" when a type\'s required config is missing (service-api.md Errors: "also invalid connector configuration")', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['.webhook', {}, 'url'],
      ['.index', { refresh: true }, 'index'],
      ['.gen-ai', { apiUrl: 'https://llm.example/v1/chat/completions' }, 'apiProvider'],
      ['.gen-ai', { apiProvider: 'OpenAI' }, 'apiUrl'],
      ['.email', { host: 'smtp.example.com' }, 'from'],
    ];
    for (const [type, config, field] of cases) {
      const res = await api('POST', '/api/actions/connector', { name: 'x', connector_type_id: type, config });
      assert.equal(res.status, 400, `${type} without ${field}`);
      assert.match(res.body.message, /invalid connector configuration/);
      assert.match(res.body.message, new RegExp(`\\[${field}\\]`));
    }
  });

  it('returns every optional config key of the type as null, plus the webhook defaults method (wire-facts 1.3) and hasAuth (wire-facts §15 fact 4)', async () => {
    const res = await api('POST', '/api/actions/connector/full-hook', webhook('https://x.example/hook'));
    assert.deepEqual(res.body, {
      id: 'full-hook',
      name: 'Hook',
      connector_type_id: '.webhook',
      config: { url: 'https://x.example/hook', method: 'post', hasAuth: true, authType: null, certType: null, ca: null, accessTokenUrl: null, clientId: null, scope: null, additionalFields: null, headers: null, verificationMode: null },
      // hasAuth defaulted to true, so a webhook created without credentials is missing them.
      is_missing_secrets: true,
      is_preconfigured: false,
      is_deprecated: false,
      is_system_action: false,
      is_connector_type_deprecated: false,
    });
  });

  it('fills the per-type config defaults (wire-facts 1.3: .email hasAuth/service, .index refresh, .gen-ai Other verificationMode)', async () => {
    const email = await api('POST', '/api/actions/connector', { name: 'm', connector_type_id: '.email', config: { from: 'soc@example.com', host: 'smtp.example.com', port: 587 }, secrets: { user: 'u', password: 'p' } });
    assert.equal(email.body.config.hasAuth, true);
    assert.equal(email.body.config.service, 'other');
    const index = await api('POST', '/api/actions/connector', { name: 'i', connector_type_id: '.index', config: { index: 'alerts-history' } });
    assert.equal(index.body.config.refresh, false);
    assert.equal(index.body.config.executionTimeField, null);
    const other = await api('POST', '/api/actions/connector', { name: 'g', connector_type_id: '.gen-ai', config: { apiProvider: 'Other', apiUrl: 'https://llm.example/v1/chat/completions', defaultModel: 'm' }, secrets: { apiKey: 'k' } });
    assert.equal(other.body.config.verificationMode, 'full');
    const openai = await api('POST', '/api/actions/connector', { name: 'g', connector_type_id: '.gen-ai', config: { apiProvider: 'OpenAI', apiUrl: 'https://api.example/v1/chat/completions' }, secrets: { apiKey: 'k' } });
    assert.equal(openai.body.config.verificationMode, null);
  });

  it('fills the incident type\'s isOAuth false and usesTableApi true (wire-facts 1.3, .servicenow renamed) and the default model of OpenAI and Gemini connectors (kbn-connector-schemas openai/schemas/v1.ts and constants.ts DEFAULT_MODEL; OpenAPI gemini_config defaultModel default)', async () => {
    const incident = await api('POST', '/api/actions/connector', { name: 'n', connector_type_id: '.incident', config: { apiUrl: 'https://itsm.example' }, secrets: { username: 'u', password: 'p' } });
    assert.equal(incident.status, 200, incident.text);
    assert.deepEqual([incident.body.config.isOAuth, incident.body.config.usesTableApi], [false, true]);
    const openai = await api('POST', '/api/actions/connector', { name: 'o', connector_type_id: '.gen-ai', config: { apiProvider: 'OpenAI', apiUrl: 'https://api.example/v1/chat/completions' }, secrets: { apiKey: 'k' } });
    assert.equal(openai.body.config.defaultModel, 'gpt-4.1');
    const chosen = await api('POST', '/api/actions/connector', { name: 'o', connector_type_id: '.gen-ai', config: { apiProvider: 'OpenAI', apiUrl: 'https://api.example/v1/chat/completions', defaultModel: 'gpt-4o' }, secrets: { apiKey: 'k' } });
    assert.equal(chosen.body.config.defaultModel, 'gpt-4o');
    const gemini = await api('POST', '/api/actions/connector', { name: 'g', connector_type_id: '.gemini', config: { apiUrl: 'https://gemini.example', gcpRegion: 'r', gcpProjectID: 'p' }, secrets: { credentialsJson: '{}' } });
    assert.equal(gemini.body.config.defaultModel, 'gemini-2.5-pro');
  });

  it('.webhook takes every method, OAuth2 client credentials and secret headers, and one set of credentials at a time (kbn-connector-schemas webhook/schemas/v1.ts, common/auth/schemas/v1.ts SecretConfigurationSchemaValidation)', async () => {
    const hook = (config: Record<string, unknown>, secrets: Record<string, unknown>) => api('POST', '/api/actions/connector', { name: 'h', connector_type_id: '.webhook', config: { url: 'https://x.example/hook', ...config }, secrets });
    assert.equal((await hook({ method: 'patch' }, { user: 'u', password: 'p' })).status, 200);
    const oauth = await hook({ authType: 'webhook-oauth2-client-credentials', accessTokenUrl: 'https://idp.example/token', clientId: 'svc', scope: 'hooks' }, { clientSecret: 's' });
    assert.equal(oauth.status, 200, oauth.text);
    assert.equal(oauth.body.config.clientId, 'svc');
    assert.equal((await hook({ hasAuth: false }, { secretHeaders: { Authorization: 'Bearer t' } })).status, 200);
    const userOnly = await hook({}, { user: 'u' });
    assert.equal(userOnly.status, 400);
    assert.match(userOnly.body.message, /must specify one of the following schemas: user and password/);
    assert.equal((await hook({ hasAuth: false }, { secretHeaders: ['Authorization'] })).status, 400);
  });

  it('.email needs host and port for the other service, clientId and tenantId for exchange_server, and user and password while hasAuth (stack_connectors email/index.ts validateConfig, validateConnector)', async () => {
    const mail = (config: Record<string, unknown>, secrets: Record<string, unknown> = {}) => api('POST', '/api/actions/connector', { name: 'm', connector_type_id: '.email', config: { from: 'soc@example.com', ...config }, secrets });
    const noHost = await mail({}, { user: 'u', password: 'p' });
    assert.equal(noHost.status, 400);
    assert.match(noHost.body.message, /\[host\]\/\[port\] is required/);
    assert.match((await mail({ host: 'smtp.example.com' }, { user: 'u', password: 'p' })).body.message, /\[port\] is required/);
    assert.match((await mail({ service: 'exchange_server', clientId: 'c' }, { clientSecret: 's' })).body.message, /\[tenantId\] is required/);
    assert.match((await mail({ host: 'smtp.example.com', port: 25 }, { user: 'u' })).body.message, /\[password\] is required/);
    assert.equal((await mail({ host: 'smtp.example.com', port: 25, hasAuth: false })).status, 200);
    assert.equal((await mail({ service: 'exchange_server', clientId: 'c', tenantId: 't' }, { clientSecret: 's' })).status, 200);
  });

  it('.webhook hasAuth defaults to true, keeps an explicit false, and authType gets no default (wire-facts §15 fact 4: schema.boolean({ defaultValue: true }); OAS has_auth.default true; authType\'s default sits inside schema.maybe)', async () => {
    const omitted = await api('POST', '/api/actions/connector', { name: 'h', connector_type_id: '.webhook', config: { url: 'https://a.example' }, secrets: { user: 'u', password: 'p' } });
    assert.deepEqual([omitted.body.config.hasAuth, omitted.body.config.authType, omitted.body.is_missing_secrets], [true, null, false]);
    const off = await api('POST', '/api/actions/connector', { name: 'h', connector_type_id: '.webhook', config: { url: 'https://a.example', hasAuth: false } });
    assert.deepEqual([off.body.config.hasAuth, off.body.is_missing_secrets], [false, false]);
    // A PUT that leaves hasAuth out gets the default again (config is replaced whole, wire-facts 1.2).
    const put = await api('PUT', `/api/actions/connector/${off.body.id}`, { name: 'h', config: { url: 'https://a.example' } });
    assert.equal(put.body.config.hasAuth, true);
  });

  it('defaults config to {} (service-api.md Connectors: "config ... default {}")', async () => {
    const res = await api('POST', '/api/actions/connector', { name: 'Log', connector_type_id: '.server-log' });
    assert.deepEqual(res.body.config, {});
  });

  it('never returns secrets and flags is_missing_secrets when a type needs them (wire-facts 1.4)', async () => {
    const withKey = await api('POST', '/api/actions/connector/llm', { name: 'LLM', connector_type_id: '.gen-ai', config: { apiProvider: 'OpenAI', apiUrl: 'https://api.example/v1/chat/completions' }, secrets: { apiKey: 'sk-123' } });
    assert.equal(withKey.body.is_missing_secrets, false);
    assert.equal(withKey.body.secrets, undefined);
    assert.ok(!JSON.stringify((await api('GET', '/api/actions/connector/llm')).body).includes('sk-123'));
    assert.ok(!JSON.stringify((await api('GET', '/api/actions/connectors')).body).includes('sk-123'));
    // A webhook authenticates unless told otherwise (hasAuth defaults to true): without secrets it misses them.
    const hook = await api('POST', '/api/actions/connector', { name: 'Hook', connector_type_id: '.webhook', config: { url: 'https://hooks.example.com/in' } });
    assert.equal(hook.body.is_missing_secrets, true);
  });

  it('answers 404 in the platform shape for an unknown connector (wire-facts 1.1: "missing gives 404 (platform body)")', async () => {
    const res = await api('GET', '/api/actions/connector/nope');
    assert.equal(res.status, 404);
    assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message', 'statusCode']);
    assert.equal(res.body.error, 'Not Found');
  });

  it('lists the space\'s connectors as a bare array with referenced_by_count from rules (wire-facts 0.4)', async () => {
    await api('POST', '/api/actions/connector/counted', webhook());
    const rule = (ruleId: string) => ({ rule_id: ruleId, type: 'query', name: ruleId, description: 'd', severity: 'low', risk_score: 1, actions: [{ id: 'counted', group: 'default', action_type_id: '.webhook', params: { body: '{}' } }] });
    await api('POST', '/api/detection_engine/rules', rule('uses-counted-1'));
    await api('POST', '/api/detection_engine/rules', rule('uses-counted-2'));
    const res = await api('GET', '/api/actions/connectors');
    assert.ok(Array.isArray(res.body));
    assert.equal(res.body.find((c: any) => c.id === 'counted').referenced_by_count, 2);
    assert.equal(res.body.find((c: any) => c.id === 'my-hook').referenced_by_count, 0);
  });

  it('lists a preconfigured and a system connector without config or is_missing_secrets (wire-facts 1.3)', async () => {
    const res = await api('GET', '/api/actions/connectors');
    const pre = res.body.find((c: any) => c.is_preconfigured);
    const system = res.body.find((c: any) => c.is_system_action);
    assert.equal(pre.id, 'preconfigured-server-log');
    assert.equal(pre.config, undefined);
    assert.equal(pre.is_missing_secrets, undefined);
    assert.equal(system.is_preconfigured, false);
    assert.equal(system.config, undefined);
  });

  it('refuses PUT and DELETE of preconfigured and system connectors with 400 (wire-facts 1.3: "never try to own or delete them")', async () => {
    for (const id of ['preconfigured-server-log', 'system-connector-.cases']) {
      assert.equal((await api('PUT', `/api/actions/connector/${id}`, { name: 'x' })).status, 400, id);
      assert.equal((await api('DELETE', `/api/actions/connector/${id}`)).status, 400, id);
    }
  });

  it('lists connector types with id and name, filtered by feature_id, without feature privileges (service-api.md Endpoints: connector_types)', async () => {
    const all = await call(emu, 'GET', '/api/actions/connector_types', undefined, { headers: { authorization: 'ApiKey viewer' } });
    assert.equal(all.status, 200);
    for (const id of DOCUMENTED_TYPES) assert.ok(all.body.some((t: any) => t.id === id && typeof t.name === 'string'), id);
    const cases = await api('GET', '/api/actions/connector_types?feature_id=cases');
    assert.ok(cases.body.some((t: any) => t.id === '.webhook'));
    assert.ok(!cases.body.some((t: any) => t.id === '.server-log'));
  });

  it('replaces config and secrets whole on PUT, omitted ones reset to {} (service-api.md Endpoints: "full replace, omitted config or secrets reset to {}")', async () => {
    await api('POST', '/api/actions/connector/put-hook', { name: 'Hook', connector_type_id: '.webhook', config: { url: 'https://a.example', hasAuth: true }, secrets: { user: 'u', password: 'p' } });
    const res = await api('PUT', '/api/actions/connector/put-hook', { name: 'Renamed', config: { url: 'https://b.example', hasAuth: true } });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'Renamed');
    assert.equal(res.body.config.url, 'https://b.example');
    assert.equal(res.body.is_missing_secrets, true, 'secrets omitted on PUT are wiped');
    const noConfig = await api('PUT', '/api/actions/connector/put-hook', { name: 'Renamed' });
    assert.equal(noConfig.status, 400, 'config reset to {} lacks the required url');
    const chat = await api('POST', '/api/actions/connector/put-chat', { name: 'c', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
    assert.equal(chat.body.is_missing_secrets, false);
    // Secrets reset to {} lack the chat type's required webhookUrl (wire-facts 1.2: "types that require secrets fail validation").
    const wiped = await api('PUT', '/api/actions/connector/put-chat', { name: 'c' });
    assert.equal(wiped.status, 400);
    assert.match(wiped.body.message, /\[webhookUrl\]: expected value of type \[string\] but got \[undefined\]/);
  });

  it('requires name on PUT (service-api.md Endpoints: "PUT ... name R")', async () => {
    await api('POST', '/api/actions/connector/put-name', webhook());
    assert.equal((await api('PUT', '/api/actions/connector/put-name', { config: { url: 'https://a.example' } })).status, 400);
  });

  it('answers 400 when a PUT sends connector_type_id (wire-facts 1.2: "connector_type_id cannot be sent or changed")', async () => {
    await api('POST', '/api/actions/connector/put-type', webhook());
    const res = await api('PUT', '/api/actions/connector/put-type', { name: 'x', connector_type_id: '.webhook', config: { url: 'https://a.example' } });
    assert.equal(res.status, 400);
  });

  it('answers 400 to an update omitting required config (service-api.md Errors: "update of a connector omitting required config")', async () => {
    await api('POST', '/api/actions/connector/put-index', { name: 'i', connector_type_id: '.index', config: { index: 'x' } });
    const res = await api('PUT', '/api/actions/connector/put-index', { name: 'i', config: { refresh: true } });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /invalid connector configuration/);
  });

  it('answers 404 to PUT of an unknown connector (service-api.md Errors: "Resource does not exist (connector ...) 404")', async () => {
    assert.equal((await api('PUT', '/api/actions/connector/ghost', { name: 'x' })).status, 404);
  });

  it('deletes with HTTP 204 and an empty body (service-api.md Connectors: "HTTP 204, empty body")', async () => {
    await api('POST', '/api/actions/connector/doomed', webhook());
    const res = await api('DELETE', '/api/actions/connector/doomed');
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await api('GET', '/api/actions/connector/doomed')).status, 404);
    assert.equal((await api('DELETE', '/api/actions/connector/doomed')).status, 404);
  });

  it('executes .server-log by recording message and level (service-api.md Connectors: ".server-log ... execute params message, level")', async () => {
    const created = await api('POST', '/api/actions/connector/log', { name: 'Log', connector_type_id: '.server-log' });
    assert.equal(created.status, 200);
    const res = await api('POST', '/api/actions/connector/log/_execute', { params: { message: 'rule fired', level: 'warn' } });
    assert.deepEqual(res.body, { connector_id: 'log', status: 'ok' });
    const last = state().executions.at(-1)!;
    assert.deepEqual(last.params, { message: 'rule fired', level: 'warn' });
    await api('POST', '/api/actions/connector/log/_execute', { params: { message: 'default level' } });
    assert.equal(state().executions.at(-1)!.params.level, 'info');
  });

  it('executes .webhook without calling out, recording the body (service-api.md Connectors: ".webhook ... execute params body")', async () => {
    const res = await api('POST', '/api/actions/connector/my-hook/_execute', { params: { body: '{"alert":1}' } });
    assert.equal(res.body.status, 'ok');
    assert.equal(state().executions.at(-1)!.params.body, '{"alert":1}');
  });

  it('executes .index by appending the documents to the configured index (service-api.md Connectors: ".index ... execute params documents")', async () => {
    await api('POST', '/api/actions/connector/history', { name: 'h', connector_type_id: '.index', config: { index: 'alert-history' } });
    await api('POST', '/api/actions/connector/history/_execute', { params: { documents: [{ a: 1 }, { a: 2 }] } });
    await api('POST', '/api/actions/connector/history/_execute', { params: { documents: [{ a: 3 }] } });
    assert.deepEqual(state().indices['alert-history'], [{ a: 1 }, { a: 2 }, { a: 3 }]);
  });

  it('reports invalid execute params as status "error" (service-api.md Connectors: "Execution result: status is ok or error")', async () => {
    const res = await api('POST', '/api/actions/connector/history/_execute', { params: { documents: 'nope' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'error');
    assert.match(res.body.message, /documents/);
  });

  it('requires params on _execute (service-api.md Endpoints: "_execute ... params R")', async () => {
    assert.equal((await api('POST', '/api/actions/connector/log/_execute', {})).status, 400);
  });

  it('answers 404 to _execute of an unknown connector (service-api.md Errors: connector 404)', async () => {
    assert.equal((await api('POST', '/api/actions/connector/ghost/_execute', { params: { message: 'x' } })).status, 404);
  });

  it('serves the OAuth callback page with HTTP 200 HTML (service-api.md Endpoints: "_oauth_callback ... HTTP 200 HTML completion page")', async () => {
    const denied = await api('GET', '/api/actions/connector/_oauth_callback?error=access_denied&error_description=User%20said%20no');
    assert.equal(denied.status, 200);
    assert.match(denied.headers.get('content-type')!, /^text\/html/);
    assert.match(denied.text, /Authorization failed: access_denied: User said no/);
    const unknown = await api('GET', '/api/actions/connector/_oauth_callback?code=abc&state=never-issued');
    assert.match(unknown.text, /state is missing, unknown or expired/);
    state().oauthStates = { s1: { connector_id: 'my-hook' } };
    const done = await api('GET', '/api/actions/connector/_oauth_callback?code=abc&state=s1');
    assert.match(done.text, /Authorization complete/);
    assert.deepEqual(state().oauthCallbacks!.map((c) => [c.connector_id, c.code]), [['my-hook', 'abc']]);
    assert.match((await api('GET', '/api/actions/connector/_oauth_callback?code=abc&state=s1')).text, /Authorization failed/, 'a state is used once');
  });

  it('redirects with HTTP 302 when the authorization carries a return URL (service-api.md Endpoints: "or HTTP 302 redirect")', async () => {
    state().oauthStates = { s2: { connector_id: 'my-hook', return_url: '/app/connectors/my-hook' } };
    const res = await fetch(`${emu.url}/api/actions/connector/_oauth_callback?code=xyz&state=s2`, { headers: { authorization: 'ApiKey full' }, redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/app/connectors/my-hook');
  });

  it('serves the callback script as application/javascript (service-api.md Endpoints: "_oauth_callback_script ... content type application/javascript")', async () => {
    const res = await api('GET', '/api/actions/connector/_oauth_callback_script');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/javascript/);
    assert.match(res.text, /postMessage/);
  });

  it('refuses writes to a read-only key with 403 (service-api.md Authentication 7: "Forbidden")', async () => {
    const res = await call(emu, 'POST', '/api/actions/connector', { name: 'x', connector_type_id: '.server-log' }, { headers: { authorization: 'ApiKey viewer' } });
    assert.equal(res.status, 403);
  });

  it('keeps connectors of one space invisible from another (service-api.md cross-cutting rule 1)', async () => {
    await api('POST', '/s/other/api/actions/connector/only-other', webhook());
    assert.equal((await api('GET', '/api/actions/connector/only-other')).status, 404);
    assert.ok(!(await api('GET', '/api/actions/connectors')).body.some((c: any) => c.id === 'only-other'));
    assert.ok((await api('GET', '/s/other/api/actions/connectors')).body.some((c: any) => c.id === 'only-other'));
    assert.ok(!(await api('GET', '/s/other/api/actions/connectors')).body.some((c: any) => c.id === 'my-hook'));
  });
});
