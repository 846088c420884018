import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const ES = '/api/security/entity_store';
const SRC = 'entity_store plugin routes/apis';

describe('emulator entity store (9.4 routes under /api/security/entity_store, service-api.md line 473)', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e), { spaces: ['other'] });

  it(`status of a store never installed is not_installed with no engines (${SRC}/status.ts; examples/entity_store_status.yaml notInstalledExample)`, async () => {
    const res = await call(emu, 'GET', `${ES}/status`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { status: 'not_installed', engines: [] });
  });

  it(`install answers 201 for new engines and 200 when every type is installed; engines share the log extraction settings, defaults filled in (${SRC}/install/index.ts, status.ts toPublicEngine; status example defaults 30s, 1m, 3h)`, async () => {
    const first = await call(emu, 'POST', `${ES}/install`, { entityTypes: ['host', 'user'], logExtraction: { lookbackPeriod: '6h' } });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(first.body, { ok: true });
    const again = await call(emu, 'POST', `${ES}/install`, { entityTypes: ['host'] });
    assert.equal(again.status, 200, again.text);
    const status = (await call(emu, 'GET', `${ES}/status`)).body;
    assert.equal(status.status, 'running');
    assert.deepEqual(status.engines.map((e: any) => [e.type, e.status, e.frequency, e.delay, e.lookbackPeriod]), [
      ['user', 'started', '30s', '1m', '6h'],
      ['host', 'started', '30s', '1m', '6h'],
    ]);
    const other = (await call(emu, 'GET', `/s/other${ES}/status`)).body;
    assert.equal(other.status, 'not_installed', 'each space has its own store');
  });

  it(`install without entityTypes installs every type (install/validator.ts: default ALL_ENTITY_TYPES)`, async () => {
    await call(emu, 'POST', `${ES}/install`, {});
    const types = (await call(emu, 'GET', `${ES}/status`)).body.engines.map((e: any) => e.type);
    assert.deepEqual(types, ['user', 'host', 'service', 'generic']);
  });

  it(`install and update refuse a frequency under 30 seconds, an unknown type and a delay not under lookbackPeriod (install/validator.ts, utils/log_extraction_validator.ts)`, async () => {
    const fast = await call(emu, 'POST', `${ES}/install`, { logExtraction: { frequency: '10s' } });
    assert.equal(fast.status, 400, fast.text);
    assert.match(fast.body.message, /frequency: must be a valid duration of at least 30 seconds/);
    const type = await call(emu, 'POST', `${ES}/install`, { entityTypes: ['router'] });
    assert.equal(type.status, 400, type.text);
    await call(emu, 'POST', `${ES}/install`, { entityTypes: ['host'] });
    const delay = await call(emu, 'PUT', ES, { logExtraction: { delay: '4h' } });
    assert.equal(delay.status, 400, delay.text);
    assert.match(delay.body.message, /delay: must be less than lookbackPeriod/);
  });

  it(`update is strict (unknown keys refused), sets the shared settings, and answers 404 before any install (${SRC}/update.ts: buildStrictRouteValidationWithZod, "Entity store is not installed")`, async () => {
    const before = await call(emu, 'PUT', ES, { logExtraction: { frequency: '1m' } });
    assert.equal(before.status, 404, before.text);
    assert.equal(before.body.message, 'Entity store is not installed');
    await call(emu, 'POST', `${ES}/install`, { entityTypes: ['host'] });
    const extra = await call(emu, 'PUT', ES, { logExtraction: { frequency: '1m' }, entityTypes: ['host'] });
    assert.equal(extra.status, 400, extra.text);
    const set = await call(emu, 'PUT', ES, { logExtraction: { frequency: '2m' } });
    assert.equal(set.status, 200, set.text);
    assert.equal((await call(emu, 'GET', `${ES}/status`)).body.engines[0].frequency, '2m');
  });

  it(`uninstall removes the named engines and their entities; stop and start change an engine's status (${SRC}/uninstall.ts, stop.ts, start.ts)`, async () => {
    await call(emu, 'POST', `${ES}/install`, { entityTypes: ['host', 'user'] });
    const hosts = await call(emu, 'GET', `${ES}/entities?filter=${encodeURIComponent('entity.type: host')}`);
    assert.ok(hosts.body.entities.length > 0, 'an installed engine has extracted entities of its type');
    await call(emu, 'PUT', `${ES}/stop`, { entityTypes: ['user'] });
    const stopped = (await call(emu, 'GET', `${ES}/status`)).body.engines.find((e: any) => e.type === 'user');
    assert.equal(stopped.status, 'stopped');
    const res = await call(emu, 'POST', `${ES}/uninstall`, { entityTypes: ['host'] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((await call(emu, 'GET', `${ES}/status`)).body.engines.map((e: any) => e.type), ['user']);
    const gone = await call(emu, 'GET', `${ES}/entities?filter=${encodeURIComponent('entity.type: host')}`);
    assert.deepEqual(gone.body.entities, []);
    await call(emu, 'POST', `${ES}/uninstall`, {});
    assert.equal((await call(emu, 'GET', `${ES}/status`)).body.status, 'not_installed');
  });

  it(`entities list: KQL filter, size and searchAfter cursor; page/per_page with searchAfter refused; no store, no index (${SRC}/crud/get.ts querySchema)`, async () => {
    const none = await call(emu, 'GET', `${ES}/entities`);
    assert.equal(none.status, 404, none.text);
    await call(emu, 'POST', `${ES}/install`, { entityTypes: ['user'] });
    const first = await call(emu, 'GET', `${ES}/entities?size=2&filter=${encodeURIComponent('entity.type: user')}`);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.entities.length, 2);
    assert.ok(Array.isArray(first.body.nextSearchAfter), 'a full page carries a cursor');
    const next = await call(emu, 'GET', `${ES}/entities?size=2&searchAfter=${encodeURIComponent(JSON.stringify(first.body.nextSearchAfter))}`);
    assert.notEqual(next.body.entities[0].entity.id, first.body.entities[0].entity.id);
    const both = await call(emu, 'GET', `${ES}/entities?page=1&searchAfter=${encodeURIComponent('["a"]')}`);
    assert.equal(both.status, 400, both.text);
  });
});
