import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { call, emulator, KEYS, multipartForm } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const BASE = '/api/endpoint/scripts_library';
const sha256 = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

/**
 * Sources (service-api.md Endpoint management line ~458 names the operations and fields, not the
 * routes; the routes are not in the OAS at b76003905): the server's security_solution
 * server/endpoint/routes/scripts_library/ (create_script.ts, list_scripts.ts, get_script.ts,
 * update_script.ts, delete_script.ts, download_script.ts: paths, multipart bodies, maxBytes),
 * common/api/endpoint/scripts_library/ (CreateScriptRequestSchema, PatchUpdateScriptRequestSchema,
 * ListScriptsRequestSchema, common.ts value rules; create_script.schema.yaml: fileType required),
 * schema_utils.ts (empty strings, duplicates), server/endpoint/services/scripts_library/
 * scripts_library_client.ts (reply fields incl. fileHash, the duplicate-hash 400, 404 and 409
 * messages) and the UI's usePostEndpointScript (arrays as JSON text parts).
 */
describe('emulator: endpoint scripts library (/api/endpoint/scripts_library)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'], credentials: KEYS.credentials });
  });
  after(() => emu.stop());
  const send = (method: string, path: string, fields: Record<string, unknown>, file?: { content: string | Uint8Array; filename: string }, key = KEYS.full) =>
    call(emu, method, path, undefined, { ...key, raw: multipartForm(fields, file) });

  it('create (multipart) answers data with id, the file\'s name, size and sha256, and a download route that returns the bytes', async () => {
    const content = '#!/bin/sh\nuname -a\n';
    const res = await send('POST', BASE, { name: 'Collect uname', platform: ['linux', 'macos'], fileType: 'script', tags: ['dataCollection'], description: 'Host kernel' }, { content, filename: 'uname.sh' });
    assert.equal(res.status, 200, res.text);
    const d = res.body.data;
    assert.match(d.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual([d.name, d.platform, d.fileType, d.tags, d.description, d.requiresInput], ['Collect uname', ['linux', 'macos'], 'script', ['dataCollection'], 'Host kernel', false]);
    assert.deepEqual([d.fileName, d.fileSize, d.fileHash], ['uname.sh', content.length, sha256(content)]);
    assert.equal(d.downloadUri, `${BASE}/${d.id}/download`);
    const got = await call(emu, 'GET', `${BASE}/${d.id}`, undefined, KEYS.viewer);
    assert.equal(got.body.data.fileHash, sha256(content));
    const download = await call(emu, 'GET', `${BASE}/${d.id}/download`, undefined, KEYS.viewer);
    assert.equal(download.status, 200);
    assert.equal(download.text, content);
    await call(emu, 'DELETE', `${BASE}/${d.id}`, undefined, KEYS.full);
  });

  it('create refuses what CreateScriptRequestSchema refuses: missing file or fileType, an unknown platform or tag, duplicates, an empty name, an unknown field', async () => {
    const file = { content: 'echo refused', filename: 'r.sh' };
    const good = { name: 'n', platform: ['linux'], fileType: 'script' };
    const cases: Array<[Record<string, unknown>, typeof file | undefined, RegExp]> = [
      [good, undefined, /\[request body\.file\]/],
      [{ name: 'n', platform: ['linux'] }, file, /\[request body\.fileType\]/],
      [{ ...good, platform: ['solaris'] }, file, /\[request body\.platform\.0\]/],
      [{ ...good, platform: ['linux', 'linux'] }, file, /Duplicate values are not allowed/],
      [{ ...good, platform: [] }, file, /cannot be smaller than \[1\]/],
      [{ ...good, tags: ['nope'] }, file, /\[request body\.tags\.0\]/],
      [{ ...good, tags: [] }, file, /cannot be smaller than \[1\]/],
      [{ ...good, name: '   ' }, file, /Value can not be an empty string/],
      [{ ...good, fileType: 'binary' }, file, /\[request body\.fileType\]/],
      [{ ...good, color: 'red' }, file, /\[request body\.color\]: definition for this key is missing/],
    ];
    for (const [fields, f, message] of cases) {
      const res = await send('POST', BASE, fields, f);
      assert.equal(res.status, 400, `${JSON.stringify(fields)}: ${res.text}`);
      assert.match(res.body.message, message, JSON.stringify(fields));
    }
    assert.equal((await call(emu, 'GET', BASE, undefined, KEYS.viewer)).body.total, 0, 'nothing was stored');
  });

  it('a file whose sha256 another script of the space has is refused with 400 naming that script (storeFile); another space may hold it', async () => {
    const file = { content: 'echo same', filename: 'same.sh' };
    const first = await send('POST', BASE, { name: 'First', platform: ['linux'], fileType: 'script' }, file);
    assert.equal(first.status, 200, first.text);
    const dup = await send('POST', BASE, { name: 'Second', platform: ['linux'], fileType: 'script' }, file);
    assert.equal(dup.status, 400);
    assert.match(dup.body.message, new RegExp(`already exists and is associated with a script entry named \\[First\\] \\(script ID: \\[${first.body.data.id}\\]\\)`));
    const other = await send('POST', `/s/other${BASE}`, { name: 'First', platform: ['linux'], fileType: 'script' }, file);
    assert.equal(other.status, 200, other.text);
    await call(emu, 'DELETE', `${BASE}/${first.body.data.id}`, undefined, KEYS.full);
  });

  it('PATCH (multipart) changes the given fields, a new file replaces the hash; no field is 400; a stale version is 409; unknown id 404', async () => {
    const created = await send('POST', BASE, { name: 'Patch me', platform: ['windows'], fileType: 'script' }, { content: 'Get-Process', filename: 'ps.ps1' });
    const id = created.body.data.id;
    const meta = await send('PATCH', `${BASE}/${id}`, { description: 'Lists processes', tags: ['troubleshooting'] });
    assert.equal(meta.status, 200, meta.text);
    assert.deepEqual([meta.body.data.description, meta.body.data.tags, meta.body.data.fileHash, meta.body.data.name], ['Lists processes', ['troubleshooting'], sha256('Get-Process'), 'Patch me']);
    const newFile = await send('PATCH', `${BASE}/${id}`, {}, { content: 'Get-Process | Sort CPU', filename: 'ps2.ps1' });
    assert.equal(newFile.status, 200, newFile.text);
    assert.deepEqual([newFile.body.data.fileHash, newFile.body.data.fileName], [sha256('Get-Process | Sort CPU'), 'ps2.ps1']);
    const empty = await send('PATCH', `${BASE}/${id}`, { version: newFile.body.data.version });
    assert.equal(empty.status, 400);
    assert.match(empty.body.message, /At least one field must be defined for update/);
    const stale = await send('PATCH', `${BASE}/${id}`, { name: 'x', version: created.body.data.version });
    assert.equal(stale.status, 409);
    assert.equal((await send('PATCH', `${BASE}/nope`, { name: 'x' })).status, 404);
  });

  it('list pages by page/pageSize (1..1000), sorted by name; DELETE answers 200 and then 404; reads need read, writes all', async () => {
    const list = await call(emu, 'GET', `${BASE}?pageSize=1000&page=1`, undefined, KEYS.viewer);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(Object.keys(list.body).sort(), ['data', 'page', 'pageSize', 'sortDirection', 'sortField', 'total']);
    assert.equal((await call(emu, 'GET', `${BASE}?pageSize=1001`, undefined, KEYS.viewer)).status, 400);
    const names = list.body.data.map((s: { name: string }) => s.name);
    assert.deepEqual(names, [...names].sort());
    const readOnly = await send('POST', BASE, { name: 'r', platform: ['linux'], fileType: 'script' }, { content: 'x', filename: 'x.sh' }, KEYS.viewer);
    assert.equal(readOnly.status, 403);
    const id = list.body.data[0].id;
    const del = await call(emu, 'DELETE', `${BASE}/${id}`, undefined, KEYS.full);
    assert.equal(del.status, 200);
    assert.equal((await call(emu, 'DELETE', `${BASE}/${id}`, undefined, KEYS.full)).status, 404);
    const gone = await call(emu, 'GET', `${BASE}/${id}`, undefined, KEYS.viewer);
    assert.deepEqual([gone.status, gone.body.message], [404, `Script with id ${id} not found`]);
  });

  it('a body over maxEndpointScriptFileSize (25 MB by default) is 413 before the handler', async () => {
    const big = new Uint8Array(25 * 1024 * 1024 + 1).fill(65);
    const res = await send('POST', BASE, { name: 'Big', platform: ['linux'], fileType: 'script' }, { content: big, filename: 'big.sh' });
    assert.equal(res.status, 413);
  });
});
