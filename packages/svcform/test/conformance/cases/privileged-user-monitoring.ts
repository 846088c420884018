import { call } from '@svcform/emulator/testing.js';
import { ok, type ConformanceCase } from './common.js';

const PM = '/api/entity_analytics/monitoring';
const at = (space: string) => (space === 'default' ? '' : `/s/${space}`);

/** One monitoring engine per space, so the three samples live in three spaces. */
export const privilegedUserMonitoring: ConformanceCase = {
  kind: 'PrivilegedUserMonitoring',
  deps: '',
  names: { a: 'privileged-user-monitoring', b: 'privileged-user-monitoring', s: 'privileged-user-monitoring' },
  spaces: { a: 'default', b: 'conf-b', s: 'keep-secret' },
  a: `apiVersion: svcform/v1
kind: PrivilegedUserMonitoring
metadata:
  name: privileged-user-monitoring
spec:
  enabled: true
  items: [alice, svc-backup, "o'neil, pat"]
`,
  b: `apiVersion: svcform/v1
kind: PrivilegedUserMonitoring
metadata:
  name: privileged-user-monitoring
  space: conf-b
spec:
  items: [vendor-acme]
`,
  s: `apiVersion: svcform/v1
kind: PrivilegedUserMonitoring
metadata:
  name: privileged-user-monitoring
  space: keep-secret
spec:
  items: [root]
`,
  noSecret: { env: 'CONFORMANCE_SECRET_PRIVMON', pointer: '/spec/enabled', reason: 'enabled is a boolean and the only strings are user names, which plans list as set members' },
  edit: {
    pointer: '/spec/enabled',
    value: false,
    async apply(emu) {
      await ok(call(emu, 'POST', `${PM}/engine/disable`), 'disable the engine in the app');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', `${PM}/privileges/health`), 'read the health')).body.status !== 'disabled';
    },
  },
  change: { pointer: '/spec/items', value: ['alice', 'svc-backup', "o'neil, pat", 'carol'] },
  async remove(emu, _name, space) {
    await ok(call(emu, 'DELETE', `${at(space)}${PM}/engine/delete?data=true`), `delete the engine of ${space}`);
  },
  reads: {
    // One health read per space the run touches, and one user list per installed engine.
    [`${PM}/privileges/health`]: (n) => n,
    [`${PM}/users/list`]: (n) => n,
  },
};
