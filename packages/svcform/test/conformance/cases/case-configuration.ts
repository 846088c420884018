import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

const CONFIGURE = '/api/cases/configure';

async function configuration(emu: Emu, owner: string): Promise<any> {
  const list = (await ok(call(emu, 'GET', `${CONFIGURE}?owner=${enc(owner)}`), `configuration of ${owner}`)).body;
  return list[0];
}

/** One configuration per owner: the three samples are the three owners. */
export const caseConfiguration: ConformanceCase = {
  kind: 'CaseConfiguration',
  deps: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: conf-tracker
spec:
  name: Conformance tracker
  connector_type_id: .issue-tracker
  config: {apiUrl: 'https://tracker.example.com', projectKey: SOC}
  secrets: {email: 'bot@example.com', apiToken: tracker-token}
`,
  names: { a: 'securitySolution', b: 'observability', s: 'cases' },
  a: `apiVersion: svcform/v1
kind: CaseConfiguration
metadata:
  name: securitySolution
spec:
  closure_type: close-by-pushing
  connector: {id: conf-tracker}
  customFields:
    - {key: tier, label: Analyst tier, type: text, required: false, defaultValue: T1}
`,
  b: `apiVersion: svcform/v1
kind: CaseConfiguration
metadata:
  name: observability
spec:
  closure_type: close-by-pushing
`,
  s: `apiVersion: svcform/v1
kind: CaseConfiguration
metadata:
  name: cases
spec:
  closure_type: close-by-user
  connector:
    id: conf-tracker
    fields:
      issueType: \${env:CONFORMANCE_SECRET_CASECONFIGURATION}
`,
  secret: { env: 'CONFORMANCE_SECRET_CASECONFIGURATION', pointer: '/spec/connector/fields/issueType' },
  edit: {
    pointer: '/spec/closure_type',
    value: 'close-by-user',
    async apply(emu) {
      const c = await configuration(emu, 'securitySolution');
      await ok(call(emu, 'PATCH', `${CONFIGURE}/${enc(c.id)}`, { version: c.version, closure_type: 'close-by-user' }), 'edit the closure type');
    },
    async read(emu) {
      return (await configuration(emu, 'securitySolution')).closure_type;
    },
  },
  change: { pointer: '/spec/connector/id', value: 'none' },
  async remove(emu, name) {
    // No delete route: the owner's starting settings are what removing means.
    const c = await configuration(emu, name);
    const starting = { closure_type: 'close-by-user', connector: { id: 'none', name: 'none', type: '.none', fields: null }, customFields: [], templates: [] };
    await ok(call(emu, 'PATCH', `${CONFIGURE}/${enc(c.id)}`, { version: c.version, ...starting }), `reset ${name}`);
  },
  reads: { [CONFIGURE]: onePage },
};
