import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { minVersionOf } from '../src/areas/fleet/agent-version-conditions.js';

const AP = '/api/fleet/agent_policies';
const PP = '/api/fleet/package_policies';

/** A package of our own with one UDP input and, when given, `conditions.agent.version`. */
function writePackage(dir: string, name: string, title: string, version: string, agentVersion?: string): void {
  const root = join(dir, `${name}-${version}`);
  mkdirSync(join(root, 'data_stream', 'events'), { recursive: true });
  writeFileSync(join(root, 'manifest.yml'), [
    'format_version: 3.3.0',
    `name: ${name}`,
    `title: ${title}`,
    `version: ${version}`,
    'type: integration',
    'conditions:',
    '  kibana: {version: ^9.0.0}',
    ...(agentVersion ? [`  agent: {version: "${agentVersion}"}`] : []),
    'owner: {github: example/sensors, type: community}',
    'policy_templates:',
    `  - {name: ${name}, title: ${title}, description: Events, inputs: [{type: udp, title: UDP, description: Datagrams}]}`,
    '',
  ].join('\n'));
  writeFileSync(join(root, 'data_stream', 'events', 'manifest.yml'), ['title: Events', 'type: logs', 'streams:', '  - {input: udp, title: Events, description: One event per datagram}', ''].join('\n'));
}

/**
 * The three agent version fields of an agent policy are the server's: K-FLEET
 * x-pack/platform/plugins/shared/fleet/server/services/agent_policy.ts `update()` and
 * `bumpRevision()` (which package policy create, update and delete call) both run
 * `computeMinAgentVersionData`, which lists `{name, title, version_condition}` per attached package
 * policy whose package has `conditions.agent.version`, takes the highest semver `minVersion` of
 * them, and stores the lot over whatever the body said (`_update`: has_agent_version_conditions,
 * min_agent_version ?? null, package_agent_version_conditions ?? null).
 */
