import assert from 'node:assert/strict';
import { call, multipartForm, postFile } from '@svcform/emulator/testing.js';

/**
 * Objects of every kind made directly through the API (not through svcform), for the export tests:
 * export must write them as manifests that validate and plan with nothing to change.
 */

export const SECRETS = {
  chatWebhook: 'https://chat.example.com/hooks/T0SECRET-chat-4f1d9a',
  webhookPassword: 'webhook-SECRET-pw-83b1c2',
  webhookUser: 'svc-SECRET-user-5c0e',
  genAiKey: 'sk-SECRET-genai-77aa01bb',
};

export async function ok(res: Promise<{ status: number; text: string }>, what: string): Promise<void> {
  const r = await res;
  assert.ok(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
}

/** A query rule that mails the chat connector, as a team would make it in the UI. */
export const SSH_BRUTE_FORCE = {
  rule_id: 'ssh-brute-force',
  type: 'query',
  name: 'SSH brute force',
  description: 'Many failed SSH logins from one source',
  severity: 'high',
  risk_score: 73,
  enabled: true,
  interval: '10m',
  index: ['logs-system.auth-*'],
  query: 'event.category:authentication and event.outcome:failure',
  actions: [{ id: 'soc-chat', group: 'default', action_type_id: '.chat', params: { message: 'Rule {{context.rule.name}} fired' } }],
};

export const BIG_LIST_VALUES = Array.from({ length: 1500 }, (_, i) => `host-${String(i).padStart(4, '0')}.bad.example`);

/** Objects of every kind, created directly through the API (not through svcform). */
export async function seedEveryKind(emu: { url: string }, prefix = '/'): Promise<void> {
  const p = prefix === '/' ? '' : prefix;
  await ok(call(emu, 'POST', `${p}/api/actions/connector/soc-chat`, { name: 'SOC chat', connector_type_id: '.chat', secrets: { webhookUrl: SECRETS.chatWebhook } }), 'chat connector');
  const webhook = { url: 'https://paging.example.com/hook', method: 'put', hasAuth: true };
  await ok(call(emu, 'POST', `${p}/api/actions/connector/soc-webhook`, { name: 'SOC paging webhook', connector_type_id: '.webhook', config: webhook, secrets: { user: SECRETS.webhookUser, password: SECRETS.webhookPassword } }), 'webhook');
  const genAi = { apiProvider: 'OpenAI', apiUrl: 'https://llm.example.com/v1/chat/completions', defaultModel: 'gpt-4o' };
  await ok(call(emu, 'POST', `${p}/api/actions/connector/soc-genai`, { name: 'Assistant', connector_type_id: '.gen-ai', config: genAi, secrets: { apiKey: SECRETS.genAiKey } }), 'gen-ai');
  await ok(call(emu, 'POST', `${p}/api/actions/connector/soc-log`, { name: 'Server log', connector_type_id: '.server-log' }), 'server-log connector');

  const rules = [
    {
      ...SSH_BRUTE_FORCE,
      tags: ['team:soc', 'Tactic: Credential Access'],
      // A literal ${...} in live text must come back unchanged, not be read as a variable.
      note: '## Triage\n\nCheck ${source.ip} against the VPN ranges; $${ stays literal too.\n',
      threat: [{ framework: 'MITRE ATT&CK', tactic: { id: 'TA0006', name: 'Credential Access', reference: 'https://attack.mitre.org/tactics/TA0006/' } }],
    },
    {
      rule_id: 'tmp-exec',
      type: 'eql',
      language: 'eql',
      name: 'Execution from /tmp',
      description: 'A file written to /tmp was executed',
      severity: 'medium',
      risk_score: 47,
      index: ['logs-endpoint.events.*'],
      query: 'process where process.executable : "/tmp/*"',
      actions: [{ id: 'soc-webhook', group: 'default', action_type_id: '.webhook', params: { body: '{"rule": "{{rule.name}}"}' } }],
    },
    {
      rule_id: 'failed-logins-threshold',
      type: 'threshold',
      name: 'Failed logins from one source',
      description: 'More than 50 failures in the window',
      severity: 'critical',
      risk_score: 90,
      index: ['logs-*'],
      query: 'event.outcome:failure',
      threshold: { field: ['source.ip'], value: 50 },
    },
    {
      rule_id: 'new-admin-user',
      type: 'new_terms',
      name: 'First admin login of a user',
      description: 'A user logged in as an administrator for the first time',
      severity: 'low',
      risk_score: 21,
      index: ['logs-*'],
      query: 'user.roles:admin',
      new_terms_fields: ['user.name'],
      history_window_start: 'now-14d',
    },
  ];
  // A shared list the SSH rule links (export writes the link by list_id), and the agnostic trusted apps list.
  const shared = await call(emu, 'POST', `${p}/api/exception_lists`, { list_id: 'soc-allowlist', name: 'SOC allowlist', description: 'Known good sources', type: 'detection', tags: ['team:soc'] });
  assert.equal(shared.status, 200, shared.text);
  const scanner = { list_id: 'soc-allowlist', item_id: 'scanner', type: 'simple', name: 'Scanner', description: 'Weekly scan', entries: [{ field: 'source.ip', type: 'match', operator: 'included', value: '10.0.0.5' }], comments: [{ comment: 'Change 4711' }] };
  await ok(call(emu, 'POST', `${p}/api/exception_lists/items`, scanner), 'exception item');
  (rules[0] as Record<string, unknown>).exceptions_list = [{ id: shared.body.id, list_id: 'soc-allowlist', type: 'detection', namespace_type: 'single' }];
  if (p === '') {
    await ok(call(emu, 'POST', '/api/exception_lists', { list_id: 'endpoint_trusted_apps', name: 'Trusted applications', description: 'Endpoint trusted applications', type: 'endpoint_trusted_apps', namespace_type: 'agnostic' }), 'trusted apps list');
    const app = { list_id: 'endpoint_trusted_apps', namespace_type: 'agnostic', item_id: 'backup-agent', type: 'simple', name: 'Backup agent', description: '', os_types: ['linux'], entries: [{ field: 'process.executable.caseless', type: 'match', operator: 'included', value: '/opt/backup/bin/agent' }] };
    await ok(call(emu, 'POST', '/api/exception_lists/items', app), 'trusted app');
  }
  for (const rule of rules) {
    const created = await call(emu, 'POST', `${p}/api/detection_engine/rules`, rule);
    assert.equal(created.status, 200, `rule ${rule.rule_id}: ${created.text}`);
    // The /tmp rule gets a default exception list of its own (created by the route).
    if (rule.rule_id === 'tmp-exec') {
      const own = { item_id: 'tmp-builds', type: 'simple', name: 'Build output', description: 'CI builds run from /tmp', entries: [{ field: 'host.name', type: 'wildcard', operator: 'included', value: 'ci-*' }] };
      await ok(call(emu, 'POST', `${p}/api/detection_engine/rules/${created.body.id}/exceptions`, { items: [own] }), 'rule default exceptions');
    }
  }

  await ok(call(emu, 'POST', `${p}/api/lists/index`), 'list data streams');
  await ok(call(emu, 'POST', `${p}/api/lists`, { id: 'blocked-ips', name: 'Blocked IPs', description: 'Blocked at the perimeter', type: 'ip' }), 'small list');
  await ok(postFile(emu, `${p}/api/lists/items/_import?list_id=blocked-ips`, '192.0.2.14\n198.51.100.23\n203.0.113.5\n', 'ips.txt'), 'small list items');
  await ok(call(emu, 'POST', `${p}/api/lists`, { id: 'bad-domains', name: 'Bad domains', description: 'Domains seen in incidents', type: 'keyword' }), 'big list');
  await ok(postFile(emu, `${p}/api/lists/items/_import?list_id=bad-domains`, BIG_LIST_VALUES.join('\n') + '\n', 'domains.txt'), 'big list items');

  await ok(call(emu, 'POST', `${p}/api/fleet/agent_policies`, { id: 'soc-linux', name: 'SOC Linux', namespace: 'soc', description: 'Linux servers', inactivity_timeout: 3600 }), 'agent policy');
  await ok(
    call(emu, 'POST', `${p}/api/fleet/package_policies?format=simplified`, {
      id: 'soc-system',
      name: 'soc-system',
      namespace: 'soc',
      package: { name: 'system', version: '1.60.0' },
      policy_ids: ['soc-linux'],
      inputs: { 'system-winlog': { enabled: false }, 'system-system/metrics': { streams: { 'system.cpu': { vars: { 'cpu.metrics': ['percentages'] } } } } },
    }),
    'package policy',
  );
  await ok(call(emu, 'POST', `${p}/api/endpoint/protection_updates_note/soc-system`, { note: 'Updates follow the latest release.' }), 'protection-updates note');
  await ok(call(emu, 'POST', `${p}/api/hostquery/saved_queries`, { id: 'users-query', query: 'SELECT * FROM users;', interval: '3600', description: 'Local users', platform: 'linux,darwin' }), 'saved query');
  const queries = { users: { query: 'SELECT * FROM users;', interval: 3600, saved_query_id: 'users-query' }, ports: { query: 'SELECT * FROM listening_ports;', interval: 600, snapshot: true } };
  await ok(call(emu, 'POST', `${p}/api/hostquery/packs`, { name: 'incident-response', description: 'Collected during an incident', enabled: true, policy_ids: ['soc-linux'], queries }), 'pack');
  const weekly = { start: '2030-01-05T22:00:00.000Z', duration: '4h', timezone: 'Europe/Paris', recurring: { every: '1w', onWeekDay: ['SA'] } };
  await ok(call(emu, 'POST', `${p}/api/maintenance_window`, { title: 'Weekly patching', schedule: { custom: weekly }, scope: { alerting: { query: { kql: 'tags: "noisy-during-patching"' } } } }), 'recurring window');
  await ok(call(emu, 'POST', `${p}/api/maintenance_window`, { title: 'Datacenter migration', enabled: false, schedule: { custom: { start: '2030-03-01T08:00:00.000Z', duration: '1d' } } }), 'one-off window');
  await ok(call(emu, 'PUT', `${p}/api/uptime/settings`, { certAgeThreshold: 365, defaultConnectors: ['soc-chat'], defaultEmail: { to: ['soc@example.com'] } }), 'uptime settings');
  const tier = { key: 'tier', label: 'Analyst tier', type: 'text', required: false, defaultValue: 'T1' };
  const none = { id: 'none', name: 'none', type: '.none', fields: null };
  await ok(call(emu, 'POST', `${p}/api/cases/configure`, { owner: 'securitySolution', closure_type: 'close-by-pushing', connector: none, customFields: [tier] }), 'case configuration');
  await seedAiAndSavedObjects(emu, p);
  await seedAssetCriticality(emu, p);
  await seedWatchlists(emu, p);
  await seedEndpointAndAgentless(emu, p);
}

/** Agent builder, attack discovery and saved objects (issue 14), through their own routes. */
async function seedAiAndSavedObjects(emu: { url: string }, p: string): Promise<void> {
  const byHost = { query: 'FROM logs-* | WHERE host.name == ?host | LIMIT 20', params: { host: { type: 'string', description: 'Host name' } } };
  await ok(call(emu, 'POST', `${p}/api/agent_builder/tools`, { id: 'soc.by_host', type: 'qlang', description: 'Events of a host', tags: ['soc'], configuration: byHost }), 'qlang tool');
  await ok(call(emu, 'POST', `${p}/api/agent_builder/tools`, { id: 'soc.runbooks', type: 'index_search', configuration: { pattern: 'runbooks', row_limit: 3 } }), 'index_search tool');
  const wf = 'name: Enrich a host\nenabled: true\ntriggers:\n  - type: manual\nsteps:\n  - name: say\n    type: console\n    with:\n      message: hi\n';
  await ok(call(emu, 'POST', `${p}/api/workflows/workflow`, { id: 'soc-enrich', yaml: wf }), 'workflow');
  await ok(call(emu, 'POST', `${p}/api/agent_builder/skills`, { id: 'soc-escalation', name: 'soc-escalation', description: 'When to page', content: 'Page on a critical alert.', referenced_content: [{ name: 'pager', relativePath: './runbooks', content: 'Use the pager.' }], tool_ids: ['soc.by_host'] }), 'skill');
  const hunting = await call(emu, 'POST', `${p}/api/agent_builder/plugins/install`, { url: 'https://github.com/svcform/agent-plugins/tree/main/plugins/threat-hunting', plugin_name: 'soc-hunting' });
  await ok(Promise.resolve(hunting), 'plugin');
  const triage = { instructions: 'Be brief.', tools: [{ tool_ids: ['soc.by_host', 'soc.runbooks', 'platform.core.search'] }], skill_ids: ['soc-escalation'], workflow_ids: ['soc-enrich'], plugin_ids: [hunting.body.id] };
  await ok(call(emu, 'POST', `${p}/api/agent_builder/agents`, { id: 'soc-triage', name: 'Triage', description: 'Triage help', labels: ['soc'], configuration: triage }), 'agent');
  const params = { alerts_index_pattern: '.alerts-security.alerts-default', api_config: { connectorId: 'soc-genai', actionTypeId: '.gen-ai', name: 'Assistant' }, size: 100, start: 'now-24h', end: 'now' };
  await ok(call(emu, 'POST', `${p}/api/attack_discovery/schedules`, { name: 'Daily discovery', enabled: true, params, schedule: { interval: '24h' }, actions: [{ id: 'soc-chat', action_type_id: '.chat', group: 'default', params: { message: 'found' }, frequency: { summary: true, notify_when: 'onActiveAlert', throttle: null } }] }), 'schedule');
  await ok(call(emu, 'POST', `${p}/api/saved_objects/index-pattern/soc-web`, { attributes: { title: 'logs-web-*', timeFieldName: '@timestamp' } }), 'data view');
  // Spaces are of no space: one is made once, with the default space's objects.
  if (p === '') await ok(call(emu, 'POST', '/api/spaces/space', { id: 'soc-team', name: 'SOC team', description: 'Detection engineering', disabledFeatures: ['canvas'], solution: 'security', color: '#BD271E', initials: 'ST' }), 'space');
  await ok(call(emu, 'POST', `${p}/api/saved_objects/dashboard/soc-overview`, { attributes: { title: 'SOC overview', panelsJSON: '[]' }, references: [{ name: 'ref0', type: 'index-pattern', id: 'soc-web' }] }), 'dashboard');
}

/**
 * A script of the endpoint scripts library (multipart, as the app uploads it) and an agentless
 * policy: the emulators of the seeded tests run as a cloud deployment, which has them.
 */
async function seedEndpointAndAgentless(emu: { url: string }, p: string): Promise<void> {
  const fields = { name: 'Collect uname', platform: ['linux', 'macos'], fileType: 'script', tags: ['dataCollection'], description: 'Kernel and uptime' };
  await ok(call(emu, 'POST', `${p}/api/endpoint/scripts_library`, undefined, { raw: multipartForm(fields, { content: `#!/bin/sh\nuname -a # ${p || 'default'}\nuptime\n`, filename: 'uname.sh' }) }), 'endpoint script');
  const okta = { id: 'soc-okta', name: 'soc-okta', description: 'Okta system log', package: { name: 'okta', version: '3.1.0' }, inputs: { 'okta-httpjson': { vars: { okta_domain: 'corp.okta.com' } } } };
  await ok(call(emu, 'POST', `${p}/api/fleet/agentless_policies?format=simplified`, okta), 'agentless policy');
}

/** Criticality records of two id_fields, as a person sets them in the app. */
async function seedAssetCriticality(emu: { url: string }, p: string): Promise<void> {
  const records = [
    { id_field: 'host.name', id_value: 'dc01.corp.example', criticality_level: 'extreme_impact' },
    { id_field: 'host.name', id_value: 'kiosk-7', criticality_level: 'low_impact' },
    { id_field: 'user.name', id_value: 'svc-backup', criticality_level: 'high_impact' },
  ];
  await ok(call(emu, 'POST', `${p}/api/asset_criticality/bulk`, { records }), 'asset criticality records');
}

/** The entity store (hosts and users, a slower cadence) and a watchlist with two members, as a person sets them in the app. */
async function seedWatchlists(emu: { url: string }, p: string): Promise<void> {
  await ok(call(emu, 'POST', `${p}/api/security/entity_store/install`, { entityTypes: ['host', 'user'], logExtraction: { frequency: '2m' } }), 'entity store');
  const made = await call(emu, 'POST', `${p}/api/entity_analytics/watchlists`, { name: 'Payroll access', description: 'Accounts that can change payroll', riskModifier: 1.5 });
  await ok(Promise.resolve(made), 'watchlist');
  await ok(call(emu, 'POST', `${p}/api/entity_analytics/watchlists/${made.body.id}/entities/assign`, { euids: ['user:alice', 'host:build-01'] }), 'watchlist members');
  // Privileged user monitoring started, with two users added one by one in the app.
  await ok(call(emu, 'POST', `${p}/api/entity_analytics/monitoring/engine/init`), 'privileged user monitoring');
  for (const name of ['alice', 'svc-backup']) await ok(call(emu, 'POST', `${p}/api/entity_analytics/monitoring/users`, { user: { name } }), `monitored user ${name}`);
}

/** A timeline template and a set of prebuilt rules marked and customised as svcform would (after the package is installed). */
export async function seedDetectionContent(emu: { url: string }): Promise<void> {
  await ok(call(emu, 'POST', '/api/timeline', { timeline: { title: 'Process tree', timelineType: 'template', templateTimelineId: 'process-tree', kqlMode: 'filter', indexNames: ['logs-endpoint.events.process-*'] } }), 'timeline template');
  const install = { rule_ids: ['5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01'], tags: [] };
  const mark = { svcform_prebuilt: { set: 'endpoint', install, enable: { rule_ids: [], tags: [] }, customized: ['severity'] } };
  await ok(call(emu, 'PATCH', '/api/detection_engine/rules', { rule_id: install.rule_ids[0], severity: 'high', meta: mark }), 'customised prebuilt rule');
}

/**
 * Objects only as wide as the real routes allow (wire-facts §16): connectors of types beyond the
 * API document (one whose secret keys svcform knows, one whose it cannot), a webhook with a null
 * authType, a pack query without interval, an agent whose avatar was cleared with "", and a
 * `type: endpoint` exception list of its own in the single namespace.
 */
export async function seedRealRouteWidth(emu: { url: string }): Promise<void> {
  await ok(call(emu, 'POST', '/api/actions/connector/soc-paging', { name: 'SOC paging', connector_type_id: '.pagerduty', config: { apiUrl: 'https://events.paging.example.com/v2/enqueue' }, secrets: { routingKey: 'rk-SECRET-paging' } }), 'pagerduty connector');
  await ok(call(emu, 'POST', '/api/actions/connector/soc-tickets', { name: 'SOC tickets', connector_type_id: '.issue-tracker', config: { apiUrl: 'https://tickets.example.com' }, secrets: { token: 'tk-SECRET-tickets' } }), 'issue-tracker connector');
  await ok(call(emu, 'POST', '/api/actions/connector/soc-open-hook', { name: 'Open hook', connector_type_id: '.webhook', config: { url: 'https://hooks.example.com/services', hasAuth: false, authType: null } }), 'webhook without auth');
  await ok(call(emu, 'POST', '/api/hostquery/packs', { name: 'uptime-check', queries: { uptime: { query: 'SELECT * FROM uptime;' } } }), 'pack without interval');
  await ok(call(emu, 'POST', '/api/agent_builder/agents', { id: 'soc-plain', name: 'Plain', description: '', avatar_color: '', avatar_symbol: '', configuration: { tools: [] } }), 'agent without avatar');
  await ok(call(emu, 'POST', '/api/exception_lists', { list_id: 'soc-endpoint-exceptions', name: 'SOC endpoint exceptions', description: 'Ours', type: 'endpoint', namespace_type: 'single' }), 'endpoint-type list of its own');
}
