import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { ApiError, SvcClient, type ClientOptions } from '../../src/client/client.js';
import { recordingServer, type RecordingServer } from './servers.js';

const KEY_PAIR = 'key-id-1:key-secret-1';
const ENCODED_KEY = Buffer.from(KEY_PAIR).toString('base64');

describe('client auth against the emulator (service-api.md Authentication 1, 2, 7)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({
      credentials: [
        { type: 'apiKey', secret: ENCODED_KEY, user: 'key-user' },
        { type: 'basic', secret: 'elastic:changeme', user: 'elastic' },
        { type: 'bearer', secret: 'token-1', user: 'token-user' },
      ],
    });
  });
  after(() => emu.stop());

  async function outcome(options: Omit<ClientOptions, 'url'>): Promise<number> {
    const client = new SvcClient({ url: emu.url, ...options });
    try {
      return (await client.request({ method: 'GET', path: '/api/spaces/space/default' })).status;
    } catch (err) {
      if (err instanceof ApiError) return err.status;
      throw err;
    } finally {
      await client.close();
    }
  }

  it('accepts an encoded API key and an id:secret pair, which the client encodes (Authentication 2)', async () => {
    assert.equal(await outcome({ apiKey: ENCODED_KEY }), 200);
    assert.equal(await outcome({ apiKey: KEY_PAIR }), 200);
  });

  it('uses the API key over basic: valid key + wrong password succeeds, wrong key + valid basic fails', async () => {
    assert.equal(await outcome({ apiKey: ENCODED_KEY, username: 'elastic', password: 'wrong' }), 200);
    assert.equal(await outcome({ apiKey: 'bm9wZTpub3Bl', username: 'elastic', password: 'changeme' }), 401);
  });

  it('uses basic over bearer: valid basic + wrong token succeeds, wrong basic + valid token fails', async () => {
    assert.equal(await outcome({ username: 'elastic', password: 'changeme', token: 'wrong' }), 200);
    assert.equal(await outcome({ username: 'elastic', password: 'wrong', token: 'token-1' }), 401);
  });

  it('uses a bearer token when it is the only credential', async () => {
    assert.equal(await outcome({ token: 'token-1' }), 200);
    assert.equal(await outcome({ apiKey: '', username: '', token: 'token-1' }), 200);
  });

  it('takes basic credentials from the URL and never shows them in target', async () => {
    const url = new URL(emu.url);
    url.username = 'elastic';
    url.password = 'changeme';
    const client = new SvcClient({ url: url.toString() });
    assert.equal((await client.request({ method: 'GET', path: '/api/spaces/space/default' })).status, 200);
    assert.ok(!client.target.includes('changeme'));
    assert.equal(client.target, emu.url);
    await client.close();
  });

  it('surfaces 401 as ApiError "Unauthorized" after one attempt, without the key (Authentication 7)', async () => {
    await call(emu, 'DELETE', '/__emulator/requests', undefined, { headers: { authorization: `ApiKey ${ENCODED_KEY}` } });
    const retries: unknown[] = [];
    const wrongKey = 'd3Jvbmc6a2V5LXZhbHVl';
    const client = new SvcClient({ url: emu.url, apiKey: wrongKey, onRetry: (info) => retries.push(info) });
    const err = await client.request({ method: 'GET', path: '/api/spaces/space/default' }).catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 401);
    assert.match(err.message, /^GET \/api\/spaces\/space\/default -> 401 Unauthorized: \[security_exception\]/);
    assert.ok(!err.message.includes(wrongKey));
    assert.deepEqual(retries, []);
    assert.equal((await call(emu, 'GET', '/__emulator/requests', undefined, { headers: { authorization: `ApiKey ${ENCODED_KEY}` } })).body.requests.length, 1);
  });

  it('sends no credentials at all when none are configured, which a secured server refuses', async () => {
    assert.equal(await outcome({}), 401);
  });
});

describe('client Authorization header on the wire (wire-facts 0.2)', () => {
  let server: RecordingServer;
  before(async () => {
    server = await recordingServer();
  });
  after(() => server.close());

  async function header(options: Omit<ClientOptions, 'url'>): Promise<string | undefined> {
    const client = new SvcClient({ url: server.url, ...options });
    await client.request({ method: 'GET', path: '/api/x' });
    await client.close();
    const sent = server.requests[server.requests.length - 1];
    const names = sent.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    assert.ok(names.filter((n) => n === 'authorization').length <= 1, 'at most one Authorization header');
    return sent.headers.authorization;
  }

  it('writes exactly one header in the documented encodings', async () => {
    assert.equal(await header({ apiKey: KEY_PAIR, username: 'u', password: 'p', token: 't' }), `ApiKey ${ENCODED_KEY}`);
    assert.equal(await header({ apiKey: ENCODED_KEY }), `ApiKey ${ENCODED_KEY}`);
    assert.equal(await header({ username: 'user', password: 'pa:ss', token: 't' }), `Basic ${Buffer.from('user:pa:ss').toString('base64')}`);
    assert.equal(await header({ token: 'tok.en' }), 'Bearer tok.en');
    assert.equal(await header({}), undefined);
  });
});
