import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * References to objects managed elsewhere. The real server does not check on write that a rule's
 * data_view_id, timeline_id, exceptions_list[].list_id or a response action's saved_query_id name
 * objects it holds (wire-facts §16 #8): a plan warns and applies. It refuses a rule action naming
 * a connector it does not hold (alerting validate_actions, "Invalid connectors"): a plan error.
 * svcform.yaml `references: {missing: error}` makes the first kind errors too.
 */

/** One rule naming four objects no manifest declares and the server does not hold. */
const ELSEWHERE = `apiVersion: svcform/v1
kind: Rule
metadata: {name: lateral-smb}
spec:
  type: query
  name: Lateral movement over SMB
  description: Admin share writes from workstations
  severity: medium
  risk_score: 47
  query: 'destination.port:445 and file.path:*ADMIN$*'
  data_view_id: team-network-dv
  timeline_id: team-network-timeline
  timeline_title: Network investigation
  exceptions_list:
    - list_id: team-network-allowlist
  response_actions:
    - action_type_id: .hostquery
      params: {saved_query_id: team-smb-sessions}
`;

const CONNECTOR_ACTION = `apiVersion: svcform/v1
kind: Rule
metadata: {name: pages-the-soc}
spec:
  type: query
  name: Pages the SOC
  description: A rule whose action names a connector nobody made
  severity: high
  risk_score: 73
  index: [logs-*]
  query: 'event.action:"user-locked"'
  actions:
    - id: soc-pager-nowhere
      group: default
      params: {message: locked}
`;

const STRICT = 'references:\n  missing: error\n';
const compiledPlanSchema = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync('schemas/plan.schema.json', 'utf8')));
/** Not a type guard: the plan stays `any` for the assertions after it. */
const planSchema = Object.assign((plan: unknown): boolean => compiledPlanSchema(plan), { get errors() { return compiledPlanSchema.errors; } });
/** The four references, in the order the rule's references are read. */
const FIELDS = ['spec.response_actions[0].params.saved_query_id', 'spec.data_view_id', 'spec.exceptions_list[0].list_id', 'spec.timeline_id'];

