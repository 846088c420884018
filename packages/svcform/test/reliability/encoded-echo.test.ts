import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/**
 * Issue 31 (encoded echoes): "a server or proxy that echoes the request body in an error,
 * URL-encoded or base64-encoded at any alignment, gets 9/9 connectors' secrets printed". Here a
 * proxy in front of the emulator passes reads through and answers every connector write 400 with
 * the request body in each encoding, the base64 ones behind 0, 1 and 2 bytes of padding so every
 * secret lands at each of the three alignments. What the secret contributes to each echo is found
 * by flipping its bits and re-encoding, independently of how the redactor computes its forms.
 */

const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const form = (s: string) => new URLSearchParams({ b: s }).toString().slice(2);
const ENCODINGS: Record<string, (body: Buffer) => string> = {
  'url-%20': (b) => encodeURIComponent(b.toString('utf8')),
  'url-%20-lower': (b) => lowerHex(encodeURIComponent(b.toString('utf8'))),
  'url-plus': (b) => form(b.toString('utf8')),
  'url-plus-lower': (b) => lowerHex(form(b.toString('utf8'))),
  ...Object.fromEntries(
    [0, 1, 2].flatMap((pad) => [
      [`base64+${pad}`, (b: Buffer) => Buffer.concat([Buffer.alloc(pad, 'x'), b]).toString('base64')],
      [`base64url+${pad}`, (b: Buffer) => Buffer.concat([Buffer.alloc(pad, 'x'), b]).toString('base64url')],
    ]),
  ),
  hex: (b) => b.toString('hex'),
  'hex-upper': (b) => b.toString('hex').toUpperCase(),
};

/** Nine connector types, each with secrets from the environment (and one bearer header in config). */
const SECRETS: Record<string, string> = {
  HOOK_PASSWORD: 'Hook "pass" w/ space+plus\\end',
  HOOK_BEARER: 'Bearer eyJhbGciOiJIUzI1NiJ9.c3ZjZm9ybQ.sig-1',
  MAIL_PASSWORD: "m@il!*'()~pässwörd",
  GENAI_KEY: 'sk-proj-0123456789abcdefABCDEF',
  CHAT_URL: 'https://chat.example.com/hooks/T000/B000/XXXXsecretXXXX',
  PAGER_KEY: 'routing key 42/43',
  SLACK_TOKEN: 'xoxb-1111-2222-abcdEFGH',
  SWIM_TOKEN: 'swim&lane=token;1',
  TINES_TOKEN: 'tines:tok%en#1',
  GENIE_KEY: 'genie-key-😀-unicode',
};

const CONNECTORS: Array<[string, string, string, string]> = [
  ['hook', '.webhook', '{url: "https://h.example.com/x", method: post, hasAuth: true, headers: {Authorization: "${env:HOOK_BEARER}"}}', '{user: u, password: "${env:HOOK_PASSWORD}"}'],
  ['mail', '.email', '{from: soc@example.com, host: smtp.example.com, port: 587}', '{user: soc, password: "${env:MAIL_PASSWORD}"}'],
  ['genai', '.gen-ai', '{apiProvider: OpenAI, apiUrl: "https://api.example.com/v1/chat/completions"}', '{apiKey: "${env:GENAI_KEY}"}'],
  ['chat', '.chat', '{}', '{webhookUrl: "${env:CHAT_URL}"}'],
  ['pager', '.pagerduty', '{apiUrl: "https://events.example.com/v2/enqueue"}', '{routingKey: "${env:PAGER_KEY}"}'],
  ['slack', '.slack_api', '{}', '{token: "${env:SLACK_TOKEN}"}'],
  ['swim', '.swimlane', '{apiUrl: "https://swim.example.com", appId: app, connectorType: all}', '{apiToken: "${env:SWIM_TOKEN}"}'],
  ['tines', '.tines', '{url: "https://tines.example.com"}', '{email: t@example.com, token: "${env:TINES_TOKEN}"}'],
  ['genie', '.opsgenie', '{apiUrl: "https://api.opsgenie.example.com"}', '{apiKey: "${env:GENIE_KEY}"}'],
];

