import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const CONFIGURE = '/api/cases/configure';
const NONE = { id: 'none', name: 'none', type: '.none', fields: null };
const body = (extra: Record<string, unknown> = {}) => ({ owner: 'securitySolution', closure_type: 'close-by-user', connector: NONE, ...extra });

/**
 * Case configuration. Sources: wire-facts §13 and 0.5; the cases plugin's server/client/configure/
 * client.ts (create deletes the owner's configurations and makes a new id; update checks version
 * and custom field types; decodeWithExcessOrThrow); the OpenAPI document at b76003905
 * (Cases_set_case_configuration_request, Cases_update_case_configuration_request, the 200 answers).
 */
describe('cases configure (wire-facts §13)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'] });
  });
  after(() => emu.stop());
  beforeEach(() => call(emu, 'POST', '/__emulator/reset'));

  it('creates with the documented response fields: id, version, created_*, updated_* null, mappings, error null, defaults []', async () => {
    const res = await call(emu, 'POST', CONFIGURE, body());
    assert.equal(res.status, 200, res.text);
    const c = res.body;
    assert.equal(typeof c.id, 'string');
    assert.equal(typeof c.version, 'string');
    assert.equal(c.updated_at, null);
    assert.equal(c.updated_by, null);
    assert.deepEqual(c.customFields, []);
    assert.deepEqual(c.templates, []);
    assert.deepEqual(c.mappings, []);
    assert.equal(c.error, null);
    assert.deepEqual(Object.keys(c.created_by).sort(), ['email', 'full_name', 'username']);
  });

  it('POST replaces: the owner keeps one configuration, under a new id (client.ts create)', async () => {
    const first = (await call(emu, 'POST', CONFIGURE, body())).body;
    const second = (await call(emu, 'POST', CONFIGURE, body({ closure_type: 'close-by-pushing' }))).body;
    assert.notEqual(second.id, first.id);
    const list = (await call(emu, 'GET', `${CONFIGURE}?owner=securitySolution`)).body;
    assert.deepEqual(list.map((c: any) => c.id), [second.id]);
  });

  it('GET answers a bare array filtered by owner, per space (wire-facts 0.4, 0.1)', async () => {
    await call(emu, 'POST', CONFIGURE, body());
    await call(emu, 'POST', CONFIGURE, body({ owner: 'cases' }));
    assert.equal((await call(emu, 'GET', CONFIGURE)).body.length, 2);
    assert.deepEqual((await call(emu, 'GET', `${CONFIGURE}?owner=cases`)).body.map((c: any) => c.owner), ['cases']);
    assert.deepEqual((await call(emu, 'GET', `/s/other${CONFIGURE}`)).body, []);
  });

  it('PATCH needs version; a stale one is 409 with the server message; a good one keeps the id and moves the version (wire-facts 0.5)', async () => {
    const c = (await call(emu, 'POST', CONFIGURE, body())).body;
    const missing = await call(emu, 'PATCH', `${CONFIGURE}/${c.id}`, { closure_type: 'close-by-pushing' });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /Invalid value "undefined" supplied to "version"/);
    const stale = await call(emu, 'PATCH', `${CONFIGURE}/${c.id}`, { version: 'WzEsMV0=x', closure_type: 'close-by-pushing' });
    assert.equal(stale.status, 409);
    assert.match(stale.body.message, /This configuration has been updated\. Please refresh before saving additional updates\./);
    const patched = await call(emu, 'PATCH', `${CONFIGURE}/${c.id}`, { version: c.version, closure_type: 'close-by-pushing' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.id, c.id);
    assert.notEqual(patched.body.version, c.version);
    assert.equal(patched.body.closure_type, 'close-by-pushing');
    assert.equal(typeof patched.body.updated_at, 'string');
  });

  it('rejects unknown keys, a missing connector, a wrong closure type and a PATCH owner with 400 (decodeWithExcessOrThrow)', async () => {
    const excess = await call(emu, 'POST', CONFIGURE, body({ colour: 'red' }));
    assert.equal(excess.status, 400);
    assert.equal(excess.body.message, 'Failed to create case configuration: Error: invalid keys "colour"');
    const noConnector = await call(emu, 'POST', CONFIGURE, { owner: 'cases', closure_type: 'close-by-user' });
    assert.equal(noConnector.status, 400);
    assert.match(noConnector.body.message, /Invalid value "undefined" supplied to "connector"/);
    const closure = await call(emu, 'POST', CONFIGURE, body({ closure_type: 'never' }));
    assert.match(closure.body.message, /Invalid value "never" supplied to "closure_type"/);
    const c = (await call(emu, 'POST', CONFIGURE, body())).body;
    const owner = await call(emu, 'PATCH', `${CONFIGURE}/${c.id}`, { version: c.version, owner: 'cases' });
    assert.equal(owner.status, 400);
    assert.match(owner.body.message, /invalid keys "owner"/);
  });

  it('custom fields: at most 10, lower-case keys, unique keys, and a key keeps its type (OAS maxItems 10; validateDuplicatedCustomFieldKeysInRequest, validateCustomFieldTypesInRequest)', async () => {
    const field = (key: string, type = 'text') => ({ key, label: key, type, required: false });
    const eleven = await call(emu, 'POST', CONFIGURE, body({ customFields: Array.from({ length: 11 }, (_, i) => field(`f${i}`)) }));
    assert.equal(eleven.status, 400);
    const upper = await call(emu, 'POST', CONFIGURE, body({ customFields: [field('Bad')] }));
    assert.equal(upper.status, 400);
    const dup = await call(emu, 'POST', CONFIGURE, body({ customFields: [field('a'), field('a')] }));
    assert.equal(dup.status, 400);
    assert.match(dup.body.message, /Invalid duplicated custom field keys in request: a/);
    const c = (await call(emu, 'POST', CONFIGURE, body({ customFields: [field('tier')] }))).body;
    const retyped = await call(emu, 'PATCH', `${CONFIGURE}/${c.id}`, { version: c.version, customFields: [field('tier', 'toggle')] });
    assert.equal(retyped.status, 400);
    assert.match(retyped.body.message, /Invalid custom field types in request/);
  });

  it('templates: at most 10, caseFields required (null for none), names and tags measured trimmed, at most 10 tags of 1 to 50 characters (configure/v1.ts TemplateConfigurationRt; common/schema limitedStringSchema, limitedArraySchema; MAX_TEMPLATES_LENGTH, MAX_TAGS_PER_TEMPLATE, MAX_TEMPLATE_TAG_LENGTH)', async () => {
    const template = (k: string, extra: Record<string, unknown> = {}) => ({ key: k, name: `Template ${k}`, caseFields: null, ...extra });
    const refused = async (templates: unknown[], message: string) => {
      const res = await call(emu, 'POST', CONFIGURE, body({ templates }));
      assert.equal(res.status, 400, JSON.stringify(templates));
      // The create route wraps the codec's message (client.ts createCaseConfiguration).
      assert.equal(res.body.message, `Failed to create case configuration: Error: ${message}`);
    };
    await refused(Array.from({ length: 11 }, (_, i) => template(`t${i}`)), 'The length of the field templates is too long. Array must be of length <= 10.');
    await refused([{ key: 'a', name: 'A' }], 'Invalid value "undefined" supplied to "templates,caseFields"');
    await refused([template('a', { name: '   ' })], 'The name field cannot be an empty string.');
    await refused([template('a', { tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) })], "The length of the field template's tags is too long. Array must be of length <= 10.");
    await refused([template('a', { tags: ['ok', ' '] }), template('b', { tags: [' '] })], "The template's tag field cannot be an empty string.");
    await refused([template('a', { tags: ['x'.repeat(51)] })], "The length of the template's tag is too long. The maximum length is 50.");
    await refused([template('Upper')], "Key must be lower case, a-z, 0-9, '_', and '-' are allowed");
    const taken = await call(emu, 'POST', CONFIGURE, body({ templates: [template('a', { tags: [`  ${'x'.repeat(50)}  `], description: '' }), template('b', { caseFields: { severity: 'low' } })] }));
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.deepEqual(taken.body.templates.map((t: { key: string; caseFields: unknown }) => [t.key, t.caseFields]), [
      ['a', null],
      ['b', { severity: 'low' }],
    ]);
  });

  it('an unknown owner is refused by authorization (403), a PATCH of an unknown id is 404', async () => {
    assert.equal((await call(emu, 'POST', CONFIGURE, body({ owner: 'nobody' }))).status, 403);
    assert.equal((await call(emu, 'PATCH', `${CONFIGURE}/nope`, { version: 'x' })).status, 404);
  });

  it('finds the connectors cases can use: types supporting the cases feature, camelCase fields (OAS findCaseConnectorsDefaultSpace)', async () => {
    // A complete ticketing connector (the renamed .jira: apiUrl and projectKey, email and apiToken required).
    const created = await call(emu, 'POST', '/api/actions/connector/tickets', { name: 'Tickets', connector_type_id: '.ticketing', config: { apiUrl: 'https://tickets.example.com', projectKey: 'SOC' }, secrets: { email: 'soc@example.com', apiToken: 't' } });
    assert.equal(created.status, 200, created.text);
    await call(emu, 'POST', '/api/actions/connector/log', { name: 'Log', connector_type_id: '.server-log', config: {}, secrets: {} });
    const found = (await call(emu, 'GET', `${CONFIGURE}/connectors/_find`)).body;
    const ids = found.map((c: any) => c.id);
    assert.ok(!ids.includes('log'), 'a server-log connector is not a case connector');
    const tickets = found.find((c: any) => c.id === 'tickets');
    assert.ok(tickets, JSON.stringify(found));
    assert.equal(tickets.actionTypeId, '.ticketing');
    assert.equal(tickets.name, 'Tickets');
  });
});
