import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { alignKeyed, diffSpecs, withoutIgnored } from '../../src/engine/diff.js';

/** Arrays of keyed members (an adapter's keyedFields), as exception items by item_id. */

const item = (item_id: string, name: string) => ({ item_id, name, entries: [{ field: 'a', value: item_id }] });
const keyed = { '/items': 'item_id' };

describe('diff of keyed arrays', () => {
  it('shows a changed member as its own field at the manifest index, whatever order the server lists members in', () => {
    const live = { items: [item('c', 'C'), item('a', 'A'), item('b', 'B')] };
    const desired = { items: [item('a', 'A'), item('b', 'B (renamed)'), item('c', 'C')] };
    const diff = diffSpecs(live, desired, { keyedFields: keyed });
    assert.deepEqual(diff.fields, [{ pointer: '/items/1/name', before: 'B', after: 'B (renamed)', sensitive: false }]);
  });

  it('shows added and removed members as such, not as positional edits', () => {
    const live = { items: [item('a', 'A'), item('gone', 'G')] };
    const desired = { items: [item('new', 'N'), item('a', 'A')] };
    const diff = diffSpecs(live, desired, { keyedFields: keyed });
    assert.deepEqual(diff.fields, [{ pointer: '/items', added: [item('new', 'N')], removed: [item('gone', 'G')], sensitive: false }]);
  });

  it('is equal when only the order differs', () => {
    assert.equal(diffSpecs({ items: [item('b', 'B'), item('a', 'A')] }, { items: [item('a', 'A'), item('b', 'B')] }, { keyedFields: keyed }).equal, true);
  });

  it('lays the live array out like the manifest, so an ignore pointer names the same member on both sides', () => {
    const live = { items: [item('b', 'B by hand'), item('a', 'A')] };
    const desired = { items: [item('a', 'A'), item('b', 'B')] };
    const laidOut = alignKeyed(live, desired, keyed);
    assert.deepEqual(laidOut.items.map((m: any) => m.item_id), ['a', 'b']);
    const ignore = ['/spec/items/1/name'];
    assert.equal(diffSpecs(withoutIgnored(laidOut, ignore), withoutIgnored(desired, ignore), { keyedFields: keyed }).equal, true);
  });
});
