import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const DV = '/api/data_views/data_view';

describe('emulator data views', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'] });
  });
  after(() => emu.stop());

  it('creates a data view with a client id and answers it whole (OAS createDataViewDefaultw, Data_views_data_view_response_object)', async () => {
    const res = await call(emu, 'POST', DV, {
      data_view: {
        id: 'logs-all', title: 'logs-*', name: 'All logs', timeFieldName: '@timestamp', allowNoIndex: true,
        runtimeFieldMap: { day: { type: 'keyword', script: { source: "emit('x')" } } },
        fieldFormats: { bytes: { id: 'bytes' } },
      },
    });
    assert.equal(res.status, 200, res.text);
    const v = res.body.data_view;
    assert.equal(v.id, 'logs-all');
    assert.equal(v.title, 'logs-*');
    assert.equal(v.name, 'All logs');
    assert.equal(v.timeFieldName, '@timestamp');
    assert.equal(v.allowNoIndex, true);
    assert.deepEqual(v.runtimeFieldMap, { day: { type: 'keyword', script: { source: "emit('x')" } } });
    assert.deepEqual(v.fieldFormats, { bytes: { id: 'bytes' } });
    assert.deepEqual(v.namespaces, ['default']);
    assert.deepEqual((await call(emu, 'GET', `${DV}/logs-all`)).body.data_view, v);
  });

  it('is an index-pattern saved object: the saved objects API finds it, with its maps as JSON strings, and a data view is read from an index-pattern object (OAS Data_views_*; service-api.md Saved objects types)', async () => {
    const find = await call(emu, 'GET', '/api/saved_objects/_find?type=index-pattern&per_page=100');
    const so = find.body.saved_objects.find((o: any) => o.id === 'logs-all');
    assert.equal(so.attributes.title, 'logs-*');
    assert.equal(so.attributes.runtimeFieldMap, JSON.stringify({ day: { type: 'keyword', script: { source: "emit('x')" } } }));
    assert.equal(so.attributes.fieldFormatMap, JSON.stringify({ bytes: { id: 'bytes' } }));
    await call(emu, 'POST', '/api/saved_objects/index-pattern/from-so', { attributes: { title: 'metrics-*', timeFieldName: 'ts' } });
    const read = await call(emu, 'GET', `${DV}/from-so`);
    assert.equal(read.status, 200);
    assert.equal(read.body.data_view.timeFieldName, 'ts');
    assert.equal(read.body.data_view.allowNoIndex, false);
  });

  it('lists id, title, name and namespaces only (OAS getAllDataViewsDefault, get_data_views_response_item)', async () => {
    const res = await call(emu, 'GET', '/api/data_views');
    assert.equal(res.status, 200);
    const item = res.body.data_view.find((v: any) => v.id === 'logs-all');
    assert.deepEqual(item, { id: 'logs-all', namespaces: ['default'], title: 'logs-*', name: 'All logs' });
    assert.deepEqual((await call(emu, 'GET', '/s/other/api/data_views')).body.data_view, [], 'a space sees its own data views');
  });

  it('refuses a taken id (409) and a taken name unless override (data views service: "Duplicate data view")', async () => {
    const sameId = await call(emu, 'POST', DV, { data_view: { id: 'logs-all', title: 'other-*' } });
    assert.equal(sameId.status, 409);
    assert.equal(sameId.body.message, 'Saved object [index-pattern/logs-all] conflict');
    const sameName = await call(emu, 'POST', DV, { data_view: { title: 'x-*', name: 'All logs' } });
    assert.equal(sameName.status, 400);
    assert.equal(sameName.body.message, 'Duplicate data view: All logs');
    const replaced = await call(emu, 'POST', DV, { override: true, data_view: { id: 'logs-all-2', title: 'x-*', name: 'All logs' } });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal((await call(emu, 'GET', `${DV}/logs-all`)).status, 404);
  });

  it('checks bodies as the route declares them (OAS Data_views_create_data_view_request_object: data_view and title required; runtime field type and script)', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^\[request body\.data_view\]: expected a plain object value, but found \[undefined\] instead\.$/],
      [{ data_view: { id: 'n' } }, /^\[request body\.data_view\.title\]: expected value of type \[string\]/],
      [{ data_view: { title: 'a', colour: 1 } }, /^\[request body\.data_view\.colour\]: definition for this key is missing$/],
      [{ data_view: { title: 'a', runtimeFieldMap: { f: { type: 'text', script: { source: 'x' } } } } }, /^\[request body\.data_view\.runtimeFieldMap\.f\.type\]/],
    ];
    for (const [body, message] of cases) {
      const res = await call(emu, 'POST', DV, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.message, message);
    }
  });

  it('updates only the fields sent, and deletes (OAS updateDataViewDefault: "Unspecified fields stay as they are persisted"; deleteDataViewDefault 204, 404)', async () => {
    const res = await call(emu, 'POST', `${DV}/logs-all-2`, { data_view: { timeFieldName: 'event.ingested' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data_view.timeFieldName, 'event.ingested');
    assert.equal(res.body.data_view.title, 'x-*');
    const bad = await call(emu, 'POST', `${DV}/logs-all-2`, { data_view: { id: 'x' } });
    assert.equal(bad.status, 400);
    assert.equal((await call(emu, 'POST', `${DV}/none`, { data_view: { title: 'a' } })).status, 404);
    assert.equal((await call(emu, 'DELETE', `${DV}/logs-all-2`)).status, 204);
    const gone = await call(emu, 'DELETE', `${DV}/logs-all-2`);
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, { statusCode: 404, error: 'Not Found', message: 'Saved object [index-pattern/logs-all-2] not found' });
  });
});
