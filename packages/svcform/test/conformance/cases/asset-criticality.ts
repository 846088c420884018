import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

const AC = '/api/asset_criticality';

async function level(emu: Emu, idField: string, idValue: string): Promise<string | undefined> {
  const res = await call(emu, 'GET', `${AC}?id_field=${enc(idField)}&id_value=${enc(idValue)}`);
  return res.status === 404 ? undefined : (await ok(Promise.resolve(res), `read ${idValue}`)).body.criticality_level;
}

/** One manifest per id_field: the names are the id_fields. */
export const assetCriticality: ConformanceCase = {
  kind: 'AssetCriticality',
  deps: '',
  names: { a: 'host.name', b: 'user.name', s: 'service.name' },
  a: `apiVersion: svcform/v1
kind: AssetCriticality
metadata:
  name: host.name
spec:
  records:
    dc01.corp.example: extreme_impact
    build-01: high_impact
    kiosk-7: low_impact
`,
  b: `apiVersion: svcform/v1
kind: AssetCriticality
metadata:
  name: user.name
spec:
  records:
    svc-backup: high_impact
    alice: medium_impact
`,
  s: `apiVersion: svcform/v1
kind: AssetCriticality
metadata:
  name: service.name
spec:
  records:
    payments-api: extreme_impact
`,
  noSecret: { env: 'CONFORMANCE_SECRET_ASSETCRITICALITY', pointer: '/spec/records/payments-api', reason: 'every value is a criticality level' },
  edit: {
    pointer: '/spec/records/build-01',
    value: 'low_impact',
    async apply(emu) {
      await ok(call(emu, 'POST', AC, { id_field: 'host.name', id_value: 'build-01', criticality_level: 'low_impact' }), 'lower build-01 in the app');
    },
    async read(emu) {
      return level(emu, 'host.name', 'build-01');
    },
  },
  change: { pointer: '/spec/records/kiosk-7', value: 'medium_impact' },
  async remove(emu, name, space) {
    const prefix = space === 'default' ? '' : `/s/${space}`;
    const listed = (await ok(call(emu, 'GET', `${prefix}${AC}/list?per_page=1000&kuery=${enc(`id_field: "${name}"`)}`), `list ${name}`)).body.records;
    const records = listed.map((r: any) => ({ id_field: name, id_value: r.id_value, criticality_level: 'unassigned' }));
    if (records.length) await ok(call(emu, 'POST', `${prefix}${AC}/bulk`, { records }), `unassign ${name}`);
  },
  reads: {
    // Every record of a space in one request up to 1,000 (one id_field walk per id_field only past 10,000).
    [`${AC}/list`]: onePage,
  },
};
