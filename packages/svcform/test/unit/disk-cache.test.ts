import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

  it('touch marks an entry read with an old time, and leaves one marked within the day as it is', () => {
    const base = fresh();
    const cache = DiskCache.open(base)!;
    cache.write('old', 1);
    cache.write('recent', 2);
    const path = (name: string) => join(base, buildId()!, name);
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);
    utimesSync(path('old'), daysAgo(3), daysAgo(3));
    utimesSync(path('recent'), daysAgo(0.5), daysAgo(0.5));
    const reader = DiskCache.open(base)!;
    assert.equal(reader.read('old'), 1);
    assert.equal(reader.read('recent'), 2);
    reader.touch('old');
    reader.touch('recent');
    assert.ok(statSync(path('old')).mtimeMs > Date.now() - 60_000, 'marked now');
    assert.ok(Math.abs(statSync(path('recent')).mtimeMs - daysAgo(0.5).getTime()) < 5_000, 'left as it was');
    // An entry this run did not read is marked whatever its time.
    utimesSync(path('recent'), daysAgo(0.5), daysAgo(0.5));
    DiskCache.open(base)!.touch('recent');
    assert.ok(statSync(path('recent')).mtimeMs > Date.now() - 60_000);
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

  // The default location keeps one folder per repository root (src/cli/cache-location.ts): a CI
  // job checked out at a new path each time would otherwise leave one folder per job behind.
  it('among the folders of other repository roots: marks its own as used, and removes those untouched for a week', () => {
    const roots = fresh();
    const [old, recent, idle, mine] = ['0123456789abcdef', 'fedcba9876543210', '00000000000000aa', '1111111111111111'].map((n) => join(roots, n));
    const other = join(roots, 'not-a-root');
    for (const dir of [old, recent, idle, mine, other]) mkdirSync(dir);
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    for (const dir of [old, idle, mine, other]) utimesSync(dir, eightDaysAgo, eightDaysAgo);
    const reading = DiskCache.open(idle, { amongRoots: true })!;
    assert.equal(reading.read('entry'), undefined);
    assert.ok(statSync(idle).mtimeMs > Date.now() - 60_000, 'a run that only reads marks its root as used');
    DiskCache.open(mine, { amongRoots: true })!.write('entry', 1);
    assert.deepEqual(readdirSync(roots).sort(), ['00000000000000aa', '1111111111111111', 'fedcba9876543210', 'not-a-root']);
    mkdirSync(old);
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    DiskCache.open(recent)!.write('entry', 1);
    assert.ok(existsSync(old), 'a cache chosen by SVCFORM_CACHE_DIR prunes nothing beside it');
  });

  it('runs writing the same entry at once: a reader always finds one whole value once there is one, and no temporary file is left', async () => {
    const base = fresh();
    const module = fileURLToPath(new URL('../../src/common/disk-cache.js', import.meta.url));
    // Each writer stores 40 times a value of 200,000 copies of its own letter.
    const writer = (letter: string) =>
      new Promise<number>((resolve, reject) => {
        const script = `const { DiskCache } = await import(${JSON.stringify(module)}); const c = DiskCache.open(${JSON.stringify(base)}); for (let i = 0; i < 40; i++) c.write('entry', { letter: '${letter}', text: '${letter}'.repeat(200000) });`;
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
        child.on('error', reject);
        child.on('close', (code) => resolve(code ?? 1));
      });
    const cache = DiskCache.open(base)!;
    const seen = new Set<string>();
    let done = false;
    const writers = Promise.all(['a', 'b', 'c'].map(writer)).finally(() => (done = true));
    while (!done) {
      const value = cache.read('entry') as { letter: string; text: string } | undefined;
      // Once the entry exists it is always readable: a writer never truncates it in place.
      if (seen.size > 0) assert.ok(value, 'the entry is readable while others rewrite it');
      if (value) {
        assert.equal(value.text, value.letter.repeat(200000), 'a whole value of one writer');
        seen.add(value.letter);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.deepEqual(await writers, [0, 0, 0]);
    assert.ok(seen.size >= 1);
    assert.deepEqual(readdirSync(join(base, buildId()!)), ['entry']);
  });

  it('there is no cache without a directory', () => {
    assert.equal(DiskCache.open(undefined), undefined);
  });
});
