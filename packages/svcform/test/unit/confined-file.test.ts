import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MAX_REFERENCE_BYTES, readConfinedFile } from '../../src/manifest/confined-file.js';

let base: string;
let root: string;
let outside: string;

before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'svcform-confined-')));
  root = join(base, 'repo');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'manifests', 'secrets'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'manifests', 'secrets', 'token.txt'), 'in-root-token\n');
  writeFileSync(join(outside, 'ci-secret.txt'), 'ci-secret-value\n');
  symlinkSync(join(outside, 'ci-secret.txt'), join(root, 'manifests', 'secrets', 'escape.txt'));
  symlinkSync(outside, join(root, 'manifests', 'linked-dir'));
  symlinkSync(join(root, 'manifests', 'secrets', 'token.txt'), join(root, 'manifests', 'alias.txt'));
  symlinkSync('/dev/zero', join(root, 'manifests', 'zero'));
  symlinkSync(join(root, 'manifests', 'loop-a'), join(root, 'manifests', 'loop-b'));
  symlinkSync(join(root, 'manifests', 'loop-b'), join(root, 'manifests', 'loop-a'));
  execFileSync('mkfifo', [join(root, 'manifests', 'pipe')]);
  writeFileSync(join(root, 'manifests', 'big.txt'), '');
  truncateSync(join(root, 'manifests', 'big.txt'), MAX_REFERENCE_BYTES + 1);
  writeFileSync(join(root, 'manifests', 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  // Valid UTF-8, but a NUL: an image or archive named as an items_file (issue 31).
  writeFileSync(join(root, 'manifests', 'binary.bin'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x41]));
  symlinkSync(root, join(base, 'repo-link'));
});
after(() => rmSync(base, { recursive: true, force: true }));

const read = (path: string, options: { root?: string; base?: string; maxBytes?: number } = {}) =>
  readConfinedFile(path, { root: options.root ?? root, base: options.base ?? join(root, 'manifests'), maxBytes: options.maxBytes ?? MAX_REFERENCE_BYTES });

describe('readConfinedFile: files named by manifests stay inside the repository root', () => {
  it('reads a regular file inside the root, relative to the manifest, and through a symlink that stays inside', () => {
    assert.deepEqual(read('secrets/token.txt'), { text: 'in-root-token\n' });
    assert.deepEqual(read('alias.txt'), { text: 'in-root-token\n' });
    assert.deepEqual(read(join(root, 'manifests', 'secrets', 'token.txt')), { text: 'in-root-token\n' });
  });

  it('refuses paths outside the root, relative or absolute, before looking at them', () => {
    for (const path of ['../../outside/ci-secret.txt', '/etc/passwd', '/etc/shadow', '/proc/self/environ', '/dev/zero', '../../../../../../../../etc/passwd']) {
      const r = read(path);
      assert.equal(r.text, undefined, path);
      assert.match(r.error!, /^it is outside the repository root .*: files may be read only from inside it/, path);
    }
  });

  it('refuses a symbolic link (to a file or through a directory) that leads outside the root', () => {
    for (const path of ['secrets/escape.txt', 'linked-dir/ci-secret.txt', 'zero']) {
      assert.match(read(path).error!, /^it leads outside the repository root .* through a symbolic link/, path);
    }
  });

  it('reads nothing but regular files: a named pipe does not block, a device and a directory are refused', () => {
    const started = Date.now();
    assert.deepEqual(read('pipe'), { error: 'it is a named pipe, not a regular file' });
    assert.ok(Date.now() - started < 1000, 'a named pipe is never opened for a blocking read');
    assert.deepEqual(read('secrets'), { error: 'it is a directory, not a regular file' });
    // With / as the root, /dev/zero is inside it: still refused, as a device.
    assert.deepEqual(read('/dev/zero', { root: '/' }), { error: 'it is a device, not a regular file' });
  });

  it('refuses a file over the limit without reading it', () => {
    assert.deepEqual(read('big.txt'), { error: 'it is 1048577 bytes, over the limit of 1 MiB' });
    assert.deepEqual(read('secrets/token.txt', { maxBytes: 4 }), { error: 'it is 14 bytes, over the limit of 4 bytes' });
  });

  it('says why in plain words: missing, a symlink loop, a NUL in the path, not UTF-8', () => {
    assert.deepEqual(read('secrets/none.txt'), { error: 'no such file' });
    assert.deepEqual(read('loop-a'), { error: 'too many levels of symbolic links' });
    assert.deepEqual(read('secrets/token.txt\0../../x'), { error: 'the path contains a NUL character' });
    assert.deepEqual(read('latin1.txt'), { error: 'it is not UTF-8 text' });
    assert.deepEqual(read('binary.bin'), { error: 'it holds NUL bytes: a binary file, not text' });
  });

  it('a root given through a symbolic link contains what its real path contains', () => {
    assert.deepEqual(read('secrets/token.txt', { root: join(base, 'repo-link') }), { text: 'in-root-token\n' });
    assert.deepEqual(read('secrets/token.txt', { root: join(base, 'repo-link'), base: join(base, 'repo-link', 'manifests') }), { text: 'in-root-token\n' });
    assert.match(read('../../outside/ci-secret.txt', { root: join(base, 'repo-link') }).error!, /outside the repository root/);
  });
});
