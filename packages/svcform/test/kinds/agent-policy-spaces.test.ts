import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';

/** Agent policies managed in both spaces, so each space lists the shared policy and could plan it. */
const CONFIG = 'manage:\n  - kind: AgentPolicy\n    spaces: [default, ops]\n  - kind: PackagePolicy\n';

const policyYaml = (name: string, space: string, spaceIds: string[]) => `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: ${name}
  space: ${space}
spec:
  name: ${name}
  namespace: default
  space_ids: [${spaceIds.join(', ')}]
`;

const packagePolicy = `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: ops-logs
spec:
  name: ops logs
  policy_ids: [shared-fleet]
  package: {name: log, version: 2.4.3}
  inputs:
    logs-logfile:
      streams:
        log.logs: {vars: {paths: [/var/log/ops.log]}}
`;

describe('AgentPolicy in several spaces through the CLI (wire-facts §16 #10; TF agentpolicy testdata NonDefaultSpace, SpaceReordering)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
  });
  after(() => emu.stop());

  it('applies a policy whose space_ids name two spaces, visible in both, then plans empty in both', async () => {
    // The spaces written in another order than the manifest's own first: a set, as the provider's reordering test has it.
    const dir = repo({ 'svcform.yaml': CONFIG, 'policy.yaml': policyYaml('shared-fleet', 'default', ['ops', 'default']), 'pp.yaml': packagePolicy, 'ops.yaml': policyYaml('ops-only', 'ops', ['ops']) });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    for (const prefix of ['', '/s/ops']) {
      const got = await call(emu, 'GET', `${prefix}/api/fleet/agent_policies/shared-fleet`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual([...got.body.item.space_ids].sort(), ['default', 'ops']);
    }
    // ops lists the shared policy too: it is default's object there, neither unmanaged nor to delete.
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
    assert.match(plan.out, /0 to delete, 3 unchanged/);
  });

  it('a policy whose manifest drops space_ids is left in its own space: the update sends [its space], as the route refuses null (AgentPolicyBaseSchema space_ids: maybe(arrayOf(string)))', async () => {
    // Its own scope: the other test's policies are not this repository's to delete.
    const config = 'manage:\n  - kind: AgentPolicy\n    spaces: [default, ops]\n    selector: {namePrefix: unshared-}\n';
    const dir = repo({ 'svcform.yaml': config, 'policy.yaml': policyYaml('unshared-fleet', 'default', ['ops', 'default']) });
    const created = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(created.code, 0, created.out + created.err);
    const dropped = policyYaml('unshared-fleet', 'default', []).replace(/\n  space_ids: \[\]\n/, '\n');
    const applied = await cli(['apply', repo({ 'svcform.yaml': config, 'policy.yaml': dropped }), '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual((await call(emu, 'GET', '/api/fleet/agent_policies/unshared-fleet')).body.item.space_ids, ['default']);
  });
});
