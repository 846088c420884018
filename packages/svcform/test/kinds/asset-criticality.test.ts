import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countOf, lastSeq, requestsSince, routesSince } from '../helpers/emulator-requests.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { adapterTestBed } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { assetCriticalityAdapter as adapter, kqlQuoted, parseRecordLines } from '../../src/kinds/asset-criticality.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import { RunScope } from '../../src/kinds/run-scope.js';

const KIND = 'AssetCriticality';
const RUN = new RunScope();

function hosts(n: number, level = 'high_impact', prefix = 'host-'): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[`${prefix}${i}`] = level;
  return out;
}

describe('AssetCriticality adapter', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  let dir: string;
  adapterTestBed(
    (e, c) => {
      emu = e;
      ctx = c;
    },
    { spaces: ['soc'] },
  );
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-ac-'));
  });

  async function live(name: string, space = 'default'): Promise<LiveObject | undefined> {
    return (await adapter.list(ctx, space)).find((o) => o.name === name);
  }

  it('create writes every record through the bulk route, 1,000 a call, and reads back equal', async () => {
    const res = resource(KIND, 'host.name', { records: hosts(2500) });
    const since = await lastSeq(emu);
    await adapter.create(ctx, res);
    const requests = await routesSince(emu, since);
    assert.equal(countOf(requests, 'POST /api/asset_criticality/bulk'), 3, requests.join('\n'));
    const found = await live('host.name');
    assert.ok(found);
    assert.deepEqual(adapter.normalizeLive(found, RUN), adapter.normalizeDesired(res, RUN));
  });

  it('lists past the search window by id_value windows, without a request beyond it', async () => {
    await adapter.create(ctx, resource(KIND, 'host.name', { records: hosts(23_456) }));
    await adapter.create(ctx, resource(KIND, 'user.name', { records: hosts(5, 'low_impact', 'user-') }));
    const since = await lastSeq(emu);
    const objects = await adapter.list(ctx, 'default');
    const requests = await routesSince(emu, since);
    assert.equal(requests.length, countOf(requests, 'GET /api/asset_criticality/list'));
    // One query of everything (too many), then per id_field: host.name in three windows of ten
    // pages each (10,000 + 10,000 + 3,456: the third's last page comes back empty), the three
    // others one page each.
    assert.equal(requests.length, 1 + 30 + 3, requests.length.toString());
    const pages = (await requestsSince(emu, since)).map((r) => new URLSearchParams(r.query));
    assert.ok(pages.every((p: URLSearchParams) => Number(p.get('page')) * Number(p.get('per_page')) <= 10_000), 'no page beyond the search window');
    const byName = new Map(objects.map((o) => [o.name, Object.keys(o.extra!.records).length]));
    assert.deepEqual([...byName].sort(), [['host.name', 23_456], ['user.name', 5]]);
  });

  it('a small space is one request; records in another space are not seen', async () => {
    await adapter.create(ctx, resource(KIND, 'entity.id', { records: { 'e-1': 'low_impact' } }, { space: 'soc' }));
    const since = await lastSeq(emu);
    assert.deepEqual(await adapter.list(ctx, 'default'), []);
    assert.equal((await adapter.list(ctx, 'soc')).length, 1);
    assert.equal((await routesSince(emu, since)).length, 2);
  });

  it('update writes only changed and new records, and removes the others as unassigned', async () => {
    await adapter.create(ctx, resource(KIND, 'host.name', { records: { a: 'low_impact', b: 'high_impact', c: 'medium_impact' } }));
    const current = (await live('host.name'))!;
    const desired = resource(KIND, 'host.name', { records: { a: 'low_impact', b: 'extreme_impact', d: 'low_impact', gone: 'unassigned' } });
    let body: any;
    const seen = { ...ctx, api: { request: async (r: any) => ((body = r.body), ctx.api.request(r)) } } as AdapterContext;
    await adapter.update(seen, desired, current, { rotateSecrets: false });
    assert.deepEqual(body.records, [
      { id_field: 'host.name', id_value: 'b', criticality_level: 'extreme_impact' },
      { id_field: 'host.name', id_value: 'd', criticality_level: 'low_impact' },
      { id_field: 'host.name', id_value: 'c', criticality_level: 'unassigned' },
    ]);
    assert.deepEqual(adapter.normalizeLive((await live('host.name'))!, RUN), { records: { a: 'low_impact', b: 'extreme_impact', d: 'low_impact' } });
  });

  it('delete unassigns every record of the id_field and leaves the others', async () => {
    await adapter.create(ctx, resource(KIND, 'host.name', { records: hosts(1200) }));
    await adapter.create(ctx, resource(KIND, 'user.name', { records: { alice: 'low_impact' } }));
    await adapter.delete(ctx, (await live('host.name'))!);
    assert.equal(await live('host.name'), undefined);
    assert.ok(await live('user.name'));
  });

  it('id values that are any string survive the round trip (__proto__, quotes, backslashes, commas)', async () => {
    const records: Record<string, string> = JSON.parse('{"__proto__":"low_impact","a\\"b":"high_impact","c\\\\d":"medium_impact","x,y":"extreme_impact"}');
    const res = resource(KIND, 'user.name', { records });
    await adapter.create(ctx, res);
    const found = (await live('user.name'))!;
    assert.deepEqual(Object.keys(adapter.normalizeLive(found, RUN).records).sort(), ['__proto__', 'a"b', 'c\\d', 'x,y']);
    assert.deepEqual(adapter.normalizeLive(found, RUN), adapter.normalizeDesired(res, RUN));
  });

  it('records_file: lines of <id_value>,<level> split at the last comma; problems name the line', () => {
    writeFileSync(join(dir, 'hosts.csv'), 'dc01,extreme_impact\r\n\nweb,01,low_impact\nold,unassigned\n');
    const res = resource(KIND, 'host.name', { records_file: 'hosts.csv' }, { dir });
    assert.deepEqual(adapter.check!(res, RUN as any), []);
    assert.deepEqual(adapter.normalizeDesired(res, RUN), { records: { dc01: 'extreme_impact', 'web,01': 'low_impact' } });

    writeFileSync(join(dir, 'bad.csv'), 'dc01,extreme_impact\nnocomma\ndc02,critical\ndc01,low_impact\n');
    const bad = adapter.check!(resource(KIND, 'host.name', { records_file: 'bad.csv' }, { dir }), RUN as any);
    assert.deepEqual(bad.map((i) => [i.pos?.line, i.message]), [
      [2, '"nocomma" is not "<id_value>,<criticality_level>"'],
      [3, '"critical" is not a criticality level (low_impact, medium_impact, high_impact, extreme_impact, unassigned)'],
      [4, '"dc01" is given as low_impact here and as extreme_impact at line 1: a record has one level'],
    ]);
    assert.match(adapter.check!(resource(KIND, 'host.name', { records_file: 'missing.csv' }, { dir }), RUN as any)[0].message, /records_file cannot be read: missing\.csv/);
  });

  it('a manifest that assigns nothing is refused (an empty set is a delete)', () => {
    const issues = adapter.check!(resource(KIND, 'host.name', { records: { a: 'unassigned' } }), RUN as any);
    assert.equal(issues.length, 1);
    assert.match(issues[0].message, /no records are assigned/);
  });

  it('export keeps up to 1,000 records inline and writes more to a file that reads back the same', async () => {
    await adapter.create(ctx, resource(KIND, 'host.name', { records: { b: 'low_impact', a: 'high_impact' } }));
    await adapter.create(ctx, resource(KIND, 'user.name', { records: hosts(1001, 'low_impact', 'u') }));
    const small = adapter.toSpec((await live('host.name'))!, RUN);
    assert.deepEqual(small, { spec: { records: { a: 'high_impact', b: 'low_impact' } } });
    const large = adapter.toSpec((await live('user.name'))!, RUN);
    assert.deepEqual(large.spec, { records_file: 'user.name.csv' });
    writeFileSync(join(dir, 'user.name.csv'), large.files!['user.name.csv']);
    const back = resource(KIND, 'user.name', large.spec, { dir });
    assert.deepEqual(adapter.normalizeDesired(back, RUN), adapter.normalizeLive((await live('user.name'))!, RUN));
  });

  it('parseRecordLines and kqlQuoted', () => {
    assert.deepEqual(parseRecordLines('a,b,low_impact\n').records, [{ value: 'a,b', level: 'low_impact', line: 1 }]);
    assert.equal(kqlQuoted('a"b\\c'), '"a\\"b\\\\c"');
  });
});
