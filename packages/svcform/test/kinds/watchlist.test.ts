import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { adapterTestBed, fetchRequester } from '../helpers/requester.js';
import { lastSeq, routesSince } from '../helpers/emulator-requests.js';
import { resource } from '../helpers/resource.js';
import { watchlistAdapter as adapter, INLINE_MEMBERS_MAX } from '../../src/kinds/watchlist.js';
import { entityStoreAdapter } from '../../src/kinds/entity-store.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import { RunScope } from '../../src/kinds/run-scope.js';

const KIND = 'Watchlist';
const RUN = new RunScope();

describe('Watchlist adapter', () => {
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
    dir = mkdtempSync(join(tmpdir(), 'svcform-wl-'));
  });
  beforeEach(async () => {
    await call(emu, 'POST', '/api/security/entity_store/install', { entityTypes: ['user', 'host'] });
  });

  const live = async (name: string): Promise<LiveObject | undefined> => (await adapter.list(ctx, 'default')).find((o) => o.name === name);

  it('create assigns the members and lists them back equal to the manifest, whatever their order', async () => {
    const res = resource(KIND, 'payroll', { description: 'Payroll access', risk_modifier: 1.5, items: ['user:svc-backup', 'user:alice', 'host:build-01', 'user:alice'] });
    await adapter.create(ctx, res);
    const found = await live('payroll');
    assert.ok(found);
    assert.deepEqual(found.body.riskModifier, 1.5);
    const want = adapter.normalizeDesired(res, RUN);
    const got = adapter.normalizeLive(found, RUN);
    assert.deepEqual([...got.items].sort(), [...new Set<string>(want.items)].sort());
    assert.equal(got.description, want.description);
  });

  it('a member the entity store does not hold fails the write, naming it', async () => {
    const res = resource(KIND, 'ghosts', { risk_modifier: 1, items: ['user:alice', 'user:nobody'] });
    await assert.rejects(adapter.create(ctx, res), /1 entities could not be assigned: "user:nobody": Entity not found in entity store/);
  });

  it('update changes the fields by PUT and the membership by assign and unassign only', async () => {
    await adapter.create(ctx, resource(KIND, 'vendors', { description: 'Vendors', risk_modifier: 1, items: ['user:alice', 'user:bob'] }));
    const before = await live('vendors');
    const since = await lastSeq(emu);
    await adapter.update(ctx, resource(KIND, 'vendors', { description: 'Vendors', risk_modifier: 1, items: ['user:bob', 'user:vendor-acme'] }), before!, { rotateSecrets: false });
    const requests = await routesSince(emu, since);
    assert.deepEqual(requests.filter((r) => !r.startsWith('GET')).sort(), [
      'POST /api/entity_analytics/watchlists/:id/entities/assign',
      'POST /api/entity_analytics/watchlists/:id/entities/unassign',
    ]);
    assert.deepEqual([...(await live('vendors'))!.extra.euids].sort(), ['user:bob', 'user:vendor-acme']);
    await adapter.update(ctx, resource(KIND, 'vendors', { description: 'Third parties', risk_modifier: 2.5, items: ['user:bob', 'user:vendor-acme'] }), (await live('vendors'))!, { rotateSecrets: false });
    const after = await live('vendors');
    assert.equal(after!.body.description, 'Third parties');
    assert.equal(after!.body.riskModifier, 2.5);
  });

  it('removals are written 1,000 EUIDs a call, and one no longer a member is no error', async () => {
    await adapter.create(ctx, resource(KIND, 'big', { risk_modifier: 1 }));
    const found = (await live('big'))!;
    const stale = Array.from({ length: 2500 }, (_, i) => `user:gone-${i}`);
    const since = await lastSeq(emu);
    await adapter.update(ctx, resource(KIND, 'big', { risk_modifier: 1 }), { ...found, extra: { euids: stale } }, { rotateSecrets: false });
    const calls = (await routesSince(emu, since)).filter((r) => r.endsWith('/entities/unassign'));
    assert.equal(calls.length, 3);
  });

  it('members come from items_file, one EUID a line; an unreadable file is a check issue', async () => {
    writeFileSync(join(dir, 'admins.txt'), 'user:alice\n\nhost:dc01.corp.example\r\n');
    const res = resource(KIND, 'admins', { risk_modifier: 1, items_file: 'admins.txt' }, { dir });
    assert.deepEqual(adapter.check!(res, RUN as any), []);
    assert.deepEqual(adapter.normalizeDesired(res, RUN).items, ['user:alice', 'host:dc01.corp.example']);
    const missing = resource(KIND, 'admins', { risk_modifier: 1, items_file: 'nope.txt' }, { dir });
    assert.match(adapter.check!(missing, RUN as any)[0].message, /items_file cannot be read/);
    assert.deepEqual(adapter.references(missing.spec).map((r) => `${r.kind}/${r.name}`), ['EntityStore/entity-store']);
    assert.deepEqual(adapter.references({ risk_modifier: 1 }), [], 'a watchlist without members needs no entity store');
  });

  it('the managed Privileged Users watchlist and a second watchlist of a name are read-only', async () => {
    await call(emu, 'POST', '/api/entity_analytics/watchlists', { name: 'twins', description: '', riskModifier: 1 });
    await call(emu, 'POST', '/api/entity_analytics/watchlists', { name: 'twins', description: '', riskModifier: 2 });
    const all = await adapter.list(ctx, 'default');
    assert.equal(all.find((o) => o.name === 'Privileged Users')?.readOnly, 'managed by the server');
    assert.deepEqual(all.filter((o) => o.name === 'twins').map((o) => o.readOnly), [undefined, 'another watchlist has the same name']);
  });

  it(`export writes more than ${INLINE_MEMBERS_MAX} members to a file, sorted`, () => {
    const euids = Array.from({ length: INLINE_MEMBERS_MAX + 1 }, (_, i) => `user:u${String(i).padStart(4, '0')}`).reverse();
    const out = adapter.toSpec!({ kind: KIND, space: 'default', name: 'big list', body: { riskModifier: 1, description: 'd' }, extra: { euids } }, RUN);
    assert.equal(out.spec.items_file, 'big_list.euids.txt');
    assert.equal(out.files!['big_list.euids.txt'].split('\n')[0], 'user:u0000');
    const small = adapter.toSpec!({ kind: KIND, space: 'default', name: 's', body: { riskModifier: 1 }, extra: { euids: ['user:b', 'user:a'] } }, RUN);
    assert.deepEqual(small.spec, { description: '', risk_modifier: 1, items: ['user:a', 'user:b'] });
  });
});

