import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';
import { resource } from '../helpers/resource.js';
import { connectorAdapter } from '../../src/kinds/connector/connector.js';
import type { LiveObject } from '../../src/kinds/types.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/**
 * Config that one server release fills and another leaves out, or converts, must plan as no
 * change against either: the comparison fills the same defaults on the manifest's side and the
 * server's (KCS is K:src/platform/packages/shared/kbn-connector-schemas of elastic/kibana).
 */

const RUN = new RunScope();

const live = (typeId: string, config: Record<string, unknown>): LiveObject => ({ kind: 'Connector', space: 'default', name: 'c', body: { id: 'c', name: 'C', connector_type_id: typeId, config } });
const desired = (typeId: string, config: Record<string, unknown>) => connectorAdapter.normalizeDesired(resource('Connector', 'c', { name: 'C', connector_type_id: typeId, config }), RUN);
const seen = (obj: LiveObject) => connectorAdapter.normalizeLive(obj, RUN);

const HOOK = { url: 'https://hooks.example.com/in' };
/** A webhook as a server answers it, every optional key null (wire-facts 1.3). */
const hookAnswer = (extra: Record<string, unknown>) => ({ ...HOOK, method: 'post', hasAuth: true, headers: null, certType: null, ca: null, verificationMode: null, ...extra });

const CASES_WEBHOOK = {
  createIncidentUrl: 'https://itsm.example.com/api/issues', createIncidentJson: '{"title":"{{{case.title}}}"}', createIncidentResponseKey: 'id',
  getIncidentUrl: 'https://itsm.example.com/api/issues/{{{external.system.id}}}', getIncidentResponseExternalTitleKey: 'key',
  viewIncidentUrl: 'https://itsm.example.com/browse/{{{external.system.title}}}', updateIncidentUrl: 'https://itsm.example.com/api/issues/{{{external.system.id}}}',
  updateIncidentJson: '{"title":"{{{case.title}}}"}',
};
const casesAnswer = (extra: Record<string, unknown>) => ({ ...CASES_WEBHOOK, authType: 'webhook-authentication-basic', hasAuth: true, createIncidentMethod: 'post', updateIncidentMethod: 'put', createCommentMethod: 'put', ...extra });

describe('connector config that differs between server releases', () => {
  // KCS common/auth/schemas/v1.ts (zod v4): authTypeSchema `.default(AuthType.Basic).optional()` applies its default.
  it('a webhook manifest without authType plans no change against a server that fills webhook-authentication-basic', () => {
    assert.deepEqual(seen(live('.webhook', hookAnswer({ authType: 'webhook-authentication-basic' }))), desired('.webhook', HOOK));
  });

  // KCS common/auth/schemas/v1.ts (zod v3): the same schema leaves authType out, answered null.
  it('a webhook manifest naming webhook-authentication-basic plans no change against a server that leaves authType null', () => {
    assert.deepEqual(seen(live('.webhook', hookAnswer({ authType: null }))), desired('.webhook', { ...HOOK, authType: 'webhook-authentication-basic' }));
  });

  // The default stands for basic authentication only: another method is a change.
  it('a webhook manifest naming webhook-authentication-ssl differs from a server holding basic', () => {
    assert.notDeepEqual(seen(live('.webhook', hookAnswer({ authType: 'webhook-authentication-basic' }))), desired('.webhook', { ...HOOK, authType: 'webhook-authentication-ssl' }));
  });

  // K:x-pack/platform/plugins/shared/stack_connectors/server/connector_types/webhook/validations.ts validateAuthType: without authentication there is no method, so no default.
  it('a webhook with hasAuth false gets no authType default on either side', () => {
    const off = desired('.webhook', { ...HOOK, hasAuth: false });
    assert.equal(off.config.authType, undefined);
    assert.deepEqual(seen(live('.webhook', hookAnswer({ hasAuth: false, authType: null }))), off);
  });

  // KCS cases_webhook/schemas/v1.ts: `getIncidentMethod ... .default(WebhookMethods.GET)`; releases before it answer no such key.
  it('a case-management webhook without getIncidentMethod plans no change against servers with and without the key', () => {
    const manifest = desired('.cases-webhook', CASES_WEBHOOK);
    assert.deepEqual(seen(live('.cases-webhook', casesAnswer({ getIncidentMethod: 'get' }))), manifest);
    assert.deepEqual(seen(live('.cases-webhook', casesAnswer({}))), manifest);
    assert.notDeepEqual(seen(live('.cases-webhook', casesAnswer({ getIncidentMethod: 'post' }))), manifest);
  });

  // KCS email/schemas/v1.ts portSchema: `z.coerce.number()`; the server stores the number.
  it('an email port written as a string plans no change against the number the server stores', () => {
    const config = { from: 'soc@example.com', host: 'smtp.example.com' };
    assert.deepEqual(seen(live('.email', { ...config, port: 587, hasAuth: true, service: 'other', secure: null })), desired('.email', { ...config, port: '587' }));
  });

  // KCS openai/schemas/v1.ts ConfigSchema: `z.coerce.number()`; the server stores the numbers.
  it('an AI connector\'s contextWindowLength and temperature written as strings plan no change against the numbers the server stores', () => {
    const config = { apiProvider: 'OpenAI', apiUrl: 'https://api.example.com/v1/chat/completions', defaultModel: 'm' };
    assert.deepEqual(seen(live('.gen-ai', { ...config, contextWindowLength: 128000, temperature: 0.2 })), desired('.gen-ai', { ...config, contextWindowLength: '128000', temperature: '0.2' }));
  });

  // Export leaves out what the server fills: a newer server's authType too.
  it('export leaves a filled-in webhook-authentication-basic out of the spec', () => {
    const { spec } = connectorAdapter.toSpec(live('.webhook', hookAnswer({ authType: 'webhook-authentication-basic' })), RUN);
    assert.deepEqual(spec.config, HOOK);
  });
});

describe('connectors applied to the emulator plan no change afterwards', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  const manifest = (name: string, typeId: string, config: string, secrets: string) =>
    ['apiVersion: svcform/v1', 'kind: Connector', `metadata: {name: ${name}}`, 'spec:', `  name: ${name}`, `  connector_type_id: ${typeId}`, `  config: ${config}`, `  secrets: ${secrets}`].join('\n') + '\n';

  // KCS common/auth authTypeSchema, email portSchema and nullable keys, cases_webhook getIncidentMethod default.
  it('a webhook naming basic authentication, an email with a string port and null keys, a complete case-management webhook', async () => {
    const cases = Object.entries(CASES_WEBHOOK).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
    const dir = repo({
      'connectors.yaml': [
        manifest('soc-basic-hook', '.webhook', '{url: "https://hooks.example.com/in", authType: webhook-authentication-basic, headers: null}', '{user: svc, password: pw}'),
        manifest('soc-mail', '.email', '{from: soc@example.com, host: smtp.example.com, port: "587", secure: null}', '{user: svc, password: pw}'),
        manifest('soc-case-hook', '.cases-webhook', `{${cases}}`, '{user: svc, password: pw}'),
      ].join('---\n'),
    });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal((await call(emu, 'GET', '/api/actions/connector/soc-mail')).body.config.port, 587);
    assert.equal((await call(emu, 'GET', '/api/actions/connector/soc-case-hook')).body.config.getIncidentMethod, 'get');
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });
});
