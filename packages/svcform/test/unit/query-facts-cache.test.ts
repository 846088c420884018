import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preloadLanguages } from '@svcform/query/preload.js';
import { DiskCache } from '../../src/common/disk-cache.js';
import { factsOf, saveQueryFacts, useQueryFactsCache } from '../../src/kinds/rule/query-facts.js';

/**
 * The query facts kept between runs (src/kinds/rule/query-facts.ts) are read at the first query a
 * run checks, not when the run starts: a repeated plan whose documents are all known clean checks
 * none, and on the real rules reading them was 25-40 ms of it.
 */
describe('query facts kept between runs are read only when a query is checked', () => {
  it('a run that checks no query never reads them; one that checks a query reads them once, and knows what they hold', async () => {
    await preloadLanguages(['kuery']);
    const cache = DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-facts-')))!;
    // Facts only the disk holds (no parse gives a field of that name), as an earlier run kept them.
    const kept = { fields: [{ name: 'kept.only.on.disk', offset: 0 }] };
    assert.ok(cache.write('query-checks', { format: 2, entries: [['kuery\u0000process.name: from-disk', kept]] }));

    const reads: string[] = [];
    const watched = Object.assign(Object.create(cache) as DiskCache, { read: (name: string) => (reads.push(name), cache.read(name)) });
    useQueryFactsCache(watched);
    assert.deepEqual(saveQueryFacts(), { parsed: 0, reused: 0 });
    assert.deepEqual(reads, [], 'no query checked: nothing read');

    useQueryFactsCache(watched);
    factsOf('kuery', 'process.name: other');
    factsOf('kuery', 'process.name: another');
    assert.deepEqual(reads, ['query-checks'], 'read once, at the first query');
    assert.deepEqual(factsOf('kuery', 'process.name: from-disk'), kept, 'the kept facts, not a parse');
    assert.deepEqual(saveQueryFacts(), { parsed: 2, reused: 1 });
  });
});
