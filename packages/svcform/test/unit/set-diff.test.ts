import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffSpecs } from '../../src/engine/diff.js';

/** Set-like arrays (setFields) compare by membership: order and repetition do not matter. */
describe('diffSpecs on set-like arrays', () => {
  const sets = { setFields: ['/items'] };

  it('strings: equal whatever the order and repetition; members added and removed each once', () => {
    assert.equal(diffSpecs({ items: ['a', 'b', 'c'] }, { items: ['c', 'a', 'b', 'a'] }, sets).equal, true);
    const d = diffSpecs({ items: ['a', 'a', 'b', 'c'] }, { items: ['b', 'd', 'a', 'd'] }, sets);
    assert.deepEqual(d.fields, [{ pointer: '/items', added: ['d'], removed: ['c'], sensitive: false }]);
    assert.deepEqual(d.patch, [{ op: 'remove', path: '/items/3' }, { op: 'add', path: '/items/-', value: 'd' }]);
  });

  it('a million values in another order are equal, and one changed value is found', () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => `v${i}`);
    assert.equal(diffSpecs({ items: values }, { items: [...values].reverse() }, sets).equal, true);
    const changed = [...values.slice(1), 'new'];
    assert.deepEqual(diffSpecs({ items: values }, { items: changed }, sets).fields, [{ pointer: '/items', added: ['new'], removed: ['v0'], sensitive: false }]);
  });

  it('objects compare by canonical JSON, strings and objects mixed too', () => {
    assert.equal(diffSpecs({ items: [{ a: 1, b: 2 }, 'x'] }, { items: ['x', { b: 2, a: 1 }] }, sets).equal, true);
    assert.deepEqual(diffSpecs({ items: [{ a: 1 }] }, { items: [{ a: 2 }] }, sets).fields[0].added, [{ a: 2 }]);
  });
});
