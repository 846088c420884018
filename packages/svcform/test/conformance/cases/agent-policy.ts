import { call } from '@svcform/emulator/testing.js';
import { ok, onePage, type ConformanceCase } from './common.js';

export const agentPolicy: ConformanceCase = {
  kind: 'AgentPolicy',
  deps: '',
  a: `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: conf-a
spec:
  name: Conformance agents A
  namespace: conformance
  description: Linux servers of the conformance suite
  monitoring_enabled: [logs, metrics]
  inactivity_timeout: 3600
  global_data_tags:
    - {name: environment, value: test}
`,
  b: `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: conf-b
spec:
  name: Conformance agents B
  namespace: conformance
`,
  s: `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: keep-secret
spec:
  name: Conformance agents S
  namespace: conformance
  description: 'Enrol with the code \${env:CONFORMANCE_SECRET_AGENTPOLICY}'
`,
  secret: { env: 'CONFORMANCE_SECRET_AGENTPOLICY', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const { item } = (await ok(call(emu, 'GET', '/api/fleet/agent_policies/conf-a'), 'read conf-a')).body;
      // The PUT merges, except inactivity_timeout, which falls back to its default when omitted.
      await ok(
        call(emu, 'PUT', '/api/fleet/agent_policies/conf-a', { name: item.name, namespace: item.namespace, description: 'Edited by hand', inactivity_timeout: item.inactivity_timeout }),
        'update conf-a',
      );
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', '/api/fleet/agent_policies/conf-a'), 'read conf-a')).body.item.description;
    },
  },
  change: { pointer: '/spec/inactivity_timeout', value: 7200 },
  async remove(emu, name) {
    await ok(call(emu, 'POST', '/api/fleet/agent_policies/delete', { agentPolicyId: name }), `delete agent policy ${name}`);
  },
  reads: { '/api/fleet/agent_policies': onePage },
};
