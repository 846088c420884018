import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declaredSpaces, fanOut, mergePatch } from '../../src/manifest/fan-out.js';
import type { LoadedDoc } from '../../src/manifest/load.js';
import type { Diagnostic, DocPath, KindRules } from '../../src/manifest/types.js';

/** A document whose positions name the path asked for, so the mapping of a copy's places shows. */
function doc(value: unknown): LoadedDoc & { asked: string[] } {
  const asked: string[] = [];
  const posOf = (path: DocPath) => {
    asked.push(path.join('.'));
    return { file: 'm.yaml', line: path.length, col: 1 };
  };
  return { file: 'm.yaml', index: 0, value, start: { file: 'm.yaml', line: 1, col: 1 }, dir: '.', posOf, posInScalar: () => undefined, cacheKey: 'k', asked };
}

const rules: Record<string, KindRules> = {
  Rule: { kind: 'Rule', schema: 'Rule.schema.json', references: () => [] },
  Space: { kind: 'Space', schema: 'Space.schema.json', references: () => [], containsSpaces: true, spaceless: { declared: () => true } },
  ExceptionList: { kind: 'ExceptionList', schema: 'ExceptionList.schema.json', references: () => [], spaceless: { declared: (spec) => spec.namespace_type === 'agnostic' } },
};
const lookup = (kind: string) => rules[kind];

