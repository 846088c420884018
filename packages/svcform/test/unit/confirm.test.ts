import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/client/errors.js';
import { createConfirmed } from '../../src/engine/confirm.js';
import type { CreateChange } from '../../src/engine/plan.js';
import type { KindAdapter, LiveObject } from '../../src/kinds/types.js';
import { resource } from '../helpers/resource.js';

function adapterWith(createError: () => Error, live: () => LiveObject[]): KindAdapter & { creates: number } {
  const a = {
    creates: 0,
    kind: 'Thing',
    schema: 'Thing.schema.json',
    area: { name: 'things', defaults: { retryConflict: false } },
    references: () => [],
    list: async () => live(),
    normalizeDesired: (r: any) => r.spec,
    normalizeLive: (l: LiveObject) => l.body,
    async create() {
      a.creates += 1;
      throw createError();
    },
    update: async () => {},
    delete: async () => {},
    toSpec: (l: LiveObject) => ({ spec: l.body }),
  };
  return a;
}

const conflict = () => new ApiError({ method: 'POST', path: '/api/things', status: 409, reason: 'Conflict', serverMessage: 'already exists', body: {}, attempts: 2 });
const lost = () => new ApiError({ method: 'POST', path: '/api/things', status: 504, reason: 'Gateway Timeout', serverMessage: '', body: {}, attempts: 1, ambiguous: true });

function change(spec: Record<string, any>): CreateChange {
  const res = resource('Thing', 't1', spec);
  return { id: 'Thing/default/t1', action: 'create', kind: 'Thing', space: 'default', name: 't1', resource: res, ignore: [], fields: [], patch: [], dependsOn: [], wave: 0 };
}

const ctx = { api: { request: async () => ({ status: 200, body: {}, text: '', headers: {} }) }, log: () => {} } as any;
const liveThing = (body: Record<string, any>): LiveObject => ({ kind: 'Thing', space: 'default', name: 't1', body });

describe('create confirmation (engine/confirm.ts)', () => {
  it('a 409 for an object equal to the manifest is done', async () => {
    const a = adapterWith(conflict, () => [liveThing({ x: 1 })]);
    assert.match((await createConfirmed(ctx, a, change({ x: 1 })))!, /already on the server/);
  });

  it('a 409 for an object that differs fails, saying so', async () => {
    const a = adapterWith(conflict, () => [liveThing({ x: 2 })]);
    await assert.rejects(createConfirmed(ctx, a, change({ x: 1 })), /differs from the manifest/);
  });

  it('a lost answer with nothing on the server is tried again, a bounded number of times', async () => {
    const a = adapterWith(lost, () => []);
    await assert.rejects(createConfirmed(ctx, a, change({ x: 1 })), /504/);
    assert.equal(a.creates, 3);
  });

  it('a failure after several attempts (an earlier one may have landed) is read back: found in the campaign', async () => {
    const exhausted = () => new ApiError({ method: 'POST', path: '/api/things', status: 429, reason: 'Too Many Requests', serverMessage: '', body: {}, attempts: 5 });
    const a = adapterWith(exhausted, () => [liveThing({ x: 1 })]);
    assert.match((await createConfirmed(ctx, a, change({ x: 1 })))!, /confirmed on the server/);
  });

  it('an error that is neither is not retried and not looked up', async () => {
    let listed = 0;
    const a = adapterWith(() => new Error('400 bad'), () => {
      listed += 1;
      return [];
    });
    await assert.rejects(createConfirmed(ctx, a, change({ x: 1 })), /400 bad/);
    assert.equal(a.creates, 1);
    assert.equal(listed, 0);
  });
});
