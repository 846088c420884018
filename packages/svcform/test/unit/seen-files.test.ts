import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskCache } from '../../src/common/disk-cache.js';
import { loadFiles } from '../../src/manifest/files.js';
import { ManifestCache } from '../../src/manifest/manifest-cache.js';
import { SeenFiles } from '../../src/manifest/seen-files.js';

/**
 * Files known by their stat (src/manifest/seen-files.ts): a run that finds a file's stat as an
 * earlier run recorded it takes the cache key from there and does not read the file.
 */

const NOW = Date.parse('2026-11-27T09:00:00Z');
/** A stat as fs gives it, with the fields the record compares. */
const stat = (fields: Partial<Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>> = {}) => ({ dev: 1, ino: 2, size: 3, mtimeMs: NOW - 60_000, ctimeMs: NOW - 60_000, ...fields }) as Stats;
const seen = { key: 'a'.repeat(64), kinds: [['Rule', 1]] as Array<[string, number]> };
const cacheDir = () => DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-seen-')))!;
/** One run that records `work`'s files and saves them; the SeenFiles of the next run. */
function nextRunAfter(work: (files: SeenFiles) => void): SeenFiles {
  const disk = cacheDir();
  const files = new SeenFiles(disk, true);
  work(files);
  files.save();
  return new SeenFiles(disk, false);
}

describe('SeenFiles: what each file\'s stat was when its bytes were read', () => {
  it('gives the key back for the very same stat only: another inode, size, change or modification time is another file', () => {
    const files = nextRunAfter((run) => run.record('/r/a.yaml', stat(), NOW, seen));
    assert.deepEqual(files.lookup('/r/a.yaml', stat()), seen);
    for (const changed of [{ ino: 9 }, { size: 4 }, { mtimeMs: NOW - 59_999.5 }, { ctimeMs: NOW - 1000 }, { dev: 7 }]) {
      assert.equal(files.lookup('/r/a.yaml', stat(changed)), undefined, JSON.stringify(changed));
    }
    assert.equal(files.lookup('/r/b.yaml', stat()), undefined);
  });

  it('does not record a file changed shortly before it was read: a second write within the clock\'s tick keeps its stat (racily clean, as Git says)', () => {
    const files = nextRunAfter((run) => {
      run.record('/r/fresh.yaml', stat({ mtimeMs: NOW - 1000, ctimeMs: NOW - 1000 }), NOW, seen);
      run.record('/r/touched.yaml', stat({ ctimeMs: NOW - 10 }), NOW, seen);
      run.record('/r/old.yaml', stat(), NOW, seen);
    });
    assert.ok(files.lookup('/r/old.yaml', stat()));
    assert.equal(files.lookup('/r/fresh.yaml', stat({ mtimeMs: NOW - 1000, ctimeMs: NOW - 1000 })), undefined);
    assert.equal(files.lookup('/r/touched.yaml', stat({ ctimeMs: NOW - 10 })), undefined);
  });

  it('is kept between runs; a run that reads fewer files keeps the others\' records', () => {
    const disk = cacheDir();
    const first = new SeenFiles(disk, true);
    first.record('/r/a.yaml', stat(), NOW, seen);
    first.record('/r/b.yaml', stat({ ino: 5 }), NOW, seen);
    first.save();
    const second = new SeenFiles(disk, true);
    second.record('/r/a.yaml', stat({ size: 10 }), NOW, seen);
    second.save();
    const third = new SeenFiles(disk, false);
    assert.ok(third.lookup('/r/a.yaml', stat({ size: 10 })));
    assert.ok(third.lookup('/r/b.yaml', stat({ ino: 5 })), 'a file the second run did not meet');
  });
});

describe('loadFiles with the manifest cache: a file whose stat is as recorded is not read', () => {
  const rule = (name: string, note: string) => `apiVersion: svcform/v1\nkind: Rule\nmetadata:\n  name: ${name}\nspec:\n  name: ${note}\n  severity: low\n`;
  const repository = () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-seen-repo-'));
    const files = ['a', 'b'].map((n) => join(dir, `${n}.yaml`));
    writeFileSync(files[0], rule('a', 'first'));
    writeFileSync(files[1], rule('b', 'second'));
    return { dir, files, cache: join(dir, '.cache') };
  };
  /** One run over `files` with its own ManifestCache, as every command opens one; `racyMs` 0 records files just written. */
  const run = (files: string[], cache: string, racyMs?: number) => {
    const manifests = new ManifestCache(DiskCache.open(cache)!, true, { racyMs });
    const loaded = loadFiles(files, manifests);
    manifests.save();
    return { loaded, counts: manifests.counts };
  };

  it('the second run takes both files by their stat and has the same documents, positions included', () => {
    const { files, cache } = repository();
    const first = run(files, cache, 0);
    const second = run(files, cache, 0);
    assert.deepEqual([first.counts.parsed, first.counts.sameStat], [2, 0]);
    assert.deepEqual([second.counts.parsed, second.counts.kept, second.counts.sameStat], [0, 2, 2]);
    assert.deepEqual(
      second.loaded.docs.map((d) => d.value),
      first.loaded.docs.map((d) => d.value),
    );
    // A message's place inside the document: the file is read then, and only then.
    assert.deepEqual(second.loaded.docs[1].posOf(['spec', 'name']), first.loaded.docs[1].posOf(['spec', 'name']));
    assert.equal(second.counts.reparsed, 1);
  });

  it('an edit that keeps the size is seen (the stat\'s times changed): the file is read and parsed again', () => {
    const { files, cache } = repository();
    run(files, cache, 0);
    writeFileSync(files[0], readFileSync(files[0], 'utf8').replace('first', 'fixed'));
    // Whatever the clock's tick, the edit's time is not the recorded one.
    const old = statSync(files[0]).mtimeMs;
    utimesSync(files[0], new Date(old + 5000), new Date(old + 5000));
    const after = run(files, cache, 0);
    assert.deepEqual([after.counts.parsed, after.counts.sameStat], [1, 1]);
    assert.equal((after.loaded.docs[0].value as any).spec.name, 'fixed');
  });

  it('with the default margin, a file written a moment ago is read again by the next run', () => {
    const { files, cache } = repository();
    run(files, cache);
    const second = run(files, cache);
    assert.deepEqual([second.counts.kept, second.counts.sameStat], [2, 0]);
  });
});
