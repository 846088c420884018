import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadAndValidate } from '../../src/manifest/validate.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import type { LoggedRequest } from '@svcform/emulator/requestlog.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { KIND_CATALOG } from '../../src/kinds/registry.js';

const EXAMPLES = 'examples';

function tempCopyOfExamples(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-examples-'));
  cpSync(EXAMPLES, dir, { recursive: true });
  return dir;
}

async function requests(emu: RunningEmulator): Promise<LoggedRequest[]> {
  return emu.log.all();
}

const writes = (log: LoggedRequest[]) => log.filter((r) => r.method !== 'GET');

describe('apply then plan converges on the examples (no perpetual diff)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  // The plan of the empty server: which rules wait for which connectors.
  let firstPlan: { changes: Array<{ id: string; kind: string; action: string; wave: number; depends_on: string[] }> };

  it('apply creates everything, then plan --detailed-exitcode exits 0 with nothing to change', async () => {
    const initial = await cli(['plan', EXAMPLES, '--url', emu.url, '--json']);
    assert.equal(initial.code, 0, initial.err);
    firstPlan = JSON.parse(initial.out);
    const applied = await cli(['apply', EXAMPLES, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /Apply: \d+ done, 0 failed, 0 skipped\./);
    const planned = await cli(['plan', EXAMPLES, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete, \d+ unchanged/);
  });

  it('created every dependency before its dependents (request log order)', async () => {
    const log = writes(await requests(emu));
    const firstIndex = (pred: (r: LoggedRequest) => boolean) => log.findIndex(pred);
    const lastIndex = (pred: (r: LoggedRequest) => boolean) => log.length - 1 - [...log].reverse().findIndex(pred);
    const isConnectorCreate = (r: LoggedRequest) => r.method === 'POST' && r.path.startsWith('/api/actions/connector/');
    const isRuleCreate = (r: LoggedRequest) => r.method === 'POST' && r.path === '/api/detection_engine/rules';
    const isAgentPolicyCreate = (r: LoggedRequest) => r.method === 'POST' && r.path === '/api/fleet/agent_policies';
    const isPackagePolicyCreate = (r: LoggedRequest) => r.method === 'POST' && r.path === '/api/fleet/package_policies';
    const isPackCreate = (r: LoggedRequest) => r.method === 'POST' && r.path === '/api/hostquery/packs';
    const isSavedQueryCreate = (r: LoggedRequest) => r.method === 'POST' && r.path === '/api/hostquery/saved_queries';
    assert.ok(firstIndex(isConnectorCreate) >= 0 && firstIndex(isRuleCreate) >= 0);
    // Rules that name no connector may go first; those that do come after every connector they name.
    const ruleCreates = firstPlan.changes.filter((c) => c.kind === 'Rule' && c.action === 'create');
    const connectorsNamed = new Set(ruleCreates.flatMap((c) => c.depends_on.filter((d) => d.startsWith('Connector/')).map((d) => d.split('/')[2])));
    assert.ok(connectorsNamed.size > 0, 'the examples have rules that notify through connectors');
    const independentRules = ruleCreates.filter((c) => !c.depends_on.some((d) => d.startsWith('Connector/'))).length;
    const ruleCreateIndexes = log.flatMap((r, i) => (isRuleCreate(r) ? [i] : []));
    const lastNamedConnector = lastIndex((r) => isConnectorCreate(r) && connectorsNamed.has(decodeURIComponent(r.path.split('/').pop()!)));
    assert.ok(lastNamedConnector < ruleCreateIndexes[independentRules], 'every connector a rule names before the rules that name connectors');
    assert.ok(lastIndex(isAgentPolicyCreate) < firstIndex(isPackagePolicyCreate), 'agent policies before package policies');
    assert.ok(lastIndex(isAgentPolicyCreate) < firstIndex(isPackCreate), 'agent policies before packs');
    assert.ok(lastIndex(isSavedQueryCreate) < firstIndex(isPackCreate), 'saved queries before the pack that names one');
    const isPackageInstall = (r: LoggedRequest) => r.method === 'POST' && r.route === '/api/fleet/epm/packages/:pkgName/:pkgVersion';
    assert.ok(firstIndex(isPackageInstall) >= 0 && lastIndex(isPackageInstall) < firstIndex(isPackagePolicyCreate), 'integration packages before the package policies on them');
  });

  it('planning reads each (kind, space) with list endpoints only: no GET per object', async () => {
    emu.log.clear();
    const planned = await cli(['plan', EXAMPLES, '--url', emu.url]);
    assert.equal(planned.code, 0, planned.err);
    const log = await requests(emu);
    // The prebuilt review routes read over POST (review_rule_installation_route.ts, review_rule_upgrade_route.ts).
    const postReads = ['/internal/detection_engine/prebuilt_rules/installation/_review', '/internal/detection_engine/prebuilt_rules/upgrade/_review'];
    assert.deepEqual(log.filter((r) => r.method !== 'GET' && !(r.method === 'POST' && postReads.includes(r.route))), [], 'planning writes nothing');
    const counts: Record<string, number> = {};
    for (const r of log) counts[r.route] = (counts[r.route] ?? 0) + 1;
    // Package info is read once per distinct package version (the adapter caches it per process).
    const packageInfo = counts['/api/fleet/epm/packages/:pkgName/:pkgVersion'] ?? 0;
    delete counts['/api/fleet/epm/packages/:pkgName/:pkgVersion'];
    assert.ok(packageInfo <= 2, `package info read ${packageInfo} times for 2 package versions`);
    assert.deepEqual(counts, {
      '/api/spaces/space/:id': 2, // one per space: default, and whether soc-ir (declared by a Space) exists yet
      '/api/spaces/space': 1, // the Space objects, once per run
      '/api/actions/connectors': 2, // default and soc-ir
      '/api/actions/connector_types': 2, // what each space offers, checked against each connector_type_id
      '/api/detection_engine/rules/_find': 2, // rules, and the installed prebuilt rules for the PrebuiltRules set
      '/internal/detection_engine/prebuilt_rules/installation/_review': 1,
      '/internal/detection_engine/prebuilt_rules/upgrade/_review': 1,
      '/api/timelines': 1,
      '/api/asset_criticality/list': 1, // every record of the space in one page up to 1,000
      '/api/entity_analytics/watchlists/list': 1,
      '/api/security/entity_store/entities': 1, // every watchlist's members in one walk, 10,000 a page
      '/api/security/entity_store/status': 1,
      '/api/endpoint/scripts_library': 1, // the listing carries each file's hash: nothing downloaded
      '/api/entity_analytics/monitoring/privileges/health': 1,
      '/api/entity_analytics/monitoring/users/list': 1, // every monitored user in one search (the route has no pages)
      '/api/lists/_find': 1,
      '/api/lists/index': 1, // whether the list data streams exist (one request per space)
      '/api/lists/items/_find': 2, // one per value list, never one per item
      '/api/fleet/agent_policies': 1,
      '/api/fleet/package_policies': 1,
      '/api/fleet/epm/packages': 1,
      '/api/uptime/settings': 1,
      '/api/cases/configure': 1,
      '/api/hostquery/packs': 1,
      '/api/hostquery/saved_queries': 1,
      '/api/maintenance_window/_find': 1,
      '/api/agent_builder/tools': 1,
      '/api/agent_builder/agents': 1,
      '/api/agent_builder/skills': 1,
      '/api/agent_builder/skills/:id': 1, // the list has no content: one read per skill of the examples (1)
      '/api/workflows': 1,
      '/api/agent_builder/plugins': 1, // also what agents' plugin ids are read back as names from
      '/api/workflows/workflow/:id': 1, // the list has no YAML text: one read per workflow of the examples (1)
      '/api/attack_discovery/schedules/_find': 1,
      '/api/saved_objects/_find': 2, // SavedObject and DataView (the index-pattern objects)
      '/api/exception_lists/_find': 2, // the space's single lists, then the agnostic ones once per run
      '/api/exception_lists/items/_find': 1, // one per 50 lists, never one per list or item
      '/api/endpoint/protection_updates_note/:package_policy_id': 3, // the API lists no notes: one per package policy (3), from the policies' own listing
      '/api/fleet/outputs': 1, // outputs belong to no space: once per run
      '/api/security_ai_assistant/anonymization_fields/_find': 1,
    });
  });

  it('tears down in reverse order when the manifests are gone (manage scopes own everything)', async () => {
    emu.log.clear();
    const empty = mkdtempSync(join(tmpdir(), 'svcform-empty-'));
    const torn = await cli(['apply', empty, '--url', emu.url, '--config', join(EXAMPLES, 'svcform.yaml'), '--auto-approve']);
    assert.equal(torn.code, 0, torn.out + torn.err);
    assert.match(torn.out, /Plan: 0 to create, 0 to update, \d+ to delete/);
    const log = writes(await requests(emu));
    const idx = (pred: (r: LoggedRequest) => boolean, last = false) => (last ? log.length - 1 - [...log].reverse().findIndex(pred) : log.findIndex(pred));
    // Rules go in bulk (_bulk_action delete), one by one only when the bulk call leaves one.
    const ruleDelete = (r: LoggedRequest) => (r.method === 'DELETE' && r.path === '/api/detection_engine/rules') || (r.method === 'POST' && r.path === '/api/detection_engine/rules/_bulk_action');
    const connectorDelete = (r: LoggedRequest) => r.method === 'DELETE' && r.path.startsWith('/api/actions/connector/');
    const agentPolicyDelete = (r: LoggedRequest) => r.path === '/api/fleet/agent_policies/delete';
    const packagePolicyDelete = (r: LoggedRequest) => r.method === 'DELETE' && r.path.startsWith('/api/fleet/package_policies/');
    const packDelete = (r: LoggedRequest) => r.method === 'DELETE' && r.path.startsWith('/api/hostquery/packs/');
    assert.ok(idx(ruleDelete) >= 0 && idx(connectorDelete) >= 0);
    assert.ok(idx(ruleDelete, true) < idx(connectorDelete), 'rules deleted before connectors');
    assert.ok(idx(packagePolicyDelete) >= 0 && idx(agentPolicyDelete) >= 0);
    // Each agent policy after the package policies that name it (the waves follow references, so a
    // package policy that waits for its own note may go after another agent policy).
    const done = [...torn.out.matchAll(/✓ delete (\w+)\/(\S+) /g)].map((m) => `${m[1]}/${m[2]}`);
    for (const pp of resources.filter((r) => r.kind === 'PackagePolicy')) {
      for (const ap of pp.spec.policy_ids as string[]) assert.ok(done.indexOf(`PackagePolicy/${pp.name}`) < done.indexOf(`AgentPolicy/${ap}`), `PackagePolicy/${pp.name} before AgentPolicy/${ap}: ${done.join(', ')}`);
    }
    assert.ok(idx(packDelete, true) < idx(agentPolicyDelete), 'packs before agent policies');
    const again = await cli(['plan', empty, '--url', emu.url, '--config', join(EXAMPLES, 'svcform.yaml'), '--detailed-exitcode']);
    assert.equal(again.code, 0, again.out);
  });
});

const { resources } = await loadAndValidate([EXAMPLES], { kinds: KIND_CATALOG });

describe('drift: changes made outside Git', () => {
  let emu: RunningEmulator;
  const rule = resources.find((r) => r.kind === 'Rule')!;
  const connector = resources.find((r) => r.kind === 'Connector')!;
  const list = resources.find((r) => r.kind === 'ValueList' && Array.isArray(r.spec.items))!;
  const policy = resources.find((r) => r.kind === 'AgentPolicy')!;
  before(async () => {
    emu = await emulator();
    const applied = await cli(['apply', EXAMPLES, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
  });
  after(() => emu.stop());

  it('drift exits 2 and names each change; apply repairs; drift then exits 0', async () => {
    const severity = rule.spec.severity === 'critical' ? 'low' : 'critical';
    assert.equal((await call(emu, 'PATCH', '/api/detection_engine/rules', { rule_id: rule.name, severity })).status, 200);
    const current = (await call(emu, 'GET', `/api/actions/connector/${connector.name}`)).body;
    // The answer fills every unset config key with null (wire-facts 1.3); keys whose schema refuses
    // null must be left out of the PUT, as a client echoing the answer does (the TF provider drops them).
    const config = Object.fromEntries(Object.entries(current.config ?? {}).filter(([, v]) => v !== null));
    assert.equal((await call(emu, 'PUT', `/api/actions/connector/${connector.name}`, { name: 'renamed by hand', config, secrets: {} })).status, 200);
    const removed = list.spec.items[0];
    assert.equal((await call(emu, 'DELETE', `/api/lists/items?list_id=${encodeURIComponent(list.name)}&value=${encodeURIComponent(removed)}`)).status, 200);
    // Deleting an agent policy also deletes its package policies, so those must come back too.
    assert.equal((await call(emu, 'POST', '/api/fleet/agent_policies/delete', { agentPolicyId: policy.name, force: true })).status, 200);

    const drift = await cli(['drift', EXAMPLES, '--url', emu.url]);
    assert.equal(drift.code, 2, drift.out + drift.err);
    assert.match(drift.out, new RegExp(`update Rule/${rule.name} .*\\n.*spec.severity: "${severity}" -> "${rule.spec.severity}"`));
    assert.match(drift.out, new RegExp(`update Connector/${connector.name} .*\\n.*spec.name: "renamed by hand" -> "${connector.spec.name}"`));
    assert.match(drift.out, new RegExp(`update ValueList/${list.name}[^\\n]*\\n\\s+spec.items:\\n\\s+\\+ "${removed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
    assert.match(drift.out, new RegExp(`create AgentPolicy/${policy.name} `));

    const repaired = await cli(['apply', EXAMPLES, '--url', emu.url]);
    assert.equal(repaired.code, 0, repaired.out + repaired.err);
    const clean = await cli(['drift', EXAMPLES, '--url', emu.url]);
    assert.equal(clean.code, 0, clean.out + clean.err);
    assert.match(clean.out, /No drift/);
  });
});

describe('ownership', () => {
  let emu: RunningEmulator;
  let dir: string;
  beforeEach(async () => {
    emu = await emulator();
    dir = tempCopyOfExamples();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
  });
  afterEach(() => emu.stop());

  it('a deleted manifest deletes its object only inside a manage scope; foreign objects are never touched', async () => {
    // Objects made by hand: a rule without the managed tag and a connector outside the soc- prefix.
    const foreignRule = { rule_id: 'hand-made', name: 'Hand made', description: 'made in the UI', type: 'query', query: 'x:1', severity: 'low', risk_score: 1, tags: ['team:other'] };
    assert.equal((await call(emu, 'POST', '/api/detection_engine/rules', foreignRule)).status, 200);
    assert.equal((await call(emu, 'POST', '/api/actions/connector/ops-log', { name: 'ops log', connector_type_id: '.server-log' })).status, 200);
    const { resources } = await loadAndValidate([dir], { kinds: KIND_CATALOG });
    const managedRule = resources.find((r) => r.kind === 'Rule' && (r.spec.tags ?? []).includes('managed-by:svcform'))!;
    const unscopedRule = resources.find((r) => r.kind === 'Rule' && !(r.spec.tags ?? []).includes('managed-by:svcform'));
    const drop = (name: string) => {
      for (const r of resources.filter((x) => x.kind === 'Rule' && x.name === name)) {
        const file = resolve(r.source.file);
        const text = readFileSync(file, 'utf8');
        const docs = text.split(/^---$/m).filter((d) => !d.includes(`name: ${name}\n`));
        writeFileSync(file, docs.join('---'));
      }
    };
    drop(managedRule.name);
    if (unscopedRule) drop(unscopedRule.name);
    emu.log.clear();
    const plan = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(plan.code, 0, plan.out + plan.err);
    assert.match(plan.out, new RegExp(`delete Rule/${managedRule.name} `));
    if (unscopedRule) assert.doesNotMatch(plan.out, new RegExp(`delete Rule/${unscopedRule.name} `));
    assert.doesNotMatch(plan.out, /hand-made|ops-log/);
    assert.equal((await call(emu, 'GET', '/api/detection_engine/rules?rule_id=hand-made')).status, 200);
    assert.equal((await call(emu, 'GET', '/api/actions/connector/ops-log')).status, 200);
    const touched = emu.log.all().filter((r) => r.method !== 'GET' && (r.path.includes('ops-log') || r.query.includes('hand-made')));
    assert.deepEqual(touched, []);
  });

  it('without manage scopes nothing is deleted', async () => {
    const config = join(dir, 'svcform.yaml');
    writeFileSync(config, 'space: default\n');
    rmSync(join(dir, 'rules'), { recursive: true });
    const plan = await cli(['plan', dir, '--url', emu.url, '--config', config]);
    assert.equal(plan.code, 0, plan.err);
    assert.match(plan.out, /0 to delete/);
  });
});

describe('saved plans and partial failures', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('a saved plan is refused after a live change, and applied when nothing changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-saved-'));
    const planFile = join(dir, 'plan.json');
    const saved = await cli(['plan', EXAMPLES, '--url', emu.url, '--out', planFile]);
    assert.equal(saved.code, 0, saved.err);
    assert.ok(!readFileSync(planFile, 'utf8').includes(readFileSync(join(EXAMPLES, 'connectors/secrets/pagerduty-token.txt'), 'utf8').trim()), 'no secret in the saved plan');
    assert.equal((await call(emu, 'POST', '/api/actions/connector/made-meanwhile', { name: 'meanwhile', connector_type_id: '.server-log' })).status, 200);
    const refused = await cli(['apply', '--plan', planFile, '--url', emu.url]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /live state changed since the plan .*its changes are still the same, but objects they depend on or sit beside changed; nothing was applied/);
    assert.equal(emu.log.all().filter((r) => r.method === 'POST' && r.path === '/api/detection_engine/rules').length, 0, 'nothing was written');

    // One of the plan's own objects changed: the refusal names how the plan would now differ (issue 31).
    const first = JSON.parse(readFileSync(planFile, 'utf8')).plan.changes.find((c: any) => c.action === 'create' && c.kind === 'Connector');
    const made = await call(emu, 'POST', `/api/actions/connector/${first.name}`, { name: 'made by hand', connector_type_id: '.server-log' });
    assert.equal(made.status, 200, made.text);
    const named = await cli(['apply', '--plan', planFile, '--url', emu.url]);
    assert.equal(named.code, 1);
    assert.match(named.err, new RegExp(`the plan would differ: now update Connector/${first.name}.*no longer create Connector/${first.name}`));
    await call(emu, 'DELETE', `/api/actions/connector/${first.name}`);

    const fresh = await cli(['plan', EXAMPLES, '--url', emu.url, '--out', planFile]);
    assert.equal(fresh.code, 0);
    const applied = await cli(['apply', '--plan', planFile, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await cli(['plan', EXAMPLES, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('a partial failure loses and duplicates nothing, and a re-run converges', async () => {
    await call(emu, 'POST', '/__emulator/reset');
    // Every other rule create fails; one connector create is answered after the write happened and the connection dropped.
    await call(emu, 'PUT', '/__emulator/faults', {
      faults: [
        // Rule creates are safe to repeat (the rule_id is ours), so 500s are retried, and a create that
        // still fails is read back and tried again (3 x 5 attempts): enough 500s to exhaust a few creates.
        { method: 'POST', path: '^/api/detection_engine/rules$', status: 500, rate: 1, skip: 1, times: 60 },
        { method: 'POST', path: '^/api/actions/connector/soc-chat$', dropAfterServe: true, times: 1 },
      ],
    });
    const first = await cli(['apply', EXAMPLES, '--url', emu.url]);
    assert.equal(first.code, 1, first.out + first.err);
    assert.match(first.out, /Apply: \d+ done, [1-9]\d* failed, \d+ skipped\./);
    await call(emu, 'DELETE', '/__emulator/faults');
    const second = await cli(['apply', EXAMPLES, '--url', emu.url]);
    assert.equal(second.code, 0, second.out + second.err);
    assert.equal((await cli(['plan', EXAMPLES, '--url', emu.url, '--detailed-exitcode'])).code, 0);
    const { resources } = await loadAndValidate([EXAMPLES], { kinds: KIND_CATALOG });
    // Custom rules only: the example PrebuiltRules set installs the vendor's rules besides them.
    const rules = (await call(emu, 'GET', `/api/detection_engine/rules/_find?per_page=1000&filter=${encodeURIComponent('alert.attributes.params.immutable: false')}`)).body;
    assert.equal(rules.total, resources.filter((r) => r.kind === 'Rule').length, 'no rule lost or duplicated');
    // Apply leases (svcform-lease-N) are svcform's bookkeeping, not configuration.
    const connectors = (await call(emu, 'GET', '/api/actions/connectors')).body.filter((c: any) => !c.is_preconfigured && !c.is_system_action && !c.id.startsWith('svcform-lease-'));
    assert.equal(connectors.length, resources.filter((r) => r.kind === 'Connector' && r.space === 'default').length, 'no connector lost or duplicated');
  });
});

describe('target selection', () => {
  // Each refusal starts no emulator ("Target: embedded" is what opening it prints) and so writes nothing anywhere.
  const refusedBeforeAnyTarget = (run: { code: number; err: string }, pattern: RegExp) => {
    assert.equal(run.code, 1, run.err);
    assert.match(run.err, pattern);
    assert.doesNotMatch(run.err, /Target:/);
  };
  // A person at a terminal: stdin and stdout are terminals (the answers make stdin one).
  const atTerminal = { tty: true, answers: [] };

  it('refuses to fall back to the embedded emulator under CI=true, CI=1, and with no terminal', async () => {
    refusedBeforeAnyTarget(await cli(['plan', EXAMPLES], { CI: 'true' }, atTerminal), /no target configured and CI=true.*--url embedded/);
    refusedBeforeAnyTarget(await cli(['apply', EXAMPLES], { CI: '1' }, atTerminal), /no target configured and CI=1.*--url embedded/);
    // Jenkins, GitLab without CI, cron: stdin or stdout is not a terminal.
    refusedBeforeAnyTarget(await cli(['apply', EXAMPLES, '--auto-approve']), /no target configured and no terminal: set SVC_URL .*pass --url embedded/);
    refusedBeforeAnyTarget(await cli(['plan', EXAMPLES], {}, { tty: true }), /no target configured and no terminal/);
    refusedBeforeAnyTarget(await cli(['export', '--out', mkdtempSync(join(tmpdir(), 'svcform-export-'))]), /no target configured and no terminal/);
  });

  it('an empty --url, SVC_URL or url in svcform.yaml is an error, not the embedded emulator, even at a terminal', async () => {
    refusedBeforeAnyTarget(await cli(['apply', EXAMPLES, '--url', '', '--auto-approve'], {}, atTerminal), /^error: --url is empty \(an unset variable\?\): give the server URL, or --url embedded/m);
    refusedBeforeAnyTarget(await cli(['plan', EXAMPLES], { SVC_URL: '' }, atTerminal), /SVC_URL is empty/);
    refusedBeforeAnyTarget(await cli(['drift', EXAMPLES], { SVC_URL: ' ' }, atTerminal), /SVC_URL is empty/);
    const dir = mkdtempSync(join(tmpdir(), 'svcform-empty-url-'));
    writeFileSync(join(dir, 'svcform.yaml'), 'url: ""\n');
    refusedBeforeAnyTarget(await cli(['plan', EXAMPLES, '--config', join(dir, 'svcform.yaml')], {}, atTerminal), /url in .*svcform\.yaml is empty/);
  });

  it('fails with the space-not-found error naming the space', async () => {
    const emu = await emulator();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'svcform-space-'));
      writeFileSync(join(dir, 'c.yaml'), 'apiVersion: svcform/v1\nkind: Connector\nmetadata: {name: log, space: nowhere}\nspec: {name: log, connector_type_id: .server-log}\n');
      const run = await cli(['plan', dir, '--url', emu.url]);
      assert.equal(run.code, 1);
      assert.match(run.err, /nowhere/);
      // plan may read the default space while the manifests load (cli/read-ahead.ts); the missing
      // space is never read, and nothing is written.
      assert.equal(emu.log.all().filter((r) => r.path.startsWith('/s/nowhere/')).length, 0, 'nothing was read in the missing space');
      assert.equal(emu.log.all().filter((r) => r.method !== 'GET').length, 0, 'nothing was written');
    } finally {
      await emu.stop();
    }
  });
});

describe('apply output', () => {
  const connectors = (n: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-output-'));
    const docs = Array.from({ length: n }, (_, i) => `apiVersion: svcform/v1\nkind: Connector\nmetadata: {name: c-${i}}\nspec: {name: log ${i}, connector_type_id: .server-log}\n`);
    writeFileSync(join(dir, 'connectors.yaml'), docs.join('---\n'));
    return dir;
  };

  it('on a terminal, a long run reports progress every tenth and still prints each failure', async () => {
    const emu = await emulator();
    try {
      await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/actions/connector/c-7$', status: 400 }] });
      const run = await cli(['apply', connectors(50), '--url', emu.url, '--no-color'], {}, { tty: true });
      assert.equal(run.code, 1);
      const progress = run.err.split('\n').filter((l) => l.startsWith('['));
      assert.equal(progress.length, 10, run.err);
      assert.match(progress[progress.length - 1], /^\[#{30}\] 50\/50 changes$/);
      assert.ok(!run.err.includes('\x1b') && !run.out.includes('\x1b'), 'no cursor movement or colour codes');
      assert.doesNotMatch(run.out, /✓ create Connector/, 'done changes are summarized by the progress lines');
      assert.match(run.out, /✗ create Connector\/c-7 \(space default\): POST \/api\/actions\/connector\/c-7 -> 400/);
      assert.match(run.out, /Apply: 49 done, 1 failed, 0 skipped\./);
    } finally {
      await emu.stop();
    }
  });

  it('--json prints the results and the plan they came from', async () => {
    const emu = await emulator();
    try {
      const run = await cli(['apply', connectors(3), '--url', emu.url, '--json']);
      assert.equal(run.code, 0, run.err);
      const out = JSON.parse(run.out);
      assert.deepEqual(out.summary, { done: 3, failed: 0, skipped: 0 });
      assert.deepEqual(out.results.map((r: any) => `${r.outcome} ${r.action} ${r.name}`).sort(), ['done create c-0', 'done create c-1', 'done create c-2']);
      assert.equal(out.plan.format_version, 2);
      // The two unmanaged objects are the space's built-in preconfigured and system connectors.
      assert.deepEqual(out.plan.summary, { create: 3, update: 0, delete: 0, unchanged: 0, unmanaged: 2 });
    } finally {
      await emu.stop();
    }
  });
});
