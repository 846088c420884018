import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import { emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { compressible, negotiatedEncoding } from '../src/compression.js';

/**
 * Response compression. Source: the real server's HTTP config schema sets
 * `server.compression.enabled` to true by default (core-http-server-internal, http_config), and its
 * framework negotiates gzip or deflate from Accept-Encoding for compressible payloads of at least
 * `compression.minBytes`, 1,024 by default ("Payloads under 1kb will not be compressed", the
 * framework's proxy plugin tests).
 */
describe('emulator: compressed answers, negotiated as the real server does', () => {
  it('picks gzip or deflate by the q-values of Accept-Encoding, gzip on a tie, and nothing it was not offered', () => {
    assert.equal(negotiatedEncoding(undefined), undefined);
    assert.equal(negotiatedEncoding(''), undefined);
    assert.equal(negotiatedEncoding('identity'), undefined);
    assert.equal(negotiatedEncoding('br'), undefined);
    assert.equal(negotiatedEncoding('gzip'), 'gzip');
    assert.equal(negotiatedEncoding('GZIP, deflate'), 'gzip');
    assert.equal(negotiatedEncoding('deflate, gzip'), 'gzip');
    assert.equal(negotiatedEncoding('deflate'), 'deflate');
    assert.equal(negotiatedEncoding('gzip;q=0.5, deflate;q=0.8'), 'deflate');
    assert.equal(negotiatedEncoding('gzip;q=0, deflate;q=0'), undefined);
    assert.equal(negotiatedEncoding('*'), 'gzip');
    assert.equal(negotiatedEncoding('*;q=0.2, gzip;q=0'), 'deflate');
    assert.equal(negotiatedEncoding(['br', 'gzip']), 'gzip');
  });

  it('compresses JSON and text of 1,024 bytes or more, not smaller answers or binary ones', () => {
    assert.equal(compressible('application/json; charset=utf-8', 1024), true);
    assert.equal(compressible('application/json; charset=utf-8', 1023), false);
    assert.equal(compressible('text/plain; charset=utf-8', 5000), true);
    assert.equal(compressible('application/x-ndjson', 5000), true);
    assert.equal(compressible('application/zip', 5000), false);
    assert.equal(compressible('application/octet-stream', 5000), false);
  });

  describe('on the wire', () => {
    let emu: RunningEmulator;
    before(async () => {
      emu = await emulator({});
    });
    after(() => emu.stop());

    /** A GET with exactly the given headers (fetch would add its own Accept-Encoding and inflate). */
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request(emu.url + path, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });

    it('answers gzip or deflate when asked, streamed with vary, the same JSON as the plain answer', async () => {
      const path = '/api/actions/connector_types';
      const plain = await get(path);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(Number(plain.headers['content-length']), plain.body.length);
      assert.ok(plain.body.length >= 1024);
      const gzipped = await get(path, { 'accept-encoding': 'gzip, deflate' });
      assert.equal(gzipped.headers['content-encoding'], 'gzip');
      assert.equal(gzipped.headers.vary, 'accept-encoding');
      assert.equal(gzipped.headers['content-length'], undefined);
      assert.ok(gzipped.body.length < plain.body.length);
      assert.deepEqual(JSON.parse(gunzipSync(gzipped.body).toString()), JSON.parse(plain.body.toString()));
      const deflated = await get(path, { 'accept-encoding': 'deflate' });
      assert.equal(deflated.headers['content-encoding'], 'deflate');
      assert.deepEqual(JSON.parse(inflateSync(deflated.body).toString()), JSON.parse(plain.body.toString()));
      assert.equal((await get(path, { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding'], undefined);
    });

    it('leaves an answer under 1,024 bytes as it is', async () => {
      const small = await get('/api/spaces/space/default', { 'accept-encoding': 'gzip' });
      assert.equal(small.status, 200);
      assert.ok(small.body.length < 1024);
      assert.equal(small.headers['content-encoding'], undefined);
      assert.equal(JSON.parse(small.body.toString()).id, 'default');
    });
  });
});
