import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * Coverage you can review (issue 33 part 4): the ATT&CK tactics and techniques a plan adds or
 * removes, `svcform coverage`, and the warning for an enabled rule that no installed, collecting
 * integration feeds. The rules are made up for these tests.
 */

interface RuleOptions {
  enabled?: boolean;
  /** [tactic id, tactic name, technique id, technique name, subtechnique id?, subtechnique name?] */
  threat?: Array<[string, string, string, string, string?, string?]>;
  packages?: string[];
}

function rule(name: string, o: RuleOptions = {}): string {
  const lines = ['apiVersion: svcform/v1', 'kind: Rule', `metadata: {name: ${name}}`, 'spec:', '  type: query', `  name: ${name}`, '  description: made up for the coverage tests', '  severity: low', '  risk_score: 21', '  index: [logs-*]', "  query: 'event.action:x'"];
  if (o.enabled !== undefined) lines.push(`  enabled: ${o.enabled}`);
  if (o.threat) {
    lines.push('  threat:');
    for (const [tid, tname, xid, xname, sid, sname] of o.threat) {
      lines.push('    - framework: MITRE ATT&CK', `      tactic: {id: ${tid}, name: ${tname}, reference: 'https://attack.example/${tid}'}`, '      technique:', `        - {id: ${xid}, name: '${xname}', reference: 'https://attack.example/${xid}'${sid ? `, subtechnique: [{id: ${sid}, name: '${sname}', reference: 'https://attack.example/${sid}'}]` : ''}}`);
    }
  }
  if (o.packages) {
    lines.push('  related_integrations:');
    for (const p of o.packages) lines.push(`    - {package: ${p}, version: ^1.0.0}`);
  }
  return lines.join('\n') + '\n';
}

const pkg = (name: string, version: string) => `apiVersion: svcform/v1\nkind: IntegrationPackage\nmetadata: {name: ${name}}\nspec: {version: ${version}}\n`;
const AGENTS = 'apiVersion: svcform/v1\nkind: AgentPolicy\nmetadata: {name: cov-agents}\nspec: {name: Coverage agents, namespace: coverage}\n';
const SYSTEM_POLICY = 'apiVersion: svcform/v1\nkind: PackagePolicy\nmetadata: {name: cov-system}\nspec:\n  name: coverage-system\n  policy_ids: [cov-agents]\n  package: {name: system, version: 1.60.0}\n';

const SHELL = rule('cov-shell', { enabled: true, threat: [['TA0002', 'Execution', 'T1059', 'Command and Scripting Interpreter', 'T1059.004', 'Unix Shell']] });
const CRON = (enabled: boolean) => rule('cov-cron', { enabled, threat: [['TA0003', 'Persistence', 'T1053', 'Scheduled Task/Job'], ['TA0002', 'Execution', 'T1053', 'Scheduled Task/Job']] });

const compiledPlanSchema = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync('schemas/plan.schema.json', 'utf8')));

