import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const SO = '/api/saved_objects';

describe('emulator: saved objects (service-api.md Saved objects; core saved-objects routes create.ts, update.ts, find.ts)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
  });
  after(() => emu.stop());

  it('creates with a version token; a second create of the id is 409 unless overwrite=true (service-api.md Errors: duplicate id 409)', async () => {
    const made = await call(emu, 'POST', `${SO}/index-pattern/web`, { attributes: { title: 'logs-web-*' } });
    assert.equal(made.status, 200, made.text);
    assert.match(made.body.version, /^[A-Za-z0-9+/=]+$/);
    assert.deepEqual(made.body.references, []);
    const again = await call(emu, 'POST', `${SO}/index-pattern/web`, { attributes: { title: 'x' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'Saved object [index-pattern/web] conflict');
    const overwritten = await call(emu, 'POST', `${SO}/index-pattern/web?overwrite=true`, { attributes: { title: 'logs-web2-*' } });
    assert.equal(overwritten.status, 200);
  });

  it('generates an id when the path has none (service-api.md: "auto-generated when omitted")', async () => {
    const made = await call(emu, 'POST', `${SO}/tag`, { attributes: { name: 'n', color: '#000000', description: '' } });
    assert.match(made.body.id, /^[0-9a-f-]{36}$/);
  });

  it('refuses unknown body keys and unsupported types (config-schema; unsupported type 400)', async () => {
    const extra = await call(emu, 'POST', `${SO}/tag/t1`, { attributes: {}, version: 'x' });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.message, '[request body.version]: definition for this key is missing');
    const type = await call(emu, 'POST', `${SO}/secret-thing/t1`, { attributes: {} });
    assert.equal(type.status, 400);
  });

  it('updates attributes partially; a stale version is 409, the current one works and changes it (update.ts `version`)', async () => {
    const made = (await call(emu, 'POST', `${SO}/tag/soc`, { attributes: { name: 'SOC', color: '#111111', description: 'd' } })).body;
    const updated = await call(emu, 'PUT', `${SO}/tag/soc`, { attributes: { color: '#222222' }, version: made.version });
    assert.equal(updated.status, 200, updated.text);
    assert.notEqual(updated.body.version, made.version);
    assert.deepEqual(updated.body.attributes, { color: '#222222' }, 'the reply carries the attributes sent');
    assert.deepEqual((await call(emu, 'GET', `${SO}/tag/soc`)).body.attributes, { name: 'SOC', color: '#222222', description: 'd' });
    const stale = await call(emu, 'PUT', `${SO}/tag/soc`, { attributes: { color: '#333333' }, version: made.version });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.message, 'Saved object [tag/soc] conflict');
    const missing = await call(emu, 'PUT', `${SO}/tag/none`, { attributes: {} });
    assert.equal(missing.status, 404);
  });

  it('finds by one or many types with per_page 20 by default, per space; type is required (find.ts)', async () => {
    assert.equal((await call(emu, 'GET', `${SO}/_find`)).status, 400);
    const found = (await call(emu, 'GET', `${SO}/_find?type=tag&type=index-pattern`)).body;
    assert.equal(found.per_page, 20);
    assert.deepEqual(found.saved_objects.map((o: any) => `${o.type}/${o.id}`).filter((n: string) => !n.startsWith('tag/') || n === 'tag/soc'), ['index-pattern/web', 'tag/soc']);
    assert.equal((await call(emu, 'GET', `/s/ops${SO}/_find?type=tag`)).body.total, 0);
    assert.equal((await call(emu, 'GET', `${SO}/_find?type=tag&per_page=1000&page=11`)).status, 400, 'beyond the 10 000 result window');
  });

  it('deletes, then answers 404 (service-api.md Errors: saved object not found)', async () => {
    assert.equal((await call(emu, 'DELETE', `${SO}/index-pattern/web`)).status, 200);
    const gone = await call(emu, 'GET', `${SO}/index-pattern/web`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.message, 'Saved object [index-pattern/web] not found');
  });
});
