import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

async function ruleByRuleId(emu: Emu, ruleId: string): Promise<any> {
  return (await ok(call(emu, 'GET', `/api/detection_engine/rules?rule_id=${enc(ruleId)}`), `read rule ${ruleId}`)).body;
}

export const rule: ConformanceCase = {
  kind: 'Rule',
  deps: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: dep-log
spec:
  name: Conformance rule notifications
  connector_type_id: .server-log
`,
  a: `apiVersion: svcform/v1
kind: Rule
metadata:
  name: conf-a
spec:
  type: query
  name: Conformance rule A
  description: Many failed logins from one source address
  severity: high
  risk_score: 73
  enabled: true
  index: [logs-system.auth-*]
  query: 'event.category:authentication and event.outcome:failure'
  tags: [conformance, 'Tactic: Credential Access']
  actions:
    - id: dep-log
      group: default
      params:
        message: 'Rule {{context.rule.name}} fired'
`,
  b: `apiVersion: svcform/v1
kind: Rule
metadata:
  name: conf-b
spec:
  type: eql
  language: eql
  name: Conformance rule B
  description: A file written to /tmp was executed
  severity: medium
  risk_score: 47
  index: [logs-endpoint.events.*]
  query: 'process where process.executable : "/tmp/*"'
  tags: [conformance]
`,
  s: `apiVersion: svcform/v1
kind: Rule
metadata:
  name: keep-secret
spec:
  type: query
  name: Conformance rule S
  description: 'Escalate with the code \${env:CONFORMANCE_SECRET_RULE}'
  severity: low
  risk_score: 21
  index: [logs-*]
  query: 'event.outcome:failure'
`,
  secret: { env: 'CONFORMANCE_SECRET_RULE', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/severity',
    value: 'critical',
    async apply(emu) {
      await ok(call(emu, 'PATCH', '/api/detection_engine/rules', { rule_id: 'conf-a', severity: 'critical' }), 'patch conf-a');
    },
    async read(emu) {
      return (await ruleByRuleId(emu, 'conf-a')).severity;
    },
  },
  change: { pointer: '/spec/description', value: 'Many failed logins from one source address (tuned)' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/detection_engine/rules?rule_id=${enc(name)}`), `delete rule ${name}`);
  },
  reads: { '/api/detection_engine/rules/_find': onePage },
};
