import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, gzipSync } from 'node:zlib';
import { emulator } from '@svcform/emulator/testing.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { SvcClient } from '../../src/client/client.js';
import { openTarget, type Io } from '../../src/cli/context.js';
import type { SvcformConfig } from '../../src/cli/config.js';
import { isLoopbackHost } from '../../src/client/compression.js';
import { TransportError } from '../../src/client/errors.js';
import { recordingServer, type RecordingServer } from './servers.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

/** Compressed answers (src/client/compression.ts): asked for from a server on the network, read as the server encoded them. */
describe('client: compressed answers', () => {
  it('counts localhost, 127.0.0.0/8 and ::1 as this machine, and any other host as the network', () => {
    for (const host of ['localhost', 'LOCALHOST', 'api.localhost', 'localhost.', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', new URL('http://[::ffff:127.0.0.1]/').hostname]) assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['kibana.example.com', '10.0.0.5', '192.0.2.2', '[fd00::2]', '128.0.0.1', 'localhost.example.com', '1270.0.0.1', new URL('http://[::ffff:10.0.0.1]/').hostname]) assert.equal(isLoopbackHost(host), false, host);
  });

  describe('against a server that encodes as asked', () => {
    const listing = { page: 1, per_page: 2, total: 2, data: [{ id: 'a', note: 'é'.repeat(3000) }, { id: 'b', note: 'x'.repeat(3000) }] };
    let server: RecordingServer;
    before(async () => {
      server = await recordingServer((req, res) => {
        const text = Buffer.from(JSON.stringify(listing));
        const encoding = req.url.includes('encoding=') ? new URL(req.url, 'http://x').searchParams.get('encoding')! : req.headers['accept-encoding'] === 'gzip' ? 'gzip' : 'identity';
        if (encoding === 'stall') {
          // The headers and the start of a gzip stream, then nothing more.
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          res.write(gzipSync(text).subarray(0, 20));
          return;
        }
        if (encoding === 'empty') {
          res.writeHead(204, { 'content-encoding': 'gzip' });
          res.end();
          return;
        }
        const body = encoding === 'gzip' ? gzipSync(text) : encoding === 'deflate' ? deflateSync(text) : encoding === 'bomb' ? gzipSync(Buffer.alloc(4 * 1024 * 1024)) : text;
        res.writeHead(200, { 'content-type': 'application/json', ...(encoding === 'identity' ? {} : { 'content-encoding': encoding === 'bomb' ? 'gzip' : encoding }) });
        res.end(body);
      });
    });
    after(() => server.close());

    it('does not ask a server on a loopback address, and asks for gzip when told to', async () => {
      const local = new SvcClient({ url: server.url });
      const asked = new SvcClient({ url: server.url, compressed: true });
      try {
        assert.deepEqual((await local.request({ method: 'GET', path: '/api/x' })).body, listing);
        assert.equal(server.requests.at(-1)!.headers['accept-encoding'], undefined);
        assert.deepEqual((await asked.request({ method: 'GET', path: '/api/x' })).body, listing);
        assert.equal(server.requests.at(-1)!.headers['accept-encoding'], 'gzip');
        // A caller's own Accept-Encoding does not replace the client's.
        await local.request({ method: 'GET', path: '/api/x', headers: { 'Accept-Encoding': 'br' } });
        assert.equal(server.requests.at(-1)!.headers['accept-encoding'], undefined);
      } finally {
        await local.close();
        await asked.close();
      }
    });

    it('reads gzip and deflate answers, and fails clearly on an encoding it did not ask for', async () => {
      const client = new SvcClient({ url: server.url, compressed: true, retryBaseMs: 1 });
      try {
        assert.deepEqual((await client.request({ method: 'GET', path: '/api/x?encoding=gzip' })).body, listing);
        assert.deepEqual((await client.request({ method: 'GET', path: '/api/x?encoding=deflate' })).body, listing);
        const err = await client.request({ method: 'POST', path: '/api/x?encoding=br', body: {} }).catch((e: unknown) => e);
        assert.ok(err instanceof TransportError, String(err));
        assert.match(err.message, /content encoding "br", which svcform did not ask for and cannot read/);
        // The server answered: a write may have happened, so it is reported as such.
        assert.equal(err.ambiguous, true);
      } finally {
        await client.close();
      }
    });

    it('gives up on a compressed answer that stops coming, within its timeout, and reads a 204 as empty', async () => {
      const client = new SvcClient({ url: server.url, compressed: true, timeoutMs: 300, maxAttempts: 1 });
      try {
        const started = Date.now();
        const err = await client.request({ method: 'GET', path: '/api/x?encoding=stall' }).catch((e: unknown) => e);
        assert.ok(err instanceof TransportError, String(err));
        assert.match(err.message, /no complete answer within 0.3 s/);
        assert.ok(Date.now() - started < 5000);
        const empty = await client.request({ method: 'DELETE', path: '/api/x?encoding=empty' });
        assert.equal(empty.status, 204);
      } finally {
        await client.close();
      }
    });

    it('holds its answer-size limit to what an answer inflates to', async () => {
      const client = new SvcClient({ url: server.url, compressed: true, maxResponseBytes: 1024 * 1024, retryBaseMs: 1, maxAttempts: 1 });
      try {
        const err = await client.request({ method: 'GET', path: '/api/x?encoding=bomb' }).catch((e: unknown) => e);
        assert.ok(err instanceof Error);
        assert.match(err.message, /larger than|too large|limit/i);
      } finally {
        await client.close();
      }
    });
  });

  describe('against the emulator, which compresses as the real server does', () => {
    let emu: RunningEmulator;
    before(async () => {
      emu = await emulator({});
    });
    after(() => emu.stop());

    it('reads the same answers compressed as uncompressed', async () => {
      const plain = new SvcClient({ url: emu.url, compressed: false });
      const asked = new SvcClient({ url: emu.url, compressed: true });
      try {
        const path = '/api/actions/connector_types';
        const a = await plain.request({ method: 'GET', path });
        const b = await asked.request({ method: 'GET', path });
        assert.ok(a.text.length >= 1024, 'an answer large enough to be compressed');
        assert.equal(b.headers['content-encoding'], 'gzip');
        assert.equal(a.headers['content-encoding'], undefined);
        assert.equal(b.text, a.text);
        assert.deepEqual(b.body, a.body);
      } finally {
        await plain.close();
        await asked.close();
      }
    });
  });

  it('the CLI asks a server on the network unless --no-compression is given', async () => {
    const io: Io = { out: () => {}, err: () => {}, env: { XDG_CACHE_HOME: TEST_CACHE_HOME }, outTty: false, errTty: false };
    // A documentation address (TEST-NET-1): nothing is sent, as no space is checked.
    const opened = async (compression?: boolean) => (await openTarget({ url: 'http://192.0.2.77:9', quiet: true, ...(compression === undefined ? {} : { compression }) }, {} as SvcformConfig, io, []));
    for (const [flag, compressed] of [[undefined, true], [true, true], [false, false]] as const) {
      const target = await opened(flag);
      assert.equal(target.client.compressed, compressed, `compression ${flag}`);
      await target.close();
    }
  });
});
