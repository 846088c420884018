import assert from 'node:assert/strict';
import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

async function windowByTitle(emu: Emu, title: string): Promise<any> {
  const { maintenanceWindows } = (await ok(call(emu, 'GET', '/api/maintenance_window/_find?per_page=100'), 'find windows')).body;
  const found = maintenanceWindows.find((w: any) => w.title === title);
  assert.ok(found, `window ${title} is on the server`);
  return found;
}

export const maintenanceWindow: ConformanceCase = {
  kind: 'MaintenanceWindow',
  deps: '',
  a: `apiVersion: svcform/v1
kind: MaintenanceWindow
metadata:
  name: conf-a
spec:
  enabled: true
  schedule:
    custom:
      start: '2030-01-05T22:00:00Z'
      duration: 4h
      timezone: Europe/Paris
      recurring:
        every: 1w
        onWeekDay: [SA]
  scope:
    alerting:
      query:
        kql: 'svc.alert.rule.tags : "noisy-during-patching"'
`,
  b: `apiVersion: svcform/v1
kind: MaintenanceWindow
metadata:
  name: conf-b
spec:
  schedule:
    custom:
      start: '2030-03-01T08:00:00Z'
      duration: 1d
`,
  s: `apiVersion: svcform/v1
kind: MaintenanceWindow
metadata:
  name: keep-secret
spec:
  schedule:
    custom:
      start: '2030-06-01T08:00:00Z'
      duration: 2h
  scope:
    alerting:
      query:
        kql: 'svc.alert.rule.tags : "\${env:CONFORMANCE_SECRET_MAINTENANCEWINDOW}"'
`,
  secret: { env: 'CONFORMANCE_SECRET_MAINTENANCEWINDOW', pointer: '/spec/scope/alerting/query/kql' },
  edit: {
    pointer: '/spec/enabled',
    value: false,
    async apply(emu) {
      const w = await windowByTitle(emu, 'conf-a');
      await ok(call(emu, 'PATCH', `/api/maintenance_window/${enc(w.id)}`, { enabled: false }), 'disable conf-a');
    },
    async read(emu) {
      return (await windowByTitle(emu, 'conf-a')).enabled;
    },
  },
  change: { pointer: '/spec/schedule/custom/duration', value: '5h' },
  async remove(emu, name) {
    const w = await windowByTitle(emu, name);
    await ok(call(emu, 'DELETE', `/api/maintenance_window/${enc(w.id)}`), `delete window ${name}`);
  },
  reads: { '/api/maintenance_window/_find': onePage },
};
