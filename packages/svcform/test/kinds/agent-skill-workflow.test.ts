import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const MANAGE_ALL = 'manage:\n  - kind: AgentTool\n  - kind: Agent\n  - kind: AgentSkill\n  - kind: AgentWorkflow\n';

const workflowYaml = (id: string, extra = '') => `apiVersion: svcform/v1
kind: AgentWorkflow
metadata:
  name: ${id}
spec:
  definition:
    name: Workflow ${id}
    enabled: true
${extra}    triggers:
      - type: manual
    steps:
      - name: say
        type: console
        with:
          message: "{{ inputs.host }}"
`;

const toolYaml = (id: string, workflow: string) => `apiVersion: svcform/v1
kind: AgentTool
metadata:
  name: ${id}
spec:
  type: workflow
  configuration:
    workflow_id: ${workflow}
`;

const skillYaml = (id: string, tools: string[] = []) => `apiVersion: svcform/v1
kind: AgentSkill
metadata:
  name: ${id}
spec:
  name: ${id}
  description: Escalation steps
  content: |
    1. Open a case.
    2. Page the on-call analyst.
${tools.length ? `  tool_ids: [${tools.join(', ')}]\n` : ''}`;

const agentYaml = (id: string, o: { tools?: string[]; skills?: string[]; workflows?: string[] }) => `apiVersion: svcform/v1
kind: Agent
metadata:
  name: ${id}
spec:
  name: Agent ${id}
  description: Triage
  configuration:
    tools:
      - tool_ids: [${(o.tools ?? []).join(', ')}]
${o.skills ? `    skill_ids: [${o.skills.join(', ')}]\n` : ''}${o.workflows ? `    workflow_ids: [${o.workflows.join(', ')}]\n` : ''}`;

describe('AgentSkill and AgentWorkflow kinds (agent builder, issue 32)', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());

  const writes = () => emu.log.all().filter((r) => r.method !== 'GET' && /^\/api\/(agent_builder|workflows)/.test(r.path)).map((r) => `${r.method} ${r.path}${r.query}`);

  it('creates in reference order (workflow, tool, skill, agent) whatever the file order, then plans empty', async () => {
    const dir = repo({
      'svcform.yaml': MANAGE_ALL,
      'a.yaml': agentYaml('triage', { tools: ['soc.open_case'], skills: ['soc-escalation', 'find-security-rules'], workflows: ['soc-open-case'] }),
      'b.yaml': skillYaml('soc-escalation', ['soc.open_case', 'platform.core.search']),
      'c.yaml': toolYaml('soc.open_case', 'soc-open-case'),
      'd.yaml': workflowYaml('soc-open-case'),
    });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual(writes(), ['POST /api/workflows/workflow', 'POST /api/agent_builder/tools', 'POST /api/agent_builder/skills', 'POST /api/agent_builder/agents']);
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
    // The built-in skill the agent names is the server's: listed, never planned for deletion.
    assert.match(plan.out, /unmanaged objects left alone/);
  });

  it('makes a skill or a workflow-tool workflow that neither the manifests nor the server hold a plan error; a missing workflow_ids entry only a warning', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'a.yaml': agentYaml('triage', { skills: ['no-such-skill'] }), 't.yaml': toolYaml('soc.run', 'no-such-workflow') });
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 1, plan.out + plan.err);
    assert.match(plan.out + plan.err, /spec\.configuration\.skill_ids\[0\] names AgentSkill "no-such-skill", which neither the manifests nor the server hold; the server refuses the write/);
    assert.match(plan.out + plan.err, /spec\.configuration\.workflow_id names AgentWorkflow "no-such-workflow", which neither the manifests nor the server hold; the server refuses the write/);
    assert.deepEqual(writes(), []);

    writeFiles(dir, { 'a.yaml': agentYaml('triage', { workflows: ['wf-later'] }) });
    rmSync(join(dir, 't.yaml'));
    const warned = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(warned.code, 0, warned.out + warned.err);
    assert.match(warned.out + warned.err, /workflow_ids\[0\] names AgentWorkflow "wf-later", which neither the manifests nor the server hold; the server accepts this, but the agent runs without that workflow until it exists/);
  });

  it('makes deleting a skill an agent names a plan error, and lets the agent drop it first in the same apply (delete without force)', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'a.yaml': agentYaml('triage', { skills: ['soc-escalation'] }), 's.yaml': skillYaml('soc-escalation') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    rmSync(join(dir, 's.yaml'));
    const refused = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(refused.out + refused.err, /AgentSkill\/soc-escalation is used by Agent\/triage \(space default\): its manifest names it at spec\.configuration\.skill_ids\[0\]/);

    writeFiles(dir, { 'a.yaml': agentYaml('triage', {}) });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.deepEqual(writes(), ['PUT /api/agent_builder/agents/triage', 'DELETE /api/agent_builder/skills/soc-escalation?force=false']);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('reads a skill\'s content by id (the list has none) and shows a content change made in the UI', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 's.yaml': skillYaml('soc-escalation') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    assert.equal((await call(emu, 'PUT', '/api/agent_builder/skills/soc-escalation', { content: 'Do nothing.' })).status, 200);
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 2, plan.out + plan.err);
    assert.match(plan.out, /content/);
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    assert.match((await call(emu, 'GET', '/api/agent_builder/skills/soc-escalation')).body.content, /Page the on-call analyst/);
  });

  it('compares workflows by their parsed definition: a workflow disabled in the UI shows, and a deleted manifest deletes for good (force=true) so it can come back', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_ALL, 'w.yaml': workflowYaml('soc-open-case', '    tags: [soc]\n') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
    assert.equal((await call(emu, 'PUT', '/api/workflows/workflow/soc-open-case', { enabled: false })).status, 200);
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 2, plan.out + plan.err);
    assert.match(plan.out, /definition\.enabled/);
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    assert.equal((await call(emu, 'GET', '/api/workflows/workflow/soc-open-case')).body.enabled, true);

    rmSync(join(dir, 'w.yaml'));
    emu.log.clear();
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    assert.deepEqual(writes(), ['DELETE /api/workflows/workflow/soc-open-case?force=true']);
    writeFiles(dir, { 'w.yaml': workflowYaml('soc-open-case') });
    const again = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(again.code, 0, again.out + again.err);
  });
});
