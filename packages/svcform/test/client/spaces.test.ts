import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { ApiError, SpaceNotFoundError, SvcClient, validateSpaces } from '../../src/client/client.js';
import { withSpacePrefix } from '../../src/client/spaces.js';
import type { ApiRequest, ApiResponse, Requester } from '../../src/client/types.js';

describe('withSpacePrefix (wire-facts 0.1)', () => {
  it('inserts /s/{space} before the first /api/ and keeps a base path', () => {
    assert.equal(withSpacePrefix('/api/lists', 'soc'), '/s/soc/api/lists');
    assert.equal(withSpacePrefix('/kb/api/lists', 'soc', 3), '/kb/s/soc/api/lists');
    assert.equal(withSpacePrefix('/a/b/api/x/api/y', 'soc', 4), '/a/b/s/soc/api/x/api/y');
  });

  it('adds nothing for the default space or none', () => {
    assert.equal(withSpacePrefix('/kb/api/lists', 'default', 3), '/kb/api/lists');
    assert.equal(withSpacePrefix('/kb/api/lists', undefined, 3), '/kb/api/lists');
    assert.equal(withSpacePrefix('/kb/api/lists', '', 3), '/kb/api/lists');
  });

  it('encodes the space id and falls back to the end of the base path when there is no /api/', () => {
    assert.equal(withSpacePrefix('/api/x', 'a/b'), '/s/a%2Fb/api/x');
    assert.equal(withSpacePrefix('/kb/internal/x', 'soc', 3), '/kb/s/soc/internal/x');
  });
});

describe('validateSpaces', () => {
  let emu: RunningEmulator;
  let client: SvcClient;
  before(async () => {
    emu = await emulator({ spaces: ['soc', 'ops'] });
    client = new SvcClient({ url: emu.url });
  });
  after(async () => {
    await client.close();
    await emu.stop();
  });
  beforeEach(async () => {
    await call(emu, 'DELETE', '/__emulator/requests');
  });

  async function requestedPaths(): Promise<string[]> {
    const log = await call(emu, 'GET', '/__emulator/requests');
    return log.body.requests.map((r: { path: string }) => r.path).sort();
  }

  it('makes one GET /api/spaces/space/{id} per distinct space and passes when all exist', async () => {
    await validateSpaces(client, ['soc', 'ops', 'soc', 'default', 'ops']);
    assert.deepEqual(await requestedPaths(), ['/api/spaces/space/default', '/api/spaces/space/ops', '/api/spaces/space/soc']);
  });

  it('throws SpaceNotFoundError naming the missing space and the target (service-api.md Errors: "carries the space id")', async () => {
    const err = await validateSpaces(client, ['soc', 'nope']).catch((e: unknown) => e);
    assert.ok(err instanceof SpaceNotFoundError);
    assert.equal(err.space, 'nope');
    assert.equal(err.message, `space "nope" does not exist on ${emu.url}`);
    assert.deepEqual(await requestedPaths(), ['/api/spaces/space/nope', '/api/spaces/space/soc']);
  });

  it('names the first missing space in the order given and lists the others', async () => {
    const err = await validateSpaces(client, ['gone', 'soc', 'lost']).catch((e: unknown) => e);
    assert.ok(err instanceof SpaceNotFoundError);
    assert.equal(err.space, 'gone');
    assert.deepEqual(err.spaces, ['gone', 'lost']);
    assert.equal(err.message, `space "gone" does not exist on ${emu.url} (also missing: "lost")`);
  });

  it('lets other failures through as they are', async () => {
    const secured = await emulator({ apiKey: 'a2V5OnZhbHVl' });
    const unauthenticated = new SvcClient({ url: secured.url });
    const err = await validateSpaces(unauthenticated, ['default']).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 401);
    await unauthenticated.close();
    await secured.stop();
  });

  it('works with any Requester, naming "the server" when it has no target', async () => {
    const seen: ApiRequest[] = [];
    const requester: Requester = {
      async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
        seen.push(req);
        return { status: req.path.endsWith('/soc') ? 200 : 404, body: {} as T, text: '{}', headers: {} };
      },
    };
    const err = await validateSpaces(requester, ['soc', 'x']).catch((e: unknown) => e);
    assert.ok(err instanceof SpaceNotFoundError);
    assert.equal(err.message, 'space "x" does not exist on the server');
    assert.deepEqual(seen.map((r) => [r.method, r.path, r.space, r.accept]), [
      ['GET', '/api/spaces/space/soc', undefined, [404]],
      ['GET', '/api/spaces/space/x', undefined, [404]],
    ]);
  });
});
