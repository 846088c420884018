import { call } from '@svcform/emulator/testing.js';
import { ok, onePage, type ConformanceCase } from './common.js';

const SO = '/api/saved_objects';
const pathOf = (type: string, id: string) => `${SO}/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
const TYPES: Record<string, string> = { 'conf-a': 'index-pattern', 'conf-b': 'dashboard', 'keep-secret': 'tag' };

export const savedObject: ConformanceCase = {
  kind: 'SavedObject',
  deps: '',
  a: `apiVersion: svcform/v1
kind: SavedObject
metadata:
  name: conf-a
spec:
  type: index-pattern
  attributes:
    title: conformance-*
    name: Conformance data
    timeFieldName: '@timestamp'
`,
  b: `apiVersion: svcform/v1
kind: SavedObject
metadata:
  name: conf-b
spec:
  type: dashboard
  attributes:
    title: Conformance overview
    description: ''
    panelsJSON: '[]'
  references:
    - {name: kibanaSavedObjectMeta.searchSourceJSON.index, type: index-pattern, id: conf-a}
`,
  s: `apiVersion: svcform/v1
kind: SavedObject
metadata:
  name: keep-secret
spec:
  type: tag
  attributes:
    name: Secret tag
    color: '#000000'
    description: '\${env:CONFORMANCE_SECRET_SAVEDOBJECT}'
`,
  secret: { env: 'CONFORMANCE_SECRET_SAVEDOBJECT', pointer: '/spec/attributes/description' },
  edit: {
    pointer: '/spec/attributes/name',
    value: 'Renamed in the UI',
    async apply(emu) {
      await ok(call(emu, 'PUT', pathOf('index-pattern', 'conf-a'), { attributes: { name: 'Renamed in the UI' } }), 'rename conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', pathOf('index-pattern', 'conf-a')), 'read conf-a')).body.attributes.name;
    },
  },
  change: { pointer: '/spec/attributes/timeFieldName', value: 'event.ingested' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', pathOf(TYPES[name], name)), `delete ${name}`);
  },
  reads: { [`${SO}/_find`]: onePage },
};
