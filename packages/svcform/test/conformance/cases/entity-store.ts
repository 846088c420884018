import { call } from '@svcform/emulator/testing.js';
import { ok, type ConformanceCase } from './common.js';

const ES = '/api/security/entity_store';
const at = (space: string) => (space === 'default' ? '' : `/s/${space}`);

/** One entity store per space, so the three samples live in three spaces. */
export const entityStore: ConformanceCase = {
  kind: 'EntityStore',
  deps: '',
  names: { a: 'entity-store', b: 'entity-store', s: 'entity-store' },
  spaces: { a: 'default', b: 'conf-b', s: 'keep-secret' },
  a: `apiVersion: svcform/v1
kind: EntityStore
metadata:
  name: entity-store
spec:
  entity_types: [host, user]
  log_extraction:
    frequency: 1m
    lookbackPeriod: 6h
`,
  b: `apiVersion: svcform/v1
kind: EntityStore
metadata:
  name: entity-store
  space: conf-b
spec:
  entity_types: [user, service]
`,
  s: `apiVersion: svcform/v1
kind: EntityStore
metadata:
  name: entity-store
  space: keep-secret
spec:
  entity_types: [host]
`,
  noSecret: { env: 'CONFORMANCE_SECRET_ENTITYSTORE', pointer: '/spec/entity_types/0', reason: 'the entity types are names from a fixed list and the cadence fields are durations' },
  edit: {
    pointer: '/spec/log_extraction/frequency',
    value: '5m',
    async apply(emu) {
      await ok(call(emu, 'PUT', ES, { logExtraction: { frequency: '5m' } }), 'slow extraction down in the app');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', `${ES}/status`), 'read the status')).body.engines[0]?.frequency;
    },
  },
  change: { pointer: '/spec/log_extraction/lookbackPeriod', value: '12h' },
  async remove(emu, _name, space) {
    await ok(call(emu, 'POST', `${at(space)}${ES}/uninstall`, {}), `uninstall the store of ${space}`);
  },
  // One status read per space the run touches.
  reads: { [`${ES}/status`]: (n) => n },
};
