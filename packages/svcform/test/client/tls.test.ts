import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcClient, TransportError } from '../../src/client/client.js';

/** A self-signed certificate made with the openssl CLI; a missing openssl fails the suite. */
function selfSigned(dir: string, name: string, subject: string, extra: string[] = []): { cert: string; key: string } {
  const cert = join(dir, `${name}-cert.pem`);
  const key = join(dir, `${name}-key.pem`);
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', subject, ...extra], {
      stdio: 'pipe',
    });
  } catch (err) {
    throw new Error(`the TLS tests need the openssl CLI to make certificates: ${(err as Error).message}`);
  }
  return { cert, key };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('client TLS (service-api.md Authentication 5: verification on, custom CA, client certificate)', () => {
  let dir: string;
  let serverPem: { cert: string; key: string };
  let clientPem: { cert: string; key: string };
  let plain: Server;
  let mutual: Server;
  let plainUrl: string;
  let mutualUrl: string;
  const served: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-tls-'));
    serverPem = selfSigned(dir, 'server', '/CN=localhost', ['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']);
    clientPem = selfSigned(dir, 'client', '/CN=svcform-client');
    const answer = (name: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
      served.push(name);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ server: name }));
    };
    const key = readFileSync(serverPem.key);
    const cert = readFileSync(serverPem.cert);
    plain = createServer({ key, cert }, answer('plain'));
    mutual = createServer({ key, cert, requestCert: true, rejectUnauthorized: true, ca: readFileSync(clientPem.cert) }, answer('mutual'));
    plainUrl = await listen(plain);
    mutualUrl = await listen(mutual);
  });

  after(async () => {
    await stop(plain);
    await stop(mutual);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a self-signed server certificate without caCert, after one attempt and with a hint', async () => {
    let retried = 0;
    const client = new SvcClient({ url: plainUrl, onRetry: () => (retried += 1) });
    const err = await client.request({ method: 'GET', path: '/api/spaces/space' }).catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof TransportError, String(err));
    assert.match(err.message, /^GET \/api\/spaces\/space failed: .*(SELF_SIGNED|UNABLE_TO_VERIFY).*pass its CA with caCert/);
    assert.equal(err.attempts, 1);
    assert.equal(retried, 0);
    assert.ok(!served.includes('plain'));
  });

  it('trusts the server when its CA is given as caCert', async () => {
    const client = new SvcClient({ url: plainUrl, caCert: serverPem.cert });
    const res = await client.request({ method: 'GET', path: '/api/spaces/space' });
    await client.close();
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { server: 'plain' });
  });

  it('presents a client certificate where the server requires one, and fails without it', async () => {
    const without = new SvcClient({ url: mutualUrl, caCert: serverPem.cert, maxAttempts: 2, retryBaseMs: 1 });
    const err = await without.request({ method: 'GET', path: '/api/x' }).catch((e: unknown) => e);
    await without.close();
    assert.ok(err instanceof TransportError, String(err));
    assert.ok(!served.includes('mutual'));

    const withCert = new SvcClient({ url: mutualUrl, caCert: serverPem.cert, clientCert: clientPem.cert, clientKey: clientPem.key });
    const res = await withCert.request({ method: 'GET', path: '/api/x' });
    await withCert.close();
    assert.deepEqual(res.body, { server: 'mutual' });
  });

  it('reads the PEM files at construction and names a missing one', () => {
    const missing = join(dir, 'absent.pem');
    assert.throws(() => new SvcClient({ url: plainUrl, caCert: missing }), new RegExp(`cannot read caCert file ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.throws(() => new SvcClient({ url: plainUrl, clientCert: clientPem.cert }), /clientCert and clientKey go together/);
  });
});
