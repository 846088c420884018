import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

const TOOLS = '/api/agent_builder/tools';
const AGENTS = '/api/agent_builder/agents';

async function readTool(emu: Emu, id: string): Promise<any> {
  return (await ok(call(emu, 'GET', `${TOOLS}/${enc(id)}`), `read tool ${id}`)).body;
}

export const agentTool: ConformanceCase = {
  kind: 'AgentTool',
  // The workflow tool's workflow: the server refuses a workflow tool naming none it holds.
  deps: `apiVersion: svcform/v1
kind: AgentWorkflow
metadata:
  name: conformance-workflow
spec:
  definition:
    name: Conformance workflow
    triggers:
      - type: manual
    steps:
      - name: say
        type: console
        with:
          message: hello
`,
  a: `apiVersion: svcform/v1
kind: AgentTool
metadata:
  name: conf-a
spec:
  type: qlang
  description: Failed logins of one user
  tags: [conformance, auth]
  configuration:
    query: 'FROM logs-auth-* | WHERE user.name == ?user AND event.outcome == "failure" | STATS n = COUNT(*) BY source.ip'
    params:
      user:
        type: string
        description: User name
`,
  b: `apiVersion: svcform/v1
kind: AgentTool
metadata:
  name: conf-b
spec:
  type: index_search
  configuration:
    pattern: conformance-runbooks
`,
  s: `apiVersion: svcform/v1
kind: AgentTool
metadata:
  name: keep-secret
spec:
  type: workflow
  description: '\${env:CONFORMANCE_SECRET_AGENTTOOL}'
  configuration:
    workflow_id: conformance-workflow
`,
  secret: { env: 'CONFORMANCE_SECRET_AGENTTOOL', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited in the UI',
    async apply(emu) {
      await ok(call(emu, 'PUT', `${TOOLS}/conf-a`, { description: 'Edited in the UI' }), 'edit conf-a');
    },
    async read(emu) {
      return (await readTool(emu, 'conf-a')).description;
    },
  },
  change: { pointer: '/spec/tags', value: ['conformance'] },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `${TOOLS}/${enc(name)}?force=true`), `delete tool ${name}`);
  },
  reads: { [TOOLS]: onePage },
};

export const agent: ConformanceCase = {
  kind: 'Agent',
  deps: `apiVersion: svcform/v1
kind: AgentTool
metadata:
  name: conf-dep.search
spec:
  type: index_search
  configuration:
    pattern: conformance-*
`,
  a: `apiVersion: svcform/v1
kind: Agent
metadata:
  name: conf-a
spec:
  name: Conformance agent A
  description: Answers questions about conformance data
  labels: [conformance]
  configuration:
    instructions: Be brief.
    tools:
      - tool_ids: [conf-dep.search, platform.core.search]
`,
  b: `apiVersion: svcform/v1
kind: Agent
metadata:
  name: conf-b
spec:
  name: Conformance agent B
  description: ''
  configuration:
    tools: []
`,
  s: `apiVersion: svcform/v1
kind: Agent
metadata:
  name: keep-secret
spec:
  name: Agent with a secret instruction
  description: Keeps a secret
  configuration:
    instructions: 'Password \${env:CONFORMANCE_SECRET_AGENT}'
    tools: []
`,
  secret: { env: 'CONFORMANCE_SECRET_AGENT', pointer: '/spec/configuration/instructions' },
  edit: {
    pointer: '/spec/name',
    value: 'Renamed in the UI',
    async apply(emu) {
      await ok(call(emu, 'PUT', `${AGENTS}/conf-a`, { name: 'Renamed in the UI' }), 'rename conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', `${AGENTS}/conf-a`), 'read conf-a')).body.name;
    },
  },
  change: { pointer: '/spec/description', value: 'Answers with sources' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `${AGENTS}/${enc(name)}`), `delete agent ${name}`);
  },
  reads: { [AGENTS]: onePage, [TOOLS]: onePage },
};
