import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** Manage every tool and agent: the built-ins must still be left alone (they are read-only). */
const MANAGE_ALL = 'manage:\n  - kind: AgentTool\n  - kind: Agent\n';

const toolYaml = (id: string) => `apiVersion: svcform/v1
kind: AgentTool
metadata:
  name: ${id}
spec:
  type: index_search
  description: Searches ${id}
  configuration:
    pattern: ${id.replace(/\./g, '-')}-*
`;

const agentYaml = (id: string, tools: string[]) => `apiVersion: svcform/v1
kind: Agent
metadata:
  name: ${id}
spec:
  name: Agent ${id}
  description: Uses ${tools.join(', ') || 'nothing'}
  configuration:
    instructions: Be brief.
    tools:
      - tool_ids: [${tools.join(', ')}]
`;

describe('AgentTool and Agent kinds (agent builder)', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());

  /** Writes to the agent builder (the apply lease is a connector of its own). */
  const writes = () => emu.log.all().filter((r) => r.method !== 'GET' && r.path.startsWith('/api/agent_builder')).map((r) => `${r.method} ${r.path}`);

  it('creates the tool an agent names before the agent, in one apply, then plans empty', async () => {
    // The agent's file sorts first: only the reference orders the tool ahead of it.
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'a-agent.yaml': agentYaml('triage', ['soc.runbooks', 'platform.core.search']), 'z-tool.yaml': toolYaml('soc.runbooks') });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual(writes(), ['POST /api/agent_builder/tools', 'POST /api/agent_builder/agents']);
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('applies an agent naming the built-in platform.core.index_explorer, then plans empty (wire-facts §16 #11; TF agentbuilderagent testdata)', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'agent.yaml': agentYaml('explorer', ['platform.core.index_explorer', 'platform.core.search']) });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('leaves the built-in agent and the platform.* tools alone although the manage scope covers every tool and agent', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 't.yaml': toolYaml('soc.only') });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.ok(!writes().some((w) => /platform\.|elastic-ai-agent/.test(w)), writes().join('\n'));
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
    // Twelve built-in tools and the built-in agent: listed, never planned for deletion.
    assert.match(plan.out, /0 to delete, 1 unchanged; 13 unmanaged objects left alone/);
    const builtins = (await call(emu, 'GET', '/api/agent_builder/tools')).body.results.filter((t: any) => t.readonly);
    assert.ok(builtins.length > 0, 'the built-in tools are still there');
    assert.equal((await call(emu, 'GET', '/api/agent_builder/agents/elastic-ai-agent')).status, 200);
  });

  it('refuses, at validate, a manifest declaring a platform.* tool or the built-in agent', async () => {
    const dir = repo({
      'svcform.yaml': MANAGE_ALL,
      'tool.yaml': toolYaml('platform.core.search'),
      'agent.yaml': agentYaml('elastic-ai-agent', []),
    });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 1, validated.out + validated.err);
    assert.match(validated.err, /tool\.yaml:4:\d+: AgentTool\/platform\.core\.search: platform\.core\.search is a built-in tool/);
    assert.match(validated.err, /agent\.yaml:4:\d+: Agent\/elastic-ai-agent: elastic-ai-agent is the built-in default agent \(read-only\)/);
  });

  it('makes deleting a tool an agent still uses a plan error, and allows it when the agent drops the tool in the same plan', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'agent.yaml': agentYaml('triage', ['soc.a', 'soc.b']), 'a.yaml': toolYaml('soc.a'), 'b.yaml': toolYaml('soc.b') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    rmSync(join(dir, 'b.yaml'));
    const refused = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(refused.out + refused.err, /AgentTool\/soc\.b is used by Agent\/triage \(space default\): its manifest names it at spec\.configuration\.tools\[0\]\.tool_ids\[1\]/);

    writeFiles(dir, { 'agent.yaml': agentYaml('triage', ['soc.a']) });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    // The agent lets go of the tool first, so the delete (without force) is accepted.
    assert.deepEqual(writes(), ['PUT /api/agent_builder/agents/triage', 'DELETE /api/agent_builder/tools/soc.b']);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('clears a dropped agent field by writing its empty value, and replaces a tool whose type changes', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'agent.yaml': agentYaml('triage', ['soc.a']), 'a.yaml': toolYaml('soc.a') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFiles(dir, {
      'agent.yaml': agentYaml('triage', []).replace('    instructions: Be brief.\n', ''),
      'a.yaml': toolYaml('soc.a').replace('type: index_search', 'type: workflow').replace(/pattern: .*/, 'workflow_id: wf-1'),
      // The server refuses a workflow tool whose workflow it does not hold.
      'wf.yaml': 'apiVersion: svcform/v1\nkind: AgentWorkflow\nmetadata:\n  name: wf-1\nspec:\n  definition:\n    name: One\n    triggers: [{type: manual}]\n    steps: [{name: s, type: console, with: {message: hi}}]\n',
    });
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const agent = (await call(emu, 'GET', '/api/agent_builder/agents/triage')).body;
    assert.equal(agent.configuration.instructions, '');
    assert.equal((await call(emu, 'GET', '/api/agent_builder/tools/soc.a')).body.type, 'workflow');
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('clears the avatar with "" (validate, apply, plan empty), and clears it too when the manifest drops the fields (wire-facts §16 #6)', async () => {
    const withAvatar = agentYaml('triage', []).replace('  description:', '  avatar_color: "#BFDBFF"\n  avatar_symbol: TA\n  description:');
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'agent.yaml': withAvatar });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    assert.equal((await call(emu, 'GET', '/api/agent_builder/agents/triage')).body.avatar_symbol, 'TA');
    for (const step of [withAvatar.replace('"#BFDBFF"', '""').replace('symbol: TA', 'symbol: ""'), withAvatar, agentYaml('triage', [])]) {
      writeFiles(dir, { 'agent.yaml': step });
      assert.equal((await cli(['validate', dir])).code, 0);
      const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
      assert.equal(plan.code, 0, `${step}\n${plan.out}${plan.err}`);
    }
    const agent = (await call(emu, 'GET', '/api/agent_builder/agents/triage')).body;
    assert.deepEqual([agent.avatar_color, agent.avatar_symbol], ['', '']);
  });

  it('drops a configuration key by replacing the tool (updates merge keys), and says why when an agent holds the tool', async () => {
    const limited = toolYaml('soc.a').replace(/(    pattern: .*\n)/, '$1    row_limit: 5\n');
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'a.yaml': limited, 'agent.yaml': agentYaml('triage', ['soc.a']) });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFiles(dir, { 'a.yaml': toolYaml('soc.a') });
    const refused = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(refused.out + refused.err, /AgentTool\/soc\.a: configuration keys are removed \(row_limit\), which needs the tool deleted and created again, but agents use it/);

    // The agent lets go of the tool first (its own apply: nothing orders two unrelated updates).
    writeFiles(dir, { 'agent.yaml': agentYaml('triage', []) });
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--select', 'Agent/triage'])).code, 0);
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    assert.deepEqual((await call(emu, 'GET', '/api/agent_builder/tools/soc.a')).body.configuration, { pattern: 'soc-a-*' });
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});
