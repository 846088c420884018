import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { corpusChecks } from './corpus-harness.js';
import { language } from '../src/eql/index.js';
import { EQL_BROKEN, EQL_QUERIES } from './eql-corpus.js';

describe('eql corpus', () => {
  corpusChecks(language, EQL_QUERIES, EQL_BROKEN, 'prefix');

  it('names the fields a query uses, with their offsets (an optional field after its "?")', () => {
    const r = language.parse('sequence by host.id [process where ?process.name == "a" and startsWith(`user name`.x, "b")] [file where true]');
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual(r.query.fields, [
      { name: 'host.id', offset: 12 },
      { name: 'process.name', offset: 36 },
      { name: 'user name.x', offset: 71 },
    ]);
  });
});
