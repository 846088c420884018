/**
 * Sample data for the adapter conformance suite (conformance.test.ts): one case per kind svcform
 * manages. The suite fails for a registered kind without a case here, so a new kind must add one.
 *
 * Conventions every case follows:
 * - `a` and `b` are one YAML document each, named `conf-a` and `conf-b` (inside the `conf-` manage
 *   scope the suite writes); `s` is named `keep-secret` (outside that scope) and carries the secret.
 * - `deps` are documents of other kinds that a, b and s name (an agent policy, a connector...).
 * - The out-of-band `edit` changes exactly one field of `conf-a` through the HTTP API, as a person
 *   in the UI would, and `change` is a different field of `conf-a` the suite edits in the manifest.
 * - `reads` are the list routes planning may use for the kind, each with the most requests it may
 *   make for `n` objects of the kind on the server: a page count, never one per object (value lists
 *   read their values with one items find per list, which is what the adapter documents).
 */
import assert from 'node:assert/strict';
import { call, type CallResult } from '../helpers/emulator.js';

export interface Emu {
  url: string;
}

export interface OutOfBandEdit {
  /** JSON Pointer into the manifest of the field the edit changes, e.g. `/spec/description`. */
  pointer: string;
  /** The value the edit sets (as the manifest would spell it). */
  value: unknown;
  /** Makes the edit on conf-a through the API. */
  apply(emu: Emu): Promise<void>;
  /** Reads the field of conf-a back from the server through the API. */
  read(emu: Emu): Promise<unknown>;
}

export interface ConformanceCase {
  kind: string;
  /** Documents of other kinds the samples need ('' when none). */
  deps: string;
  a: string;
  b: string;
  /** Object named outside the `conf-` scope whose `secret.pointer` field holds ${env:<secret.env>}. */
  s: string;
  secret: { env: string; pointer: string };
  /** Variables the samples read besides the secret (not checked for leaks). */
  env?: Record<string, string>;
  edit: OutOfBandEdit;
  /** Another field of conf-a, changed in the manifest by the ignore check. */
  change: { pointer: string; value: unknown };
  /** Deletes an object of the kind, by metadata.name, through the API. */
  remove(emu: Emu, name: string): Promise<void>;
  /**
   * Route pattern -> the most requests a plan may make to it for n objects of the kind. The first
   * entry is the kind's own list route (the plan must use it).
   */
  reads: Record<string, (n: number) => number>;
}

/** Asserts a 2xx answer and returns it. */
export async function ok(res: Promise<CallResult>, what: string): Promise<CallResult> {
  const r = await res;
  assert.ok(r.status >= 200 && r.status < 300, `${what}: HTTP ${r.status} ${r.text.slice(0, 400)}`);
  return r;
}

const enc = encodeURIComponent;
const onePage = () => 1;

function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== null && v !== undefined));
}

// ---------------------------------------------------------------- Connector

const CONNECTOR_A_PASSWORD = 'cf-connector-a-password-5e21c0';

