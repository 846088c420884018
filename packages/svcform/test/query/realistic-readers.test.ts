import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readEql } from '@svcform/query/eql/fast.js';
import { parse as parseEql } from '@svcform/query/eql/eql.generated.js';
import { readKuery } from '@svcform/query/kuery/fast.js';
import { parse as parseKuery } from '@svcform/query/kuery/kuery.generated.js';
import { realisticQueries } from '../../bench/realistic.js';

/**
 * The queries of the rules the plan and apply benchmarks generate, read by the query package's
 * hand-written readers: each builds the tree its grammar builds (the package's own tests hold the
 * readers to the grammars over their corpora and seeded edits; these are the benchmarks' queries,
 * which the speed figures rest on).
 */
describe('query readers on the benchmark rules', () => {
  const queries = realisticQueries();
  for (const [language, read, grammar] of [['eql', readEql, parseEql], ['kuery', readKuery, parseKuery]] as const) {
    it(`${language}: the reader builds the grammar's tree for each of the benchmark rules' queries`, () => {
      const texts = queries.get(language)!;
      assert.ok(texts.length > 10, `${texts.length} ${language} queries`);
      for (const text of texts) assert.deepStrictEqual(read(text), (grammar as (t: string, o: object) => unknown)(text, {}), text);
    });
  }
});
