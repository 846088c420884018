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
import { writeMultiTemplatePackage } from '../helpers/package-dir.js';
import { expectExportPlansEmpty, readTree } from '../helpers/export-files.js';

const MANIFESTS = `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: building
spec:
  name: Building
  namespace: default
---
apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: lobby-sensors
spec:
  name: lobby sensors
  policy_ids: [building]
  package: {name: facility, version: 1.0.0}
  inputs:
    lobby-udp:
      vars:
        condition: \${host.platform} == "linux"
    garage-udp:
      enabled: false
---
apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: all-sensors
spec:
  name: all sensors
  policy_ids: [building]
  package: {name: facility, version: 1.0.0}
`;

/**
 * A package of several policy templates whose inputs declare vars of their own: the server copies
 * them, defaults filled, into every package policy input whatever the number of templates
 * (x-pack/platform/plugins/shared/fleet/common/services/package_to_package_policy.ts
 * `packageToPackagePolicyInputs`), so svcform's expansion must fill the same defaults (else
 * `listen_address: 0.0.0.0` shows as a change forever) and a manifest may set such a var (kubernetes'
 * `condition`).
 */
describe('PackagePolicy of a package with several policy templates and input-level vars: converges', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-multi-template-'));
    writeMultiTemplatePackage(join(dir, 'packages'), 'facility', '1.0.0');
    writeFiles(join(dir, 'repo'), { 'fleet.yaml': MANIFESTS });
    emu = await emulator({ packageDirs: [join(dir, 'packages')] });
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('apply takes the input var it sets, and plan --detailed-exitcode then exits 0', async () => {
    const repo = join(dir, 'repo');
    const applied = await cli(['apply', repo, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    const lobby = (await call(emu, 'GET', '/api/fleet/package_policies/lobby-sensors?format=simplified')).body.item.inputs['lobby-udp'];
    assert.deepEqual(lobby.vars, { condition: '${host.platform} == "linux"', listen_address: '0.0.0.0' }, 'the set var and the default the server filled');
    const all = (await call(emu, 'GET', '/api/fleet/package_policies/all-sensors?format=simplified')).body.item.inputs;
    assert.equal(all['garage-udp'].vars.listen_address, '0.0.0.0', 'the server filled the default of an input the manifest does not name');
    const planned = await cli(['plan', repo, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
    assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete/);
  });

  it('export writes the set var and none of the defaults, and the export plans empty', async () => {
    const out = join(dir, 'export');
    const exported = await cli(['export', '--out', out, '--url', emu.url, '--kind', 'PackagePolicy']);
    assert.equal(exported.code, 0, shown(exported));
    const docs = [...readTree(out).entries()]
      .filter(([f]) => f.endsWith('.yaml'))
      .flatMap(([f]) => parseAllDocuments(readFileSync(join(out, f), 'utf8')).map((d) => d.toJS()));
    const lobby = docs.find((d) => d?.metadata?.name === 'lobby-sensors');
    // Written `$${`: an export escapes `${` so that the manifest reads back as the server holds it.
    assert.deepEqual(lobby?.spec.inputs['lobby-udp'], { vars: { condition: '$${host.platform} == "linux"' } });
    assert.equal(docs.find((d) => d?.metadata?.name === 'all-sensors')?.spec.inputs, undefined, 'nothing but defaults');
    await expectExportPlansEmpty(out, emu.url, docs.filter((d) => d?.kind === 'PackagePolicy').length);
  });
});
