import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { corpusChecks } from './corpus-harness.js';
import { language } from '../src/qlang/index.js';
import { QLANG_BROKEN, QLANG_QUERIES } from './qlang-corpus.js';

describe('qlang corpus', () => {
  corpusChecks(language, QLANG_QUERIES, QLANG_BROKEN, 'prefix');

  it('names the source fields a query reads, not the columns it creates, and its FROM patterns', () => {
    const r = language.parse('FROM logs-a, logs-b METADATA _id | EVAL n = LENGTH(user.name) | STATS c = COUNT(*) BY n, host.name | WHERE c > 1 | KEEP c, _id');
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual(r.query.fields, [
      { name: 'user.name', offset: 51 },
      { name: 'host.name', offset: 89 },
    ]);
    assert.deepEqual(r.query.indices, ['logs-a', 'logs-b']);
  });
});
