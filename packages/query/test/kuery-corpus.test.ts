import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { corpusChecks } from './corpus-harness.js';
import { language } from '../src/kuery/index.js';
import { generatedKueries, KUERY_BROKEN, KUERY_HAND_WRITTEN } from './kuery-corpus.js';

/**
 * kuery corpus: realistic rule queries covering every construct the grammar has (field:value,
 * value lists, and/or/not in any case, quoted phrases, wildcards, ranges, exists, nested queries,
 * escapes) parse; broken ones fail at the asserted place with the asserted message.
 */

describe('kuery corpus', () => {
  it('reads a trailing and/or as part of an unquoted value, as the server does (a:b and is the value "b and")', () => {
    const r = language.parse('a:b and');
    assert.ok(r.ok);
    assert.equal(r.query.run([{ a: 'b and' }, { a: 'b' }]).length, 1);
  });

  corpusChecks(language, [...KUERY_HAND_WRITTEN, ...generatedKueries(1000)], KUERY_BROKEN.map(([query, offset, message]) => ({ query, offset, message })), 'exact');

  it('reports the fields a query names with their offsets, nested ones prefixed', () => {
    const r = language.parse('event.category:x and user:{ name:a } and not "host.name":b and c >= 1 and d:*');
    assert.ok(r.ok);
    assert.deepEqual(r.query.fields, [
      { name: 'event.category', offset: 0 },
      { name: 'user', offset: 21 },
      { name: 'user.name', offset: 28 },
      { name: 'host.name', offset: 45 },
      { name: 'c', offset: 63 },
      { name: 'd', offset: 74 },
    ]);
  });
});
