import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { fetchRequester } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { integrationPackageAdapter, compareVersions, INSTALL_WAIT } from '../../src/kinds/fleet/integration-package.js';
import type { AdapterContext } from '../../src/kinds/types.js';
import type { ApiRequest, ApiResponse } from '../../src/client/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { contextFor } from '../../src/engine/context.js';
import { RunScope } from '../../src/kinds/run-scope.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';

const planSchema = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync('schemas/plan.schema.json', 'utf8')));
const validatePlan = Object.assign((plan: unknown): boolean => planSchema(plan), { get errors() { return planSchema.errors; } });

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

const EPM = '/api/fleet/epm/packages';

const pkg = (version: string, extra = '') => `apiVersion: svcform/v1
kind: IntegrationPackage
metadata:
  name: system
spec:
  version: ${version}
${extra}`;

const POLICIES = `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: hosts
spec:
  name: Hosts
  namespace: default
---
apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: hosts-system
spec:
  name: hosts system
  policy_ids: [hosts]
  package: {name: system, version: 1.58.0}
`;

describe('IntegrationPackage (wire-facts 7; service-api.md "an older pinned version needs `force`")', () => {
  let emu: RunningEmulator;
  let dir: string;
  let ctx: AdapterContext;
  const sent: ApiRequest[] = [];
  const write = (text: string) => writeFileSync(join(dir, 'manifests.yaml'), text);
  const run = (cmd: string, ...extra: string[]) => cli([cmd, dir, '--url', emu.url, ...extra]);
  const installed = async () => (await call(emu, 'GET', `${EPM}/system`)).body.item.installationInfo;

  before(async () => {
    emu = await emulator({ spaces: ['other'] });
    dir = mkdtempSync(join(tmpdir(), 'svcform-intpkg-'));
    const api = fetchRequester(emu.url);
    ctx = contextFor({ api: { request: (req) => { sent.push(req); return api.request(req); } }, log: () => {}, run: new RunScope() }, integrationPackageAdapter);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    return emu.stop();
  });
  beforeEach(async () => {
    await call(emu, 'POST', '/__emulator/reset');
    sent.length = 0;
    emu.log.clear();
  });

  it('installs a version older than the latest at exactly that version, before the package policy that uses it; plan is then empty', async () => {
    write(`${pkg('1.58.0')}---\n${POLICIES}`);
    const applied = await run('apply');
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await installed()).version, '1.58.0', 'installationInfo holds the pinned version, not the latest 1.60.0');
    const writes = emu.log.all().filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.route}`);
    const install = writes.indexOf(`POST ${EPM}/:pkgName/:pkgVersion`);
    const policy = writes.indexOf('POST /api/fleet/package_policies');
    assert.ok(install >= 0 && policy > install, `the package is installed before the policy is created: ${writes.join(', ')}`);
    const planned = await run('plan', '--detailed-exitcode');
    assert.equal(planned.code, 0, planned.out + planned.err);
  });

  it('changing the pin upgrades the installed package; plan is then empty', async () => {
    write(pkg('1.58.0'));
    assert.equal((await run('apply')).code, 0);
    write(pkg('1.60.0'));
    const planned = await run('plan', '--json');
    const plan = JSON.parse(planned.out);
    assert.deepEqual(plan.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`), ['update IntegrationPackage/system']);
    assert.equal((await run('apply')).code, 0);
    assert.equal((await installed()).version, '1.60.0');
    assert.equal((await run('plan', '--detailed-exitcode')).code, 0);
  });

  it('an upgrade to a pin that is still not the latest is sent with force; one to the latest without', async () => {
    await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: true });
    const live = async () => (await integrationPackageAdapter.list(ctx, 'default')).find((l) => l.name === 'system')!;
    await integrationPackageAdapter.update(ctx, resource('IntegrationPackage', 'system', { version: '1.59.1' }), await live(), { rotateSecrets: false });
    await integrationPackageAdapter.update(ctx, resource('IntegrationPackage', 'system', { version: '1.60.0' }), await live(), { rotateSecrets: false });
    assert.deepEqual(sent.filter((r) => r.method === 'POST').map((r) => [r.path, r.body]), [
      [`${EPM}/system/1.59.1`, { force: true }],
      [`${EPM}/system/1.60.0`, { force: false }],
    ]);
    assert.equal((await installed()).version, '1.60.0');
  });

  it('a downgrade is refused by the server without force, and svcform sends force: true for it', async () => {
    assert.equal((await call(emu, 'POST', `${EPM}/system/1.60.0`)).status, 200);
    const refused = await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: false });
    assert.equal(refused.status, 400, 'the emulator needs force for a downgrade');
    const live = (await integrationPackageAdapter.list(ctx, 'default')).find((l) => l.name === 'system')!;
    await integrationPackageAdapter.update(ctx, resource('IntegrationPackage', 'system', { version: '1.58.0' }), live, { rotateSecrets: false });
    const post = sent.find((r) => r.method === 'POST');
    assert.deepEqual(post?.body, { force: true });
    assert.equal((await installed()).version, '1.58.0');
  });

  it('sends force: false for the latest version (force would reinstall and skip checks)', async () => {
    await integrationPackageAdapter.create(ctx, resource('IntegrationPackage', 'system', { version: '1.60.0' }));
    assert.deepEqual(sent.find((r) => r.method === 'POST')?.body, { force: false });
  });

  it('reads the installed version from installationInfo, not from the status or the latest version', async () => {
    await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: true });
    const [live] = (await integrationPackageAdapter.list(ctx, 'default')).filter((l) => l.name === 'system');
    assert.equal(live.body.version, '1.60.0', 'the list item version is the latest');
    assert.deepEqual(integrationPackageAdapter.normalizeLive(live, RUN), { version: '1.58.0', keep_policies_up_to_date: false });
  });

  it('a failed install of the pinned version is not the pinned version installed: it shows as a change', () => {
    const live = { kind: 'IntegrationPackage', space: 'default', name: 'system', body: { name: 'system', installationInfo: { version: '1.58.0', install_status: 'install_failed' } } };
    assert.deepEqual(integrationPackageAdapter.normalizeLive(live, RUN), { version: '1.58.0 (install_failed)', keep_policies_up_to_date: false });
    assert.deepEqual(integrationPackageAdapter.toSpec(live, RUN).spec, { version: '1.58.0' });
  });

  it('sets keep_policies_up_to_date with the package settings route and reads it back', async () => {
    write(pkg('1.60.0', '  keep_policies_up_to_date: true\n'));
    assert.equal((await run('apply')).code, 0);
    assert.equal((await installed()).keep_policies_up_to_date, true);
    assert.equal((await run('plan', '--detailed-exitcode')).code, 0);
  });

  it('is read-only in a space it was not installed from (install state is deployment-wide)', async () => {
    await call(emu, 'POST', `/s/other${EPM}/system/1.60.0`);
    const [live] = await integrationPackageAdapter.list(ctx, 'default');
    assert.match(live.readOnly ?? '', /installed from space other/);
    assert.equal((await integrationPackageAdapter.list(ctx, 'other'))[0].readOnly, undefined);
  });

  it('a plan that uninstalls a package a package policy still names is an error; without the policy it uninstalls', async () => {
    write(`${pkg('1.58.0')}---\n${POLICIES}`);
    assert.equal((await run('apply')).code, 0);
    const config = join(dir, 'svcform.yaml');
    writeFileSync(config, 'manage:\n  - kind: IntegrationPackage\n    spaces: [default]\n');
    write(POLICIES);
    const refused = await run('plan', '--config', config);
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(refused.out + refused.err, /IntegrationPackage\/system is used by PackagePolicy\/hosts-system/);
    await call(emu, 'DELETE', '/api/fleet/package_policies/hosts-system');
    write(POLICIES.split('---')[0]);
    const applied = await run('apply', '--config', config, '--auto-approve');
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await call(emu, 'GET', `${EPM}/system`)).body.item.status, 'not_installed');
    rmSync(config);
  });

  it('a manage scope never uninstalls a package the server installed by itself (elastic_agent, for monitoring); the plan names why it is left alone', async () => {
    // fleet agent_policy_create.ts createAgentPolicyWithPackages installs elastic_agent for a policy with monitoring.
    write(`${pkg('1.60.0')}---\napiVersion: svcform/v1\nkind: AgentPolicy\nmetadata:\n  name: watched\nspec:\n  name: Watched\n  namespace: default\n  monitoring_enabled: [logs, metrics]\n`);
    const config = join(dir, 'svcform.yaml');
    writeFileSync(config, 'manage:\n  - kind: IntegrationPackage\n    spaces: [default]\n');
    try {
      const applied = await run('apply', '--config', config, '--auto-approve');
      assert.equal(applied.code, 0, applied.out + applied.err);
      assert.equal((await call(emu, 'GET', `${EPM}/elastic_agent`)).body.item.installationInfo?.version, '1.20.0', 'the server installed it');
      const planned = await run('plan', '--config', config, '--json');
      const plan = JSON.parse(planned.out);
      assert.deepEqual(plan.changes, [], 'nothing to uninstall');
      assert.ok(validatePlan(plan), JSON.stringify(validatePlan.errors));
      const kept = plan.unmanaged.find((o: any) => o.name === 'elastic_agent');
      assert.match(kept?.kept ?? '', /Fleet installs it for agent policies with monitoring; a manage scope never uninstalls it/);
      const shown = await run('plan', '--config', config, '--show-unmanaged', '--detailed-exitcode');
      assert.equal(shown.code, 0, shown.out + shown.err);
      assert.match(shown.out, /IntegrationPackage\/elastic_agent \(space default\): Fleet installs it/);
      // Declared, it is managed like any package: its pin is planned.
      write(`${pkg('1.60.0')}---\n${pkg('1.20.0').replace('name: system', 'name: elastic_agent')}`);
      const pinned = JSON.parse((await run('plan', '--config', config, '--json')).out);
      assert.deepEqual(pinned.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`), [], 'declared at its installed version: unchanged');
      assert.ok(!pinned.unmanaged.some((o: any) => o.name === 'elastic_agent'));
    } finally {
      rmSync(config);
    }
  });

  it('a package policy needs no IntegrationPackage manifest: no warning, no plan error (the reference is optional; the server installs the package)', async () => {
    write(POLICIES);
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 0, validated.out + validated.err);
    assert.ok(!/IntegrationPackage/.test(validated.out + validated.err), validated.out + validated.err);
    const applied = await run('apply');
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await installed()).version, '1.58.0', 'the policy creation installed its package version');
    // A reference that is not optional still warns: the agent policy left out.
    write(POLICIES.split('---')[1]);
    assert.match((await cli(['validate', dir])).err, /names AgentPolicy "hosts", which no manifest declares/);
  });

  describe('waits for the install (wire-facts 7: asynchronous in effect), against a scripted server', () => {
    const wait = { ...INSTALL_WAIT };
    before(() => Object.assign(INSTALL_WAIT, { attempts: 3, delayMs: 1 }));
    after(() => Object.assign(INSTALL_WAIT, wait));
    /** A server whose package reads answer the given installationInfo values in turn. */
    const scripted = (infos: Array<Record<string, unknown>>) => {
      const calls: string[] = [];
      const ctx: AdapterContext = {
        log: () => {},
        run: new RunScope(),
        api: {
          async request<T = any>(req: ApiRequest): Promise<ApiResponse<T>> {
            calls.push(`${req.method} ${req.path}`);
            const answer = (body: unknown) => ({ status: 200, body: body as T, text: '', headers: {} });
            if (req.method === 'GET' && req.path === `${EPM}/system`) return answer({ item: { version: '1.60.0' } });
            // The last scripted state repeats (a package that stays installing).
            if (req.method === 'GET') return answer({ item: { status: 'installed', installationInfo: infos.length > 1 ? infos.shift() : infos[0] } });
            return answer({ items: [] });
          },
        },
      };
      return { ctx, calls };
    };
    const create = (ctx: AdapterContext) => integrationPackageAdapter.create(ctx, resource('IntegrationPackage', 'system', { version: '1.58.0' }));

    it('polls while the package is installing, then succeeds', async () => {
      const { ctx, calls } = scripted([{ install_status: 'installing', version: '1.58.0' }, { install_status: 'installed', version: '1.58.0' }]);
      await create(ctx);
      assert.equal(calls.filter((c) => c === `GET ${EPM}/system/1.58.0`).length, 2);
    });

    it('fails on install_failed with the server reason', async () => {
      const { ctx } = scripted([{ install_status: 'install_failed', version: '1.58.0', latest_install_failed_attempts: [{ error: { message: 'mapping conflict' } }] }]);
      await assert.rejects(create(ctx), /installing system 1\.58\.0 failed: mapping conflict/);
    });

    it('fails when another version is installed though the status says installed (provider issue #1585)', async () => {
      const { ctx } = scripted([{ install_status: 'installed', version: '1.60.0' }]);
      await assert.rejects(create(ctx), /the server reports version 1\.60\.0 installed/);
    });

    it('gives up after the wait', async () => {
      const { ctx } = scripted([{ install_status: 'installing', version: '1.58.0' }]);
      await assert.rejects(create(ctx), /not installed after 3 checks/);
    });
  });

  it('compares versions numerically, a prerelease before its release', () => {
    assert.equal(compareVersions('1.58.0', '1.60.0'), -1);
    assert.equal(compareVersions('1.100.0', '1.60.0'), 1);
    assert.equal(compareVersions('2.0.0-beta1', '2.0.0'), -1);
    assert.equal(compareVersions('2.0.0', '2.0.0'), 0);
  });
});

describe('IntegrationPackage of a package the server keeps up to date by default', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    // A minimal apm package: the server creates its installation with keep_policies_up_to_date
    // true (fleet common/constants/epm.ts AUTO_UPGRADE_POLICIES_PACKAGES, createInstallation).
    dir = mkdtempSync(join(tmpdir(), 'svcform-apm-pkg-'));
    const root = join(dir, 'apm-9.0.0');
    mkdirSync(root);
    writeFileSync(join(root, 'manifest.yml'), 'format_version: 3.0.0\nname: apm\ntitle: APM\nversion: 9.0.0\ntype: integration\npolicy_templates: []\n');
    emu = await emulator({ packageDirs: [dir] });
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves keep_policies_up_to_date true when the manifest leaves it out, and plans nothing afterwards', async () => {
    const repoDir = mkdtempSync(join(tmpdir(), 'svcform-apm-'));
    writeFileSync(join(repoDir, 'apm.yaml'), 'apiVersion: svcform/v1\nkind: IntegrationPackage\nmetadata:\n  name: apm\nspec:\n  version: 9.0.0\n');
    const applied = await cli(['apply', repoDir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await call(emu, 'GET', `${EPM}/apm/9.0.0`)).body.item.keepPoliciesUpToDate, true);
    const planned = await cli(['plan', repoDir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
  });
});