describe('Fleet agent policy agent version fields (computed from the package policies)', () => {
  let emu: RunningEmulator;
  let dir: string;
  const policy = async (id: string) => (await call(emu, 'GET', `${AP}/${id}`)).body.item;
  const addPackagePolicy = async (id: string, policyId: string, pkg: { name: string; version: string }) => {
    const res = await call(emu, 'POST', `${PP}?format=simplified`, { id, name: id, policy_ids: [policyId], package: pkg });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.item;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-agent-version-'));
    writePackage(dir, 'badge_reader', 'Badge reader', '1.0.0', '^9.3.0');
    writePackage(dir, 'badge_reader', 'Badge reader', '1.1.0');
    writePackage(dir, 'door_relay', 'Door relay', '2.0.0', '^8.19.0 || ^9.1.0');
    emu = await emulator({ packageDirs: [dir] });
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads conditions.agent.version from the package manifest into package info and the package policy (package_policy.ts create stores package_agent_version_condition)', async () => {
    const info = await call(emu, 'GET', '/api/fleet/epm/packages/badge_reader/1.0.0');
    assert.deepEqual(info.body.item.conditions, { kibana: { version: '^9.0.0' }, agent: { version: '^9.3.0' } });
    assert.equal((await call(emu, 'GET', '/api/fleet/epm/packages/badge_reader/1.1.0')).body.item.conditions.agent, undefined);
    assert.equal((await call(emu, 'POST', AP, { id: 'lobby', name: 'Lobby', namespace: 'default' })).status, 200);
    const pp = await addPackagePolicy('lobby-badges', 'lobby', { name: 'badge_reader', version: '1.0.0' });
    assert.equal(pp.package_agent_version_condition, '^9.3.0');
  });

  it('answers the computed fields once a package policy of such a package is attached (bumpRevision -> computeMinAgentVersionData)', async () => {
    const item = await policy('lobby');
    assert.equal(item.has_agent_version_conditions, true);
    assert.equal(item.min_agent_version, '9.3.0');
    assert.deepEqual(item.package_agent_version_conditions, [{ name: 'badge_reader', title: 'Badge reader', version_condition: '^9.3.0' }]);
    assert.equal(item.revision, 2);
  });

  it('takes the highest of the lowest versions each condition allows (computeMinAgentVersionData: semver minVersion, then gt)', async () => {
    await addPackagePolicy('lobby-relays', 'lobby', { name: 'door_relay', version: '2.0.0' });
    const item = await policy('lobby');
    assert.equal(item.min_agent_version, '9.3.0', '^8.19.0 || ^9.1.0 allows 8.19.0; ^9.3.0 needs 9.3.0');
    assert.deepEqual(item.package_agent_version_conditions.map((c: any) => c.version_condition), ['^9.3.0', '^8.19.0 || ^9.1.0']);
  });

  it('replaces what an update body says with the computed values (agent_policy.ts update(): _update options override the body)', async () => {
    const res = await call(emu, 'PUT', `${AP}/lobby`, {
      name: 'Lobby',
      namespace: 'default',
      has_agent_version_conditions: false,
      min_agent_version: '1.0.0',
      package_agent_version_conditions: [{ packageName: 'other', versionCondition: '>=1.0.0' }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.item.has_agent_version_conditions, true);
    assert.equal(res.body.item.min_agent_version, '9.3.0');
    assert.equal(res.body.item.package_agent_version_conditions.length, 2);
    assert.equal(res.body.item.package_agent_version_conditions[0].name, 'badge_reader');
  });

  it('follows a package version change of a package policy (the new version has no condition)', async () => {
    const res = await call(emu, 'PUT', `${PP}/lobby-badges?format=simplified`, { name: 'lobby-badges', policy_ids: ['lobby'], package: { name: 'badge_reader', version: '1.1.0' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.item.package_agent_version_condition, undefined);
    const item = await policy('lobby');
    assert.equal(item.min_agent_version, '8.19.0');
    assert.deepEqual(item.package_agent_version_conditions, [{ name: 'door_relay', title: 'Door relay', version_condition: '^8.19.0 || ^9.1.0' }]);
  });

  it('clears them when the last such package policy goes: false and null (update passes minAgentVersion ?? null)', async () => {
    assert.equal((await call(emu, 'DELETE', `${PP}/lobby-relays`)).status, 200);
    const item = await policy('lobby');
    assert.equal(item.has_agent_version_conditions, false);
    assert.equal(item.min_agent_version, null);
    assert.equal(item.package_agent_version_conditions, null);
  });

  it('stores a create body as sent: create works nothing out (agent_policy.ts create -> prepareAsNewSo) until the next change', async () => {
    const body = { id: 'annex', name: 'Annex', namespace: 'default', has_agent_version_conditions: true, min_agent_version: '1.0.0', package_agent_version_conditions: [{ packageName: 'x', versionCondition: '>=1.0.0' }] };
    const created = await call(emu, 'POST', AP, body);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.item.min_agent_version, '1.0.0');
    await addPackagePolicy('annex-badges', 'annex', { name: 'badge_reader', version: '1.0.0' });
    const item = await policy('annex');
    assert.equal(item.min_agent_version, '9.3.0');
    assert.deepEqual(item.package_agent_version_conditions, [{ name: 'badge_reader', title: 'Badge reader', version_condition: '^9.3.0' }]);
  });

  it('finds the lowest version a range allows as npm semver minVersion does (the helper computeMinAgentVersionData calls)', () => {
    const cases: Array<[string, string | undefined]> = [
      ['^9.3.0', '9.3.0'],
      ['>=8.15.0', '8.15.0'],
      ['>= 8.15.0', '8.15.0'],
      ['^8.19.0 || ^9.1.0', '8.19.0'],
      ['~9.1', '9.1.0'],
      ['9.x', '9.0.0'],
      ['>9.2.0', '9.2.1'],
      ['>9.2', '9.3.0'],
      ['1.2.3 - 2.0.0', '1.2.3'],
      ['>=9.3.0-beta1', '9.3.0-beta1'],
      ['<9.0.0', '0.0.0'],
      ['*', '0.0.0'],
      ['>=9.0.0 <8.0.0', undefined],
      ['not a range', undefined],
    ];
    for (const [range, min] of cases) assert.equal(minVersionOf(range), min, range);
  });
});
