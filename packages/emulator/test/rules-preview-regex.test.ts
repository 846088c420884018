import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runPreview } from '../src/areas/rules/preview-run.js';

/**
 * Issue 31: a rule preview evaluates the rule's regexes and wildcards over the documents the
 * emulator holds. The backend reads them as Lucene RegExp and wildcard automata, which never
 * backtrack (wire-facts §16 #14), so a pattern such as `(a+)+b` costs the preview no more than
 * any other; with JavaScript's RegExp it took exponential time in the value's length.
 */

const run = { startedAt: Date.parse('2024-05-01T12:00:00Z'), from: Date.parse('2024-05-01T11:54:00Z'), to: Date.parse('2024-05-01T12:00:00Z') };
const document = (id: string, name: string) => ({ _id: id, _index: 'logs-x', _source: { '@timestamp': '2024-05-01T11:58:00Z', event: { category: 'process' }, process: { name } } });

async function alertsOf(rule: Record<string, unknown>, names: string[]): Promise<number> {
  const out = await runPreview({
    rule: { name: 'r', severity: 'low', risk_score: 1, max_signals: 100, index: ['logs-*'], ...rule },
    previewId: 'p',
    space: 'default',
    runs: [run],
    documents: () => names.map((name, i) => document(`d${i}`, name)),
  });
  assert.deepEqual(out.logs[0]!.errors, []);
  return out.alerts.length;
}

describe('emulator: rule preview over hostile patterns (issue 31)', () => {
  it('an eql regex (a+)+b and a many-star wildcard over long values finish at once', async () => {
    const names = ['a'.repeat(40), `${'a'.repeat(40)}b`, 'a'.repeat(60)];
    const started = Date.now();
    assert.equal(await alertsOf({ type: 'eql', language: 'eql', query: 'process where process.name regex "(a+)+b"' }, names), 1);
    assert.equal(await alertsOf({ type: 'eql', language: 'eql', query: `process where process.name : "${'*a'.repeat(15)}*c"` }, names), 0);
    assert.equal(await alertsOf({ type: 'query', language: 'lucene', query: 'process.name:/(a|aa)+c/' }, names), 0);
    assert.equal(await alertsOf({ type: 'query', language: 'kuery', query: `process.name:${'*a'.repeat(15)}*b` }, names), 1);
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  });
});

describe('emulator: a preview holds neither the event loop nor the request past its budget (issue 31)', () => {
  it('stops running invocations past the budget and answers isAborted, as the route does past PREVIEW_TIMEOUT_SECONDS', async () => {
    const out = await runPreview({
      rule: { name: 'r', severity: 'low', risk_score: 1, max_signals: 100, index: ['logs-*'], type: 'query', language: 'kuery', query: 'process.name:a' },
      previewId: 'p',
      space: 'default',
      runs: [run, run, run],
      documents: () => [document('d1', 'a')],
      budgetMs: -1,
    });
    assert.equal(out.isAborted, true);
    assert.equal(out.logs.length, 1, 'the first invocation ran; the rest were not started');
  });

  it('the health route answers while a preview of many invocations runs', async () => {
    const { startEmulator } = await import('../src/server.js');
    const emu = await startEmulator({ port: 0 });
    try {
      // Spread over the invocations' windows, so that every invocation matches documents and the
      // preview runs long (1.6 s on Node 20 here) on any machine: with every document at one
      // minute, Node 26 finished it before the health request was sent.
      const docs = Array.from({ length: 3000 }, (_, i) => ({ '@timestamp': new Date(Date.parse('2024-05-01T12:00:00Z') - (i % 400) * 60_000).toISOString(), process: { name: `p${i}` } }));
      await fetch(`${emu.url}/__emulator/documents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ index: 'logs-x', documents: docs }) });
      const body = { name: 'r', description: 'd', severity: 'low', risk_score: 1, type: 'eql', language: 'eql', query: 'process where process.name : "p*"', index: ['logs-*'], interval: '1m', from: 'now-100000m', invocation_count: 400, timeframe_end: '2024-05-01T12:00:00Z' };
      const preview = fetch(`${emu.url}/api/detection_engine/rules/preview`, { method: 'POST', headers: { 'content-type': 'application/json', 'kbn-xsrf': 'x' }, body: JSON.stringify(body) }).then(async (r) => ({ at: Date.now(), status: r.status }));
      await new Promise((r) => setTimeout(r, 50));
      const health = await fetch(`${emu.url}/__emulator/health`).then((r) => ({ at: Date.now(), status: r.status }));
      const done = await preview;
      assert.equal(health.status, 200);
      assert.equal(done.status, 200);
      assert.ok(health.at < done.at, `health answered at +${health.at - done.at} ms relative to the preview`);
    } finally {
      await emu.stop();
    }
  });
});
