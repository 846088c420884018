import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const EPM = '/api/fleet/epm/packages';

/**
 * Pinned versions, upgrades and downgrades. Source: the server's installPackageFromRegistry and
 * installPackageWithStateMachine (x-pack/platform/plugins/shared/fleet/server/services/epm/
 * packages/install.ts): `installOutOfDateVersionOk = force || [reinstall, reupdate, rollback]`,
 * the out-of-date check against the registry's latest, and the early "already installed" return
 * when the installed version is asked for without force.
 */
describe('Fleet EPM versions (service-api.md: "an older pinned version needs `force`"; wire-facts 7)', () => {
  let emu: RunningEmulator;
  const info = async () => (await call(emu, 'GET', `${EPM}/system`)).body.item.installationInfo;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  beforeEach(() => call(emu, 'POST', '/__emulator/reset'));

  it('upgrades to the latest version without force and records the version in installationInfo', async () => {
    assert.equal((await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: true })).status, 200);
    assert.equal((await call(emu, 'POST', `${EPM}/system/1.60.0`)).status, 200);
    const inst = await info();
    assert.equal(inst.version, '1.60.0');
    assert.equal(inst.install_status, 'installed');
  });

  it('refuses a downgrade without force with the out-of-date message, and takes it with force', async () => {
    await call(emu, 'POST', `${EPM}/system/1.60.0`);
    const refused = await call(emu, 'POST', `${EPM}/system/1.58.0`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, 'system-1.58.0 is out-of-date and cannot be installed or updated');
    assert.equal((await info()).version, '1.60.0', 'a refused downgrade changes nothing');
    assert.equal((await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: true })).status, 200);
    assert.equal((await info()).version, '1.58.0');
  });

  it('an upgrade to a version that is still older than the latest needs force too', async () => {
    await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: true });
    const refused = await call(emu, 'POST', `${EPM}/system/1.59.1`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, 'system-1.59.1 is out-of-date and cannot be installed or updated');
    assert.equal((await call(emu, 'POST', `${EPM}/system/1.59.1`, { force: true })).status, 200);
    assert.equal((await info()).version, '1.59.1');
  });

  it('takes a reinstall of the installed older version without force (install type reinstall), changing nothing', async () => {
    await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: true });
    const before = await info();
    const again = await call(emu, 'POST', `${EPM}/system/1.58.0`);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body._meta, { install_source: 'registry', name: 'system' });
    assert.deepEqual(await info(), before, 'an unforced install of the installed version is skipped');
  });

  it('lists installationInfo (when installed) beside the latest version (service-api.md Package summary: "version, ..., latestVersion, installationInfo (when installed)")', async () => {
    await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: true });
    const system = (await call(emu, 'GET', EPM)).body.items.find((p: any) => p.name === 'system');
    assert.equal(system.version, '1.60.0');
    assert.equal(system.status, 'installed');
    assert.equal(system.installationInfo.version, '1.58.0');
    assert.equal(system.installationInfo.keep_policies_up_to_date, false);
  });

  it('a new package policy of a newer version installs that version; of an older one changes nothing (package_policy.ts create -> install.ts ensureInstalledPackage, isPackageVersionOrLaterInstalled)', async () => {
    assert.equal((await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'ap', name: 'ap', namespace: 'default' })).status, 200);
    assert.equal((await call(emu, 'POST', `${EPM}/system/1.58.0`, { force: true })).status, 200);
    const policy = (name: string, version: string) => call(emu, 'POST', '/api/fleet/package_policies?format=simplified', { name, policy_ids: ['ap'], package: { name: 'system', version } });
    assert.equal((await policy('newer', '1.60.0')).status, 200);
    assert.equal((await info()).version, '1.60.0', 'the policy\'s newer version is installed');
    assert.equal((await policy('older', '1.58.0')).status, 200);
    assert.equal((await info()).version, '1.60.0', 'a later installed version stays');
  });
});
