import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fnv1a, stringSetDifference, type StringHash } from '../../src/common/string-set-difference.js';
import { seededRandom } from '../../bench/generate.js';

/** What the answer must be: first occurrences, in the order of their own list, by plain Sets. */
function reference(before: string[], after: string[]): { added: string[]; removed: string[] } {
  const had = new Set(before);
  const has = new Set(after);
  return { added: [...has].filter((v) => !had.has(v)), removed: [...had].filter((v) => !has.has(v)) };
}

/** Two lists drawn from a small pool (so that they overlap, repeat and differ), shuffled. */
function lists(random: () => number): [string[], string[]] {
  const pool = Array.from({ length: 1 + Math.floor(random() * 40) }, (_, i) => (random() < 0.1 ? '' : `${random() < 0.5 ? '10.0.0.' : 'host-'}${i}${random() < 0.1 ? 'é' : ''}`));
  const draw = () => Array.from({ length: Math.floor(random() * 60) }, () => pool[Math.floor(random() * pool.length)]);
  return [draw(), draw()];
}

describe('stringSetDifference', () => {
  const hashes: Array<[string, StringHash]> = [
    ['FNV-1a', fnv1a],
    // Every string in one bucket with one hash: only the comparison by value tells them apart.
    ['a hash that always collides', () => 7],
    ['a hash of the length only', (s) => s.length],
  ];
  for (const [name, hash] of hashes) {
    it(`agrees with plain Sets on 3,000 seeded pairs of lists, with ${name}`, () => {
      const random = seededRandom(name.length);
      for (let n = 0; n < 3000; n++) {
        const [before, after] = lists(random);
        assert.deepEqual(stringSetDifference(before, after, hash), reference(before, after), JSON.stringify({ before, after }));
      }
    });
  }

  it('handles a bucket past the small-bucket limit (one value repeated, many colliding values)', () => {
    const before = [...Array.from({ length: 100 }, () => 'same'), ...Array.from({ length: 100 }, (_, i) => `b${i}`)];
    const after = [...Array.from({ length: 50 }, (_, i) => `b${i * 2}`), 'same', 'new', 'same'];
    for (const hash of [fnv1a, () => 1]) assert.deepEqual(stringSetDifference(before, after, hash), reference(before, after));
  });

  it('empty lists, and equal lists in different orders', () => {
    assert.deepEqual(stringSetDifference([], []), { added: [], removed: [] });
    assert.deepEqual(stringSetDifference([], ['a', 'a']), { added: ['a'], removed: [] });
    assert.deepEqual(stringSetDifference(['a', 'b'], []), { added: [], removed: ['a', 'b'] });
    const values = Array.from({ length: 100_000 }, (_, i) => `10.${i >> 8}.${i & 255}.1`);
    assert.deepEqual(stringSetDifference(values, [...values].reverse()), { added: [], removed: [] });
  });
});
