import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';

const NOTE = '/api/endpoint/protection_updates_note';
const MANAGE = 'manage:\n  - kind: ProtectionUpdatesNote\n';

const agents = `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: servers
spec:
  name: Servers
  namespace: default
`;
const policy = (id: string) => `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: ${id}
spec:
  name: ${id}
  policy_ids: [servers]
  package: {name: system, version: 1.60.0}
`;
const note = (id: string, text: string, policyId = id) => `apiVersion: svcform/v1
kind: ProtectionUpdatesNote
metadata:
  name: ${id}
spec:
  package_policy_id: ${policyId}
  note: ${text}
`;

describe('ProtectionUpdatesNote kind', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());

  it('writes the package policy before its note in one apply, reads notes with one package-policy listing, and plans empty', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'a-notes.yaml': [note('web', 'Held at the tested release'), note('db', 'Latest')].join('---\n'), 'z-fleet.yaml': [agents, policy('web'), policy('db')].join('---\n') });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const writes = emu.log.all().filter((r) => r.method === 'POST' && !r.path.includes('lease')).map((r) => r.path);
    for (const id of ['web', 'db']) assert.ok(writes.indexOf('/api/fleet/package_policies') < writes.indexOf(`${NOTE}/${id}`), `${id}: the policy first: ${writes.join(', ')}`);
    assert.deepEqual((await call(emu, 'GET', `${NOTE}/web`)).body, { note: 'Held at the tested release' });

    emu.log.clear();
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    const reads = emu.log.all().map((r) => r.path);
    assert.equal(reads.filter((p) => p === '/api/fleet/package_policies').length, 1, `the notes start from the plan's own package-policy listing: ${reads.join(', ')}`);
    assert.equal(reads.filter((p) => p.startsWith(NOTE)).length, 2, 'one note read per package policy');
  });

  it('deleting writes an empty note, which reads as no note; a note of another policy is left alone', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'notes.yaml': [note('web', 'Held'), note('db', 'Latest')].join('---\n'), 'z-fleet.yaml': [agents, policy('web'), policy('db')].join('---\n') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFiles(dir, { 'notes.yaml': note('db', 'Latest') });
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /delete ProtectionUpdatesNote\/web/);
    assert.deepEqual((await call(emu, 'GET', `${NOTE}/web`)).body, { note: '' });
    assert.deepEqual((await call(emu, 'GET', `${NOTE}/db`)).body, { note: 'Latest' });
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('a note whose package_policy_id is not its metadata.name is an error at that line; one naming a missing policy is refused by the plan', async () => {
    const wrong = repo({ 'note.yaml': note('web', 'Held', 'db') });
    const validated = await cli(['validate', wrong]);
    assert.equal(validated.code, 1);
    assert.match(validated.err + validated.out, /note\.yaml:6:3: ProtectionUpdatesNote\/web: spec\.package_policy_id must be the manifest's metadata\.name \("web"\)/);

    const missing = repo({ 'note.yaml': note('nowhere', 'Held') });
    emu.log.clear();
    const planned = await cli(['apply', missing, '--url', emu.url, '--auto-approve']);
    assert.equal(planned.code, 1, planned.out + planned.err);
    assert.match(planned.out + planned.err, /PackagePolicy "nowhere", which neither the manifests nor the server hold; the server refuses the write/);
    assert.deepEqual(emu.log.all().filter((r) => r.method === 'POST' && r.path.startsWith(NOTE)), [], 'nothing written');
  });
});
