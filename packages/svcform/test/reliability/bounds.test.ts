import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { SvcClient, ResponseError } from '../../src/client/client.js';
import { cli } from '../helpers/cli.js';
import { recordingServer, sendJson, type RecordedRequest } from '../client/servers.js';

const RULE = ['apiVersion: svcform/v1', 'kind: Rule', 'metadata: {name: r1}', 'spec:', '  type: query', '  name: R1', '  description: d', '  severity: low', '  risk_score: 1', "  query: 'a:b'", ''].join('\n');

function ruleRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-bounds-'));
  writeFileSync(join(dir, 'rule.yaml'), RULE);
  return dir;
}

/** Answers the space check; hands every other request to `rest`. */
function withSpaces(rest: (req: RecordedRequest, res: ServerResponse) => void) {
  return (req: RecordedRequest, res: ServerResponse) => {
    if (req.url.startsWith('/api/spaces/space/')) return sendJson(res, 200, { id: 'default', name: 'Default' });
    rest(req, res);
  };
}

describe('every wait and read is bounded (issue 11: item 7)', () => {
  it('a server that trickles one byte a second fails the run within the --timeout budget', async () => {
    const timers: NodeJS.Timeout[] = [];
    const server = await recordingServer(
      withSpaces((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        timers.push(setInterval(() => res.write(' '), 1000));
      }),
    );
    const started = Date.now();
    const run = await cli(['plan', ruleRepo(), '--url', server.url, '--timeout', '1']);
    const elapsed = Date.now() - started;
    for (const t of timers) clearInterval(t);
    await server.close();
    assert.equal(run.code, 1);
    assert.match(run.out + run.err, /no complete answer within 1 s \(--timeout\)/);
    assert.ok(elapsed < 6000, `took ${elapsed} ms`);
  });

  it('a server that never sends headers fails just as fast', async () => {
    const server = await recordingServer(withSpaces(() => undefined));
    const started = Date.now();
    const run = await cli(['plan', ruleRepo(), '--url', server.url, '--timeout', '1']);
    const elapsed = Date.now() - started;
    await server.close();
    assert.equal(run.code, 1);
    assert.ok(elapsed < 6000, `took ${elapsed} ms`);
  });

  it('--deadline bounds the whole run, retries included', async () => {
    const server = await recordingServer(withSpaces((_req, res) => sendJson(res, 503, { message: 'busy' }, { 'retry-after': '30' })));
    const started = Date.now();
    const run = await cli(['plan', ruleRepo(), '--url', server.url, '--deadline', '2']);
    const elapsed = Date.now() - started;
    await server.close();
    assert.equal(run.code, 1);
    assert.match(run.out + run.err, /503/);
    assert.ok(elapsed < 5000, `took ${elapsed} ms`);
  });

  it('an endless answer is cut off at the size limit instead of filling memory', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const server = await recordingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (res.write(chunk)) if (res.destroyed) return;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const client = new SvcClient({ url: server.url, maxResponseBytes: 4 * 1024 * 1024 });
    const err = await client.request({ method: 'GET', path: '/api/actions/connectors' }).catch((e: unknown) => e);
    await client.close();
    await server.close();
    assert.ok(err instanceof ResponseError, String(err));
    assert.match((err as Error).message, /larger than 4 MiB/);
  });

  it('a page total that is absurd or not a count stops the listing with the route named', async () => {
    for (const total of [1e12, 'many', -1]) {
      const server = await recordingServer(withSpaces((_req, res) => sendJson(res, 200, { page: 1, perPage: 1000, total, data: [] })));
      const started = Date.now();
      const run = await cli(['plan', ruleRepo(), '--url', server.url]);
      await server.close();
      assert.equal(run.code, 1, String(total));
      assert.match(run.err + run.out, /GET \/api\/detection_engine\/rules\/_find: the server reported|holds 1000000000000 rules/, String(total));
      assert.ok(Date.now() - started < 5000);
      assert.ok(server.requests.length < 40, `${server.requests.length} requests for total ${total}`);
    }
  });

  it('an answer in the wrong shape names the route and status, not a JavaScript error', async () => {
    const server = await recordingServer(withSpaces((_req, res) => sendJson(res, 200, 'an HTML login page, say')));
    const run = await cli(['plan', ruleRepo(), '--url', server.url]);
    await server.close();
    assert.equal(run.code, 1);
    assert.doesNotMatch(run.out + run.err, /Cannot read properties/);
    assert.match(run.out + run.err, /GET \/api\/detection_engine\/rules\/_find/);
  });
});
