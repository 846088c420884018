import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const PP = '/api/fleet/package_policies';

/**
 * A package of two policy templates (as kubernetes has nine) whose UDP inputs declare their own
 * vars: `condition` without a default, `listen_address` with one, and on the second template a
 * required `site`. Each template collects its own data stream.
 */
function writePackage(dir: string): void {
  const root = join(dir, 'facility-1.0.0');
  for (const ds of ['doors', 'gates']) {
    mkdirSync(join(root, 'data_stream', ds), { recursive: true });
    writeFileSync(join(root, 'data_stream', ds, 'manifest.yml'), ['title: Events', 'type: logs', 'streams:', '  - {input: udp, title: Events, description: One event per datagram}', ''].join('\n'));
  }
  const input = (extra: string[]) => [
    '      - type: udp',
    '        title: UDP',
    '        description: Datagrams',
    '        vars:',
    '          - {name: condition, type: text, title: Condition, required: false, show_user: false}',
    ...extra,
  ];
  writeFileSync(join(root, 'manifest.yml'), [
    'format_version: 3.3.0',
    'name: facility',
    'title: Facility sensors',
    'version: 1.0.0',
    'type: integration',
    'conditions: {kibana: {version: ^9.0.0}}',
    'owner: {github: example/facility, type: community}',
    'policy_templates:',
    '  - name: lobby',
    '    title: Lobby',
    '    description: Lobby doors',
    '    data_streams: [doors]',
    '    inputs:',
    ...input(['          - {name: listen_address, type: text, title: Listen address, required: true, show_user: true, default: 0.0.0.0}']),
    '  - name: garage',
    '    title: Garage',
    '    description: Garage gates',
    '    data_streams: [gates]',
    '    inputs:',
    ...input(['          - {name: site, type: text, title: Site, required: true, show_user: true}']),
    '',
  ].join('\n'));
}

/**
 * The server copies an input's own vars into every package policy input whatever the number of
 * templates (x-pack/platform/plugins/shared/fleet/common/services/package_to_package_policy.ts
 * `packageToPackagePolicyInputs`: `if (packageInput.vars?.length) varsForInput = ...`), so the
 * simplified body may set them (simplified_package_policy_helper assigns a var only where the input
 * has it), and validates them as any input's (common/services/validate_package_policy.ts, results
 * filed under `<template>-<type>` when the package has several templates).
 */
describe('Fleet package policies of a package with several policy templates: input-level vars', () => {
  let emu: RunningEmulator;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-multi-template-'));
    writePackage(dir);
    emu = await emulator({ packageDirs: [dir] });
    assert.equal((await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'site', name: 'Site', namespace: 'default' })).status, 200);
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (id: string, inputs: Record<string, unknown>) =>
    call(emu, 'POST', `${PP}?format=simplified`, { id, name: id, policy_ids: ['site'], package: { name: 'facility', version: '1.0.0' }, inputs });

  it('fills each input\'s var defaults and takes a value for an input var (condition)', async () => {
    const res = await create('lobby-only', { 'lobby-udp': { vars: { condition: '${host.platform} == "linux"' } }, 'garage-udp': { enabled: false } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const lobby = res.body.item.inputs['lobby-udp'];
    assert.deepEqual(lobby.vars, { condition: '${host.platform} == "linux"', listen_address: '0.0.0.0' });
    const legacy = (await call(emu, 'GET', `${PP}/lobby-only`)).body.item.inputs.find((i: any) => i.policy_template === 'lobby');
    assert.deepEqual(legacy.vars, { condition: { type: 'text', value: '${host.platform} == "linux"' }, listen_address: { type: 'text', value: '0.0.0.0' } });
  });

  it('validates the input vars of an enabled input, naming the input by template and type', async () => {
    const res = await create('no-site', {});
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Package policy is invalid: inputs.garage-udp.vars.site: Site is required');
    const withSite = await create('with-site', { 'garage-udp': { vars: { site: 'north' } } });
    assert.equal(withSite.status, 200, JSON.stringify(withSite.body));
    assert.deepEqual(withSite.body.item.inputs['garage-udp'].vars, { site: 'north' });
  });

  it('still refuses a var the input does not declare', async () => {
    const res = await create('unknown-var', { 'lobby-udp': { vars: { colour: 'red' } }, 'garage-udp': { enabled: false } });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Variable lobby-udp:colour not found');
  });
});
