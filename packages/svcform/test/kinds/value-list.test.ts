import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '@svcform/emulator/testing.js';
import { countOf, lastSeq, routesSince } from '../helpers/emulator-requests.js';
import { adapterContext } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { valueListAdapter as adapter, INLINE_ITEMS_MAX } from '../../src/kinds/value-list.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

const KIND = 'ValueList';

/** A normalized list with its values once each, in one order: they compare as a set (setFields), whatever their order and repetition. */
const asSets = (n: Record<string, any>) => ({ ...n, items: [...new Set(n.items)].sort() });

function ips(n: number, offset = 0): string[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + offset;
    return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  });
}

describe('ValueList adapter', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  let dir: string;
  before(async () => {
    emu = await emulator({ spaces: ['soc'] });
    ctx = adapterContext(emu.url);
    dir = mkdtempSync(join(tmpdir(), 'svcform-lists-'));
  });
  after(() => emu.stop());

  async function live(name: string, space = 'default'): Promise<LiveObject> {
    const found = (await adapter.list(ctx, space)).filter((o) => o.name === name);
    assert.equal(found.length, 1, `one live list named ${name}`);
    return found[0];
  }

  it('the list data streams are a prerequisite: missing in a fresh space, then ensured (twice is fine)', async () => {
    for (const space of ['default', 'soc']) {
      assert.equal(await adapter.prerequisite!.check(ctx, space), false);
      await adapter.prerequisite!.ensure(ctx, space);
      await adapter.prerequisite!.ensure(ctx, space);
      assert.equal(await adapter.prerequisite!.check(ctx, space), true);
    }
  });

  it('creates manifests that omit defaults and lists them equal to the desired state', async () => {
    writeFileSync(join(dir, 'ranges.txt'), '10.0.0.0/8\n\n172.16.0.0/12\r\n192.168.0.0/16\n10.0.0.0/8\n');
    const manifests = [
      resource(KIND, 'blocked-ips', { name: 'Blocked IPs', description: 'Known bad addresses', type: 'ip', items: ['10.0.0.2', '10.0.0.1', '192.168.1.1'] }),
      resource(KIND, 'vip-users', { name: 'VIP users', description: 'Executives', type: 'keyword', meta: { owner: 'soc' }, version: 3, items: ['ceo', 'cfo'] }),
      resource(KIND, 'internal-ranges', { name: 'Internal', description: 'RFC 1918', type: 'ip_range', items_file: 'ranges.txt' }, { dir }),
      resource(KIND, 'empty-ports', { name: 'Ports', description: 'Nothing yet', type: 'integer' }),
      resource(KIND, 'soc-hosts', { name: 'Hosts', description: 'SOC hosts', type: 'keyword', items: ['a', 'b'] }, { space: 'soc' }),
    ];
    for (const res of manifests) {
      await adapter.create(ctx, res);
      const obj = await live(res.name, res.space);
      assert.equal(obj.kind, KIND);
      assert.equal(obj.readOnly, undefined);
      assert.deepEqual(asSets(adapter.normalizeLive(obj, RUN)), asSets(adapter.normalizeDesired(res, RUN)), res.name);
    }
    assert.deepEqual(asSets(adapter.normalizeDesired(manifests[2], RUN)).items, ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']);
    assert.equal(adapter.normalizeDesired(manifests[0], RUN).version, 1);
  });

  it('a list deleted between the find and the read of its values is left out of the listing, not an error (found by the fault campaign)', async () => {
    await adapter.create(ctx, resource(KIND, 'going', { name: 'Going', description: 'd', type: 'keyword', items: ['a'] }));
    // Every value read is held back; while the first waits, another writer deletes the list.
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'GET', path: '^/api/lists/items/_find$', delayMs: 300 }] });
    try {
      const listing = adapter.list(ctx, 'default');
      while ((await call(emu, 'GET', '/__emulator/faults')).body.faults[0].fired === 0) await new Promise((r) => setTimeout(r, 10));
      assert.equal((await call(emu, 'DELETE', '/api/lists?id=going')).status, 200);
      const names = (await listing).map((o) => o.name);
      assert.ok(!names.includes('going'), names.join(', '));
      assert.ok(names.includes('blocked-ips'), 'the other lists are listed');
    } finally {
      await call(emu, 'DELETE', '/__emulator/faults');
    }
  });

  it('create is one list request and one import request, whatever the number of values', async () => {
    const since = await lastSeq(emu);
    await adapter.create(ctx, resource(KIND, 'many', { name: 'Many', description: 'd', type: 'ip', items: ips(500) }));
    const requests = await routesSince(emu, since);
    assert.deepEqual(requests, ['POST /api/lists', 'POST /api/lists/items/_import']);
    assert.equal((await live('many')).extra.items.length, 500);
  });

  it('lists with one find for the lists and one item find per list, never a request per item', async () => {
    const before = (await adapter.list(ctx, 'default')).length;
    const since = await lastSeq(emu);
    const objects = await adapter.list(ctx, 'default');
    assert.equal(objects.length, before);
    const requests = await routesSince(emu, since);
    assert.equal(countOf(requests, 'GET /api/lists/_find'), 1);
    assert.equal(countOf(requests, 'GET /api/lists/items/_find'), objects.length);
    assert.equal(requests.length, 1 + objects.length);
  });

  it('shows a change made through the API as a difference, and update converges with PUT and _version', async () => {
    const res = resource(KIND, 'drifting', { name: 'Drifting', description: 'd', type: 'ip', meta: { a: 1 }, items: ['10.1.0.1', '10.1.0.2'] });
    await adapter.create(ctx, res);
    await call(emu, 'PATCH', '/api/lists', { id: 'drifting', name: 'Changed by hand' });
    await call(emu, 'POST', '/api/lists/items', { list_id: 'drifting', value: '10.1.0.99' });
    await call(emu, 'DELETE', '/api/lists/items?list_id=drifting&value=10.1.0.1');
    const drifted = await live('drifting');
    const normalized = adapter.normalizeLive(drifted, RUN);
    assert.notDeepEqual(normalized, adapter.normalizeDesired(res, RUN));
    assert.equal(normalized.name, 'Changed by hand');
    assert.equal(normalized.version, 2);
    assert.deepEqual([...normalized.items].sort(), ['10.1.0.2', '10.1.0.99']);

    const since = await lastSeq(emu);
    await adapter.update(ctx, res, drifted, { rotateSecrets: false });
    const requests = await routesSince(emu, since);
    assert.deepEqual(requests.sort(), ['DELETE /api/lists/items', 'POST /api/lists/items/_import', 'PUT /api/lists'].sort());
    assert.deepEqual(asSets(adapter.normalizeLive(await live('drifting'), RUN)), asSets(adapter.normalizeDesired(res, RUN)));
  });

  it('update sends the _version it read, so a change made since then is not overwritten', async () => {
    const res = resource(KIND, 'contended', { name: 'Contended', description: 'd', type: 'keyword' });
    await adapter.create(ctx, res);
    const read = await live('contended');
    await call(emu, 'PATCH', '/api/lists', { id: 'contended', description: 'someone else' });
    const changed = resource(KIND, 'contended', { name: 'Contended v2', description: 'd', type: 'keyword' });
    await assert.rejects(adapter.update(ctx, changed, read, { rotateSecrets: false }), /409/);
  });

  it('compares values as the server reads them back: a single address in an ip_range list is the range a-a, a padded keyword trimmed (lists plugin transform_list_item_to_elastic_query.ts, find_source_value.ts)', async () => {
    const res = resource(KIND, 'allow-ranges', { name: 'Allowed', description: 'd', type: 'ip_range', items: ['10.1.2.3', '10.0.0.0/8', '192.0.2.1 - 192.0.2.9'] });
    await adapter.create(ctx, res);
    const obj = await live('allow-ranges');
    assert.deepEqual([...obj.extra.items].sort(), ['10.0.0.0/8', '10.1.2.3-10.1.2.3', '192.0.2.1-192.0.2.9'], 'what the server answers');
    assert.deepEqual(asSets(adapter.normalizeLive(obj, RUN)), asSets(adapter.normalizeDesired(res, RUN)), 'no difference to plan');
    const padded = resource(KIND, 'padded', { name: 'Padded', description: 'd', type: 'keyword', items: ['  ceo  ', 'cfo'] });
    await adapter.create(ctx, padded);
    assert.deepEqual(asSets(adapter.normalizeLive(await live('padded'), RUN)), asSets(adapter.normalizeDesired(padded, RUN)));
  });

  it('removes values of a range or text list by item id: by value the server fails for a range, and deletes every item with the words for text', async () => {
    const ranges = resource(KIND, 'drop-one-range', { name: 'R', description: 'd', type: 'ip_range', items: ['10.1.2.3', '10.0.0.0/8'] });
    await adapter.create(ctx, ranges);
    await adapter.update(ctx, resource(KIND, 'drop-one-range', { ...ranges.spec, items: ['10.0.0.0/8'] }), await live('drop-one-range'), { rotateSecrets: false });
    assert.deepEqual([...(await live('drop-one-range')).extra.items], ['10.0.0.0/8'], 'the /8 holding 10.1.2.3 stays');
    const words = resource(KIND, 'drop-one-text', { name: 'T', description: 'd', type: 'text', items: ['foo bar', 'foo'] });
    await adapter.create(ctx, words);
    const current = await live('drop-one-text');
    const since = await lastSeq(emu);
    await adapter.update(ctx, resource(KIND, 'drop-one-text', { ...words.spec, items: ['foo bar'] }), current, { rotateSecrets: false });
    assert.deepEqual(await routesSince(emu, since), ['DELETE /api/lists/items'], 'one delete, by the id of the item');
    assert.deepEqual([...(await live('drop-one-text')).extra.items], ['foo bar']);
  });

  it('takes serializer and deserializer as the create route does, sends them, warns that current servers ignore them, and plans nothing after (OAS CreateList; lists plugin create_list.ts stores neither)', async () => {
    const res = resource(KIND, 'with-formats', { name: 'F', description: 'd', type: 'keyword', serializer: '(?<value>.+)', deserializer: '{{{value}}}', items: ['a'] });
    assert.deepEqual(adapter.check!(res).map((i) => [i.path.join('.'), i.severity]), [['spec.serializer', 'warning'], ['spec.deserializer', 'warning']]);
    const bodies: any[] = [];
    const watching: AdapterContext = { ...ctx, api: { request: (req) => { if (req.method === 'POST' && req.path === '/api/lists') bodies.push(req.body); return ctx.api.request(req); } } };
    await adapter.create(watching, res);
    assert.deepEqual([bodies[0]?.serializer, bodies[0]?.deserializer], ['(?<value>.+)', '{{{value}}}'], 'sent as declared');
    const obj = await live('with-formats');
    assert.equal('serializer' in obj.body, false, 'not stored');
    assert.deepEqual(asSets(adapter.normalizeLive(obj, RUN)), asSets(adapter.normalizeDesired(res, RUN)));
  });

  it('update leaves the list fields alone when only the values differ', async () => {
    const res = resource(KIND, 'values-only', { name: 'V', description: 'd', type: 'keyword', items: ['a'] });
    await adapter.create(ctx, res);
    const next = resource(KIND, 'values-only', { name: 'V', description: 'd', type: 'keyword', items: ['a', 'b'] });
    const current = await live('values-only');
    const since = await lastSeq(emu);
    await adapter.update(ctx, next, current, { rotateSecrets: false });
    assert.deepEqual(await routesSince(emu, since), ['POST /api/lists/items/_import']);
    const after = await live('values-only');
    assert.equal(after.body.version, 1);
    assert.deepEqual(asSets(adapter.normalizeLive(after, RUN)), asSets(adapter.normalizeDesired(next, RUN)));
  });

  it('update refuses a change of type with a clear error', async () => {
    const res = resource(KIND, 'typed', { name: 'T', description: 'd', type: 'ip' });
    await adapter.create(ctx, res);
    const retyped = resource(KIND, 'typed', { name: 'T', description: 'd', type: 'ip_range' });
    await assert.rejects(adapter.update(ctx, retyped, await live('typed'), { rotateSecrets: false }), /type of a list cannot change.*ip.*ip_range/);
  });

  it('delete removes the list and its values', async () => {
    const res = resource(KIND, 'doomed', { name: 'D', description: 'd', type: 'keyword', items: ['x'] });
    await adapter.create(ctx, res);
    await adapter.delete(ctx, await live('doomed'));
    assert.equal((await adapter.list(ctx, 'default')).some((o) => o.name === 'doomed'), false);
    assert.equal((await call(emu, 'GET', '/api/lists?id=doomed')).status, 404);
  });

  it('toSpec leaves out server fields and defaults, keeps values inline up to the limit, and round-trips', async () => {
    const obj = await live('blocked-ips');
    const { spec, files } = adapter.toSpec(obj, RUN);
    assert.deepEqual(spec, { name: 'Blocked IPs', description: 'Known bad addresses', type: 'ip', items: ['10.0.0.1', '10.0.0.2', '192.168.1.1'] });
    assert.equal(files, undefined);
    assert.deepEqual(asSets(adapter.normalizeDesired(resource(KIND, obj.name, spec), RUN)), asSets(adapter.normalizeLive(obj, RUN)));
    const vip = adapter.toSpec(await live('vip-users'), RUN).spec;
    assert.deepEqual(vip, { name: 'VIP users', description: 'Executives', type: 'keyword', meta: { owner: 'soc' }, version: 3, items: ['ceo', 'cfo'] });
  });

  it('toSpec writes more than 1,000 values to a file beside the manifest, and that round-trips too', async () => {
    const res = resource(KIND, 'big/feed', { name: 'Feed', description: 'd', type: 'ip', items: ips(INLINE_ITEMS_MAX + 1) });
    await adapter.create(ctx, res);
    const obj = await live('big/feed');
    const { spec, files } = adapter.toSpec(obj, RUN);
    assert.equal(spec.items, undefined);
    assert.equal(spec.items_file, 'big_feed.txt');
    assert.deepEqual(Object.keys(files ?? {}), ['big_feed.txt']);
    const exportDir = mkdtempSync(join(tmpdir(), 'svcform-export-'));
    writeFileSync(join(exportDir, spec.items_file), files!['big_feed.txt']);
    const reread = resource(KIND, obj.name, spec, { dir: exportDir });
    assert.deepEqual(asSets(adapter.normalizeDesired(reread, RUN)), asSets(adapter.normalizeLive(obj, RUN)));
  });

  it('check reports an items_file that cannot be read', () => {
    const issues = adapter.check!(resource(KIND, 'x', { name: 'n', description: 'd', type: 'ip', items_file: 'missing.txt' }, { dir }));
    assert.equal(issues.length, 1);
    assert.deepEqual(issues[0].path, ['spec', 'items_file']);
  });
});

