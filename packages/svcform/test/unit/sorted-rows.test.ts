import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { hashSortedRows } from '../../src/common/sorted-rows.js';

/** The bytes hashSortedRows stands for: every row made, sorted as strings, joined, a newline after the last. */
function wholeRows(items: Array<[string, string]>): string {
  const rows = items.map(([lead, rest]) => `${lead}\u0000${rest}`).sort();
  return createHash('sha256').update(rows.length ? rows.join('\n') + '\n' : '').digest('hex');
}

function streamed(items: Array<[string, string]>): { digest: string; made: number } {
  const hash = createHash('sha256');
  let made = 0;
  hashSortedRows(hash, items, ([lead]) => lead, ([, rest]) => {
    made++;
    return rest;
  });
  return { digest: hash.digest('hex'), made };
}

describe('rows hashed in sorted order, one at a time (src/common/sorted-rows.ts)', () => {
  it('hashes the bytes of the sorted, joined rows, whatever the leads', () => {
    const cases: Array<Array<[string, string]>> = [
      [],
      [['b', '{"x":1}'], ['a', '{"x":2}'], ['ab', '{}'], ['a b', '[]']],
      // A lead that is the start of another: the NUL sorts below every other character.
      [['rule-1', 'z'], ['rule-10', 'a'], ['rule-1a', 'm'], ['rule', 'q']],
      // Beyond the BMP and accents: code units, as a string sort.
      [['\u00e9t\u00e9', '"\u{1F600}"'], ['ete', '"x"'], ['\u{1F600}', '"y"'], ['\uFF21', '"w"']],
      // Equal leads: ordered by the rest of the row.
      [['same', '{"b":1}'], ['same', '{"a":1}'], ['other', '{}']],
      // A NUL inside a lead changes where rows differ: every row is made and sorted.
      [['a', 'z'], ['a\u0000b', 'a'], ['a\u0000', 'c']],
    ];
    for (const items of cases) assert.equal(streamed(items).digest, wholeRows(items), JSON.stringify(items));
  });

  it('makes each row once', () => {
    const items: Array<[string, string]> = Array.from({ length: 50 }, (_, i) => [`name-${(i * 37) % 50}`, `{"i":${i}}`]);
    const { digest, made } = streamed(items);
    assert.equal(digest, wholeRows(items));
    assert.equal(made, 50);
  });
});
