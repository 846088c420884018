import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runPreview, type PreviewInput } from '../src/areas/rules/preview-run.js';
import type { QueryLanguage, QueryLanguageName } from '@svcform/query/types.js';

/**
 * How a preview loads a rule's language (src/query/languages.ts loadLanguage): a language module
 * missing from the build is the preview's error log (the route logs a failed run and stops:
 * K-DE rule_preview/api/preview_rules/route.ts); any other failure to load is a bug and is thrown.
 */

const run = { startedAt: Date.parse('2024-05-01T12:00:00Z'), from: Date.parse('2024-05-01T11:54:00Z'), to: Date.parse('2024-05-01T12:00:00Z') };
const input = (load: (name: QueryLanguageName) => Promise<QueryLanguage>): PreviewInput => ({
  rule: { type: 'query', language: 'kuery', query: 'process.name: cmd.exe', name: 'r', severity: 'low', risk_score: 1, max_signals: 100 },
  previewId: 'p',
  space: 'default',
  runs: [run],
  documents: () => [],
  load,
});

describe('emulator: rule preview language loading', () => {
  it('turns a missing language module into a clear preview error', async () => {
    const missing = Object.assign(new Error('Cannot find module'), { code: 'ERR_MODULE_NOT_FOUND' });
    const out = await runPreview(input(() => Promise.reject(missing)));
    assert.deepEqual(out.logs.map((l) => l.errors), [['the emulator cannot run kuery queries: this build has no kuery evaluator (src/query/kuery/)']]);
    assert.deepEqual(out.alerts, []);
  });

  it('throws any other loading failure rather than hiding it in a log', async () => {
    await assert.rejects(runPreview(input(() => Promise.reject(new TypeError('grammar bug')))), /grammar bug/);
  });

  it('runs a match-all query (empty, *, *:*) without loading a language', async () => {
    for (const query of ['', '*', '*:*']) {
      const out = await runPreview({ ...input(() => Promise.reject(new Error('must not load'))), rule: { ...input(async () => ({}) as QueryLanguage).rule, query } });
      assert.deepEqual(out.logs[0]!.errors, [], query);
    }
  });
});
