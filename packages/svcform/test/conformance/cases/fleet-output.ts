import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

const OUTPUTS = '/api/fleet/outputs';

async function readOutput(emu: Emu, id: string): Promise<any> {
  return (await ok(call(emu, 'GET', `${OUTPUTS}/${enc(id)}`), `read output ${id}`)).body.item;
}

export const fleetOutput: ConformanceCase = {
  kind: 'FleetOutput',
  deps: '',
  preexisting: ['fleet-default-output'],
  a: `apiVersion: svcform/v1
kind: FleetOutput
metadata:
  name: conf-a
spec:
  name: Conformance A
  type: elasticsearch
  hosts: ['https://es-a.example:9200', 'https://es-b.example']
  ca_trusted_fingerprint: 3b24c8a1
  config_yaml: |
    bulk_max_size: 1600
`,
  b: `apiVersion: svcform/v1
kind: FleetOutput
metadata:
  name: conf-b
spec:
  name: Conformance B
  type: logstash
  hosts: ['logstash.example:5044']
  ssl:
    certificate_authorities: [ca-one, ca-two]
    verification_mode: full
`,
  s: `apiVersion: svcform/v1
kind: FleetOutput
metadata:
  name: keep-secret
spec:
  name: Conformance kafka
  type: kafka
  hosts: ['kafka.example:9092']
  auth_type: user_pass
  username: shipper
  topic: '\${env:CONFORMANCE_SECRET_FLEETOUTPUT}'
  secrets:
    password: '\${env:CONFORMANCE_SECRET_FLEETOUTPUT}'
`,
  secret: { env: 'CONFORMANCE_SECRET_FLEETOUTPUT', pointer: '/spec/topic' },
  edit: {
    pointer: '/spec/ca_trusted_fingerprint',
    value: 'ffee0011',
    async apply(emu) {
      await ok(call(emu, 'PUT', `${OUTPUTS}/conf-a`, { ca_trusted_fingerprint: 'ffee0011' }), 'edit conf-a');
    },
    async read(emu) {
      return (await readOutput(emu, 'conf-a')).ca_trusted_fingerprint;
    },
  },
  change: { pointer: '/spec/name', value: 'Conformance A renamed' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `${OUTPUTS}/${enc(name)}`), `delete output ${name}`);
  },
  reads: { [OUTPUTS]: onePage },
};
