import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadAndValidate } from '../../src/manifest/validate.js';
import { ADAPTERS, adapterFor, KIND_CATALOG } from '../../src/kinds/registry.js';

/**
 * A planned delete reads the kinds whose `referenceKinds` name the deleted kind, to find live
 * objects that still use it (engine/references.ts). A reference of a kind not declared there
 * would go unchecked, so the declaration must cover every reference the manifests make.
 */
describe('referenceKinds declares every kind a reference can name', () => {
  it('for every reference in examples/', async () => {
    const { resources } = await loadAndValidate(['examples'], { kinds: KIND_CATALOG });
    const missing = new Set<string>();
    for (const r of resources) {
      const adapter = adapterFor(r.kind)!;
      for (const ref of adapter.references(r.spec)) if (!adapter.referenceKinds?.includes(ref.kind)) missing.add(`${r.kind} -> ${ref.kind}`);
    }
    assert.deepEqual([...missing], []);
  });

  it('names only kinds that exist', () => {
    const kinds = new Set(ADAPTERS.map((a) => a.kind));
    for (const a of ADAPTERS) for (const k of a.referenceKinds ?? []) assert.ok(kinds.has(k), `${a.kind} names unknown kind ${k}`);
  });
});