describe('EntityStore adapter', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  before(async () => {
    emu = await emulator();
    ctx = { api: fetchRequester(emu.url), log: () => {}, run: new RunScope() };
  });
  beforeEach(async () => {
    await call(emu, 'POST', '/__emulator/reset');
  });
  after(() => emu.stop());

  it('lists nothing before an install, then one object equal to the manifest that made it', async () => {
    assert.deepEqual(await entityStoreAdapter.list(ctx, 'default'), []);
    const res = resource('EntityStore', 'entity-store', { entity_types: ['host', 'user'], log_extraction: { frequency: '1m' } });
    await entityStoreAdapter.create(ctx, res);
    const [found] = await entityStoreAdapter.list(ctx, 'default');
    const got = entityStoreAdapter.normalizeLive(found, RUN);
    const want = entityStoreAdapter.normalizeDesired(res, RUN);
    assert.deepEqual([...got.entity_types].sort(), [...want.entity_types].sort());
    assert.deepEqual(got.log_extraction, { frequency: '1m', delay: '1m', lookbackPeriod: '3h' });
    assert.deepEqual(want.log_extraction, got.log_extraction);
  });

  it('update installs added types, uninstalls removed ones and sets the cadence; delete uninstalls everything', async () => {
    await entityStoreAdapter.create(ctx, resource('EntityStore', 'entity-store', { entity_types: ['host', 'user'] }));
    const [before] = await entityStoreAdapter.list(ctx, 'default');
    await entityStoreAdapter.update(ctx, resource('EntityStore', 'entity-store', { entity_types: ['user', 'service'], log_extraction: { lookbackPeriod: '12h' } }), before, { rotateSecrets: false });
    const [after] = await entityStoreAdapter.list(ctx, 'default');
    assert.deepEqual([...after.body.entity_types].sort(), ['service', 'user']);
    assert.equal(after.body.log_extraction.lookbackPeriod, '12h');
    assert.deepEqual(entityStoreAdapter.toSpec!(after, RUN).spec, { entity_types: ['user', 'service'], log_extraction: { lookbackPeriod: '12h' } });
    await entityStoreAdapter.delete(ctx, after);
    assert.deepEqual(await entityStoreAdapter.list(ctx, 'default'), []);
  });
});
