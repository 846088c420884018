import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase } from './common.js';

/** The body fields a simplified PUT takes, from a simplified GET. */
function packagePolicyWrite(item: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { name: item.name, namespace: item.namespace ?? '', policy_ids: item.policy_ids, package: { name: item.package.name, version: item.package.version } };
  if (item.description !== undefined) out.description = item.description;
  if (item.vars !== undefined) out.vars = item.vars;
  if (item.inputs !== undefined) out.inputs = item.inputs;
  return out;
}

export const AGENTS_DEP = `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: dep-agents
spec:
  name: Conformance dependency agents
  namespace: conformance
`;

export const packagePolicy: ConformanceCase = {
  kind: 'PackagePolicy',
  deps: AGENTS_DEP,
  a: `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: conf-a
spec:
  name: conformance-system-a
  description: Auth log and syslog of the conformance hosts
  policy_ids: [dep-agents]
  package: {name: system, version: 1.60.0}
  inputs:
    system-logfile:
      enabled: true
      streams:
        system.auth:
          enabled: true
          vars:
            paths: [/var/log/auth.log*, /var/log/secure*]
    system-system/metrics:
      enabled: false
`,
  b: `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: conf-b
spec:
  name: conformance-system-b
  policy_ids: [dep-agents]
  package: {name: system, version: 1.60.0}
`,
  s: `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: keep-secret
spec:
  name: conformance-system-s
  description: 'Owner code \${env:CONFORMANCE_SECRET_PACKAGEPOLICY}'
  policy_ids: [dep-agents]
  package: {name: system, version: 1.60.0}
`,
  secret: { env: 'CONFORMANCE_SECRET_PACKAGEPOLICY', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const { item } = (await ok(call(emu, 'GET', '/api/fleet/package_policies/conf-a?format=simplified'), 'read conf-a')).body;
      await ok(call(emu, 'PUT', '/api/fleet/package_policies/conf-a?format=simplified', { ...packagePolicyWrite(item), description: 'Edited by hand' }), 'update conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', '/api/fleet/package_policies/conf-a?format=simplified'), 'read conf-a')).body.item.description;
    },
  },
  change: { pointer: '/spec/name', value: 'conformance-system-a-renamed' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/fleet/package_policies/${enc(name)}`), `delete package policy ${name}`);
  },
  reads: {
    '/api/fleet/package_policies': onePage,
    // The package description, once per distinct package version (system 1.60.0 only here).
    '/api/fleet/epm/packages/:pkgName/:pkgVersion': onePage,
  },
};
