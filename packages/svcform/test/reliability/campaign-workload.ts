/**
 * The fault campaign's manifests: examples/ (every kind) with copies of the multipliable
 * documents, then an edit of every document (the update phase) and the removal of some documents
 * of each kind the manage scopes of examples/svcform.yaml let svcform delete (the delete phase).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { expandPaths } from '../../src/manifest/files.js';

type Doc = { kind: string; metadata: { name: string; [k: string]: unknown }; spec: Record<string, any> };

/** Kinds whose examples are copied under new names; the others (Fleet, packs, settings) stay as written. */
const MULTIPLY = new Set(['Rule', 'Connector', 'HostQuerySavedQuery', 'MaintenanceWindow', 'ValueList', 'ExceptionList']);

function copyOf(doc: Doc, i: number): Doc {
  const name = doc.kind === 'Connector' ? `soc-c${i}-${doc.metadata.name.slice(4)}`.slice(0, 36) : `${doc.metadata.name}-c${i}`;
  const copy: Doc = { ...doc, metadata: { ...doc.metadata, name } };
  // An item_id is unique in its namespace, not only in its list.
  if (doc.kind === 'ExceptionList') copy.spec = { ...doc.spec, items: (doc.spec.items ?? []).map((item: any) => ({ ...item, item_id: `${item.item_id}-c${i}` })) };
  return copy;
}

/** Which copy a document is (0 for an example as written). */
function copyNumber(doc: Doc): number {
  const m = doc.kind === 'Connector' ? /^soc-c(\d+)-/.exec(doc.metadata.name) : /-c(\d+)$/.exec(doc.metadata.name);
  return MULTIPLY.has(doc.kind) && m ? Number(m[1]) : 0;
}

/** Manifest files under `dir`, as svcform finds them (no svcform.yaml, rule test files or skipped folders). */
function manifestFiles(dir: string): string[] {
  return expandPaths([dir]).files;
}

const readDocs = (file: string): Doc[] => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS()).filter((d) => d && typeof d.kind === 'string');
const writeDocs = (file: string, docs: Doc[]) => writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));

/** Documents per kind under `dir`. */
export function countKinds(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of manifestFiles(dir)) for (const doc of readDocs(file)) out.set(doc.kind, (out.get(doc.kind) ?? 0) + 1);
  return out;
}

/** examples/ with `copies` extra copies of each multipliable document, in a temporary directory. */
export function workload(copies: number): { dir: string; resources: number } {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-campaign-'));
  cpSync('examples', dir, { recursive: true });
  for (const file of manifestFiles(dir)) {
    const docs = readDocs(file);
    const out: Doc[] = [];
    for (let i = 1; i <= copies; i++) for (const doc of docs) if (MULTIPLY.has(doc.kind)) out.push(copyOf(doc, i));
    if (out.length) writeDocs(file.replace(/([^/]+)$/, 'copies-$1'), out);
  }
  return { dir, resources: [...countKinds(dir).values()].reduce((a, b) => a + b, 0) };
}

const REVIEWED = ' (reviewed)';
const appended = (s: Record<string, any>, field: string) => {
  if (typeof s[field] !== 'string') throw new Error(`no ${field} to change`);
  s[field] += REVIEWED;
};

/**
 * One field per kind that an update may change without replacing the object or touching what
 * others reference: so every document becomes one update.
 */
const UPDATES: Record<string, (spec: Record<string, any>) => void> = {
  Connector: (s) => appended(s, 'name'),
  Rule: (s) => appended(s, 'description'),
  ValueList: (s) => appended(s, 'description'),
  AgentPolicy: (s) => appended(s, 'description'),
  PackagePolicy: (s) => appended(s, 'description'),
  HostQueryPack: (s) => appended(s, 'description'),
  HostQuerySavedQuery: (s) => appended(s, 'description'),
  MaintenanceWindow: (s) => {
    s.schedule.custom.duration = '2h';
  },
  IntegrationPackage: (s) => {
    s.keep_policies_up_to_date = s.keep_policies_up_to_date !== true;
  },
  UptimeSettings: (s) => {
    s.certAgeThreshold += 1;
  },
  ProtectionUpdatesNote: (s) => appended(s, 'note'),
  CaseConfiguration: (s) => {
    s.closure_type = s.closure_type === 'close-by-user' ? 'close-by-pushing' : 'close-by-user';
  },
  AgentTool: (s) => appended(s, 'description'),
  Agent: (s) => appended(s, 'description'),
  AgentSkill: (s) => appended(s, 'description'),
  AgentWorkflow: (s) => appended(s.definition, 'description'),
  AgentPlugin: (s) => {
    s.url = s.url.replace('/tree/main/', '/tree/v1.1.0/');
  },
  AttackDiscoverySchedule: (s) => {
    s.params.size += 10;
  },
  SavedObject: (s) => appended(s.attributes, 'name'),
  ExceptionList: (s) => {
    appended(s, 'description');
    // An item changed too: the list's update writes its items one by one.
    if (s.items?.length) appended(s.items[0], 'description');
  },
  PrebuiltRules: (s) => {
    const [first] = Object.values(s.customize ?? {}) as Array<Record<string, any>>;
    if (!first || typeof first.risk_score !== 'number') throw new Error('no customised risk_score to change');
    first.risk_score += 1;
  },
  TimelineTemplate: (s) => appended(s, 'description'),
  FleetOutput: (s) => appended(s, 'name'),
  AnonymizationField: (s) => {
    s.anonymized = s.anonymized !== true;
  },
  Space: (s) => appended(s, 'description'),
  DataView: (s) => appended(s, 'name'),
  // Inline records: one level changes (one bulk upsert); a records file gives way to one inline record (the rest unassigned).
  EndpointScript: (s) => appended(s, 'description'),
  AssetCriticality: (s) => {
    if (!s.records) {
      delete s.records_file;
      s.records = { 'campaign-host': 'high_impact' };
      return;
    }
    const [first] = Object.keys(s.records);
    s.records[first] = s.records[first] === 'low_impact' ? 'medium_impact' : 'low_impact';
  },
  // A cadence change (one PUT of the settings).
  EntityStore: (s) => {
    s.log_extraction = { ...(s.log_extraction ?? {}), frequency: s.log_extraction?.frequency === '2m' ? '3m' : '2m' };
  },
  // The modifier changes (a PUT) and one member goes (an unassign).
  Watchlist: (s) => {
    s.risk_modifier = Number(s.risk_modifier) + 0.5;
    if (Array.isArray(s.items)) s.items = s.items.slice(1);
  },
  // One user added or taken out again (one CSV upload of the whole set).
  PrivilegedUserMonitoring: (s) => {
    delete s.items_file;
    const items: string[] = Array.isArray(s.items) ? s.items : ['alice'];
    s.items = items.includes('campaign-user') ? items.filter((u) => u !== 'campaign-user') : [...items, 'campaign-user'];
  },
};

