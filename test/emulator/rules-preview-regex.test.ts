import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runPreview } from '../../src/emulator/areas/rules/preview-run.js';

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
