import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase } from './common.js';

const DV = '/api/data_views/data_view';

export const dataView: ConformanceCase = {
  kind: 'DataView',
  deps: '',
  a: `apiVersion: svcform/v1
kind: DataView
metadata:
  name: conf-a
spec:
  title: logs-endpoint.*,logs-system.*
  name: Conformance A
  timeFieldName: '@timestamp'
  allowNoIndex: true
  runtimeFieldMap:
    host_os:
      type: keyword
      script:
        source: "emit(doc['host.os.family'].value)"
  fieldFormats:
    process.args_count:
      id: number
`,
  b: `apiVersion: svcform/v1
kind: DataView
metadata:
  name: conf-b
spec:
  title: conformance-b-*
`,
  s: `apiVersion: svcform/v1
kind: DataView
metadata:
  name: keep-secret
spec:
  title: kept-*
  name: '\${env:CONFORMANCE_SECRET_DATAVIEW}'
`,
  secret: { env: 'CONFORMANCE_SECRET_DATAVIEW', pointer: '/spec/name' },
  edit: {
    pointer: '/spec/timeFieldName',
    value: 'event.ingested',
    async apply(emu) {
      await ok(call(emu, 'POST', `${DV}/conf-a`, { data_view: { timeFieldName: 'event.ingested' } }), 'edit conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', `${DV}/conf-a`), 'read conf-a')).body.data_view.timeFieldName;
    },
  },
  change: { pointer: '/spec/name', value: 'Conformance A, renamed' },
  async remove(emu, name, space) {
    await ok(call(emu, 'DELETE', `${space === 'default' ? '' : `/s/${enc(space)}`}${DV}/${enc(name)}`), `delete data view ${name}`);
  },
  reads: { '/api/saved_objects/_find': onePage },
};
