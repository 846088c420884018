import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { svcform } from './harness.js';
import { repo } from '../helpers/repo.js';

/**
 * Lists whose entries the routes take as any string, an empty one included: an agent's labels and
 * a tool's tags (the agent builder's bodies: arrayOf(string())), the uptime settings' mail
 * recipients (PUT /api/uptime/settings defaultEmail: arrays of strings). svcform refused the empty
 * entry; the emulator's areas took it, as the server does.
 */
const AGENT = `apiVersion: svcform/v1
kind: Agent
metadata: {name: soc-labels}
spec:
  name: SOC labels
  description: Labels with an empty one.
  labels: ['', soc]
  configuration:
    instructions: Triage alerts.
    tools: [{tool_ids: [platform.core.search]}]
`;

const TOOL = `apiVersion: svcform/v1
kind: AgentTool
metadata: {name: soc.tagged}
spec:
  type: index_search
  description: Searches the runbooks.
  tags: ['']
  configuration: {pattern: soc-runbooks}
`;

const UPTIME = `apiVersion: svcform/v1
kind: UptimeSettings
metadata: {name: settings}
spec:
  defaultEmail: {to: [''], cc: [], bcc: []}
`;

describe('svcform validate: list entries the routes take empty', () => {
  it("an agent's labels, a tool's tags and the uptime mail recipients may hold an empty entry", async () => {
    const run = await svcform(['validate', repo({ 'agent.yaml': AGENT, 'tool.yaml': TOOL, 'uptime.yaml': UPTIME })]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.length, 0, run.stderr);
    assert.match(run.stdout, /3 resources in 3 files: valid \(0 errors, 0 warnings\)/);
  });
});
