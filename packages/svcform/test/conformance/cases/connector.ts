import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, withoutNulls, type ConformanceCase } from './common.js';

const CONNECTOR_A_PASSWORD = 'cf-connector-a-password-5e21c0';

export const connector: ConformanceCase = {
  kind: 'Connector',
  deps: '',
  a: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: conf-a
spec:
  name: Conformance webhook A
  connector_type_id: .webhook
  config:
    url: https://hooks.example.com/conformance/a
    method: post
    hasAuth: true
  secrets:
    user: conformance
    password: \${env:CONFORMANCE_CONNECTOR_A_PASSWORD}
`,
  b: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: conf-b
spec:
  name: Conformance server log B
  connector_type_id: .server-log
`,
  s: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: keep-secret
spec:
  name: Conformance webhook with a key header
  connector_type_id: .webhook
  config:
    url: https://hooks.example.com/conformance/s
    headers:
      X-Api-Key: \${env:CONFORMANCE_SECRET_CONNECTOR}
    hasAuth: true
  secrets:
    user: conformance
    password: \${env:CONFORMANCE_SECRET_CONNECTOR}
`,
  secret: { env: 'CONFORMANCE_SECRET_CONNECTOR', pointer: '/spec/config/headers/X-Api-Key' },
  env: { CONFORMANCE_CONNECTOR_A_PASSWORD: CONNECTOR_A_PASSWORD },
  edit: {
    pointer: '/spec/name',
    value: 'Renamed by hand',
    async apply(emu) {
      const current = (await ok(call(emu, 'GET', '/api/actions/connector/conf-a'), 'read conf-a')).body;
      // A PUT replaces config and secrets whole: send them back as they are, only the name changes.
      await ok(
        call(emu, 'PUT', '/api/actions/connector/conf-a', { name: 'Renamed by hand', config: withoutNulls(current.config), secrets: { user: 'conformance', password: CONNECTOR_A_PASSWORD } }),
        'rename conf-a',
      );
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', '/api/actions/connector/conf-a'), 'read conf-a')).body.name;
    },
  },
  change: { pointer: '/spec/config/url', value: 'https://hooks.example.com/conformance/a-moved' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/actions/connector/${enc(name)}`), `delete connector ${name}`);
  },
  // The connector types the target offers, read once per space (plan-time check of connector_type_id).
  reads: { '/api/actions/connectors': onePage, '/api/actions/connector_types': onePage },
};
