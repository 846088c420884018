import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeTestPackage } from '../helpers/package-dir.js';

const BIN = resolve('dist/src/cli/main.js');

function start(args: string[]): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, 'emulator', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, stderr: () => err, exited };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function health(url: string): Promise<number | undefined> {
  try {
    return (await fetch(`${url}/__emulator/health`)).status;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

describe('svcform emulator: --verbose and --quiet', () => {
  it('--verbose prints each answered request on stderr (method, path, status, ms)', async () => {
    const emu = start(['--port', '0', '--verbose']);
    try {
      const url = await until('the listening line', () => /listening on (http:\/\/\S+)/.exec(emu.stderr())?.[1]);
      assert.equal(await health(url), 200);
      await until('the request line', () => (/^GET \/__emulator\/health 200 \d+ ms$/m.test(emu.stderr()) ? true : undefined));
    } finally {
      emu.child.kill('SIGTERM');
    }
    assert.equal(await emu.exited, 0);
    assert.match(emu.stderr(), /svcform emulator stopped\n$/);
  });

  it('--quiet prints nothing: not the listening line, not the stopped line', async () => {
    const port = await freePort();
    const emu = start(['--port', String(port), '--quiet']);
    try {
      await until('the health route', async () => ((await health(`http://127.0.0.1:${port}`)) === 200 ? true : undefined));
    } finally {
      emu.child.kill('SIGTERM');
    }
    assert.equal(await emu.exited, 0);
    assert.equal(emu.stderr(), '');
  });
});

describe('svcform emulator: --packages and --registry', () => {
  it('--packages serves the packages of a folder besides the bundled ones (wire-facts §16 #9)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-packages-'));
    writeTestPackage(dir, 'doors', '0.3.0');
    const emu = start(['--port', '0', '--packages', dir]);
    try {
      const url = await until('the listening line', () => /listening on (http:\/\/\S+)/.exec(emu.stderr())?.[1]);
      const own = await fetch(`${url}/api/fleet/epm/packages/doors/0.3.0/data_stream/events/fields/fields.yml`);
      assert.equal(own.status, 200);
      assert.match(await own.text(), /name: door_id/);
      assert.equal((await fetch(`${url}/api/fleet/epm/packages/tcp`)).status, 200, 'the bundled packages stay');
    } finally {
      emu.child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(await emu.exited, 0);
  });

  it('--deployment cloud serves agentless policies, which the self-managed default refuses with 400; an unknown type is refused before listening', async () => {
    const body = JSON.stringify({ id: 'okta-logs', name: 'okta-logs', package: { name: 'okta', version: '3.1.0' } });
    const post = (url: string) => fetch(`${url}/api/fleet/agentless_policies`, { method: 'POST', headers: { 'content-type': 'application/json', 'kbn-xsrf': 'true' }, body });
    for (const [args, status] of [[['--deployment', 'cloud'], 200], [[], 400]] as const) {
      const emu = start(['--port', '0', ...args]);
      try {
        const url = await until('the listening line', () => /listening on (http:\/\/\S+)/.exec(emu.stderr())?.[1]);
        assert.equal((await post(url)).status, status, args.join(' ') || 'default');
      } finally {
        emu.child.kill('SIGTERM');
      }
      assert.equal(await emu.exited, 0);
    }
    const wrong = start(['--port', '0', '--deployment', 'on-prem']);
    assert.notEqual(await wrong.exited, 0);
    assert.match(wrong.stderr(), /--deployment must be one of self-managed, cloud, serverless/);
  });

  it('refuses a --packages path that is no folder and a --registry that is no http URL, before listening', async () => {
    const missing = start(['--port', '0', '--packages', join(tmpdir(), 'svcform-no-such-folder')]);
    assert.notEqual(await missing.exited, 0);
    assert.match(missing.stderr(), /--packages: .*svcform-no-such-folder is not a folder/);
    const registry = start(['--port', '0', '--registry', 'ftp://registry.example']);
    assert.notEqual(await registry.exited, 0);
    assert.match(registry.stderr(), /--registry must be an http:\/\/ or https:\/\/ URL/);
  });
});

describe('svcform emulator beyond loopback (issue 31: it serves connector secrets to whoever reaches it)', () => {
  it('--host 0.0.0.0 without a key refuses to start, saying how to give one', async () => {
    const emu = start(['--port', '0', '--host', '0.0.0.0']);
    // An emulator that starts anyway is stopped, and fails the test below, rather than hang it.
    const stray = setTimeout(() => emu.child.kill('SIGTERM'), 15_000);
    assert.notEqual(await emu.exited, 0);
    clearTimeout(stray);
    assert.match(emu.stderr(), /--host 0\.0\.0\.0 serves the emulator beyond this machine: require a key with --api-key KEY \(or SVC_EMULATOR_API_KEY\), or pass --insecure/);
    assert.doesNotMatch(emu.stderr(), /listening/);
  });

  for (const [label, args] of [
    ['with --api-key', ['--api-key', 'k-123']],
    ['with --insecure', ['--insecure']],
  ] as const) {
    it(`${label} it starts and names the address it is bound to, and the URL this machine reaches it at`, async () => {
      const emu = start(['--port', '0', '--host', '0.0.0.0', ...args]);
      try {
        const url = await until('the listening line', () => /listening on 0\.0\.0\.0:\d+ \(from this machine: (http:\/\/127\.0\.0\.1:\d+)\)/.exec(emu.stderr())?.[1]);
        assert.equal(await health(url), 200);
      } finally {
        emu.child.kill('SIGTERM');
      }
      assert.equal(await emu.exited, 0);
    });
  }
});
