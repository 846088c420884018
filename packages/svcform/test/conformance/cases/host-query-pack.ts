import assert from 'node:assert/strict';
import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';
import { AGENTS_DEP } from './package-policy.js';

async function packByName(emu: Emu, name: string): Promise<any> {
  const { data } = (await ok(call(emu, 'GET', '/api/hostquery/packs?pageSize=1000'), 'list packs')).body;
  const found = data.find((p: any) => p.name === name);
  assert.ok(found, `pack ${name} is on the server`);
  return found;
}

export const pack: ConformanceCase = {
  kind: 'HostQueryPack',
  deps: `${AGENTS_DEP}---
apiVersion: svcform/v1
kind: HostQuerySavedQuery
metadata:
  name: dep-users
spec:
  description: Local user accounts
  query: SELECT * FROM users;
  interval: 3600
`,
  a: `apiVersion: svcform/v1
kind: HostQueryPack
metadata:
  name: conf-a
spec:
  description: Incident response snapshot
  enabled: true
  policy_ids: [dep-agents]
  shards:
    dep-agents: 50
  queries:
    users:
      saved_query_id: dep-users
      query: SELECT * FROM users;
      interval: 3600
      platform: linux
    ports:
      query: SELECT pid, port, protocol, address FROM listening_ports;
      interval: 600
      snapshot: true
      ecs_mapping:
        server.port: {field: port}
`,
  b: `apiVersion: svcform/v1
kind: HostQueryPack
metadata:
  name: conf-b
spec:
  queries:
    uptime:
      query: SELECT * FROM uptime;
      interval: 300
`,
  s: `apiVersion: svcform/v1
kind: HostQueryPack
metadata:
  name: keep-secret
spec:
  description: 'Owner code \${env:CONFORMANCE_SECRET_HOSTQUERYPACK}'
  policy_ids: [dep-agents]
  queries:
    crontab:
      query: SELECT * FROM crontab;
      interval: 86400
`,
  secret: { env: 'CONFORMANCE_SECRET_HOSTQUERYPACK', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const listed = await packByName(emu, 'conf-a');
      // The find reply holds queries in stored form (wire-facts §15 fact 3); a person's edit starts
      // from the pack as GET of one returns it. PUT: omitted fields may reset, so everything goes
      // back as it was except the description.
      const p = (await ok(call(emu, 'GET', `/api/hostquery/packs/${enc(listed.saved_object_id)}`), 'read conf-a')).body.data;
      const body = { name: p.name, description: 'Edited by hand', enabled: p.enabled, policy_ids: p.policy_ids, shards: p.shards, queries: p.queries };
      await ok(call(emu, 'PUT', `/api/hostquery/packs/${enc(listed.saved_object_id)}`, body), 'update conf-a');
    },
    async read(emu) {
      return (await packByName(emu, 'conf-a')).description;
    },
  },
  change: { pointer: '/spec/enabled', value: false },
  async remove(emu, name) {
    const p = await packByName(emu, name);
    await ok(call(emu, 'DELETE', `/api/hostquery/packs/${enc(p.saved_object_id)}`), `delete pack ${name}`);
  },
  reads: { '/api/hostquery/packs': onePage },
};
