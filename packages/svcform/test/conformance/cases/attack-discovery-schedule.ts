import assert from 'node:assert/strict';
import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

const BASE = '/api/attack_discovery/schedules';

async function scheduleByName(emu: Emu, name: string): Promise<any> {
  const { data } = (await ok(call(emu, 'GET', `${BASE}/_find?per_page=100`), 'find schedules')).body;
  const found = data.find((s: any) => s.name === name);
  assert.ok(found, `schedule ${name} is on the server`);
  return found;
}

const LLM = `apiVersion: svcform/v1
kind: Connector
metadata:
  name: conf-dep-llm
spec:
  name: Conformance model
  connector_type_id: .gen-ai
  config:
    apiProvider: OpenAI
    apiUrl: https://llm.example.com/v1/chat/completions
  secrets:
    apiKey: conformance-llm-key
`;

export const attackDiscoverySchedule: ConformanceCase = {
  kind: 'AttackDiscoverySchedule',
  deps: LLM,
  a: `apiVersion: svcform/v1
kind: AttackDiscoverySchedule
metadata:
  name: conf-a
spec:
  enabled: true
  params:
    alerts_index_pattern: .alerts-security.alerts-default
    api_config:
      connectorId: conf-dep-llm
      name: Conformance model
    size: 50
    start: now-24h
    end: now
  schedule:
    interval: 24h
`,
  b: `apiVersion: svcform/v1
kind: AttackDiscoverySchedule
metadata:
  name: conf-b
spec:
  params:
    alerts_index_pattern: .alerts-security.alerts-default
    api_config:
      connectorId: conf-dep-llm
      name: Conformance model
    size: 20
  schedule:
    interval: 6h
`,
  s: `apiVersion: svcform/v1
kind: AttackDiscoverySchedule
metadata:
  name: keep-secret
spec:
  params:
    alerts_index_pattern: '\${env:CONFORMANCE_SECRET_ATTACKDISCOVERYSCHEDULE}'
    api_config:
      connectorId: conf-dep-llm
      name: Conformance model
    size: 10
  schedule:
    interval: 1d
`,
  secret: { env: 'CONFORMANCE_SECRET_ATTACKDISCOVERYSCHEDULE', pointer: '/spec/params/alerts_index_pattern' },
  edit: {
    pointer: '/spec/enabled',
    value: false,
    async apply(emu) {
      const s = await scheduleByName(emu, 'conf-a');
      await ok(call(emu, 'POST', `${BASE}/${enc(s.id)}/_disable`), 'disable conf-a');
    },
    async read(emu) {
      return (await scheduleByName(emu, 'conf-a')).enabled;
    },
  },
  change: { pointer: '/spec/params/size', value: 75 },
  async remove(emu, name) {
    const s = await scheduleByName(emu, name);
    await ok(call(emu, 'DELETE', `${BASE}/${enc(s.id)}`), `delete schedule ${name}`);
  },
  reads: { [`${BASE}/_find`]: onePage },
};
