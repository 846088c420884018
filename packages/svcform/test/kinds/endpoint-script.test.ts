import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';

const BASE = '/api/endpoint/scripts_library';
const MANAGE = 'manage:\n  - kind: EndpointScript\n';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const script = (name: string, file: string, extra = '') => `apiVersion: svcform/v1
kind: EndpointScript
metadata:
  name: ${name}
spec:
  platform: [linux]
  file_type: script
  file: ${file}
${extra}`;

async function listed(emu: RunningEmulator): Promise<Array<Record<string, any>>> {
  return (await call(emu, 'GET', `${BASE}?pageSize=1000`)).body.data;
}

describe('EndpointScript kind', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());

  it('uploads the file beside the manifest; a changed file is an update shown by name, size and sha256 (never the content), written as a PATCH with the new file', async () => {
    const first = '#!/bin/sh\necho collect\n';
    const dir = repo({ 'svcform.yaml': MANAGE, 'scripts.yaml': script('Collect', 'bin/collect.sh', '  description: Collects host data\n'), 'bin/collect.sh': first });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const [created] = await listed(emu);
    assert.deepEqual([created.name, created.fileName, created.fileHash, created.description], ['Collect', 'collect.sh', sha256(first), 'Collects host data']);
    assert.equal((await call(emu, 'GET', `${BASE}/${created.id}/download`)).text, first);

    const second = `#!/bin/sh\necho collect more\n${'# padding line\n'.repeat(2000)}`;
    writeFiles(dir, { 'bin/collect.sh': second });
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 2, planned.out + planned.err);
    assert.ok(planned.out.includes('~ update EndpointScript/Collect'), planned.out);
    // The file as its name, size and hash, the changed words marked.
    assert.ok(planned.out.includes('spec.file:'), planned.out);
    assert.ok(planned.out.includes('collect.sh: '), planned.out);
    for (const word of [String(first.length), sha256(first), String(second.length), sha256(second)]) assert.ok(planned.out.includes(word), `${word}:\n${planned.out}`);
    assert.ok(!planned.out.includes('padding line'), 'the plan never prints the file');

    emu.log.clear();
    const updated = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(updated.code, 0, updated.out + updated.err);
    assert.deepEqual(emu.log.all().filter((r) => r.method !== 'GET' && r.path.startsWith(BASE)).map((r) => `${r.method} ${r.route}`), [`PATCH ${BASE}/:script_id`]);
    const [after] = await listed(emu);
    assert.deepEqual([after.id, after.fileHash], [created.id, sha256(second)], 'the same script, with the new file');
    assert.equal((await call(emu, 'GET', `${BASE}/${created.id}/download`)).text, second);
    const again = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(again.code, 0, again.out + again.err);
  });

  it('a metadata-only change PATCHes without a file part (the same hash is no duplicate); dropping a text field replaces the script, which no PATCH can clear', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'scripts.yaml': script('Net', 'net.sh', '  description: Sockets\n  tags: [networkDiagnostics]\n'), 'net.sh': 'ss -tlnp\n' });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    const [before] = await listed(emu);

    writeFiles(dir, { 'scripts.yaml': script('Net', 'net.sh', '  description: Listening sockets\n  tags: [networkDiagnostics]\n') });
    const patched = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(patched.code, 0, patched.out + patched.err);
    const [mid] = await listed(emu);
    assert.deepEqual([mid.id, mid.description, mid.fileId], [before.id, 'Listening sockets', before.fileId], 'patched in place, the stored file kept');

    writeFiles(dir, { 'scripts.yaml': script('Net', 'net.sh', '  tags: [networkDiagnostics]\n') });
    const planned = await cli(['plan', dir, '--url', emu.url]);
    assert.ok(planned.out.includes('~ update EndpointScript/Net (space default) [replace: deleted and created again: no update clears description]'), planned.out);
    const replaced = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(replaced.code, 0, replaced.out + replaced.err);
    const [last] = await listed(emu);
    assert.notEqual(last.id, before.id, 'deleted and created again');
    assert.equal(last.description, undefined);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('a file that cannot be read is a validation error naming the manifest, line and field, and nothing is written', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'scripts.yaml': script('Missing', 'nope.sh') });
    emu.log.clear();
    const res = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(res.code, 1, res.out + res.err);
    const text = res.out + res.err;
    // Line 8, column 3: the manifest's `file:` key.
    assert.match(text, /scripts\.yaml:8:3: EndpointScript\/Missing: file cannot be read/);
    assert.match(text, /file cannot be read: nope\.sh \(relative to this manifest\): no such file/);
    assert.deepEqual(emu.log.all().filter((r) => r.method !== 'GET'), []);

    const outside = repo({ 'svcform.yaml': MANAGE, 'scripts.yaml': script('Outside', '../../etc/passwd') });
    const refused = await cli(['validate', outside]);
    assert.equal(refused.code, 1);
    assert.match(refused.out + refused.err, /outside the repository root/);
  });
});
