import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { Redactor } from '../../src/manifest/redact.js';
import { runCli } from '../../src/cli/program.js';
import type { Io, StopSignal } from '../../src/cli/context.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { recordingServer, sendJson } from '../client/servers.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

describe('secrets in every encoding are redacted (issue 11: item 5)', () => {
  it('raw, JSON-escaped, doubly escaped, URL-encoded, base64, and each line of a multi-line secret', () => {
    const r = new Redactor();
    const tricky = 'pa"ss\\word/with spaces';
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----';
    r.add(tricky);
    r.add(pem);
    const outputs = [
      tricky,
      JSON.stringify({ password: tricky }),
      JSON.stringify(JSON.stringify({ password: tricky })),
      `https://x/?p=${encodeURIComponent(tricky)}`,
      `Basic ${Buffer.from(tricky).toString('base64')}`,
      JSON.stringify({ key: pem }),
      'line 2 of the key: MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
    ];
    for (const text of outputs) {
      const red = r.redact(text);
      assert.ok(!red.includes('pa"ss') && !red.includes('ss\\\\word') && !red.includes('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'), red);
      assert.match(red, /\(sensitive\)/, text);
    }
    assert.equal(r.redact('-----BEGIN PRIVATE KEY-----'), '-----BEGIN PRIVATE KEY-----', 'armour lines are not secret');
  });

  it('a server echoing the request body in its error never puts a connector secret in apply output', async () => {
    const secret = 'S3cr"et\\with\nnewline-and-more';
    const server = await recordingServer((req, res) => {
      if (req.url.startsWith('/api/spaces/space/')) return sendJson(res, 200, { id: 'default' });
      if (req.method === 'GET') return sendJson(res, 200, []);
      sendJson(res, 400, { statusCode: 400, error: 'Bad Request', message: `cannot use body ${req.body.toString('utf8')}` });
    });
    const dir = mkdtempSync(join(tmpdir(), 'svcform-echo-'));
    writeFileSync(join(dir, 'c.yaml'), ['apiVersion: svcform/v1', 'kind: Connector', 'metadata: {name: soc-hook}', 'spec:', '  name: Hook', '  connector_type_id: .webhook', '  config: {url: "https://h.example.com/x", method: post}', '  secrets: {user: u, password: "${env:HOOK_PASSWORD}"}', ''].join('\n'));
    for (const args of [['apply', dir, '--url', server.url], ['apply', dir, '--url', server.url, '--json']]) {
      const run = await cli(args, { HOOK_PASSWORD: secret });
      assert.equal(run.code, 1, run.out + run.err);
      assert.match(run.out + run.err, /cannot use body/);
      for (const form of [secret, JSON.stringify(secret).slice(1, -1), 'with\\nnewline', 'newline-and-more']) {
        assert.ok(!(run.out + run.err).includes(form), `${args.join(' ')} printed ${form}`);
      }
    }
    await server.close();
  });
});

describe('nothing secret at rest (issue 11: item 6)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ apiKey: undefined });
  });
  after(() => emu.stop());

  it('plan --out keeps no credentials from --url and writes the file 0600', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-saved-'));
    const planFile = join(dir, 'plan.json');
    writeFileSync(planFile, '{}', { mode: 0o644 });
    const url = emu.url.replace('http://', 'http://ci-user:Pl4in-Passw0rd@');
    const saved = await cli(['plan', 'examples/maintenance', '--url', url, '--out', planFile]);
    assert.equal(saved.code, 0, saved.err);
    const text = readFileSync(planFile, 'utf8');
    assert.ok(!text.includes('Pl4in-Passw0rd') && !text.includes('ci-user:'), 'no credentials in the saved plan');
    assert.equal(statSync(planFile).mode & 0o777, 0o600);
    assert.match(saved.err, /credentials in --url were not saved/);
  });
});

describe('SIGINT and SIGTERM during apply (issue 11: item 10)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ latencyMs: 150 });
  });
  after(() => emu.stop());

  it('finishes what is in flight, starts nothing new, prints the summary and exits 130', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-sig-'));
    cpSync('examples/hostquery', dir, { recursive: true });
    cpSync('examples/fleet', join(dir, 'fleet'), { recursive: true });
    let fire: ((s: StopSignal) => void) | undefined;
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { PATH: process.env.PATH, XDG_CACHE_HOME: TEST_CACHE_HOME },
      outTty: false,
      errTty: false,
      onSignal(handler) {
        fire = handler;
        return () => {
          fire = undefined;
        };
      },
    };
    const running = runCli(['apply', dir, '--url', emu.url, '--concurrency', '1'], io);
    const timer = setInterval(() => {
      if (fire && out.some((l) => l.startsWith('✓'))) {
        fire('SIGINT');
        clearInterval(timer);
      }
    }, 20);
    const code = await running;
    clearInterval(timer);
    assert.equal(code, 130, out.join('\n') + err.join('\n'));
    const text = out.join('\n');
    assert.match(text, /not started, apply was interrupted/);
    const summary = text.match(/Apply: (\d+) done, 0 failed, (\d+) skipped\./);
    assert.ok(summary, text);
    assert.match(err.join('\n'), /Interrupted by SIGINT/);
    // The summary is what the server holds: the next plan creates exactly what was skipped.
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.match(plan.out, new RegExp(`Plan: ${summary![2]} to create`));
  });
});