const connector: ConformanceCase = {
  kind: 'Connector',
  deps: '',
  a: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: conf-a
spec:
  name: Conformance webhook A
  connector_type_id: .webhook
  config:
    url: https://hooks.example.com/conformance/a
    method: post
    hasAuth: true
  secrets:
    user: conformance
    password: \${env:CONFORMANCE_CONNECTOR_A_PASSWORD}
`,
  b: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: conf-b
spec:
  name: Conformance server log B
  connector_type_id: .server-log
`,
  s: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: keep-secret
spec:
  name: Conformance webhook with a key header
  connector_type_id: .webhook
  config:
    url: https://hooks.example.com/conformance/s
    headers:
      X-Api-Key: \${env:CONFORMANCE_SECRET_CONNECTOR}
    hasAuth: true
  secrets:
    user: conformance
    password: \${env:CONFORMANCE_SECRET_CONNECTOR}
`,
  secret: { env: 'CONFORMANCE_SECRET_CONNECTOR', pointer: '/spec/config/headers/X-Api-Key' },
  env: { CONFORMANCE_CONNECTOR_A_PASSWORD: CONNECTOR_A_PASSWORD },
  edit: {
    pointer: '/spec/name',
    value: 'Renamed by hand',
    async apply(emu) {
      const current = (await ok(call(emu, 'GET', '/api/actions/connector/conf-a'), 'read conf-a')).body;
      // A PUT replaces config and secrets whole: send them back as they are, only the name changes.
      await ok(
        call(emu, 'PUT', '/api/actions/connector/conf-a', { name: 'Renamed by hand', config: withoutNulls(current.config), secrets: { user: 'conformance', password: CONNECTOR_A_PASSWORD } }),
        'rename conf-a',
      );
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', '/api/actions/connector/conf-a'), 'read conf-a')).body.name;
    },
  },
  change: { pointer: '/spec/config/url', value: 'https://hooks.example.com/conformance/a-moved' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/actions/connector/${enc(name)}`), `delete connector ${name}`);
  },
  reads: { '/api/actions/connectors': onePage },
};

// ---------------------------------------------------------------- Rule

async function ruleByRuleId(emu: Emu, ruleId: string): Promise<any> {
  return (await ok(call(emu, 'GET', `/api/detection_engine/rules?rule_id=${enc(ruleId)}`), `read rule ${ruleId}`)).body;
}

const rule: ConformanceCase = {
  kind: 'Rule',
  deps: `apiVersion: svcform/v1
kind: Connector
metadata:
  name: dep-log
spec:
  name: Conformance rule notifications
  connector_type_id: .server-log
`,
  a: `apiVersion: svcform/v1
kind: Rule
metadata:
  name: conf-a
spec:
  type: query
  name: Conformance rule A
  description: Many failed logins from one source address
  severity: high
  risk_score: 73
  enabled: true
  index: [logs-system.auth-*]
  query: 'event.category:authentication and event.outcome:failure'
  tags: [conformance, 'Tactic: Credential Access']
  actions:
    - id: dep-log
      group: default
      params:
        message: 'Rule {{context.rule.name}} fired'
`,
  b: `apiVersion: svcform/v1
kind: Rule
metadata:
  name: conf-b
spec:
  type: eql
  language: eql
  name: Conformance rule B
  description: A file written to /tmp was executed
  severity: medium
  risk_score: 47
  index: [logs-endpoint.events.*]
  query: 'process where process.executable : "/tmp/*"'
  tags: [conformance]
`,
  s: `apiVersion: svcform/v1
kind: Rule
metadata:
  name: keep-secret
spec:
  type: query
  name: Conformance rule S
  description: 'Escalate with the code \${env:CONFORMANCE_SECRET_RULE}'
  severity: low
  risk_score: 21
  index: [logs-*]
  query: 'event.outcome:failure'
`,
  secret: { env: 'CONFORMANCE_SECRET_RULE', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/severity',
    value: 'critical',
    async apply(emu) {
      await ok(call(emu, 'PATCH', '/api/detection_engine/rules', { rule_id: 'conf-a', severity: 'critical' }), 'patch conf-a');
    },
    async read(emu) {
      return (await ruleByRuleId(emu, 'conf-a')).severity;
    },
  },
  change: { pointer: '/spec/description', value: 'Many failed logins from one source address (tuned)' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/detection_engine/rules?rule_id=${enc(name)}`), `delete rule ${name}`);
  },
  reads: { '/api/detection_engine/rules/_find': onePage },
};

// ---------------------------------------------------------------- ValueList

const valueList: ConformanceCase = {
  kind: 'ValueList',
  deps: '',
  a: `apiVersion: svcform/v1
kind: ValueList
metadata:
  name: conf-a
spec:
  name: Conformance list A
  description: Domains seen in incidents
  type: keyword
  items: [bad-one.example, bad-two.example, bad-three.example]
`,
  b: `apiVersion: svcform/v1
kind: ValueList
metadata:
  name: conf-b
spec:
  name: Conformance list B
  description: Addresses blocked at the perimeter
  type: ip
  items: [192.0.2.14, 198.51.100.23]
`,
  s: `apiVersion: svcform/v1
kind: ValueList
metadata:
  name: keep-secret
spec:
  name: Conformance list S
  description: 'Ask for access with the code \${env:CONFORMANCE_SECRET_VALUELIST}'
  type: keyword
  items: [svc-account]
`,
  secret: { env: 'CONFORMANCE_SECRET_VALUELIST', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const current = (await ok(call(emu, 'GET', '/api/lists?id=conf-a'), 'read conf-a')).body;
      // A PATCH without `version` bumps it; keep it so that exactly one field changes.
      await ok(call(emu, 'PATCH', '/api/lists', { id: 'conf-a', description: 'Edited by hand', version: current.version }), 'patch conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', '/api/lists?id=conf-a'), 'read conf-a')).body.description;
    },
  },
  change: { pointer: '/spec/name', value: 'Conformance list A (renamed)' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/lists?id=${enc(name)}`), `delete list ${name}`);
  },
  reads: {
    '/api/lists/_find': onePage,
    '/api/lists/index': onePage, // whether the list data streams exist
    '/api/lists/items/_find': (n) => n, // one per list, each a page of up to 10,000 values
  },
};