describe('one manifest, many spaces (manifest/fan-out.ts)', () => {
  it('merges an override as RFC 7386 JSON Merge Patch: objects merge, null removes, arrays and scalars replace', () => {
    const spec = { severity: 'low', tags: ['a', 'b'], threshold: { field: ['x'], value: 5 }, note: 'n' };
    assert.deepEqual(mergePatch(spec, { severity: 'high', tags: ['c'], threshold: { value: 9 }, note: null }), { severity: 'high', tags: ['c'], threshold: { field: ['x'], value: 9 } });
    assert.deepEqual(spec.tags, ['a', 'b'], 'the manifest itself is left as it was');
    // RFC 7386 appendix A: a patch that is no object replaces the target.
    assert.deepEqual(mergePatch({ a: 'b' }, ['c']), ['c']);
    assert.deepEqual(mergePatch(['a'], { a: 'b' }), { a: 'b' });
  });

  it('makes one copy per space, with its space, its merged spec, its own cache key and places mapped back', () => {
    const d = doc({ kind: 'Rule', metadata: { name: 'r', spaces: ['eu', 'us'], spaceOverrides: { us: { spec: { severity: 'high' } } }, labels: { t: 'x' } }, spec: { severity: 'low', name: 'R' } });
    const out: Diagnostic[] = [];
    const copies = fanOut(d, lookup, () => [], out);
    assert.deepEqual(out, []);
    assert.deepEqual(
      copies.map((c) => c.value),
      [
        { kind: 'Rule', metadata: { name: 'r', labels: { t: 'x' }, space: 'eu' }, spec: { severity: 'low', name: 'R' } },
        { kind: 'Rule', metadata: { name: 'r', labels: { t: 'x' }, space: 'us' }, spec: { severity: 'high', name: 'R' } },
      ],
    );
    assert.deepEqual(copies.map((c) => c.cacheKey), ['k@eu', 'k@us']);
    assert.deepEqual(copies.map((c) => c.fanOut), [
      { spaces: ['eu', 'us'], spacePath: ['metadata', 'spaces', 0] },
      { spaces: ['eu', 'us'], spacePath: ['metadata', 'spaces', 1] },
    ]);
    copies[1].posOf(['spec', 'severity']);
    copies[1].posOf(['spec', 'name']);
    copies[0].posOf(['spec', 'severity']);
    copies[1].posOf(['metadata', 'space']);
    assert.deepEqual(d.asked, ['metadata.spaceOverrides.us.spec.severity', 'spec.name', 'spec.severity', 'metadata.spaces.1']);
  });

  it('leaves a document without spaces as it is', () => {
    const d = doc({ kind: 'Rule', metadata: { name: 'r', space: 'eu' }, spec: {} });
    assert.deepEqual(fanOut(d, lookup, () => [], []), [d]);
  });

  it('a label selector chooses the declared Spaces whose labels include all of its own', () => {
    const docs = [
      doc({ kind: 'Space', metadata: { name: 'eu', labels: { tier: 'soc', region: 'eu' } } }),
      doc({ kind: 'Space', metadata: { name: 'us', labels: { tier: 'soc' } } }),
      doc({ kind: 'Space', metadata: { name: 'lab' } }),
    ];
    const spaces = declaredSpaces(docs, lookup);
    const chosen = (labels: Record<string, string>) => fanOut(doc({ kind: 'Rule', metadata: { name: 'r', spaces: { labels } }, spec: {} }), lookup, () => spaces, []).map((c) => (c.value as any).metadata.space);
    assert.deepEqual(chosen({ tier: 'soc' }), ['eu', 'us']);
    assert.deepEqual(chosen({ tier: 'soc', region: 'eu' }), ['eu']);
    assert.deepEqual(chosen({}), ['eu', 'us', 'lab'], 'no label asked: every declared Space');
  });

  it('refuses what cannot fan out, each at its field, and declares nothing then', () => {
    const errors = (metadata: Record<string, unknown>, spec: Record<string, unknown> = {}, kind = 'Rule') => {
      const out: Diagnostic[] = [];
      const copies = fanOut(doc({ kind, metadata: { name: 'r', ...metadata }, spec }), lookup, () => [], out);
      assert.deepEqual(copies, []);
      return out.map((d) => d.message);
    };
    assert.deepEqual(errors({ space: 'eu', spaces: ['eu'] }), ['metadata.spaces: give metadata.space (one space) or metadata.spaces (several), not both']);
    assert.deepEqual(errors({ spaces: [] }), ['metadata.spaces: names no space: list at least one space id, or give metadata.space']);
    assert.deepEqual(errors({ spaces: ['eu', 'eu'] }), ['metadata.spaces[1]: space eu is listed twice']);
    assert.deepEqual(errors({ spaces: ['EU'] }), ['metadata.spaces[0]: must be a space id (a-z, 0-9, _ and -), not "EU"']);
    assert.deepEqual(errors({ spaces: 'eu' }), ['metadata.spaces: must be a list of space ids ([soc-eu, soc-us]) or a selector over the Space manifests ({labels: {tier: soc}})']);
    assert.deepEqual(errors({ spaces: { labels: { tier: 'soc' } } }), ['metadata.spaces.labels: matches no Space manifest of this run (none is declared); a selector chooses among declared Spaces only']);
    assert.deepEqual(errors({ spaces: ['eu'], spaceOverrides: { us: { spec: {} } } }), ['metadata.spaceOverrides.us: overrides space "us", which metadata.spaces does not name (it names eu)']);
    assert.deepEqual(errors({ spaces: ['eu'], spaceOverrides: { eu: { metadata: {} } } }), ['metadata.spaceOverrides.eu: must be {spec: {...}}: the spec fields that differ in this space']);
    assert.deepEqual(errors({ spaceOverrides: { eu: { spec: {} } } }), ['metadata.spaceOverrides: needs metadata.spaces, the spaces the manifest is declared in']);
    assert.deepEqual(errors({ spaces: ['eu'] }, {}, 'Space'), ['metadata.spaces: this Space belongs to no space (one object, seen from every space): declare it once, without metadata.spaces']);
    assert.deepEqual(errors({ spaces: ['eu'] }, { namespace_type: 'agnostic' }, 'ExceptionList'), ['metadata.spaces: this ExceptionList belongs to no space (one object, seen from every space): declare it once, without metadata.spaces']);
  });
});
