import { call } from '@svcform/emulator/testing.js';
import { ok, type ConformanceCase } from './common.js';

const SETTINGS = '/api/uptime/settings';
const DEFAULTS = { heartbeatIndices: '<monitor-agent>-*', certExpirationThreshold: 30, certAgeThreshold: 730, defaultConnectors: [], defaultEmail: { to: [], cc: [], bcc: [] } };
const at = (space: string) => (space === 'default' ? '' : `/s/${space}`);

/** One settings object per space, so the three samples live in three spaces. */
export const uptimeSettings: ConformanceCase = {
  kind: 'UptimeSettings',
  deps: '',
  names: { a: 'settings', b: 'settings', s: 'settings' },
  spaces: { a: 'default', b: 'conf-b', s: 'keep-secret' },
  a: `apiVersion: svcform/v1
kind: UptimeSettings
metadata:
  name: settings
spec:
  heartbeatIndices: synthetics-*
  certAgeThreshold: 365
  defaultEmail:
    to: [soc@example.com]
`,
  b: `apiVersion: svcform/v1
kind: UptimeSettings
metadata:
  name: settings
  space: conf-b
spec:
  certExpirationThreshold: 14
`,
  s: `apiVersion: svcform/v1
kind: UptimeSettings
metadata:
  name: settings
  space: keep-secret
spec:
  heartbeatIndices: \${env:CONFORMANCE_SECRET_UPTIMESETTINGS}
`,
  secret: { env: 'CONFORMANCE_SECRET_UPTIMESETTINGS', pointer: '/spec/heartbeatIndices' },
  edit: {
    pointer: '/spec/certAgeThreshold',
    value: 100,
    async apply(emu) {
      await ok(call(emu, 'PUT', SETTINGS, { certAgeThreshold: 100 }), 'edit the settings');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', SETTINGS), 'read the settings')).body.certAgeThreshold;
    },
  },
  change: { pointer: '/spec/certExpirationThreshold', value: 21 },
  async remove(emu, _name, space) {
    // There is no delete: putting the documented defaults back is what removing means.
    await ok(call(emu, 'PUT', `${at(space)}${SETTINGS}`, DEFAULTS), `reset the settings of ${space}`);
  },
  // One GET per space the run touches (three samples, three spaces).
  reads: { [SETTINGS]: (n) => n },
};