const jsonEscaped = (s: string) => JSON.stringify(s).slice(1, -1);

interface Echo {
  body: Buffer;
  encoded: Record<string, string>;
}

/** The part of `encode(body)` that changes when every bit of `part` flips, the edge characters (partly context) left out. */
function secretSegment(encode: (b: Buffer) => string, body: Buffer, part: Buffer): string {
  const at = body.indexOf(part);
  const flipped = Buffer.from(body);
  for (let i = at; i < at + part.length; i++) flipped[i] ^= 0xff;
  const a = encode(body);
  const b = encode(flipped);
  let first = -1;
  let last = -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return a.slice(first + 1, last);
}

describe('a server echoing the request body in any encoding never gets a secret printed (issue 31)', () => {
  let emu: RunningEmulator;
  let proxy: Server;
  let url: string;
  const echoes: Echo[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'svcform-echo-'));

  before(async () => {
    emu = await emulator();
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        if (req.method !== 'GET') {
          const encoded = Object.fromEntries(Object.entries(ENCODINGS).map(([label, encode]) => [label, encode(body)]));
          echoes.push({ body, encoded });
          const message = `cannot read request ${Object.entries(encoded).map(([label, text]) => `[${label}] ${text}`).join(' ')}`;
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ statusCode: 400, error: 'Bad Request', message }));
          return;
        }
        const upstream = await fetch(emu.url + req.url, { headers: { authorization: String(req.headers.authorization ?? '') } });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    for (const [name, type, config, secrets] of CONNECTORS) {
      writeFileSync(join(dir, `${name}.yaml`), ['apiVersion: svcform/v1', 'kind: Connector', `metadata: {name: soc-${name}}`, 'spec:', `  name: SOC ${name}`, `  connector_type_id: ${type}`, `  config: ${config}`, `  secrets: ${secrets}`, ''].join('\n'));
    }
  });
  after(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await emu.stop();
  });

  for (const flags of [[], ['--json'], ['--verbose']]) {
    it(`apply ${flags.join(' ') || '(text)'}: each echo is printed, no encoding of any secret is`, async () => {
      echoes.length = 0;
      const run = await cli(['apply', dir, '--url', url, '--no-lock', '--concurrency', '2', ...flags], SECRETS);
      const output = run.out + run.err;
      assert.equal(run.code, 1, output);
      assert.equal(echoes.length, CONNECTORS.length, 'every connector was written once and echoed');
      for (const label of Object.keys(ENCODINGS)) assert.ok(output.includes(`[${label}] `), `the ${label} echo is printed`);
      assert.ok(output.includes('(sensitive)'));
      let checked = 0;
      for (const [name, secret] of Object.entries(SECRETS)) {
        for (const text of [secret, jsonEscaped(secret), jsonEscaped(jsonEscaped(secret))]) assert.ok(!output.includes(text), `${name} printed as ${text}`);
        const carried = Buffer.from(jsonEscaped(secret));
        const echo = echoes.find((e) => e.body.includes(carried));
        assert.ok(echo, `${name} was sent`);
        for (const [label, encode] of Object.entries(ENCODINGS)) {
          // Percent-encoding is character by character: the secret's part is its own encoding.
          const segment = label.startsWith('url') ? encode(carried) : secretSegment(encode, echo.body, carried)!;
          assert.ok(segment.length >= 8 && echo.encoded[label].includes(segment));
          assert.ok(!output.includes(segment), `${name} printed in the ${label} echo: ${segment}`);
          checked += 1;
        }
      }
      assert.equal(checked, Object.keys(SECRETS).length * Object.keys(ENCODINGS).length);
    });
  }
});