// ---------------------------------------------------------------- AgentPolicy

const agentPolicy: ConformanceCase = {
  kind: 'AgentPolicy',
  deps: '',
  a: `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: conf-a
spec:
  name: Conformance agents A
  namespace: conformance
  description: Linux servers of the conformance suite
  monitoring_enabled: [logs, metrics]
  inactivity_timeout: 3600
  global_data_tags:
    - {name: environment, value: test}
`,
  b: `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: conf-b
spec:
  name: Conformance agents B
  namespace: conformance
`,
  s: `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: keep-secret
spec:
  name: Conformance agents S
  namespace: conformance
  description: 'Enrol with the code \${env:CONFORMANCE_SECRET_AGENTPOLICY}'
`,
  secret: { env: 'CONFORMANCE_SECRET_AGENTPOLICY', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const { item } = (await ok(call(emu, 'GET', '/api/fleet/agent_policies/conf-a'), 'read conf-a')).body;
      // The PUT merges, except inactivity_timeout, which falls back to its default when omitted.
      await ok(
        call(emu, 'PUT', '/api/fleet/agent_policies/conf-a', { name: item.name, namespace: item.namespace, description: 'Edited by hand', inactivity_timeout: item.inactivity_timeout }),
        'update conf-a',
      );
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', '/api/fleet/agent_policies/conf-a'), 'read conf-a')).body.item.description;
    },
  },
  change: { pointer: '/spec/inactivity_timeout', value: 7200 },
  async remove(emu, name) {
    await ok(call(emu, 'POST', '/api/fleet/agent_policies/delete', { agentPolicyId: name }), `delete agent policy ${name}`);
  },
  reads: { '/api/fleet/agent_policies': onePage },
};

// ---------------------------------------------------------------- PackagePolicy

/** The body fields a simplified PUT takes, from a simplified GET. */
function packagePolicyWrite(item: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { name: item.name, namespace: item.namespace ?? '', policy_ids: item.policy_ids, package: { name: item.package.name, version: item.package.version } };
  if (item.description !== undefined) out.description = item.description;
  if (item.vars !== undefined) out.vars = item.vars;
  if (item.inputs !== undefined) out.inputs = item.inputs;
  return out;
}

const AGENTS_DEP = `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: dep-agents
spec:
  name: Conformance dependency agents
  namespace: conformance
`;

