import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { readBackValue } from '../src/facts/list-values.js';

const LISTS = '/api/lists';
const ITEMS = '/api/lists/items';

/**
 * What list items hold and answer, and what a read or delete by value finds. Lists plugin
 * (x-pack/solutions/security/plugins/lists/server/services):
 * - utils/transform_list_item_to_elastic_query.ts: every write (import, create, update) parses the
 *   trimmed value with the default serializer of the type (the OpenAPI document's `serializer`
 *   defaults) and stores the trimmed parts: `{gte, lte}` for ranges, a single value of a range type
 *   as `{gte: v, lte: v}` (an ip_range CIDR as it is), `{lat, lon}` for geo points, a geo shape's
 *   `lat,lon` as `POINT (lon lat)`;
 * - utils/find_source_value.ts: reads render them with the default deserializers
 *   (`{{{gte}}}-{{{lte}}}`, `{{{gte}}},{{{lte}}}` for dates, `{{{lat}}},{{{lon}}}`, `{{{value}}}`);
 * - items/delete_list_item_by_value.ts and utils/get_query_filter_from_type_value.ts: by value, text
 *   is a `match` with operator `and`, a range type a `term` against the range field (every range
 *   holding the value; a value that is no point of the field fails the query with 400).
 */
describe('emulator value lists: values as stored and found', () => {
  let emu: RunningEmulator;
  let n = 0;
  const list = async (type: string, values: string[]) => {
    const id = `stored-${type}-${++n}`;
    assert.equal((await call(emu, 'POST', LISTS, { id, name: id, description: 'd', type })).status, 200);
    const imported = await postFile(emu, `${ITEMS}/_import?list_id=${id}`, values.join('\n') + '\n', 'values.txt');
    assert.equal(imported.status, 200, imported.text);
    return id;
  };
  const values = async (id: string) => ((await call(emu, 'GET', `${ITEMS}/_find?list_id=${id}&per_page=100`)).body.data as any[]).map((i) => i.value).sort();

  before(async () => {
    emu = await emulator();
    await call(emu, 'POST', `${LISTS}/index`);
  });
  after(() => emu.stop());

  it('stores what the default serializers make of each value, and answers it as the default deserializers render it', async () => {
    assert.deepEqual(await values(await list('ip_range', ['10.1.2.3', ' 10.0.0.0/8 ', '10.2.0.1 - 10.2.0.9'])), ['10.0.0.0/8', '10.1.2.3-10.1.2.3', '10.2.0.1-10.2.0.9']);
    assert.deepEqual(await values(await list('long_range', ['5', '-5', '1-10'])), ['-5--5', '1-10', '5-5']);
    assert.deepEqual(await values(await list('date_range', ['2026-01-01', '2026-01-01,2026-02-01'])), ['2026-01-01,2026-01-01', '2026-01-01,2026-02-01']);
    assert.deepEqual(await values(await list('geo_point', ['1.5, 2.5', 'POINT (2.5 1.5)'])), ['1.5,2.5', 'POINT (2.5 1.5)']);
    assert.deepEqual(await values(await list('geo_shape', ['1,2'])), ['POINT (2 1)']);
    assert.deepEqual(await values(await list('keyword', ['  padded  ', 'plain'])), ['padded', 'plain']);
  });

  it('a created or updated item is stored the same way; reading it back again changes nothing', async () => {
    const id = await list('ip_range', []);
    const created = await call(emu, 'POST', ITEMS, { list_id: id, value: '192.0.2.7' });
    assert.equal(created.body.value, '192.0.2.7-192.0.2.7');
    const updated = await call(emu, 'PATCH', ITEMS, { id: created.body.id, value: '192.0.2.8' });
    assert.equal(updated.body.value, '192.0.2.8-192.0.2.8');
    for (const [type, v] of [['ip_range', '192.0.2.8-192.0.2.8'], ['date_range', '2026-01-01,2026-01-01'], ['geo_shape', 'POINT (2 1)'], ['long_range', '-5--5']]) {
      assert.equal(readBackValue(type, v), v, `${type} ${v}`);
    }
  });

  it('by value, a range type finds every range holding the value, refuses a value that is not a point of it, and cannot delete what it finds', async () => {
    const id = await list('ip_range', ['10.1.2.3', '10.0.0.0/8', '192.0.2.1-192.0.2.9']);
    const found = await call(emu, 'GET', `${ITEMS}?list_id=${id}&value=10.1.2.3`);
    assert.deepEqual((found.body as any[]).map((i) => i.value).sort(), ['10.0.0.0/8', '10.1.2.3-10.1.2.3']);
    assert.equal((await call(emu, 'GET', `${ITEMS}?list_id=${id}&value=10.1.2.3-10.1.2.3`)).status, 400, 'a range is no point of the field');
    // The delete queries again with what it found (ranges): that query fails.
    assert.equal((await call(emu, 'DELETE', `${ITEMS}?list_id=${id}&value=10.9.9.9`)).status, 400);
    assert.equal((await call(emu, 'DELETE', `${ITEMS}?list_id=${id}&value=172.16.0.1`)).status, 404, 'nothing holds it');
    assert.deepEqual(await values(id), ['10.0.0.0/8', '10.1.2.3-10.1.2.3', '192.0.2.1-192.0.2.9'], 'nothing deleted');
    assert.equal((await call(emu, 'DELETE', `${ITEMS}?id=${(found.body as any[])[0].id}`)).status, 200, 'by id it goes');
    const numbers = await list('long_range', ['1-10', '-5']);
    assert.deepEqual(((await call(emu, 'GET', `${ITEMS}?list_id=${numbers}&value=-5`)).body as any[]).map((i) => i.value), ['-5--5']);
    assert.deepEqual(((await call(emu, 'GET', `${ITEMS}?list_id=${numbers}&value=7`)).body as any[]).map((i) => i.value), ['1-10']);
  });

  it('by value, a text list finds every item holding all the words of the value', async () => {
    const id = await list('text', ['foo bar', 'Foo', 'food', 'bar']);
    assert.equal((await call(emu, 'DELETE', `${ITEMS}?list_id=${id}&value=foo`)).status, 200);
    assert.deepEqual(await values(id), ['bar', 'food']);
  });

  it('create takes serializer and deserializer as strings and stores neither (OAS ListSerializer, ListDeserializer: strings; create_list.ts writes neither)', async () => {
    const taken = await call(emu, 'POST', LISTS, { id: 'formats', name: 'f', description: 'd', type: 'keyword', serializer: '(?<value>.+)', deserializer: '{{{value}}}' });
    assert.equal(taken.status, 200, taken.text);
    assert.equal('serializer' in taken.body, false);
    assert.equal('deserializer' in (await call(emu, 'GET', `${LISTS}?id=formats`)).body, false);
    const refused = await call(emu, 'POST', LISTS, { id: 'formats-2', name: 'f', description: 'd', type: 'keyword', serializer: 7 });
    assert.equal(refused.status, 400);
  });
});