describe('references to objects managed elsewhere', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());
  const run = (args: string[]) => cli([...args, '--url', emu.url]);
  const ruleOnServer = async (ruleId: string) => call(emu, 'GET', `/api/detection_engine/rules?rule_id=${ruleId}`);

  it('plans with a warning per reference the server accepts, applies, and converges', async () => {
    const dir = repo({ 'rule.yaml': ELSEWHERE });
    const planned = await run(['plan', dir, '--json']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    const plan = JSON.parse(planned.out);
    assert.ok(planSchema(plan), JSON.stringify(planSchema.errors));
    assert.deepEqual(plan.errors, []);
    assert.deepEqual(plan.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`), ['create Rule/lateral-smb']);
    assert.deepEqual(plan.warnings.map((w: any) => w.message.split(' names ')[0]), FIELDS);
    const dataView = plan.warnings.find((w: any) => w.message.startsWith('spec.data_view_id'));
    assert.match(dataView.message, /^spec\.data_view_id names DataView "team-network-dv", which neither the manifests nor the server hold; the server accepts this, but /);
    assert.match(dataView.source, /rule\.yaml:11:/);

    const text = await run(['plan', dir]);
    assert.match(text.out, /warning: .*rule\.yaml:12:\d+: Rule\/lateral-smb \(space default\): spec\.timeline_id names TimelineTemplate "team-network-timeline", which neither the manifests nor the server hold; the server accepts this/);

    const applied = await run(['apply', dir, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const stored = (await ruleOnServer('lateral-smb')).body;
    assert.equal(stored.data_view_id, 'team-network-dv');
    assert.equal(stored.timeline_id, 'team-network-timeline');
    // The list does not exist: its list_id stands in for the saved-object id the link carries.
    assert.deepEqual(stored.exceptions_list, [{ id: 'team-network-allowlist', list_id: 'team-network-allowlist', type: 'detection', namespace_type: 'single' }]);
    assert.equal(stored.response_actions[0].params.saved_query_id, 'team-smb-sessions');

    // A saved plan keeps its warnings: show renders them as plan did.
    const saved = join(mkdtempSync(join(tmpdir(), 'svcform-refs-')), 'plan.json');
    assert.equal((await run(['plan', dir, '--out', saved])).code, 0);
    const shown = await cli(['show', saved]);
    assert.equal(shown.code, 0, shown.err);
    assert.deepEqual(shown.out.split('\n').filter((l) => l.startsWith('warning: ')), text.out.split('\n').filter((l) => l.startsWith('warning: ')));

    const again = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(again.code, 0, again.out + again.err);
    assert.equal((again.out.match(/^warning: /gm) ?? []).length, 4, again.out);
  });

  it('with references.missing: error, the same plan fails and apply writes nothing', async () => {
    const dir = repo({ 'svcform.yaml': STRICT, 'rule.yaml': ELSEWHERE });
    const planned = await run(['plan', dir, '--json']);
    assert.equal(planned.code, 1, planned.out + planned.err);
    const plan = JSON.parse(planned.out);
    assert.deepEqual(plan.warnings, []);
    assert.deepEqual(plan.errors.map((e: any) => e.message.split(' names ')[0]), FIELDS);
    assert.match(plan.errors[3].message, /TimelineTemplate "team-network-timeline", which neither the manifests nor the server hold \(svcform\.yaml references\.missing: error\)$/);

    const applied = await run(['apply', dir, '--auto-approve']);
    assert.equal(applied.code, 1, applied.out + applied.err);
    assert.match(applied.err, /The plan has errors; nothing was applied/);
    // With --json, stdout is one JSON document: the plan with its errors, and nothing applied.
    const json = await run(['apply', dir, '--auto-approve', '--json']);
    assert.equal(json.code, 1, json.out + json.err);
    const answer = JSON.parse(json.out);
    assert.deepEqual(answer.summary, { done: 0, failed: 0, skipped: 0 });
    assert.equal(answer.refused, 'plan_errors');
    assert.deepEqual(answer.plan.errors.map((e: any) => e.message.split(' names ')[0]), FIELDS);
    assert.match(json.err, /The plan has errors; nothing was applied/);
    assert.equal((await ruleOnServer('lateral-smb')).status, 404);
    assert.deepEqual(emu.log.all().filter((r) => r.method !== 'GET' && r.path.startsWith('/api/detection_engine')), [], 'no rule write reached the server');
  });

  it('a rule action naming a missing connector is an error whatever the setting', async () => {
    const repos: Array<Record<string, string>> = [{ 'rule.yaml': CONNECTOR_ACTION }, { 'svcform.yaml': 'references:\n  missing: warn\n', 'rule.yaml': CONNECTOR_ACTION }];
    for (const files of repos) {
      const dir = repo(files);
      const applied = await run(['apply', dir, '--auto-approve']);
      assert.equal(applied.code, 1, applied.out + applied.err);
      assert.match(applied.out, /error: .*spec\.actions\[0\]\.id names Connector "soc-pager-nowhere", which neither the manifests nor the server hold; the server refuses the write/);
      assert.equal((await ruleOnServer('pages-the-soc')).status, 404);
    }
  });

  it('an accepted reference to a declared object still orders the writes, and its object cannot be deleted while named', async () => {
    const template = `apiVersion: svcform/v1
kind: TimelineTemplate
metadata: {name: team-network-timeline}
spec:
  title: Network investigation
  indexNames: [logs-network-*]
`;
    const named = ELSEWHERE.replace(/ {2}data_view_id: .*\n/, '  index: [logs-network-*]\n').replace(/ {2}exceptions_list:[\s\S]*$/, '');
    const manage = 'manage:\n  - kind: TimelineTemplate\n    selector: {namePrefix: "team-"}\n';
    const dir = repo({ 'svcform.yaml': manage, 'template.yaml': template, 'rule.yaml': named });
    const plan = JSON.parse((await run(['plan', dir, '--json'])).out);
    assert.deepEqual([plan.errors, plan.warnings], [[], []]);
    const waves = Object.fromEntries(plan.changes.map((c: any) => [c.kind, c.wave]));
    assert.ok(waves.TimelineTemplate < waves.Rule, JSON.stringify(waves));
    assert.equal((await run(['apply', dir, '--auto-approve'])).code, 0);

    const withoutTemplate = repo({ 'svcform.yaml': manage, 'rule.yaml': named });
    const refused = await run(['apply', withoutTemplate, '--auto-approve']);
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(refused.out, /TimelineTemplate\/team-network-timeline is used by Rule\/lateral-smb \(space default\): its manifest names it at spec\.timeline_id/);
  });

  it('says once, in text and Markdown, what many rules name alike; the JSON plan keeps each', async () => {
    const onlyDataView = (ruleId: string) => ELSEWHERE.replace('lateral-smb', ruleId).replace(/ {2}timeline_id[\s\S]*$/, '');
    const ids = ['smb-a', 'smb-b', 'smb-c', 'smb-d', 'smb-e'];
    const dir = repo(Object.fromEntries(ids.map((id) => [`${id}.yaml`, onlyDataView(id)])));
    const json = JSON.parse((await run(['plan', dir, '--json'])).out);
    assert.equal(json.warnings.length, 5);
    const text = (await run(['plan', dir])).out.split('\n').filter((l) => l.startsWith('warning: '));
    assert.equal(text.length, 1, text.join('\n'));
    assert.match(text[0], /Rule\/smb-a \(space default\) and 4 more \(Rule\/smb-b \(space default\), Rule\/smb-c \(space default\), Rule\/smb-d \(space default\), \.\.\.\): spec\.data_view_id names DataView "team-network-dv"/);
    const markdown = (await run(['plan', dir, '--format', 'markdown'])).out;
    assert.match(markdown, /\*\*Warnings\*\*\n\n- `[^`]*smb-a\.yaml:11` Rule\/smb-a \(space default\) and 4 more/);
    assert.equal((markdown.match(/names DataView/g) ?? []).length, 1);
  });

  it('an accepted reference to an object the server holds is no warning', async () => {
    const view = await call(emu, 'POST', '/api/saved_objects/index-pattern/team-network-dv', { attributes: { title: 'logs-network-*' } });
    assert.equal(view.status, 200, view.text);
    const onlyDataView = ELSEWHERE.replace(/ {2}timeline_id[\s\S]*$/, '');
    const plan = JSON.parse((await run(['plan', repo({ 'rule.yaml': onlyDataView }), '--json'])).out);
    assert.deepEqual([plan.errors, plan.warnings], [[], []]);
  });
});

