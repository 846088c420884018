import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * Anonymization fields. Sources: service-api.md line 114 (the object: id, field, allowed,
 * anonymized) and line 437 (generate needs `_id` allowed); the OpenAPI document
 * (generated/kbapi/oas-filtered.yaml at b76003905, "OAS": FindAnonymizationFields,
 * PerformAnonymizationFieldsBulkAction, Security_AI_Assistant_API_AnonymizationFieldCreateProps,
 * ..UpdateProps, ..AnonymizationFieldsBulkCrudActionResponse); the server's bulk route
 * (elastic_assistant routes/anonymization_fields/bulk_actions_route.ts, "bulk route").
 */

const BASE = '/api/security_ai_assistant/anonymization_fields';

async function find(emu: RunningEmulator, query = 'per_page=100', space = ''): Promise<any> {
  const r = await call(emu, 'GET', `${space}${BASE}/_find?${query}`);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

const byField = (data: any[]) => Object.fromEntries(data.map((f) => [f.field, f]));

describe('emulator anonymization fields', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));

  it('a space starts with the default fields, _id allowed (service-api.md line 437: generation needs _id allowed; the assistant writes its defaults per space)', async () => {
    const page = await find(emu);
    const fields = byField(page.data);
    assert.equal(fields._id.allowed, true);
    assert.equal(fields['host.name'].anonymized, true);
    assert.equal(page.total, page.data.length);
    for (const f of page.data) {
      for (const key of ['id', 'field', 'allowed', 'anonymized', 'createdAt', 'updatedAt', 'namespace']) assert.ok(key in f, `${key} in ${JSON.stringify(f)}`);
      assert.equal(f.namespace, 'default');
    }
  });

  it('_find pages with page (≥ 1) and per_page (≥ 0), sorts by sort_field, and refuses values outside the enums (OAS FindAnonymizationFields)', async () => {
    const first = await find(emu, 'per_page=3&page=1&sort_field=field&sort_order=asc');
    const second = await find(emu, 'per_page=3&page=2&sort_field=field&sort_order=asc');
    assert.equal(first.perPage, 3);
    assert.equal(first.page, 1);
    assert.equal(first.data.length, 3);
    const names = [...first.data, ...second.data].map((f: any) => f.field);
    assert.deepEqual(names, [...names].sort());
    assert.equal(new Set(names).size, names.length);
    assert.equal((await call(emu, 'GET', `${BASE}/_find?page=0`)).status, 400);
    assert.equal((await call(emu, 'GET', `${BASE}/_find?sort_field=name`)).status, 400);
    assert.equal((await call(emu, 'GET', `${BASE}/_find?sort_order=up`)).status, 400);
  });

  it('bulk create, update and delete answer the results and a summary (OAS AnonymizationFieldsBulkCrudActionResponse; bulk route buildBulkResponse)', async () => {
    const created = await call(emu, 'POST', `${BASE}/_bulk_action`, { create: [{ field: 'dns.question.name', allowed: true }] });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.success, true);
    const made = created.body.attributes.results.created[0];
    assert.equal(made.field, 'dns.question.name');
    assert.equal(made.allowed, true);
    assert.equal(made.anonymized, false, 'a flag left out is false');
    assert.deepEqual(created.body.attributes.summary, { failed: 0, succeeded: 1, skipped: 0, total: 1 });

    const updated = await call(emu, 'POST', `${BASE}/_bulk_action`, { update: [{ id: made.id, anonymized: true }] });
    assert.equal(updated.status, 200, updated.text);
    const after = byField((await find(emu)).data)['dns.question.name'];
    assert.equal(after.allowed, true, 'a flag the update leaves out keeps its value');
    assert.equal(after.anonymized, true);

    const deleted = await call(emu, 'POST', `${BASE}/_bulk_action`, { delete: { ids: [made.id] } });
    assert.deepEqual(deleted.body.attributes.results.deleted, [made.id]);
    assert.equal(byField((await find(emu)).data)['dns.question.name'], undefined);
  });

  it('the server stores _id allowed: false: the write route does not refuse it (service-api.md line 437: the generate run fails instead)', async () => {
    const id = byField((await find(emu)).data)._id.id;
    const r = await call(emu, 'POST', `${BASE}/_bulk_action`, { update: [{ id, allowed: false }] });
    assert.equal(r.status, 200, r.text);
    assert.equal(byField((await find(emu)).data)._id.allowed, false);
  });

  it('a create of a field the space has is a 409; an id the space does not have is a failed item with status 500 (bulk route)', async () => {
    const dup = await call(emu, 'POST', `${BASE}/_bulk_action`, { create: [{ field: 'host.name' }] });
    assert.equal(dup.status, 409);
    assert.match(dup.body.message, /host\.name/);
    const missing = await call(emu, 'POST', `${BASE}/_bulk_action`, { delete: { ids: ['no-such-id'] } });
    assert.equal(missing.status, 500);
    assert.equal(missing.body.message, 'Bulk edit failed');
    assert.equal(missing.body.attributes.summary.failed, 1);
  });

  it('more than 100 updates in one call is a 400; create without field is refused by the body schema (bulk route ANONYMIZATION_FIELDS_TABLE_MAX_PAGE_SIZE; OAS CreateProps required: field)', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ id: `x${i}`, allowed: true }));
    const r = await call(emu, 'POST', `${BASE}/_bulk_action`, { update: many });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'More than 100 ids sent for bulk edit action.');
    const noField = await call(emu, 'POST', `${BASE}/_bulk_action`, { create: [{ allowed: true }] });
    assert.equal(noField.status, 400);
    assert.match(noField.body.message, /create\.0\.field/);
  });

  it('fields are per space (OAS: "Kibana space in which this anonymization field exists")', async () => {
    await call(emu, 'POST', '/__emulator/spaces', { id: 'other' });
    await call(emu, 'POST', `${BASE}/_bulk_action`, { create: [{ field: 'only.here', allowed: true }] });
    assert.ok(byField((await find(emu)).data)['only.here']);
    const other = byField((await find(emu, 'per_page=100', '/s/other')).data);
    assert.equal(other['only.here'], undefined);
    assert.equal(other._id.namespace, 'other');
  });
});
