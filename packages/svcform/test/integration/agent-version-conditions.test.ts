import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { writeFiles } from '../helpers/repo.js';
import { writeTestPackage } from '../helpers/package-dir.js';
import { expectExportPlansEmpty, readTree } from '../helpers/export-files.js';

const COMPUTED = ['has_agent_version_conditions', 'min_agent_version', 'package_agent_version_conditions'];

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
      streams:
        doors.events:
          vars: {building: HQ}
`;

/**
 * An agent policy whose integration's package names agent versions (`conditions.agent.version`):
 * the server works has_agent_version_conditions, min_agent_version and
 * package_agent_version_conditions out itself on every update and package policy change (K-FLEET
 * x-pack/platform/plugins/shared/fleet/server/services/agent_policy.ts update(), bumpRevision(),
 * computeMinAgentVersionData), so svcform must neither compare nor send them, or the policy never
 * settles, and must not export them (their stored shape is not the body's).
 */
describe('AgentPolicy with an integration that needs agent versions: converges, exports none of the computed fields', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-agent-version-'));
    writeTestPackage(join(dir, 'packages'), 'doors', '0.3.0', { agentVersion: '^9.3.0' });
    writeFiles(join(dir, 'repo'), { 'fleet.yaml': MANIFESTS });
    emu = await emulator({ packageDirs: [join(dir, 'packages')] });
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('apply, then plan --detailed-exitcode exits 0 although the server filled the three fields', async () => {
    const repo = join(dir, 'repo');
    const applied = await cli(['apply', repo, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    const live = (await call(emu, 'GET', '/api/fleet/agent_policies/gateways')).body.item;
    assert.equal(live.has_agent_version_conditions, true, 'the server computed them (else this test shows nothing)');
    assert.equal(live.min_agent_version, '9.3.0');
    assert.deepEqual(live.package_agent_version_conditions, [{ name: 'doors', title: 'Door sensors', version_condition: '^9.3.0' }]);
    const planned = await cli(['plan', repo, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
    assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete/);
  });

  it('export writes none of them, and the export validates and plans empty', async () => {
    const out = join(dir, 'export');
    const exported = await cli(['export', '--out', out, '--url', emu.url, '--kind', 'AgentPolicy']);
    assert.equal(exported.code, 0, shown(exported));
    const docs = [...readTree(out).entries()]
      .filter(([f]) => f.endsWith('.yaml'))
      .flatMap(([f]) => parseAllDocuments(readFileSync(join(out, f), 'utf8')).map((d) => d.toJS()));
    const gateways = docs.find((d) => d?.metadata?.name === 'gateways');
    assert.ok(gateways, 'the policy is exported');
    for (const field of COMPUTED) assert.equal(field in gateways.spec, false, field);
    const validated = await cli(['validate', out, '--root', out]);
    assert.match(validated.out, /0 errors, 0 warnings/, shown(validated));
    await expectExportPlansEmpty(out, emu.url, docs.filter((d) => d?.kind === 'AgentPolicy').length);
  });
});
