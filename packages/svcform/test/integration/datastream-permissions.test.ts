import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';
import { expectExportPlansEmpty, readTree } from '../helpers/export-files.js';

/**
 * `additional_datastreams_permissions` of package and agentless policies, against an emulator that
 * stores and answers it as the real server does (OAS package_policy_request and package_policy;
 * K-FLEET common/services/simplified_package_policy_helper.ts keeps a simplified body's list and
 * drops its null, and an update without the field keeps the stored list). Both kinds converge,
 * compare it as a set, and export it; a PackagePolicy that drops it clears it with [].
 */

const AGENTLESS = `apiVersion: svcform/v1
kind: AgentlessPolicy
metadata:
  name: okta-agentless
spec:
  name: okta agentless
  package: {name: system, version: 1.60.0}
  additional_datastreams_permissions: [logs-okta.extra-default, metrics-okta.usage-default]
`;

const AGENTS = `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: perm-agents
spec:
  name: perm agents
  namespace: default
`;

const PACKAGE_POLICY = (permissions?: string) => `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: perm-system
spec:
  name: perm system
  policy_ids: [perm-agents]
  package: {name: system, version: 1.60.0}
${permissions ? `  additional_datastreams_permissions: ${permissions}\n` : ''}`;

describe('additional_datastreams_permissions: AgentlessPolicy and PackagePolicy converge', () => {
  let emu: RunningEmulator;
  const dirs: string[] = [];
  before(async () => {
    emu = await emulator({ deployment: 'cloud' });
  });
  after(async () => {
    await emu.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const run = (args: string[]) => cli([...args, '--url', emu.url, '--no-color']);
  const stored = async (id: string) => (await call(emu, 'GET', `/api/fleet/package_policies/${id}`)).body.item.additional_datastreams_permissions;

  it('an AgentlessPolicy that sets it: one apply, then the plan is empty', async () => {
    const dir = repo({ 'agentless.yaml': AGENTLESS });
    dirs.push(dir);
    const applied = await run(['apply', dir]);
    assert.equal(applied.code, 0, shown(applied));
    assert.deepEqual(await stored('okta-agentless'), ['logs-okta.extra-default', 'metrics-okta.usage-default']);
    const planned = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });

  it('a PackagePolicy sets it, compares it as a set, changes it, and clears it when the manifest drops it', async () => {
    const dir = repo({ 'agents.yaml': AGENTS, 'policy.yaml': PACKAGE_POLICY('[logs-app.audit-default, logs-app.access-default]') });
    dirs.push(dir);
    assert.equal((await run(['apply', dir])).code, 0);
    assert.deepEqual(await stored('perm-system'), ['logs-app.audit-default', 'logs-app.access-default']);
    const settled = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(settled.code, 0, shown(settled));

    writeFiles(dir, { 'policy.yaml': PACKAGE_POLICY('[logs-app.access-default, logs-app.audit-default]') });
    assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0, 'another order is the same set');

    writeFiles(dir, { 'policy.yaml': PACKAGE_POLICY('[logs-app.audit-default, metrics-app.usage-default]') });
    const changed = await run(['apply', dir]);
    assert.equal(changed.code, 0, shown(changed));
    assert.match(changed.out, /additional_datastreams_permissions/);
    assert.deepEqual(await stored('perm-system'), ['logs-app.audit-default', 'metrics-app.usage-default']);
    assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);

    writeFiles(dir, { 'policy.yaml': PACKAGE_POLICY() });
    const dropped = await run(['apply', dir]);
    assert.equal(dropped.code, 0, shown(dropped));
    assert.deepEqual(await stored('perm-system'), [], 'cleared: a simplified update keeps what it leaves out');
    assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);
  });

  it('export writes it for both kinds, and the export plans empty', async () => {
    await call(emu, 'PUT', '/api/fleet/package_policies/perm-system?format=simplified', { name: 'perm system', policy_ids: ['perm-agents'], package: { name: 'system', version: '1.60.0' }, inputs: {}, additional_datastreams_permissions: ['logs-app.audit-default'] });
    const out = join(repo({}), 'export');
    dirs.push(out);
    const exported = await run(['export', '--out', out, '--kind', 'PackagePolicy', '--kind', 'AgentlessPolicy', '--kind', 'AgentPolicy']);
    assert.equal(exported.code, 0, shown(exported));
    const docs = [...readTree(out).entries()].filter(([f]) => f.endsWith('.yaml')).flatMap(([f]) => parseAllDocuments(readFileSync(join(out, f), 'utf8')).map((d) => d.toJS()));
    assert.deepEqual(docs.find((d) => d?.metadata?.name === 'perm-system')?.spec.additional_datastreams_permissions, ['logs-app.audit-default']);
    assert.deepEqual(docs.find((d) => d?.metadata?.name === 'okta-agentless')?.spec.additional_datastreams_permissions, ['logs-okta.extra-default', 'metrics-okta.usage-default']);
    await expectExportPlansEmpty(out, emu.url, docs.filter((d) => d?.kind).length);
  });
});