const packagePolicy: ConformanceCase = {
  kind: 'PackagePolicy',
  deps: AGENTS_DEP,
  a: `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: conf-a
spec:
  name: conformance-system-a
  description: Auth log and syslog of the conformance hosts
  policy_ids: [dep-agents]
  package: {name: system, version: 1.60.0}
  inputs:
    system-logfile:
      enabled: true
      streams:
        system.auth:
          enabled: true
          vars:
            paths: [/var/log/auth.log*, /var/log/secure*]
    system-system/metrics:
      enabled: false
`,
  b: `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: conf-b
spec:
  name: conformance-system-b
  policy_ids: [dep-agents]
  package: {name: system, version: 1.60.0}
`,
  s: `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: keep-secret
spec:
  name: conformance-system-s
  description: 'Owner code \${env:CONFORMANCE_SECRET_PACKAGEPOLICY}'
  policy_ids: [dep-agents]
  package: {name: system, version: 1.60.0}
`,
  secret: { env: 'CONFORMANCE_SECRET_PACKAGEPOLICY', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const { item } = (await ok(call(emu, 'GET', '/api/fleet/package_policies/conf-a?format=simplified'), 'read conf-a')).body;
      await ok(call(emu, 'PUT', '/api/fleet/package_policies/conf-a?format=simplified', { ...packagePolicyWrite(item), description: 'Edited by hand' }), 'update conf-a');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', '/api/fleet/package_policies/conf-a?format=simplified'), 'read conf-a')).body.item.description;
    },
  },
  change: { pointer: '/spec/name', value: 'conformance-system-a-renamed' },
  async remove(emu, name) {
    await ok(call(emu, 'DELETE', `/api/fleet/package_policies/${enc(name)}`), `delete package policy ${name}`);
  },
  reads: {
    '/api/fleet/package_policies': onePage,
    // The package description, once per distinct package version (system 1.60.0 only here).
    '/api/fleet/epm/packages/:pkgName/:pkgVersion': onePage,
  },
};

// ---------------------------------------------------------------- HostQuerySavedQuery

async function savedQueryById(emu: Emu, id: string): Promise<any> {
  const { data } = (await ok(call(emu, 'GET', '/api/hostquery/saved_queries?pageSize=1000'), 'list saved queries')).body;
  const found = data.find((q: any) => q.id === id);
  assert.ok(found, `saved query ${id} is on the server`);
  return found;
}

const savedQuery: ConformanceCase = {
  kind: 'HostQuerySavedQuery',
  deps: '',
  a: `apiVersion: svcform/v1
kind: HostQuerySavedQuery
metadata:
  name: conf-a
spec:
  description: Interactive sessions on the host
  query: SELECT type, user, tty, host, time, pid FROM logged_in_users;
  interval: 3600
  platform: linux,darwin
  ecs_mapping:
    user.name: {field: user}
`,
  b: `apiVersion: svcform/v1
kind: HostQuerySavedQuery
metadata:
  name: conf-b
spec:
  query: SELECT pid, port, protocol, address FROM listening_ports;
  interval: '600'
`,
  s: `apiVersion: svcform/v1
kind: HostQuerySavedQuery
metadata:
  name: keep-secret
spec:
  description: 'Run with the ticket \${env:CONFORMANCE_SECRET_HOSTQUERYSAVEDQUERY}'
  query: SELECT * FROM users;
  interval: 86400
`,
  secret: { env: 'CONFORMANCE_SECRET_HOSTQUERYSAVEDQUERY', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const q = await savedQueryById(emu, 'conf-a');
      const body: Record<string, any> = { new_id: q.id, query: q.query, interval: q.interval, description: 'Edited by hand', snapshot: q.snapshot, removed: q.removed };
      for (const k of ['platform', 'version', 'timeout', 'ecs_mapping']) if (q[k] !== undefined) body[k] = q[k];
      await ok(call(emu, 'PUT', `/api/hostquery/saved_queries/${enc(q.saved_object_id)}`, body), 'update conf-a');
    },
    async read(emu) {
      return (await savedQueryById(emu, 'conf-a')).description;
    },
  },
  change: { pointer: '/spec/interval', value: 7200 },
  async remove(emu, name) {
    const q = await savedQueryById(emu, name);
    await ok(call(emu, 'DELETE', `/api/hostquery/saved_queries/${enc(q.saved_object_id)}`), `delete saved query ${name}`);
  },
  reads: { '/api/hostquery/saved_queries': onePage },
};

