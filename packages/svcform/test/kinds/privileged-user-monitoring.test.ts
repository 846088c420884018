import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { adapterTestBed } from '../helpers/requester.js';
import { lastSeq, writesSince } from '../helpers/emulator-requests.js';
import { resource } from '../helpers/resource.js';
import { privilegedUserMonitoringAdapter as adapter, INLINE_USERS_MAX, usersCsv } from '../../src/kinds/privileged-user-monitoring.js';
import type { AdapterContext, LiveObject } from '../../src/kinds/types.js';
import { RunScope } from '../../src/kinds/run-scope.js';

const KIND = 'PrivilegedUserMonitoring';
const NAME = 'privileged-user-monitoring';
const PM = '/api/entity_analytics/monitoring';
const RUN = new RunScope();

describe('PrivilegedUserMonitoring adapter', () => {
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
    dir = mkdtempSync(join(tmpdir(), 'svcform-pm-'));
  });

  const live = async (space = 'default'): Promise<LiveObject | undefined> => (await adapter.list(ctx, space))[0];

  it('a space whose engine was never initialised has no object', async () => {
    assert.deepEqual(await adapter.list(ctx, 'default'), []);
  });

  it('create initialises the engine and writes every user in one CSV upload; the set reads back equal, whatever the order and repeats', async () => {
    const since = await lastSeq(emu);
    const res = resource(KIND, NAME, { items: ['svc-backup', 'alice', 'alice', 'o"brien, pat', 'line\nbreak'] });
    await adapter.create(ctx, res);
    assert.deepEqual(await writesSince(emu, since), [`POST ${PM}/engine/init`, `POST ${PM}/users/_csv`]);
    const found = await live();
    assert.ok(found);
    assert.deepEqual([...adapter.normalizeLive(found, RUN).items].sort(), ['alice', 'line\nbreak', 'o"brien, pat', 'svc-backup']);
    assert.deepEqual(adapter.normalizeDesired(res, RUN).enabled, adapter.normalizeLive(found, RUN).enabled);
  });

  it('update uploads the whole set once: added users are monitored, omitted CSV users stop being monitored', async () => {
    await adapter.create(ctx, resource(KIND, NAME, { items: ['alice', 'bob'] }));
    const since = await lastSeq(emu);
    await adapter.update(ctx, resource(KIND, NAME, { items: ['bob', 'carol'] }), (await live())!, { rotateSecrets: false });
    assert.deepEqual(await writesSince(emu, since), [`POST ${PM}/users/_csv`]);
    assert.deepEqual([...(await live())!.body.users].sort(), ['bob', 'carol']);
  });

  it('a user another source added (the API) and the manifest omits is deleted by id: the object owns every monitored user of its space', async () => {
    await adapter.create(ctx, resource(KIND, NAME, { items: ['alice'] }));
    await call(emu, 'POST', `${PM}/users`, { user: { name: 'added-in-app' } });
    const found = (await live())!;
    assert.deepEqual([...found.body.users].sort(), ['added-in-app', 'alice']);
    const since = await lastSeq(emu);
    await adapter.update(ctx, resource(KIND, NAME, { items: ['alice'] }), found, { rotateSecrets: false });
    assert.deepEqual(await writesSince(emu, since), [`POST ${PM}/users/_csv`, `DELETE ${PM}/users/:id`]);
    assert.deepEqual((await live())!.body.users, ['alice']);
  });

  it('enabled false disables the engine and keeps its users; true initialises it again', async () => {
    await adapter.create(ctx, resource(KIND, NAME, { enabled: false, items: ['alice'] }));
    let found = (await live())!;
    assert.deepEqual(adapter.normalizeLive(found, RUN), { enabled: false, items: ['alice'] });
    assert.deepEqual(adapter.toSpec(found, RUN as any).spec, { enabled: false, items: ['alice'] });
    await adapter.update(ctx, resource(KIND, NAME, { items: ['alice'] }), found, { rotateSecrets: false });
    found = (await live())!;
    assert.equal(found.body.status, 'started');
  });

  it('a user name the server cannot take (a CSV field typed as false) fails the write, naming it', async () => {
    await assert.rejects(adapter.create(ctx, resource(KIND, NAME, { items: ['alice', 'false'] })), /1 users could not be monitored: "false": Missing user name/);
  });

  it('users come from items_file, one name a line; an unreadable file is a check issue', async () => {
    writeFileSync(join(dir, 'admins.txt'), 'alice\r\n\nbob\n');
    const res = resource(KIND, NAME, { items_file: 'admins.txt' }, { dir });
    assert.deepEqual(adapter.check!(res, RUN as any), []);
    await adapter.create(ctx, res);
    assert.deepEqual([...(await live())!.body.users].sort(), ['alice', 'bob']);
    const missing = resource(KIND, NAME, { items_file: 'nope.txt' }, { dir });
    assert.match(adapter.check!(missing, RUN as any)[0].message, /items_file cannot be read/);
  });

  it('a set whose CSV exceeds the upload limit (1 MiB + 50 KiB) is a check issue, so nothing is written', () => {
    const many = Array.from({ length: 60_000 }, (_, i) => `user-with-a-long-name-${i}`);
    assert.ok(Buffer.byteLength(usersCsv(many)) > 1024 * 1024 + 1024 * 50);
    assert.match(adapter.check!(resource(KIND, NAME, { items: many }), RUN as any).map((i) => i.message).join('\n'), /at most 1099776 bytes in one call/);
    assert.deepEqual(adapter.check!(resource(KIND, NAME, { items: many.slice(0, 5000) }), RUN as any), []);
  });

  it('a set over the list route\'s 10,000 is a check issue: it could be written but never read back whole', () => {
    const names = Array.from({ length: 10_001 }, (_, i) => `u${i}`);
    assert.deepEqual(adapter.check!(resource(KIND, NAME, { items: names }), RUN as any).map((i) => i.message), ["10001 users: the server's list route reads at most 10000 monitored users, so a larger set cannot be planned"]);
    assert.deepEqual(adapter.check!(resource(KIND, NAME, { items: names.slice(1) }), RUN as any), []);
  });

  it('export writes a large set to a file beside the manifest and a small one inline', async () => {
    const many = Array.from({ length: INLINE_USERS_MAX + 1 }, (_, i) => `u${String(i).padStart(5, '0')}`);
    await adapter.create(ctx, resource(KIND, NAME, { items: many }));
    const out = adapter.toSpec((await live())!, RUN as any);
    assert.equal(out.spec.items_file, 'privileged-users.txt');
    assert.equal(out.files!['privileged-users.txt'], many.join('\n') + '\n');
    await adapter.update(ctx, resource(KIND, NAME, { items: ['alice'] }), (await live())!, { rotateSecrets: false });
    assert.deepEqual(adapter.toSpec((await live())!, RUN as any).spec, { items: ['alice'] });
  });

  it('delete removes the engine with its data: the space has no object and no users left', async () => {
    await adapter.create(ctx, resource(KIND, NAME, { items: ['alice'] }, { space: 'soc' }));
    await adapter.delete(ctx, (await live('soc'))!);
    assert.deepEqual(await adapter.list(ctx, 'soc'), []);
    assert.equal((await call(emu, 'GET', `/s/soc${PM}/users/list`)).status, 404);
  });
});
