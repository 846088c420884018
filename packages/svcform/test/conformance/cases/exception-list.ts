import { call } from '@svcform/emulator/testing.js';
import { ok, enc, type ConformanceCase, type Emu } from './common.js';

async function item(emu: Emu, itemId: string): Promise<any> {
  return (await ok(call(emu, 'GET', `/api/exception_lists/items?item_id=${enc(itemId)}&namespace_type=single`), `read item ${itemId}`)).body;
}

export const exceptionList: ConformanceCase = {
  kind: 'ExceptionList',
  deps: '',
  a: `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: conf-a
spec:
  type: detection
  name: Conformance exceptions A
  description: Hosts and tools that trip the credential rules on purpose
  tags: [conformance]
  items:
    - item_id: conf-a-scanner
      name: Vulnerability scanner
      description: The weekly authenticated scan
      entries:
        - { field: source.ip, type: match, operator: included, value: 10.20.0.15 }
    - item_id: conf-a-backup
      name: Backup agent
      description: Logs in with a service account every night
      os_types: [linux]
      entries:
        - { field: user.name, type: match_any, operator: included, value: [svc-backup, svc-restore] }
        - { field: host.name, type: wildcard, operator: included, value: 'backup-*' }
      comments:
        - comment: Approved in change 4711
`,
  b: `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: conf-b
spec:
  type: detection
  name: Conformance exceptions B
  description: Build machines
  items:
    - item_id: conf-b-build
      name: Build farm
      description: Compilers spawn shells
      tags: [ci]
      entries:
        - type: nested
          field: process.parent
          entries:
            - { field: name, type: match, operator: included, value: make }
`,
  s: `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: keep-secret
spec:
  type: detection
  name: Conformance exceptions S
  description: 'Ask for access with the code \${env:CONFORMANCE_SECRET_EXCEPTIONLIST}'
  items: []
`,
  secret: { env: 'CONFORMANCE_SECRET_EXCEPTIONLIST', pointer: '/spec/description' },
  edit: {
    // One item edited out of band, as in the UI: its name changes, nothing else.
    pointer: '/spec/items/0/name',
    value: 'Edited by hand',
    async apply(emu) {
      const current = await item(emu, 'conf-a-scanner');
      const { name: _n, id: _i, created_at: _c, created_by: _cb, updated_at: _u, updated_by: _ub, tie_breaker_id: _t, list_id: _l, ...rest } = current;
      await ok(call(emu, 'PUT', '/api/exception_lists/items', { ...rest, name: 'Edited by hand' }), 'update item conf-a-scanner');
    },
    async read(emu) {
      return (await item(emu, 'conf-a-scanner')).name;
    },
  },
  change: { pointer: '/spec/description', value: 'Changed in Git' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/exception_lists?list_id=${enc(name)}&namespace_type=single`), `delete list ${name}`);
  },
  reads: {
    '/api/exception_lists/_find': (n) => 2 * Math.max(1, Math.ceil(n / 1000)), // single lists, then agnostic ones once
    '/api/exception_lists/items/_find': (n) => 2 * Math.max(1, Math.ceil(n / 50)), // one per 50 lists, per namespace
  },
};
