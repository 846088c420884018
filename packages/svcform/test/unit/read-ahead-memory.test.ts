import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskCache } from '../../src/common/disk-cache.js';
import { ReadAheadMemory } from '../../src/cli/read-ahead-memory.js';

/** What a run reads ahead, kept for the next run with the same target, space and paths (src/cli/read-ahead-memory.ts). */
describe('ReadAheadMemory', () => {
  const fresh = () => DiskCache.open(mkdtempSync(join(tmpdir(), 'svcform-memory-')))!;
  const kinds = new Map([['Rule', 2068], ['Connector', 3]]);

  it('recalls nothing at first, then what the last run with the same target, space and paths kept', () => {
    const cache = fresh();
    const first = new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['rules']);
    assert.equal(first.recall(), undefined);
    first.keep(kinds);
    assert.deepEqual(new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['rules']).recall(), kinds);
    // Another target, space or set of paths is another run: nothing is recalled for it.
    assert.equal(new ReadAheadMemory(cache, 'http://other:5601', 'default', ['rules']).recall(), undefined);
    assert.equal(new ReadAheadMemory(cache, 'http://svc:5601', 'team-a', ['rules']).recall(), undefined);
    assert.equal(new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['rules', 'connectors']).recall(), undefined);
  });

  it('writes only when what the files declare changed, and keeps the new counts', () => {
    const cache = fresh();
    const memory = new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']);
    memory.keep(kinds);
    const entryOf = () => {
      const build = readdirSync(cache.base).find((n) => statSync(join(cache.base, n)).isDirectory())!;
      const name = readdirSync(join(cache.base, build)).find((n) => n.startsWith('read-ahead-'))!;
      return join(cache.base, build, name);
    };
    const written = statSync(entryOf()).ino;
    const again = new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']);
    again.recall();
    again.keep(new Map(kinds));
    assert.equal(statSync(entryOf()).ino, written, 'the same counts: the entry is not written again');
    const grown = new Map([['Rule', 2069], ['Connector', 3]]);
    again.keep(grown);
    assert.notEqual(statSync(entryOf()).ino, written);
    assert.deepEqual(new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']).recall(), grown);
  });

  it('files that no longer declare any kind leave nothing to recall; with nothing recalled, no entry is written', () => {
    const cache = fresh();
    new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']).keep(kinds);
    const emptied = new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']);
    assert.deepEqual(emptied.recall(), kinds);
    emptied.keep(new Map());
    assert.equal(new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']).recall(), undefined);
    const other = fresh();
    new ReadAheadMemory(other, 'http://svc:5601', 'default', ['.']).keep(new Map());
    assert.equal(existsSync(other.base) && readdirSync(other.base).some((n) => statSync(join(other.base, n)).isDirectory()), false, 'nothing written');
  });

  it('an entry that is not a map of counts is not recalled', () => {
    const cache = fresh();
    const memory = new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']);
    memory.keep(kinds);
    const build = readdirSync(cache.base).find((n) => statSync(join(cache.base, n)).isDirectory())!;
    const name = readdirSync(join(cache.base, build)).find((n) => n.startsWith('read-ahead-'))!;
    writeFileSync(join(cache.base, build, name), 'not a serialized map');
    assert.equal(new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']).recall(), undefined);
    cache.write(name, new Map([['Rule', -1]]));
    assert.equal(new ReadAheadMemory(cache, 'http://svc:5601', 'default', ['.']).recall(), undefined);
  });
});
