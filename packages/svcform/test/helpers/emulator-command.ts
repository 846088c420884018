import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

/**
 * `svcform emulator --host 127.0.0.1 --port 0` run through the `svcform` on the PATH of `env` (an
 * installed package, an image's layout), for as long as `use` takes: `use` gets the URL the
 * emulator printed; afterwards it is stopped with SIGTERM and must exit 0.
 */
export async function withEmulatorCommand(env: NodeJS.ProcessEnv, cwd: string, use: (url: string) => Promise<void>): Promise<void> {
  const emu = spawn('svcform', ['emulator', '--host', '127.0.0.1', '--port', '0'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  emu.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((done) => emu.on('close', done));
  try {
    const end = Date.now() + 15_000;
    let url: string | undefined;
    while (!(url = /listening on (http:\/\/\S+)/.exec(err)?.[1])) {
      assert.ok(Date.now() < end, `the emulator did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal((await fetch(`${url}/__emulator/health`)).status, 200);
    await use(url);
  } finally {
    emu.kill('SIGTERM');
  }
  assert.equal(await exited, 0, err);
}
