import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFiles } from '../helpers/repo.js';
import { writeTestPackage } from '../helpers/package-dir.js';
import { childEnv, runBuiltCli } from '../helpers/spawn-cli.js';

const MANIFESTS = `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: gateways
spec:
  name: Gateways
  namespace: default
---
apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: lobby-doors
spec:
  name: lobby doors
  policy_ids: [gateways]
  package: {name: doors, version: 0.3.0}
  inputs:
    doors-udp:
      vars: {listen_port: 9600}
      streams:
        doors.events:
          vars: {building: HQ}
---
apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: gateway-tcp
spec:
  name: gateway tcp
  policy_ids: [gateways]
  package: {name: tcp, version: 1.21.1}
  inputs:
    tcp-tcp:
      streams:
        tcp.tcp:
          vars: {listen_port: 9000}
`;

/**
 * The embedded emulator reads the packages of `emulator.packages` in svcform.yaml (and
 * SVC_EMULATOR_PACKAGES): a package policy of a package of our own and one of a bundled package
 * apply, then plan empty (wire-facts §16 #9: every package the registry has takes package policies).
 */
describe('--url embedded with packages of a folder (svcform.yaml emulator.packages, SVC_EMULATOR_PACKAGES)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-embedded-packages-'));
    writeTestPackage(join(dir, 'packages'), 'doors', '0.3.0');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('applies package policies of a folder package and a bundled one, then plans empty', async () => {
    const repo = join(dir, 'repo');
    writeFiles(repo, { 'svcform.yaml': 'emulator:\n  packages: [../packages]\nmanage:\n  - kind: PackagePolicy\n', 'fleet.yaml': MANIFESTS });
    const applied = await runBuiltCli(['apply', '.', '--url', 'embedded'], repo);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /lobby-doors/);
    const plan = await runBuiltCli(['plan', '.', '--url', 'embedded', '--detailed-exitcode'], repo);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('takes the folder from SVC_EMULATOR_PACKAGES when svcform.yaml names none', async () => {
    const repo = join(dir, 'env-repo');
    writeFiles(repo, { 'svcform.yaml': 'manage:\n  - kind: PackagePolicy\n', 'fleet.yaml': MANIFESTS });
    const without = await runBuiltCli(['apply', '.', '--url', 'embedded'], repo);
    assert.notEqual(without.code, 0, 'without the folder the doors package is unknown');
    assert.match(without.out + without.err, /\[doors\] package not found in registry/);
    const applied = await runBuiltCli(['apply', '.', '--url', 'embedded'], repo, childEnv({ SVC_EMULATOR_PACKAGES: join(dir, 'packages') }));
    assert.equal(applied.code, 0, applied.out + applied.err);
  });
});
