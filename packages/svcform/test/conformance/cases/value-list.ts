import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase } from './common.js';

export const valueList: ConformanceCase = {
  kind: 'ValueList',
  deps: '',
  a: `apiVersion: svcform/v1
kind: ValueList
metadata:
  name: conf-a
spec:
  name: Conformance list A
  description: Domains seen in incidents
  type: keyword
  items: [bad-one.example, bad-two.example, bad-three.example]
`,
  b: `apiVersion: svcform/v1
kind: ValueList
metadata:
  name: conf-b
spec:
  name: Conformance list B
  description: Addresses blocked at the perimeter
  type: ip
  items: [192.0.2.14, 198.51.100.23]
`,
  s: `apiVersion: svcform/v1
kind: ValueList
metadata:
  name: keep-secret
spec:
  name: Conformance list S
  description: 'Ask for access with the code \${env:CONFORMANCE_SECRET_VALUELIST}'
  type: keyword
  items: [svc-account]
`,
  secret: { env: 'CONFORMANCE_SECRET_VALUELIST', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const current = (await ok(call(emu, 'GET', '/api/lists?id=conf-a'), 'read conf-a')).body;
      // A PATCH without `version` bumps it; keep it so that exactly one field changes.
      await ok(call(emu, 'PATCH', '/api/lists', { id: 'conf-a', description: 'Edited by hand', version: current.version }), 'patch conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', '/api/lists?id=conf-a'), 'read conf-a')).body.description;
    },
  },
  change: { pointer: '/spec/name', value: 'Conformance list A (renamed)' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/lists?id=${enc(name)}`), `delete list ${name}`);
  },
  reads: {
    '/api/lists/_find': onePage,
    '/api/lists/index': onePage, // whether the list data streams exist
    '/api/lists/items/_find': (n) => n, // one per list, each a page of up to 10,000 values
  },
};
