import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { uptimeSettingsAdapter } from '../../src/kinds/uptime-settings.js';
import { uptimeDefaults } from '../../src/common/uptime-settings.js';
import { resource } from '../helpers/resource.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

const SETTINGS = '/api/uptime/settings';
const manifest = (spec: string) => `apiVersion: svcform/v1
kind: UptimeSettings
metadata:
  name: settings
spec:
${spec}`;

/** service-api.md Uptime settings (merge update, documented defaults); wire-facts §12. */
describe('UptimeSettings', () => {
  let emu: RunningEmulator;
  let dir: string;
  const write = (text: string) => writeFileSync(join(dir, 'manifests.yaml'), text);
  const run = (cmd: string, ...extra: string[]) => cli([cmd, dir, '--url', emu.url, ...extra]);
  const settings = async (space = '') => (await call(emu, 'GET', `${space}${SETTINGS}`)).body;

  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
    dir = mkdtempSync(join(tmpdir(), 'svcform-uptime-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    return emu.stop();
  });
  beforeEach(() => call(emu, 'POST', '/__emulator/reset'));

  it('applies the manifest as the whole object: fields left out go back to their defaults; plan is then empty', async () => {
    await call(emu, 'PUT', SETTINGS, { certAgeThreshold: 100, defaultEmail: { to: ['old@example.com'] } });
    write(manifest('  certExpirationThreshold: 14\n  defaultEmail: {to: [soc@example.com]}\n'));
    const applied = await run('apply');
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual(await settings(), { ...uptimeDefaults(), certExpirationThreshold: 14, defaultEmail: { to: ['soc@example.com'], cc: [], bcc: [] } });
    assert.equal((await run('plan', '--detailed-exitcode')).code, 0);
  });

  it('"delete" inside a manage scope restores the documented defaults, and is not planned again', async () => {
    write(manifest('  heartbeatIndices: synthetics-*\n  certAgeThreshold: 365\n'));
    assert.equal((await run('apply')).code, 0);
    const cfg = join(dir, 'svcform.yaml');
    writeFileSync(cfg, 'manage:\n  - kind: UptimeSettings\n    spaces: [default]\n');
    write('');
    const planned = JSON.parse((await run('plan', '--config', cfg, '--json')).out);
    assert.deepEqual(planned.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`), ['delete UptimeSettings/settings']);
    assert.equal((await run('apply', '--config', cfg, '--auto-approve')).code, 0);
    assert.deepEqual(await settings(), uptimeDefaults());
    assert.equal((await run('plan', '--config', cfg, '--detailed-exitcode')).code, 0);
    rmSync(cfg);
  });

  it('reads the real server\'s default index pattern (heartbeat-*, wire-facts §12) as the default, but writes an explicit heartbeat-* as written', async () => {
    const live = { kind: 'UptimeSettings', space: 'default', name: 'settings', body: { ...uptimeDefaults(), heartbeatIndices: 'heartbeat-*', certAgeThreshold: 365 } };
    const desired = uptimeSettingsAdapter.normalizeDesired(resource('UptimeSettings', 'settings', { certAgeThreshold: 365 }), RUN);
    assert.deepEqual(uptimeSettingsAdapter.normalizeLive(live, RUN), desired);
    assert.deepEqual(uptimeSettingsAdapter.toSpec(live, RUN).spec, { certAgeThreshold: 365 });
    write(manifest('  heartbeatIndices: heartbeat-*\n  certAgeThreshold: 365\n'));
    assert.equal((await run('apply')).code, 0);
    assert.equal((await settings()).heartbeatIndices, 'heartbeat-*');
  });

  it('is one object per space: settings of another space are not touched', async () => {
    write(manifest('  certAgeThreshold: 365\n').replace('name: settings', 'name: settings\n  space: ops'));
    assert.equal((await run('apply')).code, 0);
    assert.equal((await settings('/s/ops')).certAgeThreshold, 365);
    assert.deepEqual(await settings(), uptimeDefaults());
  });

  it('refuses another name and a manifest equal to the defaults, naming file and field', async () => {
    write(manifest('  certAgeThreshold: 365\n').replace('name: settings', 'name: main'));
    const named = await cli(['validate', dir]);
    assert.equal(named.code, 1);
    assert.match(named.out + named.err, /manifests\.yaml:4:\d+: .*metadata\.name/);
    write(manifest('  certAgeThreshold: 730\n'));
    const defaults = await cli(['validate', dir]);
    assert.equal(defaults.code, 1);
    assert.match(defaults.out + defaults.err, /every setting equals its default/);
  });

  it('orders after the connectors it names (defaultConnectors are Connector references)', async () => {
    write(`apiVersion: svcform/v1
kind: Connector
metadata:
  name: soc-log
spec:
  name: SOC log
  connector_type_id: .server-log
---
${manifest('  defaultConnectors: [soc-log]\n')}`);
    const applied = await run('apply');
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual((await settings()).defaultConnectors, ['soc-log']);
  });
});
