import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

const EPM = '/api/fleet/epm/packages';

async function installation(emu: Emu, name: string): Promise<any> {
  return (await ok(call(emu, 'GET', `${EPM}/${enc(name)}`), `package ${name}`)).body.item.installationInfo;
}

/**
 * Packages of the emulator's registry. Identity is the package name; the version is pinned. The
 * manifest change of check 7 is a downgrade (1.60.0 to 1.58.0), which needs `force`.
 */
export const integrationPackage: ConformanceCase = {
  kind: 'IntegrationPackage',
  deps: '',
  names: { a: 'system', b: 'log', s: 'hostquery_manager' },
  a: `apiVersion: svcform/v1
kind: IntegrationPackage
metadata:
  name: system
spec:
  version: 1.60.0
  keep_policies_up_to_date: false
`,
  b: `apiVersion: svcform/v1
kind: IntegrationPackage
metadata:
  name: log
spec:
  version: 2.4.3
`,
  s: `apiVersion: svcform/v1
kind: IntegrationPackage
metadata:
  name: hostquery_manager
spec:
  version: 1.14.0
`,
  noSecret: {
    env: 'CONFORMANCE_SECRET_INTEGRATIONPACKAGE',
    pointer: '/spec/version',
    reason: 'a package has a name and a version, nothing else',
  },
  edit: {
    pointer: '/spec/keep_policies_up_to_date',
    value: true,
    async apply(emu) {
      const inst = await installation(emu, 'system');
      await ok(call(emu, 'PUT', `${EPM}/system/${enc(inst.version)}`, { keepPoliciesUpToDate: true }), 'keep system policies up to date');
    },
    async read(emu) {
      return (await installation(emu, 'system')).keep_policies_up_to_date;
    },
  },
  change: { pointer: '/spec/version', value: '1.58.0' },
  async remove(emu, name) {
    const inst = await installation(emu, name);
    await ok(call(emu, 'DELETE', `${EPM}/${enc(name)}/${enc(inst.version)}`), `uninstall ${name}`);
  },
  reads: { [EPM]: onePage },
};
