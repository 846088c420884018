import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { expandPaths } from '../../src/manifest/files.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, type Document } from 'yaml';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import type { LoggedRequest } from '@svcform/emulator/requestlog.js';
import { REAL_ROUTES, type RealRoute } from '@svcform/emulator/context.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/**
 * Every request svcform sends while applying, updating, exporting and deleting examples/ passes
 * the emulator's strict validation (wire-facts §15 fact 6: a lenient emulator hid facts 1 and 2):
 * no answer is a 400 or 422, and a 404 or 409 comes back only where svcform asks for one (the
 * `accept` lists of the adapters and client, below). The run is made twice: with the routes as
 * service-api.md documents them, and with every route of REAL_ROUTES switched to the real server's
 * behaviour (src/emulator/context.ts), since svcform must converge against both.
 */

const EXAMPLES = 'examples';

interface Accepted {
  method: string;
  route: string;
  status: number;
  /** Only requests to these paths (when set). */
  path?: RegExp;
  /** Where svcform asks for this answer. */
  source: string;
}

const ACCEPTED: Accepted[] = [
  { method: 'GET', route: '/api/spaces/space/:id', status: 404, source: 'src/client/spaces.ts (a missing space is named in the error)' },
  { method: 'GET', route: '/api/lists/index', status: 404, source: 'src/kinds/value-list.ts prerequisite.check' },
  { method: 'POST', route: '/api/lists/index', status: 409, source: 'src/kinds/value-list.ts prerequisite.ensure' },
  { method: 'GET', route: '/api/lists/_find', status: 404, source: 'src/kinds/value-list.ts list (no data streams yet)' },
  { method: 'DELETE', route: '/api/lists/items', status: 404, source: 'src/kinds/value-list.ts update (value already gone)' },
  { method: 'POST', route: '/api/fleet/agent_policies/delete', status: 404, source: 'src/kinds/fleet/agent-policy.ts delete' },
  { method: 'DELETE', route: '/api/fleet/package_policies/:packagePolicyId', status: 404, source: 'src/kinds/fleet/package-policy.ts delete' },
  { method: 'GET', route: '/api/fleet/epm/packages/:pkgName/:pkgVersion', status: 404, source: 'src/kinds/fleet/packages.ts package info' },
  { method: 'GET', route: '/api/endpoint/protection_updates_note/:package_policy_id', status: 404, source: 'src/kinds/protection-updates-note.ts list (a package policy without a note)' },
  { method: 'POST', route: '/api/actions/connector/:id', status: 409, path: /\/svcform-lease-\d+$/, source: 'src/kinds/connector/lease-store.ts create' },
  { method: 'DELETE', route: '/api/actions/connector/:id', status: 404, path: /\/svcform-lease-\d+$/, source: 'src/kinds/connector/lease-store.ts remove' },
];

function accepted(r: LoggedRequest): boolean {
  if (r.status >= 200 && r.status <= 299) return true;
  return ACCEPTED.some((a) => a.method === r.method && a.route === r.route && a.status === r.status && (!a.path || a.path.test(r.path)));
}

/** Every request of the log that the strict emulator refused, or answered in a way svcform did not ask for. */
function refused(log: LoggedRequest[]): string[] {
  return log.filter((r) => !accepted(r)).map((r) => `${r.method} ${r.path}${r.query} -> ${r.status}${r.error ? `: ${r.error}` : ''}`);
}

/** The manifest files of `dir`, as the loader finds them (no dot folders, test files, config or .svcform-skip folders). */
function yamlFiles(dir: string): string[] {
  return expandPaths([dir]).files;
}

