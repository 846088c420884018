import assert from 'node:assert/strict';
import { call } from '@svcform/emulator/testing.js';
import { ok, onePage, type ConformanceCase, type Emu } from './common.js';

const BASE = '/api/security_ai_assistant/anonymization_fields';

async function byField(emu: Emu, field: string): Promise<any> {
  const { data } = (await ok(call(emu, 'GET', `${BASE}/_find?per_page=1000`), 'find fields')).body;
  const found = data.find((f: any) => f.field === field);
  assert.ok(found, `field ${field} is on the server`);
  return found;
}

export const anonymizationField: ConformanceCase = {
  kind: 'AnonymizationField',
  deps: '',
  // The defaults the emulator seeds per space (its facts/anonymization-fields.ts).
  preexisting: ['_id', '@timestamp', 'host.name', 'host.ip', 'kibana.alert.rule.name', 'process.name', 'source.ip', 'user.name'],
  a: `apiVersion: svcform/v1
kind: AnonymizationField
metadata:
  name: conf-a
spec:
  allowed: true
  anonymized: false
`,
  b: `apiVersion: svcform/v1
kind: AnonymizationField
metadata:
  name: conf-b
spec:
  allowed: true
  anonymized: true
`,
  s: `apiVersion: svcform/v1
kind: AnonymizationField
metadata:
  name: keep-secret
spec:
  allowed: false
`,
  noSecret: { env: 'CONFORMANCE_SECRET_ANONYMIZATIONFIELD', pointer: '/spec/allowed', reason: 'the field is the name, and allowed and anonymized are booleans' },
  edit: {
    pointer: '/spec/anonymized',
    value: true,
    async apply(emu) {
      const f = await byField(emu, 'conf-a');
      await ok(call(emu, 'POST', `${BASE}/_bulk_action`, { update: [{ id: f.id, anonymized: true }] }), 'anonymize conf-a');
    },
    async read(emu) {
      return (await byField(emu, 'conf-a')).anonymized;
    },
  },
  change: { pointer: '/spec/allowed', value: false },
  async remove(emu, name) {
    const f = await byField(emu, name);
    await ok(call(emu, 'POST', `${BASE}/_bulk_action`, { delete: { ids: [f.id] } }), `delete field ${name}`);
  },
  reads: { [`${BASE}/_find`]: onePage },
};
