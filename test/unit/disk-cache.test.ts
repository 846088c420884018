import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskCache } from '../../src/common/disk-cache.js';
import { buildId } from '../../src/common/build-id.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'svcform-cache-'));

describe('the disk cache (src/common/disk-cache.ts)', () => {
  it('files entries under the build id that scripts/build-id.mjs wrote, and reads them back as written', () => {
    const id = buildId();
    assert.match(id ?? '', /^[0-9a-f]{16}$/, 'the build wrote dist/src/build-id.json');
    const base = fresh();
    const cache = DiskCache.open(base)!;
    const value = { format: 1, entries: [['kuery\u0000a:b', { fields: [{ name: 'a', offset: 0 }] }]], zero: -0, missing: undefined };
    assert.equal(cache.write('entry', value), true);
    assert.deepEqual(readdirSync(join(base, id!)), ['entry'], 'no temporary file is left');
    assert.deepEqual(cache.read('entry'), value);
    assert.equal(cache.read('absent'), undefined);
  });

  it('tags its directory as a cache for Git and backup tools', () => {
    const base = fresh();
    DiskCache.open(base)!.write('entry', 1);
    assert.equal(readFileSync(join(base, '.gitignore'), 'utf8'), '*\n');
    assert.match(readFileSync(join(base, 'CACHEDIR.TAG'), 'utf8'), /^Signature: 8a477f597d28d172789f06886806bc55\n/);
  });

  it('a damaged entry is a miss, not an error', () => {
    const base = fresh();
    const cache = DiskCache.open(base)!;
    cache.write('entry', { a: 1 });
    writeFileSync(join(base, buildId()!, 'entry'), 'not what v8.serialize writes');
    assert.equal(cache.read('entry'), undefined);
  });

  it('a write that cannot happen (the cache path is a file, a read-only checkout) returns false and throws nothing', () => {
    const file = join(fresh(), 'file');
    writeFileSync(file, 'x');
    assert.equal(DiskCache.open(file)!.write('entry', 1), false);
  });

  it("removes other builds' directories untouched for a week, and keeps recent ones", () => {
    const base = fresh();
    const old = join(base, '0123456789abcdef');
    const recent = join(base, 'fedcba9876543210');
    const other = join(base, 'not-a-build');
    for (const dir of [old, recent, other]) mkdirSync(dir);
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    utimesSync(other, eightDaysAgo, eightDaysAgo);
    DiskCache.open(base)!.write('entry', 1);
    assert.equal(existsSync(old), false);
    assert.equal(existsSync(recent), true);
    assert.equal(existsSync(other), true, 'only directories named like a build id are pruned');
  });

  it('there is no cache without a directory', () => {
    assert.equal(DiskCache.open(undefined), undefined);
  });
});
