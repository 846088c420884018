import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import { fetchRequester } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { connectorAdapter } from '../../src/kinds/connector/connector.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { ApiRequest } from '../../src/client/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import type { ConnectorsState } from '@svcform/emulator/areas/connectors/index.js';
import { contextFor } from '../../src/engine/context.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

/** Manifests as people write them: server defaults left out, secrets included. */
const MANIFESTS: Record<string, Record<string, any>> = {
  'soc-pagerduty': {
    name: 'SOC on-call paging',
    connector_type_id: '.webhook',
    config: { url: 'https://events.paging.example.com/integration/svc/enqueue', headers: { 'Content-Type': 'application/json' }, hasAuth: true },
    secrets: { user: 'svc-detections', password: 'hunter2' },
  },
  'soc-server-log': { name: 'SOC server log', connector_type_id: '.server-log' },
  'soc-alert-history': { name: 'SOC alert history index', connector_type_id: '.index', config: { index: 'soc-alert-history', executionTimeField: '@timestamp' } },
  'soc-llm': { name: 'SOC assistant', connector_type_id: '.gen-ai', config: { apiProvider: 'Other', apiUrl: 'https://llm.example.com/v1/chat/completions', defaultModel: 'm-large' }, secrets: { apiKey: 'sk-1' } },
  // A client certificate and no API key: the route requires no secret of its own (OAS genai_secrets: none required).
  // Other needs its model (kbn-connector-schemas openai/schemas/v1.ts, OAS genai_openai_other_config).
  'soc-llm-mtls': { name: 'SOC assistant, mTLS', connector_type_id: '.gen-ai', config: { apiProvider: 'Other', apiUrl: 'https://llm.example.com/v1/chat/completions', defaultModel: 'm-large' }, secrets: { certificateData: 'CERT', privateKeyData: 'KEY' } },
  'soc-mail': { name: 'SOC mail', connector_type_id: '.email', config: { from: 'soc@example.com', host: 'smtp.example.com', port: 587 }, secrets: { user: 'soc', password: 'pw' } },
  'soc-chat': { name: 'SOC alerts channel', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example.com/hooks/abc' } },
  // The renamed .jira requires its email and API token (kbn-connector-schemas jira/schemas/v1.ts).
  'soc-tickets': { name: 'SOC tickets', connector_type_id: '.ticketing', config: { apiUrl: 'https://tickets.example.com', projectKey: 'SOC' }, secrets: { email: 'soc@example.com', apiToken: 'tk' } },
  // hasAuth left out: the server fills true (wire-facts §15 fact 4).
  'soc-webhook-default-auth': { name: 'SOC relay', connector_type_id: '.webhook', config: { url: 'https://relay.example.com/in' }, secrets: { user: 'relay', password: 'pw' } },
};

describe('Connector adapter', () => {
  let emu: RunningEmulator;
  let api: ReturnType<typeof fetchRequester>;
  let ctx: AdapterContext;
  const sent: ApiRequest[] = [];
  const live = async (space = 'default') => connectorAdapter.list(ctx, space);
  const liveOne = async (name: string, space = 'default') => (await live(space)).find((l) => l.name === name)!;
  const stored = (id: string, space = 'default') => (emu.store.data.bySpace[space].connectors as ConnectorsState).records[id];

  before(async () => {
    emu = await emulator({ spaces: ['other'] });
    api = fetchRequester(emu.url);
    // As the engine runs adapters: every request carries the adapter's area.
    ctx = contextFor({ api: { request: (req) => { sent.push(req); return api.request(req); } }, log: () => {}, run: new RunScope() }, connectorAdapter);
    for (const [name, spec] of Object.entries(MANIFESTS)) await connectorAdapter.create(ctx, resource('Connector', name, spec));
  });
  after(() => emu.stop());

  it('creates with POST /api/actions/connector/{id}, idempotent, secrets included', async () => {
    const create = sent.find((r) => r.method === 'POST' && r.path === '/api/actions/connector/soc-pagerduty')!;
    assert.equal(create.idempotent, true);
    assert.equal(create.area, 'actions');
    assert.deepEqual((create.body as any).secrets, MANIFESTS['soc-pagerduty'].secrets);
    assert.deepEqual(stored('soc-pagerduty').secrets, MANIFESTS['soc-pagerduty'].secrets);
  });

  it('normalizes every created manifest equal to its live object (no perpetual diff)', async () => {
    const all = await live();
    for (const [name, spec] of Object.entries(MANIFESTS)) {
      const obj = all.find((l) => l.name === name);
      assert.ok(obj, name);
      assert.deepEqual(connectorAdapter.normalizeLive(obj, RUN), connectorAdapter.normalizeDesired(resource('Connector', name, spec), RUN), name);
    }
  });

  it('lists in one request and marks preconfigured and system connectors read-only', async () => {
    const before = api.count;
    const all = await live();
    assert.equal(api.count - before, 1);
    assert.equal(all.find((l) => l.name === 'preconfigured-server-log')!.readOnly, 'preconfigured connector');
    assert.equal(all.find((l) => l.body.is_system_action)!.readOnly, 'system action connector');
    assert.equal(all.find((l) => l.name === 'soc-chat')!.readOnly, undefined);
  });

  it('shows a change made directly through the API as a difference', async () => {
    await call(emu, 'PUT', '/api/actions/connector/soc-alert-history', { name: 'Renamed in the UI', config: { index: 'other-index' } });
    const obj = await liveOne('soc-alert-history');
    assert.notDeepEqual(connectorAdapter.normalizeLive(obj, RUN), connectorAdapter.normalizeDesired(resource('Connector', 'soc-alert-history', MANIFESTS['soc-alert-history']), RUN));
  });

  it('updates with PUT carrying name, config and the manifest\'s secrets, and converges', async () => {
    const res = resource('Connector', 'soc-alert-history', MANIFESTS['soc-alert-history']);
    await connectorAdapter.update(ctx, res, await liveOne('soc-alert-history'), { rotateSecrets: false });
    assert.deepEqual(connectorAdapter.normalizeLive(await liveOne('soc-alert-history'), RUN), connectorAdapter.normalizeDesired(res, RUN));

    const pager = resource('Connector', 'soc-pagerduty', { ...MANIFESTS['soc-pagerduty'], name: 'Paging v2' });
    await connectorAdapter.update(ctx, pager, await liveOne('soc-pagerduty'), { rotateSecrets: false });
    const put = sent.filter((r) => r.method === 'PUT' && r.path === '/api/actions/connector/soc-pagerduty').at(-1)!;
    assert.deepEqual(Object.keys(put.body as object).sort(), ['config', 'name', 'secrets']);
    assert.deepEqual(stored('soc-pagerduty').secrets, MANIFESTS['soc-pagerduty'].secrets, 'the PUT did not wipe the secrets');
    assert.equal((await liveOne('soc-pagerduty')).body.is_missing_secrets, false);
    assert.deepEqual(connectorAdapter.normalizeLive(await liveOne('soc-pagerduty'), RUN), connectorAdapter.normalizeDesired(pager, RUN));
  });

  it('refuses to change connector_type_id in update with a clear error', async () => {
    const res = resource('Connector', 'soc-server-log', { name: 'x', connector_type_id: '.index', config: { index: 'i' } });
    await assert.rejects(connectorAdapter.update(ctx, res, await liveOne('soc-server-log'), { rotateSecrets: false }), /connector_type_id cannot change.*\.server-log.*\.index/);
  });

  it('fills the type defaults on the desired side and drops secrets (wire-facts 1.3, 1.4; §15 fact 4: .webhook hasAuth true)', () => {
    const desired = connectorAdapter.normalizeDesired(resource('Connector', 'x', MANIFESTS['soc-pagerduty']), RUN);
    assert.equal(desired.config.method, 'post');
    assert.equal(connectorAdapter.normalizeDesired(resource('Connector', 'w', MANIFESTS['soc-webhook-default-auth']), RUN).config.hasAuth, true);
    assert.equal(connectorAdapter.normalizeDesired(resource('Connector', 'w', { name: 'w', connector_type_id: '.webhook', config: { url: 'https://a.example', hasAuth: false } }), RUN).config.hasAuth, false);
    assert.equal(desired.secrets, undefined);
    const openai = connectorAdapter.normalizeDesired(resource('Connector', 'y', { name: 'g', connector_type_id: '.gen-ai', config: { apiProvider: 'OpenAI', apiUrl: 'https://a.example/v1/chat/completions' } }), RUN);
    assert.equal(openai.config.verificationMode, undefined);
  });

  it('exports a spec without defaults, secrets as ${env:...} placeholders, that round-trips', async () => {
    const all = await live();
    for (const name of Object.keys(MANIFESTS)) {
      const obj = all.find((l) => l.name === name)!;
      const { spec } = connectorAdapter.toSpec(obj, RUN);
      assert.deepEqual(connectorAdapter.normalizeDesired(resource('Connector', name, spec), RUN), connectorAdapter.normalizeLive(obj, RUN), name);
    }
    const hook = connectorAdapter.toSpec(all.find((l) => l.name === 'soc-pagerduty')!, RUN);
    assert.equal(hook.spec.config.method, undefined, 'server default left out');
    assert.deepEqual(hook.spec.secrets, { user: '${env:SVCFORM_CONNECTOR_SOC_PAGERDUTY_USER}', password: '${env:SVCFORM_CONNECTOR_SOC_PAGERDUTY_PASSWORD}' });
    assert.deepEqual(hook.variables!.map((v) => v.name), ['SVCFORM_CONNECTOR_SOC_PAGERDUTY_USER', 'SVCFORM_CONNECTOR_SOC_PAGERDUTY_PASSWORD']);
    const chat = connectorAdapter.toSpec(all.find((l) => l.name === 'soc-chat')!, RUN);
    assert.deepEqual(chat.spec, { name: 'SOC alerts channel', connector_type_id: '.chat', secrets: { webhookUrl: '${env:SVCFORM_CONNECTOR_SOC_CHAT_WEBHOOKURL}' } });
    const log = connectorAdapter.toSpec(all.find((l) => l.name === 'soc-server-log')!, RUN);
    assert.deepEqual(log, { spec: { name: 'SOC server log', connector_type_id: '.server-log' }, variables: [], warnings: [] });
    assert.equal(connectorAdapter.toSpec(all.find((l) => l.name === 'soc-llm')!, RUN).spec.config.verificationMode, undefined);
    // A webhook whose hasAuth is the server's default: left out of the spec, secrets still written.
    const relay = connectorAdapter.toSpec(all.find((l) => l.name === 'soc-webhook-default-auth')!, RUN);
    assert.deepEqual(relay.spec.config, { url: 'https://relay.example.com/in' });
    assert.deepEqual(Object.keys(relay.spec.secrets), ['user', 'password']);
    // Also from a listing that leaves hasAuth out: absent means the default, true.
    const bare = connectorAdapter.toSpec({ kind: 'Connector', space: 'default', name: 'b', body: { id: 'b', name: 'b', connector_type_id: '.webhook', config: { url: 'https://b.example' } } }, RUN);
    assert.deepEqual(Object.keys(bare.spec.secrets), ['user', 'password']);
  });

  it('exports the secret keys the connector really uses: certificates for SSL webhooks, none for email without auth', () => {
    const obj = (id: string, type: string, config: Record<string, unknown>) => ({ kind: 'Connector', space: 'default', name: id, body: { id, name: id, connector_type_id: type, config } });
    const ssl = connectorAdapter.toSpec(obj('cert-hook', '.webhook', { url: 'https://h.example', hasAuth: true, authType: 'webhook-authentication-ssl', certType: 'ssl-crt-key' }), RUN);
    assert.deepEqual(Object.keys(ssl.spec.secrets), ['crt', 'key']);
    const pfx = connectorAdapter.toSpec(obj('pfx-hook', '.webhook', { url: 'https://h.example', hasAuth: true, authType: 'webhook-authentication-ssl', certType: 'ssl-pfx' }), RUN);
    assert.deepEqual(Object.keys(pfx.spec.secrets), ['pfx']);
    const relay = connectorAdapter.toSpec(obj('relay', '.email', { from: 'soc@example.com', host: 'relay', port: 25, hasAuth: false, service: 'other' }), RUN);
    assert.equal(relay.spec.secrets, undefined);
    assert.deepEqual(relay.variables, []);
  });

  it('says a resource has write-only parts when its secrets are non-empty', () => {
    assert.equal(connectorAdapter.hasWriteOnly!(resource('Connector', 'a', MANIFESTS['soc-chat']), RUN), true);
    assert.equal(connectorAdapter.hasWriteOnly!(resource('Connector', 'b', MANIFESTS['soc-server-log']), RUN), false);
    assert.equal(connectorAdapter.hasWriteOnly!(resource('Connector', 'c', { ...MANIFESTS['soc-server-log'], secrets: {} }), RUN), false);
  });

  it('warns about a .gen-ai base URL (service-api.md: "must be the full chat-completions endpoint URL")', () => {
    const issues = connectorAdapter.check!(resource('Connector', 'g', { name: 'g', connector_type_id: '.gen-ai', config: { apiProvider: 'OpenAI', apiUrl: 'https://api.example.com/' } }));
    assert.equal(issues.length, 1);
    assert.equal(issues[0].severity, 'warning');
    assert.deepEqual(connectorAdapter.check!(resource('Connector', 'ok', MANIFESTS['soc-llm'])), []);
  });

  it('works in the manifest\'s space and deletes', async () => {
    const res = resource('Connector', 'ops-log', { name: 'Ops log', connector_type_id: '.server-log' }, { space: 'other' });
    await connectorAdapter.create(ctx, res);
    assert.ok((await live('other')).some((l) => l.name === 'ops-log'));
    assert.ok(!(await live()).some((l) => l.name === 'ops-log'));
    const obj: LiveObject = (await live('other')).find((l) => l.name === 'ops-log')!;
    await connectorAdapter.delete(ctx, obj);
    assert.ok(!(await live('other')).some((l) => l.name === 'ops-log'));
  });
});
