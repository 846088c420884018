import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { comparePointers, fieldLabel, formatPointer, getAt, parsePointer, relativePointer, removeAt, setAt } from '../../src/common/pointer.js';
import { carryIgnored, ignoredPointers } from '../../src/engine/ignore.js';

describe('JSON Pointer (RFC 6901)', () => {
  it('escapes ~ and / and round-trips', () => {
    assert.deepEqual(parsePointer('/a~1b/c~0d/0'), ['a/b', 'c~d', '0']);
    assert.equal(formatPointer(['a/b', 'c~d', 0]), '/a~1b/c~0d/0');
    assert.deepEqual(parsePointer(''), []);
    assert.throws(() => parsePointer('spec/x'), /must start with "\/"/);
  });

  it('gets, sets and removes in objects and arrays', () => {
    const doc: Record<string, any> = { a: { 'x/y': [1, 2, 3] } };
    assert.equal(getAt(doc, '/a/x~1y/1'), 2);
    assert.equal(getAt(doc, '/a/missing/deeper'), undefined);
    assert.equal(getAt(doc, '/a/x~1y/length'), undefined, 'array properties are not members');
    assert.equal(setAt(doc, '/b/c', true), true);
    assert.deepEqual(doc.b, { c: true });
    assert.equal(setAt(doc, '/a/x~1y/1/z', 1), false, 'never turns a scalar into an object');
    assert.equal(setAt(doc, '/a/x~1y/9', 1), false, 'no holes in arrays');
    assert.equal(removeAt(doc, '/a/x~1y/0'), true);
    assert.deepEqual(doc.a['x/y'], [2, 3]);
    assert.equal(removeAt(doc, '/nothing'), false);
  });

  it('orders array members numerically and labels fields as users write them', () => {
    assert.deepEqual(['/a/10', '/a/9', '/a', '/b'].sort(comparePointers), ['/a', '/a/9', '/a/10', '/b']);
    assert.equal(relativePointer('/spec/enabled', '/spec'), '/enabled');
    assert.equal(relativePointer('/metadata/x', '/spec'), undefined);
    assert.equal(fieldLabel('/actions/0/id'), 'spec.actions[0].id');
    assert.equal(fieldLabel('/config/a~1b'), 'spec.config["a/b"]');
  });
});

describe('ignored fields on updates (engine)', () => {
  it('sets each ignored field to the live value, or leaves it out when the server has none', () => {
    const spec = { query: 'new', description: 'from git', tags: ['a'] };
    const live = { query: 'old', description: 'from the UI', platform: 'linux' };
    assert.deepEqual(carryIgnored(spec, ['/spec/description', '/spec/tags', '/spec/platform'], live), { query: 'new', description: 'from the UI', platform: 'linux' });
    assert.deepEqual(spec, { query: 'new', description: 'from git', tags: ['a'] }, 'the manifest is not changed');
  });

  it('adds svcform.yaml rules of the kind and space to metadata.ignore', () => {
    const rules = [{ kind: 'Rule', pointers: ['/spec/enabled'] }, { kind: 'Rule', spaces: ['ops'], pointers: ['/spec/tags'] }, { kind: 'Connector', pointers: ['/spec/name'] }];
    assert.deepEqual(ignoredPointers({ kind: 'Rule', space: 'default', ignore: ['/spec/note'] }, rules), ['/spec/note', '/spec/enabled']);
    assert.deepEqual(ignoredPointers({ kind: 'Rule', space: 'ops', ignore: [] }, rules), ['/spec/enabled', '/spec/tags']);
  });
});
