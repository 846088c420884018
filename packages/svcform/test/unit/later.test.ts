import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defineLater, Later } from '../../src/common/later.js';

describe('values worked out when first read (src/common/later.ts)', () => {
  it('computes once, when read, and says whether it was', () => {
    let calls = 0;
    const later = new Later(() => ({ line: ++calls }));
    assert.equal(later.known, false);
    assert.equal(calls, 0);
    assert.deepEqual(later.get(), { line: 1 });
    assert.equal(later.get(), later.get());
    assert.equal(calls, 1);
    assert.equal(later.known, true);
  });

  it('a property read from it is seen by JSON and spreads, as a plain one', () => {
    let calls = 0;
    const finding = defineLater({ message: 'm' }, 'pos', new Later(() => ({ line: 3, calls: ++calls })));
    assert.equal(calls, 0);
    assert.equal(JSON.stringify(finding), '{"message":"m","pos":{"line":3,"calls":1}}');
    assert.deepEqual({ ...finding }, { message: 'm', pos: { line: 3, calls: 1 } });
    assert.equal(calls, 1);
  });
});
