import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { CASES_WEBHOOK_CONFIG } from './cases-webhook-config.js';

/**
 * The real server's connector types beyond the ten of the API document (wire-facts §16 #12; ids
 * from K:x-pack/platform/plugins/shared/actions/server/integration_tests/mocks/connector_types.ts,
 * names, licenses and features from each type's registration in the stack_connectors plugin).
 */

const BEYOND_THE_DOCUMENT = [
  '.cases-webhook', '.pagerduty', '.bedrock', '.gemini', '.slack_api', '.opsgenie', '.tines', '.xmatters', '.servicenow-sir',
  '.servicenow-itom', '.resilient', '.swimlane', '.torq', '.d3security', '.thehive', '.inference',
];


describe('emulator: connector types of the real server', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ license: 'enterprise' });
  });
  after(() => emu.stop());

  it('lists the real types with enabled flags, minimum license and supported features (GET /api/actions/connector_types, wire-facts §16 #12)', async () => {
    const types = (await call(emu, 'GET', '/api/actions/connector_types')).body as any[];
    for (const id of BEYOND_THE_DOCUMENT) assert.ok(types.some((t) => t.id === id), id);
    const paging = types.find((t) => t.id === '.pagerduty');
    assert.deepEqual(paging, {
      id: '.pagerduty', name: 'PagerDuty', enabled: true, enabled_in_config: true, enabled_in_license: true, minimum_license_required: 'gold',
      supported_feature_ids: ['alerting', 'uptime', 'siem'], is_system_action_type: false, is_deprecated: false,
    });
    const caseTypes = (await call(emu, 'GET', '/api/actions/connector_types?feature_id=cases')).body.map((t: any) => t.id);
    assert.ok(caseTypes.includes('.cases-webhook') && caseTypes.includes('.servicenow-sir') && !caseTypes.includes('.pagerduty'));
    const generative = (await call(emu, 'GET', '/api/actions/connector_types?feature_id=generativeAIForSecurity')).body.map((t: any) => t.id);
    assert.ok(['.bedrock', '.gemini', '.inference'].every((id) => generative.includes(id)));
  });

  it('creates and updates connectors of those types with config and secrets as objects, filling the defaults of wire-facts 1.3', async () => {
    const paging = await call(emu, 'POST', '/api/actions/connector/paging', { name: 'Paging', connector_type_id: '.pagerduty', config: { apiUrl: 'https://events.example.com/v2/enqueue' }, secrets: { routingKey: 'rk' } });
    assert.equal(paging.status, 200, paging.text);
    assert.deepEqual([paging.body.config, paging.body.is_missing_secrets], [{ apiUrl: 'https://events.example.com/v2/enqueue' }, false]);
    const cases = await call(emu, 'POST', '/api/actions/connector', { name: 'Case hook', connector_type_id: '.cases-webhook', config: CASES_WEBHOOK_CONFIG, secrets: { user: 'u', password: 'p' } });
    assert.equal(cases.status, 200, cases.text);
    assert.deepEqual(
      [cases.body.config.authType, cases.body.config.hasAuth, cases.body.config.createIncidentMethod, cases.body.config.updateIncidentMethod, cases.body.config.createCommentMethod],
      ['webhook-authentication-basic', true, 'post', 'put', 'put'],
    );
    const bedrock = await call(emu, 'POST', '/api/actions/connector', { name: 'Model', connector_type_id: '.bedrock', config: { apiUrl: 'https://bedrock.example.com' }, secrets: { accessKey: 'a', secret: 's' } });
    assert.equal(bedrock.body.config.defaultModel, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    const put = await call(emu, 'PUT', '/api/actions/connector/paging', { name: 'Paging v2', config: {}, secrets: { routingKey: 'rk2' } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.name, 'Paging v2');
  });

  it('takes a .webhook config.authType of null (no authentication) and answers it as null (wire-facts §16 #5: OAS auth_type nullable; TF TestAccResourceKibanaConnectorWebhookAuthTypeNull)', async () => {
    const res = await call(emu, 'POST', '/api/actions/connector/open-hook', { name: 'Open', connector_type_id: '.webhook', config: { url: 'https://hooks.example.com/services', method: 'post', headers: { 'Content-Type': 'application/json' }, hasAuth: false, authType: null }, secrets: {} });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.config.authType, res.body.config.hasAuth, res.body.is_missing_secrets], [null, false, false]);
  });

  // K:x-pack/platform/plugins/shared/stack_connectors/server/connector_types/jira/index.ts getConnectorType: `minimumLicenseRequired: 'gold'`.
  it('offers .ticketing (the renamed .jira) from a gold licence', async () => {
    await call(emu, 'PUT', '/__emulator/license', { type: 'gold' });
    try {
      const ticketing = ((await call(emu, 'GET', '/api/actions/connector_types')).body as any[]).find((t) => t.id === '.ticketing');
      assert.deepEqual([ticketing.minimum_license_required, ticketing.enabled, ticketing.enabled_in_license], ['gold', true, true]);
    } finally {
      await call(emu, 'PUT', '/__emulator/license', { type: 'enterprise' });
    }
  });

  it('refuses config or secrets that are not objects, and empty strings in them, for those types too (wire-facts 1.2: record schemas, validateEmptyStrings)', async () => {
    const base = { name: 'x', connector_type_id: '.opsgenie' };
    for (const body of [{ ...base, config: 'x' }, { ...base, secrets: ['k'] }, { ...base, config: { apiUrl: '' } }, { ...base, secrets: { apiKey: '' } }]) {
      const res = await call(emu, 'POST', '/api/actions/connector', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'Bad Request');
    }
  });

  it('refuses a type it does not register with the actions plugin\'s 400 (actionTypeRegistry.get: `Action type "<id>" is not registered.`), and system action types', async () => {
    const unknown = await call(emu, 'POST', '/api/actions/connector', { name: 'x', connector_type_id: '.acme-helpdesk' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.message, 'Action type ".acme-helpdesk" is not registered.');
    const system = await call(emu, 'POST', '/api/actions/connector', { name: 'x', connector_type_id: '.observability-ai-assistant' });
    assert.equal(system.status, 400);
  });
});
