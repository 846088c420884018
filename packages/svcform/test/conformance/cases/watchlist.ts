import { call } from '@svcform/emulator/testing.js';
import { ok, onePage, type ConformanceCase, type Emu } from './common.js';

const WL = '/api/entity_analytics/watchlists';
const at = (space: string) => (space === 'default' ? '' : `/s/${space}`);

async function byName(emu: Emu, name: string, space = 'default'): Promise<any> {
  const lists = (await ok(call(emu, 'GET', `${at(space)}${WL}/list`), 'list watchlists')).body as any[];
  return lists.find((w) => w.name === name);
}

/** Members are entities of the store, so the samples need the space's EntityStore (hosts and users). */
export const watchlist: ConformanceCase = {
  kind: 'Watchlist',
  deps: `apiVersion: svcform/v1
kind: EntityStore
metadata:
  name: entity-store
spec:
  entity_types: [host, user]
`,
  a: `apiVersion: svcform/v1
kind: Watchlist
metadata:
  name: conf-a
spec:
  description: Accounts with access to payroll
  risk_modifier: 1.5
  items: [user:alice, user:svc-backup, host:build-01]
`,
  b: `apiVersion: svcform/v1
kind: Watchlist
metadata:
  name: conf-b
spec:
  description: Third-party accounts
  risk_modifier: 2
  items: [user:vendor-acme]
`,
  s: `apiVersion: svcform/v1
kind: Watchlist
metadata:
  name: keep-secret
spec:
  description: \${env:CONFORMANCE_SECRET_WATCHLIST}
  risk_modifier: 1
`,
  secret: { env: 'CONFORMANCE_SECRET_WATCHLIST', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/risk_modifier',
    value: 3,
    async apply(emu) {
      const w = await byName(emu, 'conf-a');
      await ok(call(emu, 'PUT', `${WL}/${w.id}`, { name: w.name, description: w.description, riskModifier: 3 }), 'raise conf-a in the app');
    },
    async read(emu) {
      return (await byName(emu, 'conf-a'))?.riskModifier;
    },
  },
  change: { pointer: '/spec/description', value: 'Accounts with access to payroll and HR' },
  async remove(emu, name, space) {
    const w = await byName(emu, name, space);
    if (w) await ok(call(emu, 'DELETE', `${at(space)}${WL}/${w.id}`), `delete ${name}`);
  },
  reads: {
    [`${WL}/list`]: onePage,
    // Every watchlist's members in one walk of the store's entities (10,000 a page).
    '/api/security/entity_store/entities': onePage,
  },
};
