import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const SPACES = '/api/spaces/space';

describe('emulator spaces', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
  });
  after(() => emu.stop());

  it('lists the reserved default space as the server creates it, and --spaces spaces by their id (OAS get-spaces-space)', async () => {
    const res = await call(emu, 'GET', SPACES);
    assert.equal(res.status, 200);
    const byId = new Map(res.body.map((s: any) => [s.id, s]));
    assert.deepEqual(byId.get('default'), { id: 'default', name: 'Default', description: 'This is your default space!', color: '#00bfb3', disabledFeatures: [], _reserved: true });
    assert.deepEqual(byId.get('ops'), { id: 'ops', name: 'ops', disabledFeatures: [] });
  });

  it('creates a space with every field of the body, disabledFeatures defaulting to [] (OAS post-spaces-space schema)', async () => {
    const body = { id: 'soc-team_1', name: 'SOC', description: 'Detection work', color: '#AA00ff', initials: 'SO', imageUrl: 'data:image/png;base64,AAAA', solution: 'security' };
    const res = await call(emu, 'POST', SPACES, body);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { ...body, disabledFeatures: [] });
    const read = await call(emu, 'GET', `${SPACES}/soc-team_1`);
    assert.deepEqual(read.body, res.body);
    // The new space takes API calls at once.
    assert.equal((await call(emu, 'GET', '/s/soc-team_1/api/actions/connectors')).status, 200);
  });

  it('refuses a duplicate id with 409 (spaces plugin post route: conflict "A space with the identifier ... already exists.")', async () => {
    const res = await call(emu, 'POST', SPACES, { id: 'default', name: 'again' });
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, { statusCode: 409, error: 'Conflict', message: 'A space with the identifier default already exists.' });
  });

  it('checks the body as the space schema declares it (OAS post-spaces-space: id characters, name minLength 1, initials maxLength 2, solution enum, additionalProperties false)', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ id: 'Upper', name: 'x' }, /^\[request body\.id\]: must be lower case, a-z, 0-9, '_', and '-' are allowed$/],
      [{ id: 'a b', name: 'x' }, /^\[request body\.id\]: must be lower case/],
      [{ id: 'ok', name: '' }, /^\[request body\.name\]: value has length \[0\] but it must have a minimum length of \[1\]/],
      [{ id: 'ok', name: 'x', initials: 'ABC' }, /^\[request body\.initials\]: value has length \[3\] but it must have a maximum length of \[2\]/],
      [{ id: 'ok', name: 'x', color: 'red' }, /^\[request body\.color\]: must be a 6 digit hex color, starting with #$/],
      [{ id: 'ok', name: 'x', imageUrl: 'https://x/y.png' }, /^\[request body\.imageUrl\]: must start with 'data:image'$/],
      [{ id: 'ok', name: 'x', solution: 'search' }, /^\[request body\.solution\]: types that failed validation/],
      [{ id: 'ok', name: 'x', owner: 'me' }, /^\[request body\.owner\]: definition for this key is missing$/],
      [{ name: 'x' }, /^\[request body\.id\]: expected value of type \[string\] but got \[undefined\]$/],
    ];
    for (const [body, message] of cases) {
      const res = await call(emu, 'POST', SPACES, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'Bad Request');
      assert.match(res.body.message, message);
    }
    assert.equal((await call(emu, 'GET', `${SPACES}/ok`)).status, 404);
  });

  it('takes an empty imageUrl, which clears the image (Kibana spaces space_schema.ts: imageUrl is checked only when not empty)', async () => {
    const res = await call(emu, 'POST', SPACES, { id: 'blank-image', name: 'x', imageUrl: '' });
    assert.equal(res.status, 200, res.text);
    assert.equal((await call(emu, 'GET', `${SPACES}/blank-image`)).body.imageUrl, '');
  });

  it('an update keeps the id of the path and the fields it omits (OAS put-spaces-space-id: "unable to change the ID"; a partial update of the space saved object)', async () => {
    await call(emu, 'POST', SPACES, { id: 'upd', name: 'Before', description: 'kept', color: '#000000', disabledFeatures: ['ml'] });
    const res = await call(emu, 'PUT', `${SPACES}/upd`, { id: 'upd', name: 'After', disabledFeatures: [] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { id: 'upd', name: 'After', description: 'kept', color: '#000000', disabledFeatures: [] });
    const missing = await call(emu, 'PUT', `${SPACES}/nope`, { id: 'nope', name: 'x' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'Saved object [space/nope] not found');
  });

  it('deleting a space deletes everything in it; the default space is reserved (OAS delete-spaces-space-id: 204, 404; "all saved objects that belong to the space are automatically deleted")', async () => {
    await call(emu, 'POST', SPACES, { id: 'gone', name: 'Gone' });
    const so = await call(emu, 'POST', '/s/gone/api/saved_objects/tag/t1', { attributes: { name: 't' } });
    assert.equal(so.status, 200, so.text);
    const res = await call(emu, 'DELETE', `${SPACES}/gone`);
    assert.equal(res.status, 204);
    assert.equal((await call(emu, 'GET', `${SPACES}/gone`)).status, 404);
    assert.equal((await call(emu, 'GET', '/s/gone/api/saved_objects/_find?type=tag')).status, 404);
    // Made again, the space is empty.
    await call(emu, 'POST', SPACES, { id: 'gone', name: 'Gone' });
    const find = await call(emu, 'GET', '/s/gone/api/saved_objects/_find?type=tag');
    assert.equal(find.body.total, 0);
    assert.equal((await call(emu, 'DELETE', `${SPACES}/never`)).status, 404);
    const reserved = await call(emu, 'DELETE', `${SPACES}/default`);
    assert.equal(reserved.status, 400);
    assert.equal(reserved.body.message, 'The default space cannot be deleted because it is reserved.');
  });

  it('writes need full access (spaces privileges: manage spaces)', async () => {
    const ro = await emulator({ credentials: [{ type: 'apiKey', secret: 'viewer', user: 'viewer', readOnly: true }] });
    try {
      const res = await call(ro, 'POST', SPACES, { id: 'x', name: 'x' }, { headers: { authorization: 'ApiKey viewer' } });
      assert.equal(res.status, 403, res.text);
    } finally {
      await ro.stop();
    }
  });
});
