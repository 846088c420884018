import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const AC = '/api/asset_criticality';
const q = (params: Record<string, string | number>) => '?' + new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
const rec = (id_value: string, criticality_level: string, id_field = 'host.name') => ({ id_field, id_value, criticality_level });

async function bulk(emu: RunningEmulator, records: unknown[], space = ''): Promise<any> {
  const res = await call(emu, 'POST', `${space}${AC}/bulk`, { records });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

async function list(emu: RunningEmulator, params: Record<string, string | number> = {}, space = ''): Promise<any> {
  const res = await call(emu, 'GET', `${space}${AC}/list${q(params)}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describe('emulator asset criticality', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e), { spaces: ['other'], now: () => new Date('2026-03-02T12:00:00.000Z') });

  it('upsert answers the record with its ECS parts and @timestamp (service-api.md "POST /api/asset_criticality | id_field, id_value, criticality_level R"; OAS AssetCriticalityRecord, AssetCriticalityRecordEcsParts)', async () => {
    const res = await call(emu, 'POST', AC, { ...rec('dc01', 'extreme_impact'), refresh: 'wait_for' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      id_field: 'host.name',
      id_value: 'dc01',
      criticality_level: 'extreme_impact',
      '@timestamp': '2026-03-02T12:00:00.000Z',
      asset: { criticality: 'extreme_impact' },
      host: { name: 'dc01', asset: { criticality: 'extreme_impact' } },
    });
    const entity = await call(emu, 'POST', AC, rec('e-1', 'low_impact', 'entity.id'));
    assert.deepEqual(entity.body.entity, { id: 'e-1', asset: { criticality: 'low_impact' } });
    const again = await call(emu, 'POST', AC, rec('dc01', 'low_impact'));
    assert.equal(again.body.criticality_level, 'low_impact', 'an existing record is overwritten');
    assert.equal((await list(emu)).total, 2);
  });

  it('upsert refuses unknown id fields, unassigned and missing fields with a platform 400 (OAS CreateAssetCriticalityRecord: IdField enum, AssetCriticalityLevel without unassigned; wire-facts 0.3)', async () => {
    const field = await call(emu, 'POST', AC, rec('x', 'low_impact', 'ip'));
    assert.equal(field.status, 400);
    assert.equal(field.body.error, 'Bad Request');
    assert.match(field.body.message, /^\[request body\]: id_field: Invalid option: expected one of "host.name"\|"user.name"\|"service.name"\|"entity.id"/);
    const unassigned = await call(emu, 'POST', AC, rec('x', 'unassigned'));
    assert.equal(unassigned.status, 400);
    assert.match(unassigned.body.message, /criticality_level: Invalid option/);
    const missing = await call(emu, 'POST', AC, { id_field: 'host.name', criticality_level: 'low_impact' });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /id_value: Invalid input: expected string, received undefined/);
    assert.equal((await list(emu)).total, 0, 'nothing was written');
  });

  it('get answers the record, 404 when none; id_field and id_value are required (OAS GetAssetCriticalityRecord "404 Criticality record not found")', async () => {
    await bulk(emu, [rec('alice', 'high_impact', 'user.name')]);
    const got = await call(emu, 'GET', `${AC}${q({ id_field: 'user.name', id_value: 'alice' })}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.user, { name: 'alice', asset: { criticality: 'high_impact' } });
    const none = await call(emu, 'GET', `${AC}${q({ id_field: 'host.name', id_value: 'alice' })}`);
    assert.equal(none.status, 404);
    const bad = await call(emu, 'GET', `${AC}${q({ id_value: 'alice' })}`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /^\[request query\]: id_field: Invalid option/);
  });

  it('delete answers deleted and the record, and deleted false without error when none existed (service-api.md "DELETE /api/asset_criticality ... no error when none existed")', async () => {
    await bulk(emu, [rec('dc01', 'high_impact')]);
    const gone = await call(emu, 'DELETE', `${AC}${q({ id_field: 'host.name', id_value: 'dc01', refresh: 'wait_for' })}`);
    assert.equal(gone.status, 200);
    assert.equal(gone.body.deleted, true);
    assert.equal(gone.body.record.id_value, 'dc01');
    const again = await call(emu, 'DELETE', `${AC}${q({ id_field: 'host.name', id_value: 'dc01' })}`);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { deleted: false });
  });

  it('bulk upserts, removes with unassigned, and answers errors and stats (service-api.md "POST /api/asset_criticality/bulk | records R (max 1000) | errors, stats"; "bulk also unassigned (removes the assignment)")', async () => {
    const first = await bulk(emu, [rec('a', 'low_impact'), rec('b', 'high_impact'), rec('svc', 'medium_impact', 'service.name')]);
    assert.deepEqual(first, { errors: [], stats: { successful: 3, failed: 0, total: 3 } });
    const second = await bulk(emu, [rec('a', 'unassigned'), rec('b', 'extreme_impact'), rec('never', 'unassigned')]);
    assert.deepEqual(second.stats, { successful: 3, failed: 0, total: 3 });
    const all = await list(emu, { sort_field: 'id_value', sort_direction: 'asc', per_page: 100 });
    assert.deepEqual(all.records.map((r: any) => `${r.id_field}:${r.id_value}=${r.criticality_level}`), ['host.name:b=extreme_impact', 'service.name:svc=medium_impact']);
  });

  it('bulk takes 1 to 1000 records and refuses the whole body when one record is bad (OAS BulkUpsertAssetCriticalityRecords: minItems 1, maxItems 1000, AssetCriticalityLevelsForBulkUpload)', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => rec(`h${i}`, 'low_impact'));
    const tooMany = await call(emu, 'POST', `${AC}/bulk`, { records: many });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.message, '[request body]: records: Too big: expected array to have <=1000 items');
    const exactly = await call(emu, 'POST', `${AC}/bulk`, { records: many.slice(0, 1000) });
    assert.equal(exactly.status, 200, exactly.text);
    const empty = await call(emu, 'POST', `${AC}/bulk`, { records: [] });
    assert.equal(empty.status, 400);
    assert.match(empty.body.message, /records: Too small: expected array to have >=1 items/);
    const bad = await call(emu, 'POST', `${AC}/bulk`, { records: [rec('new', 'low_impact'), rec('x', 'critical')] });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /^\[request body\]: records\.1\.criticality_level: Invalid option/);
    assert.equal((await list(emu, { kuery: 'id_value: new' })).total, 0, 'a refused bulk writes nothing');
  });

  it('list pages 1 to 1000 per page, sorts by the four fields, and refuses other values (service-api.md "GET /api/asset_criticality/list | sort_field ..., page (>=1), per_page (1 to 1000)"; OAS FindAssetCriticalityRecords)', async () => {
    await bulk(emu, [rec('b', 'low_impact'), rec('c', 'extreme_impact'), rec('a', 'high_impact', 'user.name')]);
    const page = await list(emu, { sort_field: 'id_value', sort_direction: 'desc', page: 2, per_page: 1 });
    assert.deepEqual({ ...page, records: page.records.map((r: any) => r.id_value) }, { records: ['b'], total: 3, page: 2, per_page: 1 });
    const byLevel = await list(emu, { sort_field: 'criticality_level', per_page: 10 });
    assert.deepEqual(byLevel.records.map((r: any) => r.criticality_level), ['extreme_impact', 'high_impact', 'low_impact']);
    for (const [params, message] of [
      [{ per_page: 1001 }, '[request query]: per_page: Too big: expected number to be <=1000'],
      [{ per_page: 0 }, '[request query]: per_page: Too small: expected number to be >=1'],
      [{ page: 0 }, '[request query]: page: Too small: expected number to be >=1'],
      [{ sort_field: 'name' }, '[request query]: sort_field: Invalid option: expected one of "id_value"|"id_field"|"criticality_level"|"@timestamp"'],
      [{ sort_direction: 'up' }, '[request query]: sort_direction: Invalid option: expected one of "asc"|"desc"'],
    ] as const) {
      const res = await call(emu, 'GET', `${AC}/list${q(params)}`);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.message, message);
    }
  });

  it('list stops at the search window: page x per_page beyond 10,000 is a 400 (wire-facts 0.4 "page x per_page <= 10 000")', async () => {
    const res = await call(emu, 'GET', `${AC}/list${q({ page: 11, per_page: 1000 })}`);
    assert.equal(res.status, 400);
    assert.match(res.body.message, /^Result window is too large, from \+ size must be less than or equal to: \[10000\] but was \[11000\]/);
    assert.equal(res.body.status_code, 400, 'the security error shape');
    assert.equal((await call(emu, 'GET', `${AC}/list${q({ page: 10, per_page: 1000 })}`)).status, 200);
  });

  it('list filters by kuery over the keyword fields: ranges compare strings, not numbers (OAS FindAssetCriticalityRecords kuery; the index maps id_value as a keyword)', async () => {
    await bulk(emu, [rec('9', 'low_impact'), rec('10', 'low_impact'), rec('a"b\\c', 'high_impact'), rec('u1', 'low_impact', 'user.name')]);
    const hosts = await list(emu, { kuery: 'id_field: "host.name"', sort_field: 'id_value', per_page: 10 });
    assert.deepEqual(hosts.records.map((r: any) => r.id_value), ['10', '9', 'a"b\\c']);
    const after10 = await list(emu, { kuery: 'id_field: "host.name" and id_value > "10"', sort_field: 'id_value', per_page: 10 });
    assert.deepEqual(after10.records.map((r: any) => r.id_value), ['9', 'a"b\\c'], '"9" sorts after "10" as a keyword');
    const quoted = await list(emu, { kuery: 'id_value: "a\\"b\\\\c"' });
    assert.equal(quoted.total, 1);
    const ecs = await list(emu, { kuery: 'host.asset.criticality: high_impact' });
    assert.equal(ecs.total, 1);
    const bad = await call(emu, 'GET', `${AC}/list${q({ kuery: 'id_value: (' })}`);
    assert.equal(bad.status, 400);
  });

  it('a term-and-range query sorted by id_value (answered from the sorted records) gives what the record-by-record evaluation gives', async () => {
    const values = ['a', 'b', 'b2', 'c', 'd', '10', '9', 'Z', 'é', '\u{1F600}', '\uFFFD'];
    await bulk(emu, [...values.map((v) => rec(v, 'low_impact')), rec('b', 'high_impact', 'user.name')]);
    for (const ranges of ['id_value > "b"', 'id_value >= "b" and id_value < "d"', 'id_value <= "c"', 'id_value > "Z" and id_value <= "\uFFFD"', 'id_value > "zz"']) {
      for (const sort_direction of ['asc', 'desc']) {
        const indexed = await list(emu, { kuery: `id_field: "host.name" and ${ranges}`, sort_field: 'id_value', sort_direction, per_page: 100 });
        // A double negation keeps the meaning and takes the record-by-record path.
        const scanned = await list(emu, { kuery: `not (not (id_field: "host.name" and ${ranges}))`, sort_field: 'id_value', sort_direction, per_page: 100 });
        assert.deepEqual(indexed.records.map((r: any) => r.id_value), scanned.records.map((r: any) => r.id_value), `${ranges} ${sort_direction}`);
        assert.equal(indexed.total, scanned.total);
      }
    }
    const emoji = await list(emu, { kuery: 'id_field: "host.name"', sort_field: 'id_value', per_page: 100 });
    assert.deepEqual(emoji.records.slice(-3).map((r: any) => r.id_value), ['é', '\uFFFD', '\u{1F600}'], 'code point order: U+FFFD before U+1F600');
  });

  it('records belong to their space (service-api.md cross-cutting rule 1)', async () => {
    await bulk(emu, [rec('dc01', 'high_impact')], '/s/other');
    assert.equal((await list(emu)).total, 0);
    assert.equal((await list(emu, {}, '/s/other')).total, 1);
  });

  it('the routes answer although deprecated since 9.4, with no deprecation header the OAS does not declare (service-api.md Versioning 3: "deprecated ... but functional")', async () => {
    const res = await call(emu, 'GET', `${AC}/list`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('warning'), null);
  });
});
