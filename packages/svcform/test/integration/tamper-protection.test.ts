import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';

/**
 * Tamper protection (`is_protected`) against an emulator that keeps it as the real server does
 * (K-FLEET x-pack/platform/plugins/shared/fleet/server/services/agent_policy.ts: a create stores
 * false; an update stores true only with an Elastic Defend (`endpoint`) package policy attached;
 * services/package_policy.ts: deleting that package policy switches it off). A manifest asking for
 * it converges at the second apply, with a warning at the field saying so, and one without Elastic
 * Defend converges at once, with a warning each plan, instead of planning the same update forever.
 * The bundled catalog has the endpoint package (8.18.1).
 */

const POLICY = (name: string) => `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: ${name}
spec:
  name: ${name}
  namespace: default
  is_protected: true
`;

const DEFEND = (name: string, policy: string) => `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: ${name}
spec:
  name: ${name}
  policy_ids: [${policy}]
  package: {name: endpoint, version: 8.18.1}
`;

describe('AgentPolicy is_protected: converges against a server that turns it on only with Elastic Defend', () => {
  let emu: RunningEmulator;
  const dirs: string[] = [];
  before(async () => {
    emu = await emulator();
  });
  after(async () => {
    await emu.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const run = (args: string[]) => cli([...args, '--url', emu.url, '--no-color']);
  const isProtected = async (id: string) => (await call(emu, 'GET', `/api/fleet/agent_policies/${id}`)).body.item.is_protected;

  it('created with its Elastic Defend integration: a warning at is_protected, the second apply sets it, the third plan is empty', async () => {
    const dir = repo({ 'policy.yaml': POLICY('guarded'), 'defend.yaml': DEFEND('guarded-defend', 'guarded') });
    dirs.push(dir);
    const first = await run(['apply', dir]);
    assert.equal(first.code, 0, shown(first));
    // The warning names the manifest's field (policy.yaml line 8, `is_protected: true`).
    assert.match(first.out + first.err, /policy\.yaml:8:\d+: AgentPolicy\/guarded \(space default\): is_protected: the create stores false .*the next apply sets it/);
    assert.equal(await isProtected('guarded'), false, 'the create stored false');

    const second = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(second.code, 2, shown(second));
    assert.match(second.out, /Plan: 0 to create, 1 to update, 0 to delete/);
    assert.match(second.out, /is_protected/);
    assert.doesNotMatch(second.out + second.err, /warning/i, 'nothing to warn about once Elastic Defend is live');
    const applied = await run(['apply', dir]);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal(await isProtected('guarded'), true);

    const third = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(third.code, 0, shown(third));
  });

  it('without Elastic Defend: one apply settles it (the server holds false), and each plan warns at the field', async () => {
    const dir = repo({ 'policy.yaml': POLICY('unguarded') });
    dirs.push(dir);
    const applied = await run(['apply', dir]);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal(await isProtected('unguarded'), false);
    const plan = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(plan.code, 0, shown(plan));
    assert.match(plan.out + plan.err, /policy\.yaml:8:\d+: AgentPolicy\/unguarded \(space default\): is_protected is true, but no Elastic Defend integration .* attach one, or remove is_protected/);
  });

  it('Elastic Defend removed from a protected policy: the delete switches protection off, and the policy stays settled', async () => {
    const dir = repo({ 'policy.yaml': POLICY('was-guarded'), 'defend.yaml': DEFEND('was-guarded-defend', 'was-guarded'), 'svcform.yaml': 'manage:\n  - kind: PackagePolicy\n    selector: {namePrefix: "was-guarded"}\n' });
    dirs.push(dir);
    assert.equal((await run(['apply', dir])).code, 0);
    assert.equal((await run(['apply', dir])).code, 0);
    assert.equal(await isProtected('was-guarded'), true, 'protected before the integration goes');

    unlinkSync(join(dir, 'defend.yaml'));
    const plan = await run(['plan', dir]);
    assert.match(plan.out, /Plan: 0 to create, 0 to update, 1 to delete/, shown(plan));
    assert.match(plan.out + plan.err, /AgentPolicy\/was-guarded \(space default\): is_protected is true, but no Elastic Defend integration/);
    const applied = await run(['apply', dir, '--auto-approve']);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal(await isProtected('was-guarded'), false, 'the server switched it off with the delete');
    const settled = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(settled.code, 0, shown(settled));

    // Attached again (a policy that already exists): the update runs before the integration it
    // needs, so this apply leaves it off and says so; the next one sets it.
    writeFiles(dir, { 'defend.yaml': DEFEND('was-guarded-defend', 'was-guarded') });
    const again = await run(['apply', dir]);
    assert.equal(again.code, 0, shown(again));
    assert.match(again.out + again.err, /AgentPolicy\/was-guarded \(space default\): is_protected takes effect at the next apply/);
    assert.equal((await run(['apply', dir])).code, 0);
    assert.equal(await isProtected('was-guarded'), true);
    assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);
  });
});
