import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase } from './common.js';

const SKILLS = '/api/agent_builder/skills';
const WORKFLOWS = '/api/workflows';
const WORKFLOW = `${WORKFLOWS}/workflow`;

export const agentSkill: ConformanceCase = {
  kind: 'AgentSkill',
  deps: `apiVersion: svcform/v1
kind: AgentTool
metadata:
  name: conf-dep.lookup
spec:
  type: index_search
  configuration:
    pattern: conformance-*
`,
  a: `apiVersion: svcform/v1
kind: AgentSkill
metadata:
  name: conf-a
spec:
  name: conf-a
  description: Summarise an incident from its alerts
  content: |
    1. Gather the alerts of the incident.
    2. Name the hosts and users involved.
  referenced_content:
    - name: runbook
      relativePath: ./runbooks
      content: Page the on-call analyst.
  tool_ids: [conf-dep.lookup, platform.core.search]
`,
  b: `apiVersion: svcform/v1
kind: AgentSkill
metadata:
  name: conf-b
spec:
  name: conf-b
  description: Answer in one paragraph
  content: Keep every answer to one paragraph.
`,
  s: `apiVersion: svcform/v1
kind: AgentSkill
metadata:
  name: keep-secret
spec:
  name: keep-secret
  description: Knows a secret
  content: 'Use the code \${env:CONFORMANCE_SECRET_AGENTSKILL}'
`,
  secret: { env: 'CONFORMANCE_SECRET_AGENTSKILL', pointer: '/spec/content' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited in the UI',
    async apply(emu) {
      await ok(call(emu, 'PUT', `${SKILLS}/conf-a`, { description: 'Edited in the UI' }), 'edit conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', `${SKILLS}/conf-a`), 'read conf-a')).body.description;
    },
  },
  change: { pointer: '/spec/tool_ids', value: ['platform.core.search'] },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `${SKILLS}/${enc(name)}?force=true`), `delete skill ${name}`);
  },
  // The list answers summaries: each skill that is not built-in is read once by id for its content.
  reads: { [SKILLS]: onePage, [`${SKILLS}/:id`]: (n) => n },
};

export const agentWorkflow: ConformanceCase = {
  kind: 'AgentWorkflow',
  deps: '',
  a: `apiVersion: svcform/v1
kind: AgentWorkflow
metadata:
  name: conf-a
spec:
  definition:
    name: Conformance enrichment
    description: Enrich an alert with its host
    enabled: true
    tags: [conformance]
    triggers:
      - type: manual
    inputs:
      - name: host
        type: string
    steps:
      - name: say
        type: console
        with:
          message: "Host {{ inputs.host }}"
`,
  b: `apiVersion: svcform/v1
kind: AgentWorkflow
metadata:
  name: conf-b
spec:
  definition:
    name: Conformance draft
    triggers:
      - type: manual
    steps:
      - name: wait
        type: wait
        with:
          duration: 1m
`,
  s: `apiVersion: svcform/v1
kind: AgentWorkflow
metadata:
  name: keep-secret
spec:
  definition:
    name: Conformance secret
    description: 'Token \${env:CONFORMANCE_SECRET_AGENTWORKFLOW}'
    triggers:
      - type: manual
    steps:
      - name: say
        type: console
        with:
          message: hello
`,
  secret: { env: 'CONFORMANCE_SECRET_AGENTWORKFLOW', pointer: '/spec/definition/description' },
  edit: {
    pointer: '/spec/definition/description',
    value: 'Edited in the UI',
    async apply(emu) {
      await ok(call(emu, 'PUT', `${WORKFLOW}/conf-a`, { description: 'Edited in the UI' }), 'edit conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', `${WORKFLOW}/conf-a`), 'read conf-a')).body.description;
    },
  },
  change: { pointer: '/spec/definition/tags', value: ['conformance', 'enrichment'] },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `${WORKFLOW}/${enc(name)}?force=true`), `delete workflow ${name}`);
  },
  // The list carries no YAML text: each workflow is read once by id.
  reads: { [WORKFLOWS]: onePage, [`${WORKFLOW}/:id`]: (n) => n },
};