describe('ATT&CK coverage in plans', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  const run = (args: string[]) => cli([...args, '--url', emu.url]);

  it('a plan that adds an enabled rule names its tactic, technique and subtechnique, in text, JSON and Markdown', async () => {
    const dir = repo({ 'shell.yaml': SHELL });
    const json = await run(['plan', dir, '--json']);
    assert.equal(json.code, 0, json.err);
    // Not through a type guard: the plan stays `any` for the assertions after it.
    assert.ok(compiledPlanSchema(JSON.parse(json.out)), JSON.stringify(compiledPlanSchema.errors));
    const plan = JSON.parse(json.out);
    assert.deepEqual(plan.coverage.added.map((c: { id: string }) => c.id), ['TA0002', 'T1059', 'T1059.004']);
    assert.deepEqual(plan.coverage.removed, []);
    const text = await run(['plan', dir, '--no-color']);
    assert.match(text.out, /^ATT&CK coverage of enabled rules: 3 added$/m);
    assert.match(text.out, /^ {2}\+ technique T1059\.004 Unix Shell \(TA0002\)$/m);
    const md = await run(['plan', dir, '--format', 'markdown']);
    assert.match(md.out, /^- ➕ added technique `T1059` Command and Scripting Interpreter \(`TA0002`\)$/m);
    // A saved plan carries it: `show` renders the same section without a server.
    const saved = join(repo({}), 'plan.json');
    assert.equal((await run(['plan', dir, '--out', saved])).code, 0);
    assert.match((await cli(['show', saved, '--no-color'])).out, /^ {2}\+ technique T1059\.004 Unix Shell \(TA0002\)$/m);
  });

  it('a disabled rule covers nothing: a plan adding one shows no coverage section', async () => {
    const dir = repo({ 'shell.yaml': rule('cov-off', { threat: [['TA0002', 'Execution', 'T1059', 'Command and Scripting Interpreter']] }) });
    const text = await run(['plan', dir, '--no-color']);
    assert.equal(text.code, 0, text.err);
    assert.doesNotMatch(text.out, /ATT&CK/);
  });

  it('disabling a rule removes the technique no other enabled rule covers, and only that', async () => {
    const applied = await run(['apply', repo({ 'shell.yaml': SHELL, 'cron.yaml': CRON(true) }), '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const dir = repo({ 'shell.yaml': SHELL, 'cron.yaml': CRON(false) });
    const plan = JSON.parse((await run(['plan', dir, '--json'])).out);
    assert.deepEqual(plan.coverage.added, []);
    // Execution stays: the shell rule still covers it.
    assert.deepEqual(plan.coverage.removed.map((c: { id: string }) => c.id), ['TA0003', 'T1053']);
    const md = await run(['plan', dir, '--format', 'markdown']);
    assert.match(md.out, /^- ➖ \*\*removed\*\* tactic `TA0003` Persistence$/m);
  });

  it('`svcform coverage` prints the matrix of the declared rules offline, and of the live rules with --live', async () => {
    const dir = repo({ 'shell.yaml': SHELL, 'cron.yaml': CRON(true), 'off.yaml': rule('cov-off', { threat: [['TA0040', 'Impact', 'T1485', 'Data Destruction']] }) });
    const text = await cli(['coverage', dir]);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /^ATT&CK coverage: 2 enabled rules, 2 tactics, 2 techniques \(1 disabled, not counted\)$/m);
    assert.match(text.out, /^TA0002 Execution: 2 rules\n {2}T1053 Scheduled Task\/Job: 1\n {2}T1059 Command and Scripting Interpreter: 1\n {4}T1059\.004 Unix Shell: 1$/m);
    assert.doesNotMatch(text.out, /Impact/);
    const json = JSON.parse((await cli(['coverage', dir, '--json'])).out);
    assert.equal(json.source, 'manifests');
    assert.deepEqual(json.tactics.map((t: { id: string; rules: number }) => [t.id, t.rules]), [['TA0002', 2], ['TA0003', 1]]);
    const md = await cli(['coverage', dir, '--format', 'markdown']);
    assert.match(md.out, /^#### `TA0003` Persistence \(1 rule\)$/m);
    // The rules the previous test applied: shell enabled, cron enabled.
    const live = JSON.parse((await cli(['coverage', repo({}), '--live', '--json', '--url', emu.url])).out);
    assert.equal(live.source, 'live');
    assert.deepEqual(live.tactics.map((t: { id: string; rules: number }) => [t.id, t.rules]), [['TA0002', 2], ['TA0003', 1]]);
  });
});

describe('enabled rules whose integration is not installed', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  const run = (args: string[]) => cli([...args, '--url', emu.url]);
  const NEEDS_SYSTEM = rule('cov-auth', { enabled: true, packages: ['system'] });

  it('stays silent in a deployment without Fleet data (indices fed some other way)', async () => {
    const planned = await run(['plan', repo({ 'auth.yaml': NEEDS_SYSTEM }), '--json']);
    assert.equal(planned.code, 0, planned.err);
    assert.deepEqual(JSON.parse(planned.out).warnings, []);
  });

  it('warns, naming the file and line and the package, when the deployment has Fleet data but not the package', async () => {
    const dir = repo({ 'auth.yaml': NEEDS_SYSTEM, 'windows.yaml': pkg('windows', '2.5.1') });
    const planned = await run(['plan', dir, '--no-color']);
    assert.equal(planned.code, 0, planned.err);
    assert.match(planned.out, /^warning: .*auth\.yaml:13:3: Rule\/cov-auth \(space default\): enabled, but none of its related integrations \(system\) is installed: it cannot fire/m);
     // Markdown (the PR comment) too, with the file and line.
    const md = await run(['plan', dir, '--format', 'markdown']);
    assert.match(md.out, /^- `.*auth\.yaml:13` Rule\/cov-auth \(space default\): enabled, but none of its related integrations \(system\) is installed/m);
    // Applied as it is, the rule is no news in the next plans: the warning came with the change.
    const applied = await run(['apply', dir, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const again = await run(['plan', dir, '--json']);
    assert.deepEqual(JSON.parse(again.out).warnings, []);
  });

  it('warns when the package is installed but no package policy collects with it', async () => {
    // Rules of their own in each test: the one above is live now.
    const planned = await run(['plan', repo({ 'auth.yaml': rule('cov-auth-2', { enabled: true, packages: ['system'] }), 'system.yaml': pkg('system', '1.60.0') }), '--no-color']);
    assert.match(planned.out, /Rule\/cov-auth-2 \(space default\): enabled, but no package policy collects with its related integration \(system\)/);
  });

  it('stays silent for a disabled rule, and once the package and a policy are declared, then installed', async () => {
    const NEEDS_SYSTEM = rule('cov-auth-3', { enabled: true, packages: ['system'] });
    const quiet = (out: string) => assert.doesNotMatch(out, /related integration/);
    quiet((await run(['plan', repo({ 'auth.yaml': rule('cov-auth-3', { packages: ['system'] }), 'windows.yaml': pkg('windows', '2.5.1') })])).out);
    const full = repo({ 'auth.yaml': NEEDS_SYSTEM, 'system.yaml': pkg('system', '1.60.0'), 'agents.yaml': AGENTS, 'policy.yaml': SYSTEM_POLICY });
    const planned = await run(['plan', full, '--json']);
    assert.equal(planned.code, 0, planned.err);
    assert.deepEqual(JSON.parse(planned.out).warnings, []);
    const applied = await run(['apply', full, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    // Live now: only the rule is declared, changed so the plan updates it; the package and its
    // policy are read from the server.
    const again = await run(['plan', repo({ 'auth.yaml': NEEDS_SYSTEM.replace('risk_score: 21', 'risk_score: 22') }), '--json']);
    assert.equal(JSON.parse(again.out).summary.update, 1);
    assert.deepEqual(JSON.parse(again.out).warnings, []);
  });
});
