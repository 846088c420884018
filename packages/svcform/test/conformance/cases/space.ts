import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase } from './common.js';

const SPACES = '/api/spaces/space';

async function spaceOf(emu: { url: string }, id: string): Promise<any> {
  return (await ok(call(emu, 'GET', `${SPACES}/${enc(id)}`), `read space ${id}`)).body;
}

export const space: ConformanceCase = {
  kind: 'Space',
  deps: '',
  a: `apiVersion: svcform/v1
kind: Space
metadata:
  name: conf-a
spec:
  name: Conformance A
  description: Detection engineering
  disabledFeatures: [canvas, maps]
  solution: security
  color: '#AA6556'
  initials: CA
`,
  b: `apiVersion: svcform/v1
kind: Space
metadata:
  name: conf-b
spec:
  name: Conformance B
`,
  s: `apiVersion: svcform/v1
kind: Space
metadata:
  name: keep-secret
spec:
  name: Kept
  description: '\${env:CONFORMANCE_SECRET_SPACE}'
`,
  secret: { env: 'CONFORMANCE_SECRET_SPACE', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Renamed in the UI',
    async apply(emu) {
      const s = await spaceOf(emu, 'conf-a');
      await ok(call(emu, 'PUT', `${SPACES}/conf-a`, { ...s, description: 'Renamed in the UI' }), 'edit conf-a');
    },
    async read(emu) {
      return (await spaceOf(emu, 'conf-a')).description;
    },
  },
  change: { pointer: '/spec/name', value: 'Conformance A, renamed' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `${SPACES}/${enc(name)}`), `delete space ${name}`);
  },
  reads: { [SPACES]: onePage },
  deleteArgs: ['--allow-space-delete', 'conf-b'],
};
