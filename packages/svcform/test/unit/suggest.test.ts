import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { editDistanceWithin, NearMissIndex, nearMissDistance, nearMissSearches } from '@svcform/query/suggest.js';
import { checkRuleQueries } from '../../src/kinds/rule/query.js';
import { preloadLanguages } from '@svcform/query/preload.js';
import type { CheckContext, Resource } from '../../src/manifest/types.js';

/** The whole optimal-string-alignment table, as the definition reads: what the banded, early-exit one must agree with. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** A seeded generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A word of a small alphabet (so words share characters, as field names do), and one a few edits from it. */
function pair(next: () => number): [string, string] {
  const alphabet = 'abcd.e_';
  const word = Array.from({ length: Math.floor(next() * 14) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  let other = word;
  for (let edits = Math.floor(next() * 5); edits > 0; edits--) {
    const at = Math.floor(next() * (other.length + 1));
    const c = alphabet[Math.floor(next() * alphabet.length)]!;
    const op = Math.floor(next() * 4);
    if (op === 0) other = other.slice(0, at) + c + other.slice(at);
    else if (op === 1) other = other.slice(0, at) + other.slice(at + 1);
    else if (op === 2) other = other.slice(0, at) + c + other.slice(at + 1);
    else if (at + 1 < other.length) other = other.slice(0, at) + other[at + 1] + other[at] + other.slice(at + 2);
  }
  return [word, other];
}

describe('"did you mean" (@svcform/query suggest.ts)', () => {
  it('the banded distance with early exit is the full table capped at bound + 1, on 30,000 seeded pairs', () => {
    const next = random(29);
    for (let n = 0; n < 30_000; n++) {
      const [a, b] = pair(next);
      const bound = Math.floor(next() * 5);
      assert.equal(editDistanceWithin(a, b, bound), Math.min(reference(a, b), bound + 1), `${JSON.stringify(a)} ${JSON.stringify(b)} bound ${bound}`);
    }
  });

  it('the near-miss index finds a name at the least distance within reach, and none when there is none (its character filter drops no answer)', () => {
    const next = random(7);
    const names = Array.from({ length: 400 }, () => pair(next)[1]).filter((n) => n.length > 0);
    const index = new NearMissIndex(names);
    for (let n = 0; n < 2_000; n++) {
      const word = pair(next)[0];
      const reach = nearMissDistance(word);
      const best = Math.min(reach + 1, ...names.filter((name) => name !== word).map((name) => reference(word.toLowerCase(), name.toLowerCase())));
      const found = index.nearest(word);
      if (best > reach) assert.equal(found, undefined, word);
      else assert.equal(found === undefined ? undefined : reference(word.toLowerCase(), found.toLowerCase()), best, `${word} -> ${found}`);
    }
  });

  it('the near miss of an unknown query field is searched once per distinct name, however many rules name it', async () => {
    await preloadLanguages(['kuery']);
    const context: CheckContext = { strict: false, projectFields: new Set() };
    const rule = (i: number, field: string): Resource =>
      ({ kind: 'Rule', name: `r${i}`, spec: { type: 'query', language: 'kuery', query: `${field}:x${i} and host.name:h` } }) as unknown as Resource;
    const before = nearMissSearches();
    let warned = 0;
    for (let i = 0; i < 60; i++) warned += checkRuleQueries(rule(i, ['proces.name', 'user.nmae', 'zzz.not.near'][i % 3]!), context).length;
    assert.equal(warned, 40, 'the two near misses warn in each of their 20 rules; the far name passes');
    assert.equal(nearMissSearches() - before, 3);
  });
});
