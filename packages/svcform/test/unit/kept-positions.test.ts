import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskCache } from '../../src/common/disk-cache.js';
import { buildId } from '../../src/common/build-id.js';
import { KeptPositions } from '../../src/manifest/kept-positions.js';
import type { DocPath, SourcePos } from '../../src/manifest/types.js';

const fresh = () => DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-positions-')))!;

/** A parse that counts its calls and places every path at a line of its length. */
function counting(file: string) {
  const calls: DocPath[] = [];
  const parse = (path: DocPath): SourcePos => {
    calls.push(path);
    return { file, line: path.length + 10, col: 3 };
  };
  return { calls, parse };
}

describe('places kept for cached documents (src/manifest/kept-positions.ts)', () => {
  it('answers a place asked before without parsing, in this run and the next; a path is told apart from its string form', () => {
    const cache = fresh();
    const first = new KeptPositions(cache, true);
    const a = counting('rules/a.yaml');
    const posOf = first.posOf('key-a/0', 'rules/a.yaml', a.parse);
    assert.deepEqual(posOf(['spec', 'actions', 0, 'id']), { file: 'rules/a.yaml', line: 14, col: 3 });
    assert.deepEqual(posOf(['spec', 'actions', 0, 'id']), { file: 'rules/a.yaml', line: 14, col: 3 });
    assert.equal(a.calls.length, 1);
    posOf(['spec', 'actions', '0', 'id']);
    assert.equal(a.calls.length, 2, 'a key named "0" is another path than item 0');
    first.save();

    const second = new KeptPositions(cache, true);
    const again = counting('shown/elsewhere.yaml');
    // The file as this run shows it (another working directory), the line and column as kept.
    assert.deepEqual(second.posOf('key-a/0', 'shown/elsewhere.yaml', again.parse)(['spec', 'actions', 0, 'id']), { file: 'shown/elsewhere.yaml', line: 14, col: 3 });
    assert.equal(again.calls.length, 0);
  });

  it('keeps a place inside a string for the string the document holds there, and that the string has none', () => {
    const cache = fresh();
    const value = { spec: { query: 'evnt.code:1', note: 'x\\y' } };
    const calls: string[] = [];
    const parse = (path: DocPath, offset: number, text: string): SourcePos | undefined => {
      calls.push(`${path.join('.')}@${offset}:${text}`);
      return path[1] === 'note' ? undefined : { file: 'rules/a.yaml', line: 20, col: 7 + offset };
    };
    const first = new KeptPositions(cache, true);
    const inScalar = first.posInScalar('key-a/0', 'rules/a.yaml', value, parse);
    assert.deepEqual(inScalar(['spec', 'query'], 2, 'evnt.code:1'), { file: 'rules/a.yaml', line: 20, col: 9 });
    assert.equal(inScalar(['spec', 'note'], 1, 'x\\y'), undefined);
    // Another string at the path (as a check may pass) is not the document's: asked each time, never kept.
    assert.deepEqual(inScalar(['spec', 'query'], 2, 'other'), { file: 'rules/a.yaml', line: 20, col: 9 });
    inScalar(['spec', 'query'], 2, 'other');
    assert.equal(calls.length, 4);
    first.save();

    const second = new KeptPositions(cache, true);
    const again = second.posInScalar('key-a/0', 'rules/a.yaml', value, parse);
    assert.deepEqual(again(['spec', 'query'], 2, 'evnt.code:1'), { file: 'rules/a.yaml', line: 20, col: 9 });
    assert.equal(again(['spec', 'note'], 1, 'x\\y'), undefined);
    assert.equal(calls.length, 4, 'both kept: no parse');
    // Another offset in the same string, and a place at the path itself, are other places.
    again(['spec', 'query'], 3, 'evnt.code:1');
    assert.equal(calls.length, 5);
    const posOf = counting('rules/a.yaml');
    second.posOf('key-a/0', 'rules/a.yaml', posOf.parse)(['spec', 'query']);
    assert.equal(posOf.calls.length, 1);
  });

  it('keeps no place in another file, and writes nothing when it does not write or found nothing new', () => {
    const cache = fresh();
    const reader = new KeptPositions(cache, false);
    reader.posOf('key-a/0', 'rules/a.yaml', counting('rules/a.yaml').parse)(['spec']);
    reader.save();
    assert.equal(cache.read('positions'), undefined, 'apply reads places, never writes them');
    const writer = new KeptPositions(cache, true);
    const elsewhere = counting('lists/items.txt');
    const posOf = writer.posOf('key-a/0', 'rules/a.yaml', elsewhere.parse);
    posOf(['spec', 'items_file']);
    posOf(['spec', 'items_file']);
    assert.equal(elsewhere.calls.length, 2, 'a place in another file is not the document\'s to keep');
    writer.save();
    assert.equal(cache.read('positions'), undefined);
  });

  it('a damaged or older entry is no answer', () => {
    const cache = fresh();
    const writer = new KeptPositions(cache, true);
    writer.posOf('key-a/0', 'a.yaml', counting('a.yaml').parse)(['spec']);
    writer.save();
    writeFileSync(join(cache.base, buildId()!, 'positions'), 'not what v8.serialize writes');
    const damaged = counting('a.yaml');
    new KeptPositions(cache, true).posOf('key-a/0', 'a.yaml', damaged.parse)(['spec']);
    assert.equal(damaged.calls.length, 1);
    cache.write('positions', { format: 0, places: new Map([['key-a/0', new Map([['["spec"]', [1, 1]]])]]) });
    const older = counting('a.yaml');
    new KeptPositions(cache, true).posOf('key-a/0', 'a.yaml', older.parse)(['spec']);
    assert.equal(older.calls.length, 1);
  });

  /** One run asks a place in each of `keys` and saves; returns the keys of the documents then kept. */
  const runAsking = (cache: DiskCache, keys: string[]) => {
    const positions = new KeptPositions(cache, true);
    for (const key of keys) positions.posOf(key, 'a.yaml', counting('a.yaml').parse)(['spec']);
    positions.save();
    return [...(cache.read('positions') as { places: Map<string, unknown> }).places.keys()];
  };
  const olds = (n: number) => Array.from({ length: n }, (_, i) => `old-${i}/0`);

  it('keeps the places of documents a run did not meet while they outnumber those it met by 10,000 at most', () => {
    const cache = fresh();
    runAsking(cache, olds(10_001));
    // A run over one other directory: the others' places stay.
    assert.equal(runAsking(cache, ['new/0']).length, 10_002);
  });

  it('drops the unmet places once they outnumber the met by more than 10,000', () => {
    const cache = fresh();
    runAsking(cache, olds(10_002));
    assert.deepEqual(runAsking(cache, ['new/0']), ['new/0']);
  });
});
