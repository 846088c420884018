import assert from 'node:assert/strict';
import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

async function savedQueryById(emu: Emu, id: string): Promise<any> {
  const { data } = (await ok(call(emu, 'GET', '/api/hostquery/saved_queries?pageSize=1000'), 'list saved queries')).body;
  const found = data.find((q: any) => q.id === id);
  assert.ok(found, `saved query ${id} is on the server`);
  return found;
}

export const savedQuery: ConformanceCase = {
  kind: 'HostQuerySavedQuery',
  deps: '',
  a: `apiVersion: svcform/v1
kind: HostQuerySavedQuery
metadata:
  name: conf-a
spec:
  description: Interactive sessions on the host
  query: SELECT type, user, tty, host, time, pid FROM logged_in_users;
  interval: 3600
  platform: linux,darwin
  ecs_mapping:
    user.name: {field: user}
`,
  b: `apiVersion: svcform/v1
kind: HostQuerySavedQuery
metadata:
  name: conf-b
spec:
  query: SELECT pid, port, protocol, address FROM listening_ports;
  interval: '600'
`,
  s: `apiVersion: svcform/v1
kind: HostQuerySavedQuery
metadata:
  name: keep-secret
spec:
  description: 'Run with the ticket \${env:CONFORMANCE_SECRET_HOSTQUERYSAVEDQUERY}'
  query: SELECT * FROM users;
  interval: 86400
`,
  secret: { env: 'CONFORMANCE_SECRET_HOSTQUERYSAVEDQUERY', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const q = await savedQueryById(emu, 'conf-a');
      const body: Record<string, any> = { new_id: q.id, query: q.query, interval: q.interval, description: 'Edited by hand', snapshot: q.snapshot, removed: q.removed };
      for (const k of ['platform', 'version', 'timeout', 'ecs_mapping']) if (q[k] !== undefined) body[k] = q[k];
      await ok(call(emu, 'PUT', `/api/hostquery/saved_queries/${enc(q.saved_object_id)}`, body), 'update conf-a');
    },
    async read(emu) {
      return (await savedQueryById(emu, 'conf-a')).description;
    },
  },
  change: { pointer: '/spec/interval', value: 7200 },
  async remove(emu, name) {
    const q = await savedQueryById(emu, name);
    await ok(call(emu, 'DELETE', `/api/hostquery/saved_queries/${enc(q.saved_object_id)}`), `delete saved query ${name}`);
  },
  reads: { '/api/hostquery/saved_queries': onePage },
};
