import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kindLines, loadFilesYielding } from '../../src/manifest/files.js';
import { DiskCache } from '../../src/common/disk-cache.js';
import { ManifestCache } from '../../src/manifest/manifest-cache.js';

/** What a read-ahead of live state starts from (src/manifest/files.ts kindLines). */
const counted = (...files: string[]) => Object.fromEntries(kindLines(files.map((f) => Buffer.from(f))));

describe('kindLines: `kind: Name` lines counted from the bytes of manifest files', () => {
  it('counts a kind line at the start of any line, across files, whatever the line ending', () => {
    assert.deepEqual(counted('apiVersion: svcform/v1\nkind: Rule\n---\nkind: Rule\r\nkind:\tConnector \t\r', 'kind:List'), { Rule: 2, Connector: 1, List: 1 });
  });

  it('ignores indented keys, text after the name, names of other characters, and kind: inside a line', () => {
    assert.deepEqual(counted('  kind: Rule\n', 'kind: Rule x\n', 'kind: \n', 'kind: Rulé\n', 'akind: Rule\n', 'note: the kind: Rule\n', 'kind: Rule2\n'), {});
  });

  it('a name at the very end of a file counts, with or without blanks after it', () => {
    assert.deepEqual(counted('kind: Rule', 'kind: Rule  '), { Rule: 2 });
  });

  it('is not misled by multi-byte characters next to the line', () => {
    assert.deepEqual(counted('description: é\nkind: Rule\nname: ü\n'), { Rule: 1 });
  });
});

describe('loadFilesYielding: how much of what it reads must be parsed (what a plan reads ahead by)', () => {
  const rule = (n: number) => `apiVersion: svcform/v1\nkind: Rule\nmetadata:\n  name: r${n}\nspec:\n  name: R ${n}\n`;
  const repository = (count: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-ahead-'));
    return Array.from({ length: count }, (_, n) => {
      const file = join(dir, `r${n}.yaml`);
      writeFileSync(file, rule(n));
      return file;
    });
  };
  /** One run: a fresh ManifestCache over `cacheDir` (as every command opens its own), saved at the end. */
  const shownFor = async (files: string[], cacheDir?: string) => {
    const shown: Array<{ kinds: Record<string, number>; toParse: number; total: number }> = [];
    const cache = cacheDir === undefined ? undefined : new ManifestCache(DiskCache.open(cacheDir)!, true);
    const loaded = await loadFilesYielding(files, (kinds, share) => {
      shown.push({ kinds: Object.fromEntries(kinds), ...share });
    }, cache);
    cache?.save();
    assert.equal(loaded.docs.length, files.length);
    return shown;
  };

  it('every byte without a cache or with an empty one; none once the cache holds the files; the changed file alone after', async () => {
    const files = repository(4);
    const total = files.length * rule(0).length;
    const cacheDir = mkdtempSync(join(tmpdir(), 'svcform-cache-'));
    assert.deepEqual(await shownFor(files), [{ kinds: { Rule: 4 }, toParse: total, total }]);
    assert.deepEqual(await shownFor(files, cacheDir), [{ kinds: { Rule: 4 }, toParse: total, total }]);
    assert.deepEqual(await shownFor(files, cacheDir), [{ kinds: { Rule: 4 }, toParse: 0, total }]);
    writeFileSync(files[0], rule(7));
    assert.deepEqual(await shownFor(files, cacheDir), [{ kinds: { Rule: 4 }, toParse: rule(7).length, total }]);
  });

  it('starts what onRead hands back once nine tenths of the bytes to parse are parsed, and before it returns', async () => {
    const files = repository(10);
    const cache = new ManifestCache(DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-cache-')))!, true);
    const parsedWhenStarted: number[] = [];
    await loadFilesYielding(files, () => () => parsedWhenStarted.push(cache.counts.parsed), cache);
    assert.deepEqual(parsedWhenStarted, [9]);
    // One file alone never reaches nine tenths before its parse: the start comes after it.
    const single = repository(1);
    const alone = new ManifestCache(DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-cache-')))!, true);
    const started: number[] = [];
    await loadFilesYielding(single, () => () => started.push(alone.counts.parsed), alone);
    assert.deepEqual(started, [1]);
  });

  it('turns the event loop while it reads the files, before it shows them: requests started before go out meanwhile', async () => {
    const files = repository(200);
    let turns = 0;
    let reading = true;
    const tick = () => {
      turns++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    let turnsWhenShown = -1;
    await loadFilesYielding(files, () => {
      turnsWhenShown = turns;
    });
    reading = false;
    // 200 files, a turn every 64 read: at least three turns before the last is read.
    assert.ok(turnsWhenShown >= 3, `${turnsWhenShown} turns of the event loop before the files were shown`);
  });

  it('holds the bytes of the files it read up to a budget; past it, a file is read again when parsed', async () => {
    const files = repository(3);
    const cache = new ManifestCache(DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-cache-')))!, true);
    // Room for the first file only: the two after it are let go once their kinds are counted.
    const loaded = await loadFilesYielding(files, () => {
      for (const [n, file] of files.entries()) writeFileSync(file, rule(n + 10));
    }, cache, rule(0).length);
    assert.deepEqual(loaded.docs.map((d) => (d.value as { metadata: { name: string } }).metadata.name), ['r0', 'r11', 'r12']);
    assert.equal(cache.counts.parsed, 3);
  });

  it('finds the positions of a message in a parsed file by reading it again, not from bytes held since the parse', async () => {
    const [file] = repository(1);
    // A character beyond ASCII: the documents are kept copies, and positions come from a parse of the file.
    writeFileSync(file, `${rule(0)}  description: café\n`);
    const cache = new ManifestCache(DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-cache-')))!, true);
    const [doc] = (await loadFilesYielding([file], () => {}, cache)).docs;
    assert.deepEqual(doc.posOf(['spec', 'description']), { file: doc.file, line: 7, col: 3 });
    const [again] = (await loadFilesYielding([file], () => {}, new ManifestCache(DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-cache-')))!, true))).docs;
    // The file changes before a message asks: its bytes are not the parsed ones, so the document's start stands in.
    writeFileSync(file, `# edited\n${rule(0)}`);
    assert.deepEqual(again.posOf(['spec', 'description']), again.start);
  });
});
