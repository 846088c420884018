import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, KEYS, postFile } from '../src/testing.js';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { csvRows } from '../src/areas/privilege-monitoring/csv.js';

const PM = '/api/entity_analytics/monitoring';
/** The server's source the behaviours follow (security_solution server/lib/entity_analytics/privilege_monitoring). */
const SRC = 'privilege_monitoring';

const names = async (emu: RunningEmulator, kql?: string, space = '') => {
  const res = await call(emu, 'GET', `${space}${PM}/users/list${kql ? `?kql=${encodeURIComponent(kql)}` : ''}`, undefined, KEYS.full);
  assert.equal(res.status, 200, res.text);
  return (res.body as any[]).map((u) => u.user.name).sort();
};

describe('emulator privileged user monitoring (service-api.md line 473 "/api/entity_analytics/monitoring"; OAS paths /api/entity_analytics/monitoring/*)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ port: 0, spaces: ['other'], credentials: KEYS.credentials, now: () => new Date('2026-03-02T12:00:00.000Z') });
  });
  beforeEach(async () => {
    await call(emu, 'POST', '/__emulator/reset', undefined, KEYS.full);
  });
  after(() => emu.stop());

  const get = (path: string) => call(emu, 'GET', path, undefined, KEYS.full);
  const post = (path: string, body?: unknown) => call(emu, 'POST', path, body, KEYS.full);
  const del = (path: string) => call(emu, 'DELETE', path, undefined, KEYS.full);
  const upload = (content: string, space = '') => postFileAs(emu, `${space}${PM}/users/_csv`, content);

  it(`health reads not_installed, then started with the user counts after init, and only the status once disabled (OAS PrivMonHealth, MonitoringEngineDescriptor; ${SRC}/routes/health.ts)`, async () => {
    assert.deepEqual((await get(`${PM}/privileges/health`)).body, { status: 'not_installed' });
    assert.deepEqual((await post(`${PM}/engine/init`)).body, { status: 'started' });
    assert.deepEqual((await get(`${PM}/privileges/health`)).body, { status: 'started', users: { current_count: 0, max_allowed: 10000 } });
    assert.deepEqual((await post(`${PM}/engine/disable`)).body, { status: 'disabled' });
    assert.deepEqual((await get(`${PM}/privileges/health`)).body, { status: 'disabled' });
    // Each space has its own engine.
    assert.deepEqual((await get(`/s/other${PM}/privileges/health`)).body, { status: 'not_installed' });
  });

  it(`list before any init answers the index's 404 (${SRC}/users/privileged_users_crud.ts list: a search of the users index)`, async () => {
    const res = await get(`${PM}/users/list`);
    assert.equal(res.status, 404, res.text);
    assert.match(res.body.message, /index_not_found_exception/);
  });

  it(`create answers the MonitoredUserDoc with the api source; list filters by kql (OAS CreatePrivMonUser, ListPrivMonUsers; ${SRC}/users/privileged_users_crud.ts)`, async () => {
    await post(`${PM}/engine/init`);
    const made = await post(`${PM}/users`, { user: { name: 'alice' } });
    assert.equal(made.status, 200, made.text);
    assert.deepEqual(made.body, { id: made.body.id, '@timestamp': '2026-03-02T12:00:00.000Z', user: { name: 'alice', is_privileged: true }, labels: { sources: ['api'] } });
    await post(`${PM}/users`, { user: { name: 'bob' } });
    assert.deepEqual(await names(emu), ['alice', 'bob']);
    assert.deepEqual(await names(emu, 'user.name: bob'), ['bob']);
  });

  it(`a CSV upload is the whole CSV set: new names are added, names it omits lose the csv source and stop being privileged unless another source holds them (${SRC}/users/csv_upload.ts, users/bulk/soft_delete_omitted_users.ts)`, async () => {
    await post(`${PM}/engine/init`);
    await post(`${PM}/users`, { user: { name: 'api-only' } });
    const first = await upload('alice\nbob\napi-only\n');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { errors: [], stats: { successful: 3, failed: 0, total: 3 } });
    const second = await upload('alice\r\ncarol\r\n');
    assert.deepEqual(second.body.stats, { successful: 4, failed: 0, total: 4 }, 'two upserted, two soft-deleted');
    assert.deepEqual(await names(emu, 'user.is_privileged: true'), ['alice', 'api-only', 'carol']);
    // The omitted CSV user's document stays, no longer privileged.
    assert.deepEqual(await names(emu), ['alice', 'api-only', 'bob', 'carol']);
    const apiOnly = ((await get(`${PM}/users/list?kql=${encodeURIComponent('user.name: api-only')}`)).body as any[])[0];
    assert.deepEqual(apiOnly.labels.sources, ['api']);
  });

  it(`CSV rows take one or two columns and a name; the errors are numbered from 1 (parse_privileged_user_monitoring_csv_row.ts; users/streams/privileged_user_parse_transform.ts)`, async () => {
    await post(`${PM}/engine/init`);
    const res = await upload('alice,admins\na,b,c\n,label\n"o""brien"\n');
    assert.deepEqual(res.body, {
      errors: [
        { message: 'Expected 1 or 2 columns, got 3', index: 2, username: null },
        { message: 'Missing user name', index: 3, username: null },
      ],
      stats: { successful: 2, failed: 2, total: 4 },
    });
    assert.deepEqual(await names(emu), ['alice', 'o"brien']);
  });

  it(`the CSV upload needs a file part and refuses a body over 1 MiB + 50 KiB with 413 (${SRC}/routes/users/upload_csv.ts body.maxBytes; constants.ts PRIVMON_USERS_CSV_MAX_SIZE_BYTES_WITH_TOLERANCE; OAS PrivmonBulkUploadUsersCSV 413)`, async () => {
    const none = await post(`${PM}/users/_csv`, {});
    assert.equal(none.status, 400, none.text);
    const big = await upload('x'.repeat(1024 * 1024 + 1024 * 50 + 1));
    assert.equal(big.status, 413, big.text);
  });

  it(`the upload makes the users index itself (checkAndInitPrivilegeMonitoringResources in routes/users/upload_csv.ts)`, async () => {
    assert.equal((await upload('alice\n')).status, 200);
    assert.deepEqual(await names(emu), ['alice']);
  });

  it(`delete of a user removes its document; an unknown id is a 404 (OAS DeletePrivMonUser; ${SRC}/routes/users/delete.ts, crud delete)`, async () => {
    await post(`${PM}/engine/init`);
    const made = await post(`${PM}/users`, { user: { name: 'alice' } });
    assert.deepEqual((await del(`${PM}/users/${made.body.id}`)).body, { acknowledged: true });
    assert.deepEqual(await names(emu), []);
    assert.equal((await del(`${PM}/users/${made.body.id}`)).status, 404);
  });

  it(`engine delete keeps the users unless data=true; data must be a boolean (OAS DeleteMonitoringEngine "data"; ${SRC}/routes/delete.ts DeleteEntityEngineRequestQuery)`, async () => {
    await post(`${PM}/engine/init`);
    await upload('alice\n');
    assert.deepEqual((await del(`${PM}/engine/delete`)).body, { deleted: true });
    assert.deepEqual((await get(`${PM}/privileges/health`)).body, { status: 'not_installed' });
    assert.deepEqual(await names(emu), ['alice']);
    assert.equal((await del(`${PM}/engine/delete?data=yes`)).status, 400);
    assert.deepEqual((await del(`${PM}/engine/delete?data=true`)).body, { deleted: true });
    assert.equal((await get(`${PM}/users/list`)).status, 404);
  });

  it(`create refuses a user beyond maxPrivilegedUsersAllowed (10,000) with a 500 (${SRC}/users/privileged_users_crud.ts create; server/config.ts)`, async () => {
    await post(`${PM}/engine/init`);
    await upload(Array.from({ length: 10_000 }, (_, i) => `u${i}`).join('\n'));
    const res = await post(`${PM}/users`, { user: { name: 'one-more' } });
    assert.equal(res.status, 500, res.text);
    assert.equal(res.body.message, 'Cannot create user: Maximum user limit of 10000 reached');
  });

  it(`the users routes need a Platinum licence (utils/with_minimum_license.ts, 'platinum' on routes/users/{create,delete,upload_csv}.ts)`, async () => {
    const gold = await startEmulator({ port: 0, license: 'gold' });
    try {
      const res = await call(gold, 'POST', `${PM}/users`, { user: { name: 'a' } });
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.message, 'Your license does not support this feature.');
      assert.equal((await postFile(gold, `${PM}/users/_csv`, 'a\n', 'users.csv')).status, 403);
    } finally {
      await gold.stop();
    }
  });

  it(`reading needs read and writing all (requiredPrivileges securitySolution-entity-analytics on every route)`, async () => {
    assert.equal((await call(emu, 'GET', `${PM}/privileges/health`, undefined, KEYS.viewer)).status, 200);
    assert.equal((await call(emu, 'POST', `${PM}/engine/init`, undefined, KEYS.viewer)).status, 403);
  });

  it(`CSV fields are typed as Papa's dynamicTyping types them: a user named false or 0 is missing, 007 is 7 (users/csv_upload.ts Papa.parse dynamicTyping: true)`, async () => {
    await post(`${PM}/engine/init`);
    const res = await upload('false\n"0"\n007\n');
    assert.deepEqual(res.body.errors.map((e: any) => [e.index, e.message]), [[1, 'Missing user name'], [2, 'Missing user name']]);
    assert.deepEqual(await names(emu), ['7']);
  });

  it('csvRows reads quoted fields, CRLF and skips empty lines (Papa.parse with skipEmptyLines)', () => {
    assert.deepEqual(csvRows('a\r\n\r\n"b,c","d""e"\nf'), [['a'], ['b,c', 'd"e'], ['f']]);
  });
});

async function postFileAs(emu: RunningEmulator, path: string, content: string) {
  const form = new FormData();
  form.append('file', new Blob([content]), 'users.csv');
  const res = await fetch(emu.url + path, { method: 'POST', headers: { 'kbn-xsrf': 'true', authorization: 'ApiKey full' }, body: form });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}
