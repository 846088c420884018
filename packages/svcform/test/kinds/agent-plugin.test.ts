import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const MANAGE_ALL = 'manage:\n  - kind: Agent\n  - kind: AgentSkill\n  - kind: AgentPlugin\n';
// Archives the emulator serves (its plugin fixtures).
const HUNT = 'https://github.com/svcform/agent-plugins/tree/main/plugins/threat-hunting';
const HUNT_OLD = 'https://github.com/svcform/agent-plugins/tree/v1.1.0/plugins/threat-hunting';

const pluginYaml = (name: string, url: string) => `apiVersion: svcform/v1
kind: AgentPlugin
metadata:
  name: ${name}
spec:
  url: ${url}
`;

const agentYaml = (id: string, plugins: string[], skills: string[] = []) => `apiVersion: svcform/v1
kind: Agent
metadata:
  name: ${id}
spec:
  name: Agent ${id}
  description: Hunts
  configuration:
    tools:
      - tool_ids: []
    plugin_ids: [${plugins.join(', ')}]
${skills.length ? `    skill_ids: [${skills.join(', ')}]\n` : ''}`;

describe('AgentPlugin kind (agent builder plugins, issue 32)', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());

  const writes = () => emu.log.all().filter((r) => r.method !== 'GET' && r.path.startsWith('/api/agent_builder')).map((r) => `${r.method} ${r.path}${r.query}`);
  const plugin = async (name: string) => (await call(emu, 'GET', '/api/agent_builder/plugins')).body.results.find((p: any) => p.name === name);

  it('installs the plugin under its manifest name before the agent that names it, sends the agent the plugin\'s id, plans empty, and lets agents name the skills it brought', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'a.yaml': agentYaml('hunter', ['hunting']), 'p.yaml': pluginYaml('hunting', HUNT) });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual(writes(), ['POST /api/agent_builder/plugins/install', 'POST /api/agent_builder/agents']);
    const installed = await plugin('hunting');
    assert.equal(installed.source_url, HUNT);
    assert.deepEqual((await call(emu, 'GET', '/api/agent_builder/agents/hunter')).body.configuration.plugin_ids, [installed.id]);
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
    // The plugin's skills are listed (include_plugins=true), so an agent may name one once it is installed.
    writeFiles(dir, { 'a.yaml': agentYaml('hunter', ['hunting'], ['hunting-persistence']) });
    const named = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(named.code, 0, named.out + named.err);
    assert.deepEqual((await call(emu, 'GET', '/api/agent_builder/agents/hunter')).body.configuration.skill_ids, ['hunting-persistence']);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('reinstalls on a changed url (no update route) and gives the agents that named it the new id', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'a.yaml': agentYaml('hunter', ['hunting']), 'p.yaml': pluginYaml('hunting', HUNT) });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    const before = await plugin('hunting');
    writeFiles(dir, { 'p.yaml': pluginYaml('hunting', HUNT_OLD) });
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 2, plan.out + plan.err);
    assert.match(plan.out, /url/);
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual(writes(), [`DELETE /api/agent_builder/plugins/${before.id}?force=true`, 'POST /api/agent_builder/plugins/install', 'PUT /api/agent_builder/agents/hunter']);
    const after = await plugin('hunting');
    assert.equal(after.version, '1.1.0');
    assert.deepEqual((await call(emu, 'GET', '/api/agent_builder/agents/hunter')).body.configuration.plugin_ids, [after.id]);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('makes uninstalling a plugin an agent names a plan error, and lets the agent drop it first in the same apply', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'a.yaml': agentYaml('hunter', ['hunting']), 'p.yaml': pluginYaml('hunting', HUNT) });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    const id = (await plugin('hunting')).id;
    rmSync(join(dir, 'p.yaml'));
    const refused = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(refused.out + refused.err, /AgentPlugin\/hunting is used by Agent\/hunter \(space default\)/);

    writeFiles(dir, { 'a.yaml': agentYaml('hunter', []) });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual(writes(), ['PUT /api/agent_builder/agents/hunter', `DELETE /api/agent_builder/plugins/${id}?force=false`]);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('leaves the skills a plugin brought alone (read-only) under a manage scope, and warns on an agent naming a plugin nobody holds', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'p.yaml': pluginYaml('hunting', HUNT) });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
    assert.doesNotMatch(plan.out, /hunting-persistence.*delete|delete.*hunting-persistence/i);

    writeFiles(dir, { 'a.yaml': agentYaml('hunter', ['not-installed']) });
    const warned = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(warned.code, 0, warned.out + warned.err);
    assert.match(warned.out + warned.err, /plugin_ids\[0\] names AgentPlugin "not-installed", which neither the manifests nor the server hold; the server accepts this, but the agent runs without that plugin's skills until it is installed/);
  });

  it('reports the server\'s refusal of a URL it cannot install from, and writes nothing else', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'p.yaml': pluginYaml('hunting', 'https://gitlab.com/acme/plugins') });
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 1, applied.out + applied.err);
    assert.match(applied.out + applied.err, /Unsupported plugin URL/);
    assert.equal(await plugin('hunting'), undefined);
  });
});
