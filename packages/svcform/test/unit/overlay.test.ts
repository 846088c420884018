import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LoadedDoc } from '../../src/manifest/load.js';
import { applyOverlays, overlaidSpecPointers, overlayMatches, type Overlay } from '../../src/manifest/overlay.js';
import type { DocPath } from '../../src/manifest/types.js';

/** Issue 33 part 1: the overlays of an environment, as pure functions over documents. */

const overlay = (parts: Partial<Overlay>, index = 0): Overlay => ({ index, select: {}, posOf: (path: DocPath) => ({ file: 'svcform.yaml', line: 10 + index, col: path.length }), ...parts });

function doc(value: Record<string, unknown>): LoadedDoc {
  return { file: 'r.yaml', index: 0, value, start: { file: 'r.yaml', line: 1, col: 1 }, dir: '/', posOf: (path) => ({ file: 'r.yaml', line: 2, col: path.length }), posInScalar: () => ({ file: 'r.yaml', line: 3, col: 1 }), cacheKey: 'k' };
}

const rule = (name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>) => ({ apiVersion: 'svcform/v1', kind: 'Rule', metadata: { name, ...(labels ? { labels } : {}) }, spec: { name, severity: 'low', tags: ['net'], ...spec } });

describe('overlay selectors', () => {
  it('match kind, a name glob, labels and tags, all of those given', () => {
    const value = rule('net-scan', {}, { team: 'soc' });
    assert.ok(overlayMatches(overlay({ select: { kinds: ['Rule'], name: 'net-*', labels: { team: 'soc' }, tags: ['net'] } }), value));
    assert.ok(!overlayMatches(overlay({ select: { kinds: ['Connector'] } }), value));
    assert.ok(!overlayMatches(overlay({ select: { name: 'net' } }), value), 'the glob matches the whole name');
    assert.ok(!overlayMatches(overlay({ select: { labels: { team: 'ir' } } }), value));
    assert.ok(!overlayMatches(overlay({ select: { tags: ['net', 'windows'] } }), value));
  });
});

describe('applyOverlays', () => {
  it('merges values (null removes, arrays replace) without touching the loaded document', () => {
    const original = doc(rule('a', { threat: [1, 2], note: 'x' }));
    const { docs, diagnostics } = applyOverlays([original], { environment: 'dev', overlays: [overlay({ values: { spec: { enabled: false, note: null, threat: [3] } } })] });
    assert.deepEqual(diagnostics, []);
    const spec = (docs[0].value as any).spec;
    assert.equal(spec.enabled, false);
    assert.ok(!('note' in spec));
    assert.deepEqual(spec.threat, [3]);
    assert.equal((original.value as any).spec.note, 'x');
    // An overlaid document is no longer the file's bytes: not a key of the manifest cache.
    assert.equal(docs[0].cacheKey, undefined);
  });

  it('places what an overlay set at the overlay, the rest at the manifest', () => {
    const { docs } = applyOverlays([doc(rule('a'))], { environment: 'dev', overlays: [overlay({ values: { spec: { severity: 'extreme' } } }), overlay({ patch: [{ op: 'add', path: '/spec/tags/-', value: 'dev' }] }, 1)] });
    assert.deepEqual(docs[0].posOf(['spec', 'severity']), { file: 'svcform.yaml', line: 10, col: 3 });
    assert.deepEqual((docs[0].value as any).spec.tags, ['net', 'dev']);
    // `-` appended member 1: its position is the operation's value.
    assert.deepEqual(docs[0].posOf(['spec', 'tags', 1]), { file: 'svcform.yaml', line: 11, col: 3 });
    assert.deepEqual(docs[0].posOf(['spec', 'tags', 0]), { file: 'r.yaml', line: 2, col: 3 });
    assert.equal(docs[0].posInScalar(['spec', 'severity'], 0, 'extreme'), undefined);
  });

  it('a patch that only removes rewrites the document (it touches no value of the overlay)', () => {
    const original = doc(rule('a', { note: 'page the team' }));
    const { docs, diagnostics } = applyOverlays([original], { environment: 'dev', overlays: [overlay({ patch: [{ op: 'test', path: '/spec/severity', value: 'low' }, { op: 'remove', path: '/spec/note' }] })] });
    assert.deepEqual(diagnostics, []);
    assert.equal((docs[0]!.value as any).spec.note, undefined);
    assert.equal((original.value as any).spec.note, 'page the team', 'the loaded document is left as it was');
    assert.equal(docs[0]!.cacheKey, undefined, "not the file's bytes: no verdict kept for it");
    // A patch that only tests leaves the document as it is.
    assert.equal(applyOverlays([original], { environment: 'dev', overlays: [overlay({ patch: [{ op: 'test', path: '/spec/severity', value: 'low' }] })] }).docs[0], original);
  });

  it('a failing patch is an error naming environment, overlay, manifest and field; the document stays as written', () => {
    const original = doc(rule('a'));
    const { docs, diagnostics } = applyOverlays([original], { environment: 'prod', overlays: [overlay({ patch: [{ op: 'test', path: '/spec/severity', value: 'high' }] })] });
    assert.equal(docs[0], original);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].severity, 'error');
    assert.deepEqual(diagnostics[0].pos, { file: 'svcform.yaml', line: 10, col: 2 });
    assert.match(diagnostics[0].message, /^environment prod, overlay 1: patch\[0\] test \/spec\/severity on Rule\/a \(r\.yaml:1\): the test failed/);
  });

  it('warns of an overlay that selects nothing, at its line', () => {
    const { diagnostics } = applyOverlays([doc(rule('a'))], { environment: 'dev', overlays: [overlay({ select: { kinds: ['Connector'] }, values: { spec: {} } })] });
    assert.deepEqual(diagnostics.map((d) => [d.severity, d.pos.line, d.message]), [['warning', 10, 'environment dev, overlay 1 matches no manifest']]);
  });
});

describe('overlaidSpecPointers', () => {
  it('names the spec fields the matching overlays set', () => {
    const env = { environment: 'prod', overlays: [overlay({ values: { spec: { enabled: false, actions: [] }, metadata: { labels: { a: 'b' } } } }), overlay({ select: { kinds: ['Connector'] }, values: { spec: { x: 1 } } }, 1), overlay({ patch: [{ op: 'add', path: '/spec/tags/-', value: 't' }] }, 2)] };
    assert.deepEqual(overlaidSpecPointers(env, rule('a')).sort(), ['/actions', '/enabled', '/tags']);
  });
});
