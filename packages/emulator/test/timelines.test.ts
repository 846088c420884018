import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

describe('emulator: timelines (/api/timeline, /api/timelines)', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((running) => (emu = running));

  const createTemplate = (extra: Record<string, unknown> = {}) =>
    call(emu, 'POST', '/api/timeline', { timeline: { title: 'T', timelineType: 'template', ...extra } });

  it('creates a template with a generated templateTimelineId and version 1, returned with savedObjectId and version (service-api.md Timelines: POST /api/timeline)', async () => {
    const res = await createTemplate();
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.timelineType, 'template');
    assert.equal(res.body.templateTimelineVersion, 1);
    assert.match(res.body.templateTimelineId, /^[0-9a-f-]{36}$/);
    assert.equal(typeof res.body.savedObjectId, 'string');
    assert.equal(typeof res.body.version, 'string');
    assert.equal(res.body.status, 'active');
  });

  it('refuses a second template with the same templateTimelineId and strips unknown keys (zod route schemas)', async () => {
    assert.equal((await createTemplate({ templateTimelineId: 'tpl-1', bogus: 1 })).body.bogus, undefined);
    const dup = await createTemplate({ templateTimelineId: 'tpl-1' });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.status_code, 409, 'security error shape');
  });

  it('types query-builder rows, filters, sort and kqlQuery as the OAS does (Security_Timeline_API_DataProviderResult, _FilterTimelineResult, _Sort, _SerializedFilterQueryResult): 400 for a wrong type', async () => {
    const good = await createTemplate({
      dataProviders: [{ id: 'p', enabled: true, queryMatch: { field: 'host.name', value: ['a', 'b'], operator: ':' }, type: 'template', and: [{ id: 'q', excluded: false }] }],
      sort: [{ columnId: '@timestamp', sortDirection: 'desc' }],
      filters: [{ meta: { negate: false, key: 'host.name' }, query: '{"match_phrase":{"host.name":"x"}}' }],
      kqlQuery: { filterQuery: { kuery: { kind: 'kuery', expression: 'a:b' }, serializedQuery: '{}' } },
    });
    assert.equal(good.status, 200, good.text);
    assert.equal((await createTemplate({ sort: { columnId: '@timestamp', sortDirection: 'asc' } })).status, 200, 'one SortObject is a Sort too');
    for (const wrong of [
      { dataProviders: [{ enabled: 'yes' }] },
      { dataProviders: [{ queryMatch: { value: 42 } }] },
      { dataProviders: [{ type: 'other' }] },
      { dataProviders: [{ and: [{ id: 7 }] }] },
      { sort: 'desc' },
      { sort: [{ columnId: 1 }] },
      { filters: [{ meta: { negate: 'no' } }] },
      { kqlQuery: { filterQuery: { serializedQuery: 5 } } },
      { columns: [{ id: 'host.name', searchable: 'yes' }] },
    ]) {
      const res = await createTemplate(wrong);
      assert.equal(res.status, 400, `${JSON.stringify(wrong)}: ${res.text}`);
    }
  });

  it('GET needs id or template_timeline_id: 500 without either, 404 for an unknown one (service-api.md Errors)', async () => {
    assert.equal((await call(emu, 'GET', '/api/timeline')).status, 500);
    assert.equal((await call(emu, 'GET', '/api/timeline?template_timeline_id=nope')).status, 404);
    await createTemplate({ templateTimelineId: 'tpl-2' });
    assert.equal((await call(emu, 'GET', '/api/timeline?template_timeline_id=tpl-2')).body.title, 'T');
  });

  it('lists by timeline_type with page_index/page_size, totalCount and template counts (OAS GetTimelines)', async () => {
    await createTemplate({ templateTimelineId: 'a' });
    await createTemplate({ templateTimelineId: 'b' });
    await call(emu, 'POST', '/api/timeline', { timeline: { title: 'plain' } });
    const page = await call(emu, 'GET', '/api/timelines?timeline_type=template&page_size=1&page_index=2');
    assert.equal(page.body.totalCount, 2);
    assert.equal(page.body.timeline.length, 1);
    assert.equal(page.body.templateTimelineCount, 2);
    assert.equal(page.body.defaultTimelineCount, 1);
    assert.equal((await call(emu, 'GET', '/api/timelines?timeline_type=other')).status, 400);
  });

  it('PATCH needs the current version token and a newer templateTimelineVersion; omitted fields are kept (partial update)', async () => {
    const created = (await createTemplate({ templateTimelineId: 'p', description: 'd' })).body;
    const stale = await call(emu, 'PATCH', '/api/timeline', { timeline_id: created.savedObjectId, version: 'old', timeline: { title: 'U' } });
    assert.equal(stale.status, 409);
    const same = await call(emu, 'PATCH', '/api/timeline', { timeline_id: created.savedObjectId, version: created.version, timeline: { title: 'U', templateTimelineVersion: 1 } });
    assert.equal(same.status, 409, 'a template version must grow');
    const ok = await call(emu, 'PATCH', '/api/timeline', { timeline_id: created.savedObjectId, version: created.version, timeline: { title: 'U', templateTimelineVersion: 2 } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual([ok.body.title, ok.body.description, ok.body.templateTimelineVersion], ['U', 'd', 2]);
    assert.notEqual(ok.body.version, created.version);
  });

  it('DELETE takes saved_object_ids (at most 100; service-api.md Limits) and answers an empty body', async () => {
    const created = (await createTemplate()).body;
    const tooMany = await call(emu, 'DELETE', '/api/timeline', { saved_object_ids: Array.from({ length: 101 }, (_, i) => `x${i}`) });
    assert.equal(tooMany.status, 400);
    const res = await call(emu, 'DELETE', '/api/timeline', { saved_object_ids: [created.savedObjectId] });
    assert.equal(res.status, 200);
    assert.equal((await call(emu, 'GET', `/api/timeline?id=${created.savedObjectId}`)).status, 404);
  });

  it('with the timelines.camel-case real behaviour, reads savedObjectIds and timelineId as the OAS spells them (DeleteTimelines, PatchTimeline)', async () => {
    await call(emu, 'PUT', '/__emulator/real-routes', { routes: ['timelines.camel-case'] });
    const created = (await createTemplate()).body;
    const snake = await call(emu, 'PATCH', '/api/timeline', { timeline_id: created.savedObjectId, version: created.version, timeline: { title: 'x' } });
    assert.equal(snake.status, 400, 'timelineId is required there');
    const camel = await call(emu, 'PATCH', '/api/timeline', { timelineId: created.savedObjectId, version: created.version, timeline: { title: 'x' } });
    assert.equal(camel.status, 200, camel.text);
    assert.equal((await call(emu, 'DELETE', '/api/timeline', { savedObjectIds: [created.savedObjectId] })).status, 200);
  });
});