describe('ValueList adapter with 100,000 values', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  before(async () => {
    emu = await emulator();
    ctx = adapterContext(emu.url);
    await adapter.prerequisite!.ensure(ctx, 'default');
  });
  after(() => emu.stop());

  it('creates with one import, updates 10 changed values with one import and 10 deletes, and lists with one item find and one export', async () => {
    const values = ips(100_000);
    const res = resource(KIND, 'threat-feed', { name: 'Threat feed', description: 'Nightly feed', type: 'ip', items: values });
    let since = await lastSeq(emu);
    await adapter.create(ctx, res);
    assert.deepEqual(await routesSince(emu, since), ['POST /api/lists', 'POST /api/lists/items/_import']);

    since = await lastSeq(emu);
    const [obj] = (await adapter.list(ctx, 'default')).filter((o) => o.name === 'threat-feed');
    let requests = await routesSince(emu, since);
    // One page of _find, then the export for all values, rather than ten finds in sequence.
    assert.equal(countOf(requests, 'GET /api/lists/items/_find'), 1);
    assert.equal(countOf(requests, 'POST /api/lists/items/_export'), 1);
    assert.equal(countOf(requests, 'GET /api/lists/_find'), 1);
    assert.equal(obj.extra.items.length, 100_000);
    assert.deepEqual(asSets(adapter.normalizeLive(obj, RUN)), asSets(adapter.normalizeDesired(res, RUN)));

    const changed = [...values.slice(10), ...ips(10, 200_000)];
    const next = resource(KIND, 'threat-feed', { name: 'Threat feed', description: 'Nightly feed', type: 'ip', items: changed });
    since = await lastSeq(emu);
    await adapter.update(ctx, next, obj, { rotateSecrets: false });
    requests = await routesSince(emu, since);
    assert.equal(countOf(requests, 'POST /api/lists/items/_import'), 1);
    assert.equal(countOf(requests, 'DELETE /api/lists/items'), 10);
    assert.equal(requests.length, 11);

    const [after] = (await adapter.list(ctx, 'default')).filter((o) => o.name === 'threat-feed');
    assert.deepEqual(asSets(adapter.normalizeLive(after, RUN)), asSets(adapter.normalizeDesired(next, RUN)));
  });
});

describe('ValueList adapter: import files stay under the route limit', () => {
  it('sends values over 8 MB in several import files, none over 9,000,000 bytes (wire-facts 3.1)', async () => {
    const sent: Array<{ path: string; bytes: number }> = [];
    const ctx: AdapterContext = {
      run: new RunScope(),
      api: {
        request: async (req) => {
          sent.push({ path: req.path, bytes: req.multipart ? Buffer.byteLength(req.multipart.content) : 0 });
          return { status: 200, body: {}, text: '', headers: {} } as any;
        },
      },
      log: () => {},
    };
    const values = ips(700_000);
    await adapter.create(ctx, resource(KIND, 'huge', { name: 'Huge', description: 'd', type: 'ip', items: values }));
    const imports = sent.filter((r) => r.path === '/api/lists/items/_import');
    assert.ok(imports.length >= 2, `${imports.length} import files`);
    assert.ok(imports.every((r) => r.bytes <= 9_000_000));
    assert.equal(imports.reduce((n, r) => n + r.bytes, 0), values.reduce((n, v) => n + v.length + 1, 0), 'every value sent once');
  });
});