/** Changes one field of every document; answers how many per kind. */
export function updateEvery(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of manifestFiles(dir)) {
    const docs = readDocs(file);
    for (const doc of docs) {
      const update = UPDATES[doc.kind];
      if (!update) throw new Error(`the campaign has no update for kind ${doc.kind}`);
      try {
        update(doc.spec);
      } catch (err) {
        throw new Error(`${doc.kind}/${doc.metadata.name} in ${file}: ${(err as Error).message}`);
      }
      out.set(doc.kind, (out.get(doc.kind) ?? 0) + 1);
    }
    if (docs.length) writeDocs(file, docs);
  }
  return out;
}

/**
 * The documents the delete phase removes: odd copies of the multiplied kinds (nothing references
 * a copy), and of the other kinds one document each whose removal leaves no reference dangling
 * (a pack names both agent policies, so the bastions' policy goes with the pack and its package
 * policy). IntegrationPackage, PrebuiltRules and AnonymizationField have no manage scope in examples/svcform.yaml:
 * svcform never deletes them, so they are not removed.
 */
const REMOVED: Record<string, string[]> = {
  AgentPolicy: ['soc-linux-bastions'],
  PackagePolicy: ['soc-linux-bastions-system'],
  HostQueryPack: ['linux-incident-response'],
  UptimeSettings: ['settings'],
  ProtectionUpdatesNote: ['soc-linux-servers-system'],
  CaseConfiguration: ['securitySolution'],
  AgentTool: ['soc.runbooks.search', 'soc.cases.open_for_host'],
  Agent: ['soc-triage'],
  // The agent that names them goes in the same phase, so they may go too.
  AgentSkill: ['soc-escalation'],
  AgentWorkflow: ['soc-open-host-case'],
  AgentPlugin: ['soc-threat-hunting'],
  AttackDiscoverySchedule: ['Daily attack discovery'],
  SavedObject: ['soc-tag'],
  DataView: ['soc-endpoint-events'],
  TimelineTemplate: ['soc-network-peer'],
  // Named by the bastions' policy, which goes too: the policy is deleted first.
  FleetOutput: ['soc-monitoring'],
  AssetCriticality: ['user.name'],
  Watchlist: ['Third-party accounts'],
  EndpointScript: ['soc-flush-dns'],
  PrivilegedUserMonitoring: ['privileged-user-monitoring'],
};

/**
 * Kinds examples/ cannot hold: agentless policies exist on hosted deployments only, and the
 * campaign's emulator, like the demo's, is self-managed (their example is examples-cloud/, applied
 * by test/integration/agentless-example.test.ts).
 */
export const HOSTED_ONLY = ['AgentlessPolicy'];

// A Space is deleted only with --allow-space-delete, which the campaign never gives.
// EntityStore has no manage scope in examples/svcform.yaml: uninstalling takes the entities watchlists name.
export const NEVER_DELETED = ['IntegrationPackage', 'PrebuiltRules', 'AnonymizationField', 'Space', 'EntityStore'];

/**
 * Removes the delete phase's documents; answers how many per kind. What stays stops naming a
 * removed agent policy in the same change (the host-query package policy runs on both), as svcform
 * requires before it deletes something in use.
 */
export function removeSome(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const removedPolicies = new Set(REMOVED.AgentPolicy);
  for (const file of manifestFiles(dir)) {
    const docs = readDocs(file);
    const kept = docs.filter((doc) => {
      const gone = copyNumber(doc) % 2 === 1 || (REMOVED[doc.kind] ?? []).includes(doc.metadata.name);
      if (gone) out.set(doc.kind, (out.get(doc.kind) ?? 0) + 1);
      return !gone;
    });
    let edited = false;
    for (const doc of kept) {
      const ids: unknown = doc.spec.policy_ids;
      if (Array.isArray(ids) && ids.some((id) => removedPolicies.has(id))) {
        doc.spec.policy_ids = ids.filter((id) => !removedPolicies.has(id));
        edited = true;
      }
    }
    if (edited || kept.length !== docs.length) writeDocs(file, kept);
  }
  return out;
}