/** The change made to one manifest of each kind; every kind has one, so every update route is called. */
const CHANGES: Record<string, (doc: Document) => void> = {
  Connector: (doc) => doc.setIn(['spec', 'name'], `${doc.getIn(['spec', 'name'])} (changed)`),
  Rule: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  ValueList: (doc) => {
    doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`);
    // An inline list also loses one value and gains another, so the item routes are called too.
    const items = doc.getIn(['spec', 'items']) as { items: unknown[] } | undefined;
    if (items) doc.setIn(['spec', 'items', items.items.length - 1], '192.0.2.250');
  },
  AgentPolicy: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  PackagePolicy: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  HostQueryPack: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  HostQuerySavedQuery: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  MaintenanceWindow: (doc) => doc.setIn(['spec', 'schedule', 'custom', 'duration'], '90m'),
  IntegrationPackage: (doc) => doc.setIn(['spec', 'keep_policies_up_to_date'], doc.getIn(['spec', 'keep_policies_up_to_date']) !== true),
  UptimeSettings: (doc) => doc.setIn(['spec', 'certAgeThreshold'], 400),
  ProtectionUpdatesNote: (doc) => doc.setIn(['spec', 'note'], `${doc.getIn(['spec', 'note'])} (changed)`),
  CaseConfiguration: (doc) => doc.setIn(['spec', 'closure_type'], doc.getIn(['spec', 'closure_type']) === 'close-by-user' ? 'close-by-pushing' : 'close-by-user'),
  AgentTool: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  Agent: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  AgentSkill: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  // No update route: a new url is an uninstall and an install, and the agents naming it re-pointed.
  AgentPlugin: (doc) => doc.setIn(['spec', 'url'], 'https://github.com/svcform/agent-plugins/tree/v1.1.0/plugins/threat-hunting'),
  AgentWorkflow: (doc) => doc.setIn(['spec', 'definition', 'description'], `${doc.getIn(['spec', 'definition', 'description'])} (changed)`),
  // Both the full PUT and the disable operation.
  AttackDiscoverySchedule: (doc) => {
    doc.setIn(['spec', 'params', 'size'], 42);
    doc.setIn(['spec', 'enabled'], false);
  },
  SavedObject: (doc) => doc.setIn(['spec', 'attributes', 'description'], 'changed'),
  ExceptionList: (doc) => {
    doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`);
    // One item changes and one is replaced by a new one, so the item update, create and delete routes are called too.
    doc.setIn(['spec', 'items', 0, 'name'], `${doc.getIn(['spec', 'items', 0, 'name'])} (changed)`);
    doc.setIn(['spec', 'items', 1, 'item_id'], 'replacement-item');
  },
  // The first customised rule of the set gets another risk score (a PATCH of a prebuilt rule).
  PrebuiltRules: (doc) => {
    const ruleId = String((doc.getIn(['spec', 'customize']) as { items: Array<{ key: { value: string } }> }).items[0].key.value);
    doc.setIn(['spec', 'customize', ruleId, 'risk_score'], 80);
  },
  TimelineTemplate: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  FleetOutput: (doc) => doc.setIn(['spec', 'name'], `${doc.getIn(['spec', 'name'])} (changed)`),
  AnonymizationField: (doc) => doc.setIn(['spec', 'anonymized'], doc.getIn(['spec', 'anonymized']) !== true),
  Space: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  DataView: (doc) => doc.setIn(['spec', 'name'], `${doc.getIn(['spec', 'name'])} (changed)`),
  EndpointScript: (doc) => doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (changed)`),
  // Inline records gain one and change one; a records file gives way to one inline record, so the bulk route also unassigns.
  AssetCriticality: (doc) => {
    if (doc.hasIn(['spec', 'records'])) {
      doc.setIn(['spec', 'records', 'new-admin'], 'low_impact');
      doc.setIn(['spec', 'records', 'administrator'], 'high_impact');
      return;
    }
    doc.deleteIn(['spec', 'records_file']);
    doc.setIn(['spec', 'records'], { 'dc01.corp.example': 'extreme_impact' });
  },
  // A type added (install), the cadence changed (update); members swapped (assign and unassign) and the modifier raised (PUT).
  EntityStore: (doc) => {
    doc.setIn(['spec', 'entity_types'], ['host', 'user', 'service']);
    doc.setIn(['spec', 'log_extraction', 'frequency'], '2m');
  },
  Watchlist: (doc) => {
    doc.setIn(['spec', 'risk_modifier'], Number(doc.getIn(['spec', 'risk_modifier'])) + 1);
    doc.deleteIn(['spec', 'items_file']);
    doc.setIn(['spec', 'items'], ['user:bob']);
  },
  // Users swapped: one CSV upload of the whole set (the omitted ones lose the csv source).
  PrivilegedUserMonitoring: (doc) => {
    doc.deleteIn(['spec', 'items_file']);
    doc.setIn(['spec', 'items'], ['alice', 'carol']);
  },
};

/** Changes one field of every manifest of the copy; returns how many manifests of each kind changed. */
function changeEveryManifest(dir: string): Record<string, number> {
  const changed: Record<string, number> = {};
  for (const file of yamlFiles(dir)) {
    const docs = parseAllDocuments(readFileSync(file, 'utf8'));
    if (!Array.isArray(docs)) continue;
    for (const doc of docs) {
      const kind = String(doc.get('kind'));
      const change = CHANGES[kind];
      assert.ok(change, `no change defined for kind ${kind} (${file})`);
      change(doc);
      changed[kind] = (changed[kind] ?? 0) + 1;
    }
    writeFileSync(file, docs.map((d) => d.toString()).join(''));
  }
  return changed;
}

function run(realRoutes: RealRoute[]): void {
  let emu: RunningEmulator;
  let dir: string;
  const expectClean = (step: string) => {
    const log = emu.log.all();
    assert.ok(log.length > 0, `${step} sent requests`);
    assert.deepEqual(refused(log), [], `${step}: every request accepted by the strict routes`);
  };

  before(async () => {
    emu = await emulator({ realRoutes });
    dir = mkdtempSync(join(tmpdir(), 'svcform-strict-'));
    cpSync(EXAMPLES, dir, { recursive: true });
  });
  after(() => emu.stop());

  it('apply of examples/ (every create)', async () => {
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    expectClean('apply');
  });

  it('update after one field of every manifest changed (every update route)', async () => {
    const changed = changeEveryManifest(dir);
    assert.deepEqual(Object.keys(changed).sort(), Object.keys(CHANGES).sort(), 'examples/ has every kind');
    const total = Object.values(changed).reduce((a, b) => a + b, 0);
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, new RegExp(`Plan: 0 to create, ${total} to update, 0 to delete`));
    expectClean('update');
    const writes = new Set(emu.log.all().filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.route}`));
    for (const route of ['POST /api/lists/items/_import', 'DELETE /api/lists/items', 'PUT /api/exception_lists', 'PUT /api/exception_lists/items', 'POST /api/exception_lists/items', 'DELETE /api/exception_lists/items']) {
      assert.ok(writes.has(route), `the update called ${route}: ${[...writes].join(', ')}`);
    }
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
  });

  it('export of everything', async () => {
    emu.log.clear();
    const out = mkdtempSync(join(tmpdir(), 'svcform-strict-export-'));
    const exported = await cli(['export', '--out', out, '--url', emu.url]);
    assert.equal(exported.code, 0, exported.out + exported.err);
    expectClean('export');
  });

  it('delete of everything under the manage scopes of examples/svcform.yaml (every delete route)', async () => {
    emu.log.clear();
    const empty = mkdtempSync(join(tmpdir(), 'svcform-strict-empty-'));
    const torn = await cli(['apply', empty, '--url', emu.url, '--config', join(EXAMPLES, 'svcform.yaml'), '--auto-approve']);
    assert.equal(torn.code, 0, torn.out + torn.err);
    assert.match(torn.out, /Plan: 0 to create, 0 to update, [1-9]\d* to delete/);
    expectClean('delete');
  });
}

describe('strict traffic: every request svcform makes on examples/ is one the real routes accept', () => {
  describe('routes as service-api.md documents them', () => run([]));
  describe('every route switched to the real server\'s behaviour', () => run(Object.keys(REAL_ROUTES) as RealRoute[]));
});
