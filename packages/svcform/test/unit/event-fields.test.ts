import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldExists, fieldValues } from '@svcform/query/event-fields.js';

test('fieldValues reads nested objects, dotted keys and mixes of both', () => {
  assert.deepEqual(fieldValues({ process: { name: 'a' } }, 'process.name'), ['a']);
  assert.deepEqual(fieldValues({ 'process.name': 'b' }, 'process.name'), ['b']);
  assert.deepEqual(fieldValues({ process: { 'parent.name': 'c' } }, 'process.parent.name'), ['c']);
  assert.deepEqual(fieldValues({ 'process.parent': { name: 'd' } }, 'process.parent.name'), ['d']);
});

test('fieldValues spreads arrays, including arrays of objects', () => {
  assert.deepEqual(fieldValues({ tags: ['x', 'y'] }, 'tags'), ['x', 'y']);
  assert.deepEqual(fieldValues({ dns: { answers: [{ ip: '1' }, { ip: '2' }] } }, 'dns.answers.ip'), ['1', '2']);
});

test('absent and null fields have no values; an object is a value of its own name', () => {
  assert.deepEqual(fieldValues({ a: null }, 'a'), []);
  assert.equal(fieldExists({ a: null }, 'a'), false);
  assert.equal(fieldExists({}, 'a.b'), false);
  assert.equal(fieldExists({ a: { b: 0 } }, 'a.b'), true);
  assert.deepEqual(fieldValues({ a: { b: 1 } }, 'a'), [{ b: 1 }]);
});
