import { call } from '@svcform/emulator/testing.js';
import { ok, onePage, type ConformanceCase, type Emu } from './common.js';

/** Rules of the emulator's built-in prebuilt package (src/emulator/areas/rules/prebuilt-catalog.ts). */
const POWERSHELL = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01';
const TEMP_DIR = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b02';
const FAILED_LOGINS = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b03';
const RULES = '/api/detection_engine/rules';

async function installedPrebuilt(emu: Emu): Promise<any[]> {
  const filter = encodeURIComponent('alert.attributes.params.immutable: true');
  return (await ok(call(emu, 'GET', `${RULES}/_find?per_page=1000&filter=${filter}`), 'find prebuilt rules')).body.data;
}

export const prebuiltRules: ConformanceCase = {
  kind: 'PrebuiltRules',
  deps: '',
  a: `apiVersion: svcform/v1
kind: PrebuiltRules
metadata:
  name: conf-a
spec:
  install:
    rule_ids: ['${POWERSHELL}']
  enable:
    rule_ids: ['${POWERSHELL}']
  customize:
    '${POWERSHELL}':
      severity: high
      risk_score: 60
`,
  b: `apiVersion: svcform/v1
kind: PrebuiltRules
metadata:
  name: conf-b
spec:
  install:
    rule_ids: ['${TEMP_DIR}']
  customize:
    '${TEMP_DIR}':
      interval: 10m
`,
  s: `apiVersion: svcform/v1
kind: PrebuiltRules
metadata:
  name: keep-secret
spec:
  install:
    rule_ids: ['${FAILED_LOGINS}']
  customize:
    '${FAILED_LOGINS}':
      note: 'Escalate with token \${env:CONFORMANCE_SECRET_PREBUILTRULES}'
`,
  secret: { env: 'CONFORMANCE_SECRET_PREBUILTRULES', pointer: `/spec/customize/${FAILED_LOGINS}/note` },
  edit: {
    pointer: `/spec/customize/${POWERSHELL}/severity`,
    value: 'low',
    async apply(emu) {
      await ok(call(emu, 'PATCH', RULES, { rule_id: POWERSHELL, severity: 'low' }), 'lower the severity in the app');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', `${RULES}?rule_id=${POWERSHELL}`), 'read the rule')).body.severity;
    },
  },
  change: { pointer: `/spec/customize/${POWERSHELL}/risk_score`, value: 55 },
  async remove(emu, name) {
    // A set exists through the mark on its rules; removing the marks is deleting the set.
    for (const rule of await installedPrebuilt(emu)) {
      if (rule.meta?.svcform_prebuilt?.set !== name) continue;
      const { svcform_prebuilt: _mark, ...meta } = rule.meta;
      await ok(call(emu, 'PATCH', RULES, { rule_id: rule.rule_id, meta }), `unmark ${rule.rule_id}`);
    }
  },
  reads: {
    '/api/detection_engine/rules/_find': onePage,
    // The prebuilt review routes read over POST (review_rule_installation_route.ts, review_rule_upgrade_route.ts).
    'POST /internal/detection_engine/prebuilt_rules/installation/_review': onePage,
    'POST /internal/detection_engine/prebuilt_rules/upgrade/_review': onePage,
  },
};
