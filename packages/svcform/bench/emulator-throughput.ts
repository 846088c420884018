// Emulator throughput: simple GETs per second with latency injection off. The emulator runs in its
// own process (as `svcform emulator` does in users' CI) so the load generator does not share its
// event loop. Prints the figure; asserts nothing.
import { spawn } from 'node:child_process';
import { Pool } from 'undici';

const TOTAL = Number(process.env.REQUESTS ?? 30000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const PATHS = ['/api/actions/connectors', '/api/spaces/space/default', '/api/detection_engine/rules/_find?per_page=20', '/api/uptime/settings'];

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['dist/src/cli/main.js', 'emulator', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stderr.on('data', (d) => {
      buf += d;
      const m = /listening on (http:\/\/\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}: ${buf}`)));
  });
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
  const one = async (i: number) => {
    const res = await pool.request({ method: 'GET', path: PATHS[i % PATHS.length] });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  };
  for (let i = 0; i < 2000; i++) await one(i); // warm-up
  for (const path of PATHS) {
    let next = 0;
    const started = process.hrtime.bigint();
    const n = Math.floor(TOTAL / PATHS.length);
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < n) {
          next++;
          const res = await pool.request({ method: 'GET', path });
          await res.body.text();
        }
      }),
    );
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`GET ${path.padEnd(48)} ${n} requests in ${secs.toFixed(2)} s: ${Math.round(n / secs)} requests/s`);
  }
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < TOTAL) await one(next++);
    }),
  );
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`mixed simple GETs: ${TOTAL} requests over ${CONNECTIONS} connections in ${secs.toFixed(2)} s = ${Math.round(TOTAL / secs)} requests/s`);
  await pool.close();
  child.kill('SIGTERM');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