describe('validate: references to objects managed elsewhere', () => {
  const rules = { 'a.yaml': ELSEWHERE, 'b.yaml': CONNECTOR_ACTION };
  let lenient: Awaited<ReturnType<typeof cli>>;
  let strict: Awaited<ReturnType<typeof cli>>;
  before(async () => {
    lenient = await cli(['validate', repo(rules)]);
    strict = await cli(['validate', repo({ ...rules, 'svcform.yaml': STRICT })]);
  });

  it('says nothing of references the server accepts, and warns of one it refuses', () => {
    assert.equal(lenient.code, 0, lenient.out + lenient.err);
    const warnings = lenient.err.split('\n').filter((l) => l.includes('warning:'));
    assert.equal(warnings.length, 1, lenient.err);
    assert.match(warnings[0], /b\.yaml:13:\d+: warning: Rule\/pages-the-soc: spec\.actions\[0\]\.id names Connector "soc-pager-nowhere", which no manifest declares in space default; it must exist on the server/);
    assert.match(lenient.out, /2 resources in 2 files: valid \(0 errors, 1 warnings\)/);
  });

  it('says once what many rules name alike that no manifest declares; the JSON output keeps each', async () => {
    const paging = (n: number) => CONNECTOR_ACTION.replace('{name: pages-the-soc}', `{name: pages-the-soc-${n}}`);
    const dir = repo({ 'r1.yaml': paging(1), 'r2.yaml': paging(2), 'r3.yaml': paging(3), 'r4.yaml': paging(4), 'r5.yaml': paging(5) });
    const run = await cli(['validate', dir]);
    assert.equal(run.code, 0, run.out + run.err);
    const warnings = run.err.split('\n').filter((l) => l.includes('warning:'));
    assert.equal(warnings.length, 1, run.err);
    assert.match(warnings[0], /r1\.yaml:13:\d+: warning: Rule\/pages-the-soc-1: spec\.actions\[0\]\.id names Connector "soc-pager-nowhere", which no manifest declares in space default; it must exist on the server \[and 4 more: \S*r2\.yaml:13, \S*r3\.yaml:13, \S*r4\.yaml:13, …; --json lists every one\]$/);
    assert.match(run.out, /5 resources in 5 files: valid \(0 errors, 5 warnings\)/);
    const json = JSON.parse((await cli(['validate', dir, '--json'])).out) as { diagnostics: { message: string }[] };
    assert.equal(json.diagnostics.filter((d) => d.message.includes('which no manifest declares')).length, 5);
  });

  it('with references.missing: error, warns of every reference no manifest declares', () => {
    assert.equal(strict.code, 0, strict.out + strict.err);
    const warned = strict.err.split('\n').filter((l) => l.includes('which no manifest declares')).map((l) => /: (spec\.[^ ]+) names/.exec(l)?.[1]);
    assert.deepEqual(warned, [...FIELDS, 'spec.actions[0].id']);
  });

  it('refuses a references setting it does not know, naming the place', async () => {
    const run = await cli(['validate', repo({ ...rules, 'svcform.yaml': 'references:\n  missing: maybe\n  strict: true\n' })]);
    assert.equal(run.code, 1, run.out + run.err);
    assert.match(run.err, /svcform\.yaml:2:3: references\.missing must be warn \(.*\) or error/);
    assert.match(run.err, /svcform\.yaml:3:3: references\.strict is not a known setting \(missing\)/);
  });
});
