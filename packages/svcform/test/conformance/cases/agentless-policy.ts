import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

const AGENTLESS = '/api/fleet/agentless_policies';

async function read(emu: Emu, id: string): Promise<Record<string, any>> {
  return (await ok(call(emu, 'GET', `/api/fleet/package_policies/${enc(id)}?format=simplified`), `read ${id}`)).body.item;
}

const policy = (name: string, extra = '') => `apiVersion: svcform/v1
kind: AgentlessPolicy
metadata:
  name: ${name}
spec:
  name: conformance-okta-${name}
  package: {name: okta, version: 3.1.0}
${extra}`;

/** Agentless policies exist on hosted deployments only: the case's emulator runs as cloud. */
export const agentlessPolicy: ConformanceCase = {
  kind: 'AgentlessPolicy',
  deps: '',
  deployment: 'cloud',
  a: policy('conf-a', '  description: Okta system log of the conformance tenant\n  namespace: conformance\n'),
  b: policy('conf-b'),
  s: policy('keep-secret', "  description: 'Owner code ${env:CONFORMANCE_SECRET_AGENTLESSPOLICY}'\n"),
  secret: { env: 'CONFORMANCE_SECRET_AGENTLESSPOLICY', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Recreated by hand',
    // No update route: a person changes one by deleting it and creating it again.
    async apply(emu) {
      const item = await read(emu, 'conf-a');
      await ok(call(emu, 'DELETE', `${AGENTLESS}/conf-a`), 'delete conf-a');
      await ok(call(emu, 'POST', `${AGENTLESS}?format=simplified`, { id: 'conf-a', name: item.name, namespace: item.namespace, description: 'Recreated by hand', package: { name: 'okta', version: '3.1.0' }, inputs: item.inputs }), 'create conf-a again');
    },
    async read(emu) {
      return (await read(emu, 'conf-a')).description;
    },
  },
  change: { pointer: '/spec/name', value: 'conformance-okta-renamed' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `${AGENTLESS}/${enc(name)}`), `delete agentless policy ${name}`);
  },
  reads: {
    '/api/fleet/package_policies': onePage,
    '/api/fleet/epm/packages/:pkgName/:pkgVersion': onePage,
  },
};
