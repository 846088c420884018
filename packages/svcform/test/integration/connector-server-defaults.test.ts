import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * Config the server fills in that a manifest leaves out must not show as a change after apply:
 * the incident type's isOAuth and usesTableApi (wire-facts 1.3, `.servicenow` renamed), and the
 * model of OpenAI and Gemini connectors, a default of the release (kbn-connector-schemas openai
 * `defaultModel: z.string().default(DEFAULT_MODEL)`; OpenAPI gemini_config defaultModel default),
 * which svcform leaves to the server unless the manifest names one.
 */

const connector = (name: string, typeId: string, config: string, secrets: string) =>
  ['apiVersion: svcform/v1', 'kind: Connector', `metadata: {name: ${name}}`, 'spec:', `  name: ${name}`, `  connector_type_id: ${typeId}`, `  config: ${config}`, `  secrets: ${secrets}`].join('\n') + '\n';

const MANIFESTS = [
  connector('soc-itsm', '.incident', '{apiUrl: "https://itsm.example.com"}', '{username: svc, password: pw}'),
  connector('soc-openai', '.gen-ai', '{apiProvider: OpenAI, apiUrl: "https://api.openai.example/v1/chat/completions"}', '{apiKey: sk-1}'),
  connector('soc-gemini', '.gemini', '{apiUrl: "https://gemini.example.com", gcpRegion: europe-west1, gcpProjectID: soc}', '{credentialsJson: "{}"}'),
].join('---\n');

describe('connector config the server fills in', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('plans nothing after apply for manifests that leave it out', async () => {
    const dir = repo({ 'connectors.yaml': MANIFESTS });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    assert.match(applied.out, /Apply: 3 done, 0 failed/);
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });

  it('compares a model the manifest names', async () => {
    const named = connector('soc-openai', '.gen-ai', '{apiProvider: OpenAI, apiUrl: "https://api.openai.example/v1/chat/completions", defaultModel: gpt-4o}', '{apiKey: sk-1}');
    const planned = await cli(['plan', repo({ 'connectors.yaml': named }), '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 2, shown(planned));
    assert.match(planned.out, /~ update Connector\/soc-openai[\s\S]*defaultModel: "gpt-4\.1" -> "gpt-4o"/);
    const stored = await call(emu, 'GET', '/api/actions/connector/soc-openai');
    assert.equal(stored.body.config.defaultModel, 'gpt-4.1');
  });
});

describe('webhook forms of the real connector schema', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('every method, OAuth2 client credentials and secret headers validate, apply and plan nothing afterwards (kbn-connector-schemas webhook/schemas/v1.ts, common/auth)', async () => {
    const dir = repo({
      'hooks.yaml': [
        connector('soc-patch-hook', '.webhook', '{url: "https://tickets.example.com/api/alerts", method: patch}', '{user: svc, password: pw}'),
        connector('soc-oauth-hook', '.webhook', '{url: "https://soar.example.com/in", authType: webhook-oauth2-client-credentials, accessTokenUrl: "https://idp.example.com/token", clientId: svcform, scope: alerts}', '{clientSecret: cs}'),
        connector('soc-token-hook', '.webhook', '{url: "https://api.example.com/dispatch", hasAuth: false}', '{secretHeaders: {Authorization: "Bearer t0ken"}}'),
      ].join('---\n'),
    });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 0, shown(validated));
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    assert.doesNotMatch(applied.out + applied.err, /t0ken/);
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });
});
