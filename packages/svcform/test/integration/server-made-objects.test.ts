import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/**
 * Objects the server makes by itself, with fixed ids, and makes again once deleted: a manage scope
 * over their kind never deletes them undeclared (LiveObject.serverOwned), and a manifest manages
 * them. Fleet's own packages are covered with IntegrationPackage (test/kinds/integration-package.test.ts).
 */
describe('a manage scope leaves alone what the server makes by itself', () => {
  let emu: RunningEmulator;
  let dir: string;
  const plan = async (...extra: string[]) => {
    const planned = await cli(['plan', dir, '--url', emu.url, '--json', ...extra]);
    assert.equal(planned.code, 0, planned.err);
    return JSON.parse(planned.out);
  };

  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-server-made-'));
    writeFileSync(join(dir, 'svcform.yaml'), 'manage:\n  - kind: DataView\n  - kind: ExceptionList\n');
    writeFileSync(join(dir, 'empty.yaml'), '');
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await emu.stop();
  });

  it("the security app's data view of the space (security_solution common/constants.ts DEFAULT_DATA_VIEW_ID, made by its sourcerer as security-solution-<space>)", async () => {
    // As the security app makes it: an ordinary, unmanaged data view with a fixed id.
    const made = await call(emu, 'POST', '/api/data_views/data_view', { data_view: { id: 'security-solution-default', title: 'logs-*,.alerts-security.alerts-default', timeFieldName: '@timestamp' } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const byHand = await call(emu, 'POST', '/api/data_views/data_view', { data_view: { id: 'by-hand', title: 'metrics-*' } });
    assert.equal(byHand.status, 200);
    const planned = await plan();
    assert.deepEqual(planned.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`), ['delete DataView/by-hand'], 'only the data view made by hand is deleted');
    const kept = planned.unmanaged.find((o: any) => o.name === 'security-solution-default');
    assert.match(kept?.kept ?? '', /the security app makes it/);
    // Declared, it is managed like any data view.
    writeFileSync(join(dir, 'view.yaml'), 'apiVersion: svcform/v1\nkind: DataView\nmetadata:\n  name: security-solution-default\nspec:\n  title: logs-*,.alerts-security.alerts-default\n  timeFieldName: "@timestamp"\n  name: Security\n');
    try {
      const declared = await plan();
      assert.ok(declared.changes.some((c: any) => c.action === 'update' && c.name === 'security-solution-default'), JSON.stringify(declared.changes));
    } finally {
      rmSync(join(dir, 'view.yaml'));
      await call(emu, 'DELETE', '/api/data_views/data_view/by-hand');
    }
  });

  it('the same data view under a SavedObject scope (a data view is an index-pattern saved object)', async () => {
    const made = await call(emu, 'POST', '/api/data_views/data_view', { data_view: { id: 'security-solution-alert-default', title: '.alerts-security.alerts-default', timeFieldName: '@timestamp' } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    writeFileSync(join(dir, 'svcform.yaml'), 'manage:\n  - kind: SavedObject\n');
    try {
      const planned = await plan();
      assert.deepEqual(planned.changes.filter((c: any) => c.name.startsWith('security-solution')), []);
      assert.match(planned.unmanaged.find((o: any) => o.kind === 'SavedObject' && o.name === 'security-solution-alert-default')?.kept ?? '', /the security app makes it/);
    } finally {
      writeFileSync(join(dir, 'svcform.yaml'), 'manage:\n  - kind: DataView\n  - kind: ExceptionList\n');
    }
  });

  it('an endpoint artifact list (fixed list_id, agnostic), whose delete would take every artifact in it; an ordinary list is deleted', async () => {
    const artifacts = await call(emu, 'POST', '/api/exception_lists', { list_id: 'endpoint_trusted_apps', name: 'Endpoint Security Trusted Apps List', description: 'Trusted apps', type: 'endpoint_trusted_apps', namespace_type: 'agnostic' });
    assert.equal(artifacts.status, 200, JSON.stringify(artifacts.body));
    const stray = await call(emu, 'POST', '/api/exception_lists', { list_id: 'stray', name: 'Stray', description: 'd', type: 'detection' });
    assert.equal(stray.status, 200);
    const planned = await plan();
    assert.deepEqual(planned.changes.filter((c: any) => c.kind === 'ExceptionList').map((c: any) => `${c.action} ${c.name}`), ['delete stray']);
    assert.match(planned.unmanaged.find((o: any) => o.name === 'endpoint_trusted_apps')?.kept ?? '', /endpoint artifact list/);
  });

  it("an agent policy's sys_monitoring, whose system integration the server adds with a generated id: the plan that creates the policy warns when a scope would delete it (K-FLEET agent_policy_create.ts createAgentPolicyWithPackages)", async () => {
    const fleet = mkdtempSync(join(tmpdir(), 'svcform-sys-monitoring-'));
    try {
      writeFileSync(join(fleet, 'policy.yaml'), 'apiVersion: svcform/v1\nkind: AgentPolicy\nmetadata:\n  name: hosts\nspec:\n  name: Hosts\n  namespace: default\n  sys_monitoring: true\n');
      const planOf = async (manage: string) => {
        writeFileSync(join(fleet, 'svcform.yaml'), manage);
        const planned = await cli(['plan', fleet, '--url', emu.url, '--json']);
        assert.equal(planned.code, 0, planned.err);
        return JSON.parse(planned.out);
      };
      const warned = (p: any) => p.warnings.filter((w: any) => /sys_monitoring makes the server add a system integration/.test(w.message));
      assert.equal(warned(await planOf('manage:\n  - kind: PackagePolicy\n    spaces: [default]\n')).length, 1);
      assert.equal(warned(await planOf('manage:\n  - kind: PackagePolicy\n    selector: {namePrefix: soc-}\n')).length, 0, 'a narrowed scope never owns the generated id');
      assert.equal(warned(await planOf('manage: []\n')).length, 0);
      // What the warning says: after the apply, the next plan deletes the server's system integration.
      writeFileSync(join(fleet, 'svcform.yaml'), 'manage:\n  - kind: PackagePolicy\n    spaces: [default]\n');
      const applied = await cli(['apply', fleet, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      const next = JSON.parse((await cli(['plan', fleet, '--url', emu.url, '--json'])).out);
      assert.deepEqual(next.changes.map((c: any) => `${c.action} ${c.kind}`), ['delete PackagePolicy']);
      assert.equal(warned(next).length, 0, 'no warning of the create once the policy exists');
      // The flag cannot bring the integration back: only a create adds it.
      const nothing = (p: any) => p.warnings.filter((w: any) => /sys_monitoring: true on an existing policy without a system integration does nothing/.test(w.message));
      assert.equal(nothing(next).length, 1, JSON.stringify(next.warnings));
      assert.equal(nothing(await planOf('manage: []\n')).length, 0, 'while the integration is there, nothing is said');
    } finally {
      rmSync(fleet, { recursive: true, force: true });
    }
  });
  it("an agent policy's has_fleet_server: the create adds the Fleet Server integration but stores no flag, so svcform stores it, and warns where a scope would delete the integration or an update adds none (K-FLEET routes/agent_policy/handlers.ts, agent_policy_create.ts)", async () => {
    const fleet = mkdtempSync(join(tmpdir(), 'svcform-fleet-server-'));
    try {
      const manifest = (extra: string) => `apiVersion: svcform/v1\nkind: AgentPolicy\nmetadata:\n  name: fleet-servers\nspec:\n  name: Fleet servers\n  namespace: default\n${extra}`;
      writeFileSync(join(fleet, 'policy.yaml'), manifest('  has_fleet_server: true\n'));
      const planOf = async (manage: string) => {
        writeFileSync(join(fleet, 'svcform.yaml'), manage);
        const planned = await cli(['plan', fleet, '--url', emu.url, '--json']);
        assert.equal(planned.code, 0, planned.err);
        return JSON.parse(planned.out);
      };
      const warned = (p: any, pattern: RegExp) => p.warnings.filter((w: any) => pattern.test(w.message));
      const scoped = 'manage:\n  - kind: PackagePolicy\n    spaces: [default]\n';
      assert.equal(warned(await planOf(scoped), /has_fleet_server makes the server add the Fleet Server integration/).length, 1);
      assert.equal(warned(await planOf('manage: []\n'), /has_fleet_server/).length, 0);
      // Declared too (as an export of such a policy writes it), the integration would be made twice.
      writeFileSync(join(fleet, 'integration.yaml'), 'apiVersion: svcform/v1\nkind: PackagePolicy\nmetadata:\n  name: fleet-servers-integration\nspec:\n  name: fleet_server-1\n  policy_ids: [fleet-servers]\n  package: {name: fleet_server, version: 1.2.0}\n');
      const twice = await planOf('manage: []\n');
      assert.equal(warned(twice, /has_fleet_server makes the server add the Fleet Server integration \(named fleet_server-<n>\) to the new policy beside PackagePolicy\/fleet-servers-integration/).length, 1, JSON.stringify(twice.warnings));
      rmSync(join(fleet, 'integration.yaml'));
      const applied = await cli(['apply', fleet, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      const integrations = await call(emu, 'GET', `/api/fleet/package_policies?kuery=${encodeURIComponent('ingest-package-policies.policy_ids:fleet-servers')}`);
      assert.deepEqual(integrations.body.items.map((p: any) => p.package.name), ['fleet_server']);
      // The flag is stored, so the next plan has nothing to do.
      const next = await planOf('manage: []\n');
      assert.deepEqual(next.changes, [], JSON.stringify(next.changes));
      // A policy that exists without the flag: an update stores it and adds no integration.
      writeFileSync(join(fleet, 'other.yaml'), 'apiVersion: svcform/v1\nkind: AgentPolicy\nmetadata:\n  name: later\nspec:\n  name: Later\n  namespace: default\n');
      assert.equal((await cli(['apply', fleet, '--url', emu.url, '--auto-approve'])).code, 0);
      writeFileSync(join(fleet, 'other.yaml'), 'apiVersion: svcform/v1\nkind: AgentPolicy\nmetadata:\n  name: later\nspec:\n  name: Later\n  namespace: default\n  has_fleet_server: true\n');
      const marked = await planOf('manage: []\n');
      assert.deepEqual(marked.changes.map((c: any) => `${c.action} ${c.name}`), ['update later']);
      assert.equal(warned(marked, /has_fleet_server: true on an existing policy without the Fleet Server integration only marks it/).length, 1);
      // One made with the flag elsewhere (or whose create's second write failed) has the integration:
      // the update only stores the flag, and nothing is said.
      const elsewhere = await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'made-elsewhere', name: 'Made elsewhere', namespace: 'default', has_fleet_server: true });
      assert.equal(elsewhere.status, 200, JSON.stringify(elsewhere.body));
      writeFileSync(join(fleet, 'other.yaml'), 'apiVersion: svcform/v1\nkind: AgentPolicy\nmetadata:\n  name: made-elsewhere\nspec:\n  name: Made elsewhere\n  namespace: default\n  has_fleet_server: true\n');
      const stored = await planOf('manage: []\n');
      assert.deepEqual(stored.changes.map((c: any) => `${c.action} ${c.name}`), ['update made-elsewhere']);
      assert.equal(warned(stored, /has_fleet_server/).length, 0, JSON.stringify(stored.warnings));
    } finally {
      rmSync(fleet, { recursive: true, force: true });
    }
  });
  it('has_fleet_server: when the update that stores the flag fails, the apply says the policy exists, and the next apply stores it', async () => {
    const fleet = mkdtempSync(join(tmpdir(), 'svcform-fleet-server-fault-'));
    try {
      writeFileSync(join(fleet, 'svcform.yaml'), 'manage: []\n');
      writeFileSync(join(fleet, 'policy.yaml'), 'apiVersion: svcform/v1\nkind: AgentPolicy\nmetadata:\n  name: half-made\nspec:\n  name: Half made\n  namespace: default\n  has_fleet_server: true\n');
      await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'PUT', path: '^/api/fleet/agent_policies/half-made$', status: 400, times: 1 }] });
      const failed = await cli(['apply', fleet, '--url', emu.url, '--auto-approve']);
      assert.notEqual(failed.code, 0);
      assert.match(failed.out + failed.err, /the policy was created, but the update that stores has_fleet_server \(the create does not\) failed/);
      assert.equal((await call(emu, 'GET', '/api/fleet/agent_policies/half-made')).status, 200);
      const again = await cli(['apply', fleet, '--url', emu.url, '--auto-approve']);
      assert.equal(again.code, 0, again.out + again.err);
      const settled = JSON.parse((await cli(['plan', fleet, '--url', emu.url, '--json'])).out);
      assert.deepEqual(settled.changes, []);
    } finally {
      await call(emu, 'PUT', '/__emulator/faults', { faults: [] });
      rmSync(fleet, { recursive: true, force: true });
    }
  });
});
