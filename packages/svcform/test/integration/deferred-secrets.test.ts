import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import type { ConnectorsState } from '@svcform/emulator/areas/connectors/index.js';
import { emulator } from '@svcform/emulator/testing.js';
import { LEASE_ID } from '../../src/kinds/connector/lease-store.js';
import { cli } from '../helpers/cli.js';
import { repo, ruleYaml, writeFiles } from '../helpers/repo.js';

/**
 * Issue 30, "Secrets only where they are used": a connector's `secrets` are write-only (never
 * returned, never compared, wire-facts 1.4), so validate, plan and drift need no value for them;
 * apply needs one only for the connectors it writes.
 */
const CHAT = (name = 'Team chat') => `apiVersion: svcform/v1
kind: Connector
metadata: {name: team-chat}
spec:
  name: ${name}
  connector_type_id: .chat
  secrets:
    webhookUrl: \${env:TEAM_CHAT_WEBHOOK}
`;
const CONFIG = 'manage:\n  - kind: Connector\n    selector: {namePrefix: team-}\n  - kind: Rule\n';

describe('write-only secrets are needed only by the apply that writes them (issue 30)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  const stored = (id: string) => (emu.store.data.bySpace.default.connectors as ConnectorsState).records[id];
  const reset = () => emu.store.reset();
  const url = () => ({ SVC_URL: emu.url });

  it('validate, plan and drift pass without the variable; a ${env:} elsewhere still needs its value', async () => {
    reset();
    const dir = repo({ 'svcform.yaml': CONFIG, 'chat.yaml': CHAT(), 'rule.yaml': ruleYaml('r1', 'team-chat') });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 0, validated.err);
    assert.equal(validated.err, '', 'not even a warning: nothing is wrong');
    const planned = await cli(['plan', dir, '--detailed-exitcode'], url());
    assert.equal(planned.code, 2, planned.err);
    assert.match(planned.out, /Plan: 2 to create/);
    const drift = await cli(['drift', dir], url());
    assert.equal(drift.code, 2, drift.err);
    // The connector's name is compared: its value is needed to plan.
    writeFiles(dir, { 'chat.yaml': CHAT('${env:TEAM_CHAT_NAME}') });
    const named = await cli(['validate', dir]);
    assert.equal(named.code, 1);
    assert.match(named.err, /chat\.yaml:5:3: Connector\/team-chat: environment variable TEAM_CHAT_NAME is not set/);
  });

  it('a malformed reference in a secret is still an error at its line', async () => {
    const dir = repo({ 'chat.yaml': CHAT().replace('${env:TEAM_CHAT_WEBHOOK}', '${env:TEAM CHAT}') });
    const run = await cli(['validate', dir]);
    assert.equal(run.code, 1);
    assert.match(run.err, /chat\.yaml:8:5: Connector\/team-chat: \$\{env:TEAM CHAT\}: not a valid environment variable name/);
  });

  it('apply that creates the connector without the value: an error naming file, line, field and variable, and nothing written', async () => {
    reset();
    const dir = repo({ 'svcform.yaml': CONFIG, 'chat.yaml': CHAT(), 'rule.yaml': ruleYaml('r1', 'team-chat') });
    const run = await cli(['apply', dir, '--auto-approve'], url());
    assert.equal(run.code, 1);
    assert.match(run.err, /chat\.yaml:8:5: Connector\/team-chat: spec\.secrets\.webhookUrl: environment variable TEAM_CHAT_WEBHOOK is not set \(referenced as \$\{env:TEAM_CHAT_WEBHOOK\}\); this apply creates Connector\/team-chat and must send it/);
    assert.match(run.err, /1 secret the changes need is not set; nothing was applied/);
    assert.equal(stored('team-chat'), undefined);
    // Only apply's lease was taken and given back (lease-store.ts): nothing of the manifests was written.
    assert.deepEqual(emu.log.all().filter((r) => r.method !== 'GET' && !LEASE_ID.test(decodeURIComponent(r.path.split('/').pop()!))), []);
  });

  it('with the value, apply sends it; a later apply that leaves the connector alone needs none; --rotate-secrets does', async () => {
    reset();
    const dir = repo({ 'svcform.yaml': CONFIG, 'chat.yaml': CHAT(), 'rule.yaml': ruleYaml('r1', 'team-chat') });
    const first = await cli(['apply', dir, '--auto-approve'], { ...url(), TEAM_CHAT_WEBHOOK: 'https://chat.example/hook/one' });
    assert.equal(first.code, 0, first.err);
    assert.deepEqual(stored('team-chat').secrets, { webhookUrl: 'https://chat.example/hook/one' });
    assert.doesNotMatch(first.out, /chat\.example/, 'the value is never printed');
    writeFiles(dir, { 'rule.yaml': ruleYaml('r1', 'team-chat').replace('severity: low', 'severity: high') });
    const ruleOnly = await cli(['apply', dir, '--auto-approve'], url());
    assert.equal(ruleOnly.code, 0, ruleOnly.err);
    assert.match(ruleOnly.out, /Apply: 1 done/);
    assert.deepEqual(stored('team-chat').secrets, { webhookUrl: 'https://chat.example/hook/one' }, 'untouched');
    const rotate = await cli(['apply', dir, '--rotate-secrets', '--auto-approve'], url());
    assert.equal(rotate.code, 1);
    assert.match(rotate.err, /spec\.secrets\.webhookUrl: environment variable TEAM_CHAT_WEBHOOK is not set .*this apply updates Connector\/team-chat/);
    const rotated = await cli(['apply', dir, '--rotate-secrets', '--auto-approve'], { ...url(), TEAM_CHAT_WEBHOOK: 'https://chat.example/hook/two' });
    assert.equal(rotated.code, 0, rotated.err);
    assert.deepEqual(stored('team-chat').secrets, { webhookUrl: 'https://chat.example/hook/two' });
  });

  it('a missing ${file:} secret is deferred the same way; the file given at apply is read then', async () => {
    reset();
    const dir = repo({ 'svcform.yaml': CONFIG, 'chat.yaml': CHAT().replace('${env:TEAM_CHAT_WEBHOOK}', '${file:secrets/hook.txt}') });
    assert.equal((await cli(['validate', dir])).code, 0);
    const without = await cli(['apply', dir, '--auto-approve'], url());
    assert.match(without.err, /chat\.yaml:8:5: Connector\/team-chat: spec\.secrets\.webhookUrl: \$\{file:secrets\/hook\.txt\}: file not found/);
    writeFiles(dir, { 'secrets/hook.txt': 'https://chat.example/hook/file\n' });
    const applied = await cli(['apply', dir, '--auto-approve'], url());
    assert.equal(applied.code, 0, applied.err);
    assert.deepEqual(stored('team-chat').secrets, { webhookUrl: 'https://chat.example/hook/file' });
  });

  it('plan --out without the value, apply --plan with it in the apply job only', async () => {
    reset();
    const dir = repo({ 'svcform.yaml': CONFIG, 'chat.yaml': CHAT() });
    const planFile = join(mkdtempSync(join(tmpdir(), 'svcform-deferred-')), 'plan.json');
    const planned = await cli(['plan', dir, '--out', planFile], url());
    assert.equal(planned.code, 0, planned.err);
    const refused = await cli(['apply', '--plan', planFile], url());
    assert.equal(refused.code, 1);
    assert.match(refused.err, /environment variable TEAM_CHAT_WEBHOOK is not set/);
    const applied = await cli(['apply', '--plan', planFile], { ...url(), TEAM_CHAT_WEBHOOK: 'https://chat.example/hook/saved' });
    assert.equal(applied.code, 0, applied.err);
    assert.deepEqual(stored('team-chat').secrets, { webhookUrl: 'https://chat.example/hook/saved' });
  });
});
