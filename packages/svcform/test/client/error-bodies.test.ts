import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, SvcClient } from '../../src/client/client.js';
import { Redactor, SENSITIVE } from '../../src/manifest/redact.js';
import { recordingServer, sendJson, type RecordingServer } from './servers.js';

/**
 * Issue 31 (encoded echoes): what the client keeps of an error body, and the order of redaction
 * and cutting. Error shapes: wire-facts 0.3 (both families) and 2.1 (the bulk action's answer).
 */
describe('error bodies are reduced to their known fields before anything can print them', () => {
  const secret = 'hook-password-7fQ2 with space';
  let server: RecordingServer;
  before(async () => {
    server = await recordingServer((req, res) => {
      const echo = req.body.toString('utf8');
      if (req.url === '/platform') {
        return sendJson(res, 400, { statusCode: 400, error: 'Bad Request', message: 'invalid body', attributes: { code: 'x', request: echo, agents: ['a1', 7] }, request: JSON.parse(echo), stack: 'at route (file.ts:1)' });
      }
      if (req.url === '/bulk') {
        return sendJson(res, 500, {
          success: false, status_code: 500, message: 'Bulk edit partially failed', rules_count: 2,
          attributes: {
            results: { updated: [], created: [], deleted: [{ id: 'r1', name: 'One', query: echo }], skipped: [] },
            summary: { failed: 1, skipped: 0, succeeded: 1, total: 2 },
            errors: [{ message: 'Rule not found', status_code: 404, rules: [{ id: 'r2', name: 'Two', secrets: echo }] }],
          },
        });
      }
      if (req.url === '/reason-echo') return sendJson(res, 400, { statusCode: 400, error: `Bad ${echo}`, message: 'no' });
      // A proxy's text page: padding, then the body in base64 across the 300-character cut.
      if (req.url === '/text-echo') {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`${'p'.repeat(290)}${Buffer.from(secret).toString('base64')} end`);
        return;
      }
      sendJson(res, 200, {});
    });
  });
  after(() => server.close());

  const failing = async (client: SvcClient, path: string) => {
    const err = await client.request({ method: 'POST', path, body: { secrets: { password: secret } } }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError, String(err));
    return err;
  };

  it('a platform error keeps statusCode, error, message and attributes.code/agents; the echoed request and the stack are gone', async () => {
    const client = new SvcClient({ url: server.url, maxAttempts: 1 });
    const err = await failing(client, '/platform');
    assert.deepEqual(err.body, { statusCode: 400, error: 'Bad Request', message: 'invalid body', attributes: { code: 'x', agents: ['a1'] } });
    assert.ok(!JSON.stringify(err.body).includes('hook-password'));
    await client.close();
  });

  it("a bulk action's answer keeps the ids, names, counts and messages it is read for, nothing of the rules or the echo", async () => {
    const client = new SvcClient({ url: server.url, maxAttempts: 1 });
    const err = await failing(client, '/bulk');
    assert.deepEqual(err.body, {
      success: false, status_code: 500, message: 'Bulk edit partially failed', rules_count: 2,
      attributes: {
        results: { updated: [], created: [], deleted: [{ id: 'r1', name: 'One' }], skipped: [] },
        summary: { failed: 1, skipped: 0, succeeded: 1, total: 2 },
        errors: [{ message: 'Rule not found', status_code: 404, rules: [{ id: 'r2', name: 'Two' }] }],
      },
    });
    await client.close();
  });

  it("the run's redactor hides an echo in the reason phrase as well as in the message", async () => {
    const r = new Redactor();
    r.add(secret);
    const client = new SvcClient({ url: server.url, maxAttempts: 1, redact: (t) => r.redact(t) });
    const err = await failing(client, '/reason-echo');
    assert.ok(!err.message.includes('hook-password'), err.message);
    assert.ok(err.message.includes(SENSITIVE));
    await client.close();
  });

  it('a text answer is redacted before it is cut, so a secret across the cut is not printed in part', async () => {
    const r = new Redactor();
    r.add(secret);
    const client = new SvcClient({ url: server.url, maxAttempts: 1, redact: (t) => r.redact(t) });
    const err = await failing(client, '/text-echo');
    const encoded = Buffer.from(secret).toString('base64');
    assert.ok(!err.serverMessage.includes(encoded.slice(0, 6)), err.serverMessage);
    assert.ok(err.serverMessage.startsWith(`${'p'.repeat(290)}(sensit`), err.serverMessage);
    await client.close();
  });
});