// ---------------------------------------------------------------- HostQueryPack

async function packByName(emu: Emu, name: string): Promise<any> {
  const { data } = (await ok(call(emu, 'GET', '/api/hostquery/packs?pageSize=1000'), 'list packs')).body;
  const found = data.find((p: any) => p.name === name);
  assert.ok(found, `pack ${name} is on the server`);
  return found;
}

const pack: ConformanceCase = {
  kind: 'HostQueryPack',
  deps: `${AGENTS_DEP}---
apiVersion: svcform/v1
kind: HostQuerySavedQuery
metadata:
  name: dep-users
spec:
  description: Local user accounts
  query: SELECT * FROM users;
  interval: 3600
`,
  a: `apiVersion: svcform/v1
kind: HostQueryPack
metadata:
  name: conf-a
spec:
  description: Incident response snapshot
  enabled: true
  policy_ids: [dep-agents]
  shards:
    dep-agents: 50
  queries:
    users:
      saved_query_id: dep-users
      query: SELECT * FROM users;
      interval: 3600
      platform: linux
    ports:
      query: SELECT pid, port, protocol, address FROM listening_ports;
      interval: 600
      snapshot: true
      ecs_mapping:
        server.port: {field: port}
`,
  b: `apiVersion: svcform/v1
kind: HostQueryPack
metadata:
  name: conf-b
spec:
  queries:
    uptime:
      query: SELECT * FROM uptime;
      interval: 300
`,
  s: `apiVersion: svcform/v1
kind: HostQueryPack
metadata:
  name: keep-secret
spec:
  description: 'Owner code \${env:CONFORMANCE_SECRET_HOSTQUERYPACK}'
  policy_ids: [dep-agents]
  queries:
    crontab:
      query: SELECT * FROM crontab;
      interval: 86400
`,
  secret: { env: 'CONFORMANCE_SECRET_HOSTQUERYPACK', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/description',
    value: 'Edited by hand',
    async apply(emu) {
      const p = await packByName(emu, 'conf-a');
      // PUT: omitted fields may reset, so everything goes back as it was except the description.
      const body = { name: p.name, description: 'Edited by hand', enabled: p.enabled, policy_ids: p.policy_ids, shards: p.shards, queries: p.queries };
      await ok(call(emu, 'PUT', `/api/hostquery/packs/${enc(p.saved_object_id)}`, body), 'update conf-a');
    },
    async read(emu) {
      return (await packByName(emu, 'conf-a')).description;
    },
  },
  change: { pointer: '/spec/enabled', value: false },
  async remove(emu, name) {
    const p = await packByName(emu, name);
    await ok(call(emu, 'DELETE', `/api/hostquery/packs/${enc(p.saved_object_id)}`), `delete pack ${name}`);
  },
  reads: { '/api/hostquery/packs': onePage },
};

// ---------------------------------------------------------------- MaintenanceWindow

async function windowByTitle(emu: Emu, title: string): Promise<any> {
  const { maintenanceWindows } = (await ok(call(emu, 'GET', '/api/maintenance_window/_find?per_page=100'), 'find windows')).body;
  const found = maintenanceWindows.find((w: any) => w.title === title);
  assert.ok(found, `window ${title} is on the server`);
  return found;
}

const maintenanceWindow: ConformanceCase = {
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

/** Every case, by kind. */
export const CASES: Record<string, ConformanceCase> = Object.fromEntries(
  [connector, rule, valueList, agentPolicy, packagePolicy, savedQuery, pack, maintenanceWindow].map((c) => [c.kind, c]),
);
