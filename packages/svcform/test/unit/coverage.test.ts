import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { coverageDiff, coverageMatrix, relatedPackages, ruleCoverage, versionInRange } from '../../src/kinds/rule/coverage.js';
import { integrationWarnings } from '../../src/engine/coverage.js';
import { coverageDiffLines, matrixMarkdown, matrixText } from '../../src/report/coverage.js';
import { resource } from '../helpers/resource.js';

/** Made-up rules: a threat entry as the rule schema has it (framework, tactic, technique, subtechnique). */
const entry = (tactic: [string, string], techniques: Array<[string, string, Array<[string, string]>?]>) => ({
  framework: 'MITRE ATT&CK',
  tactic: { id: tactic[0], name: tactic[1], reference: `https://attack.example/${tactic[0]}` },
  technique: techniques.map(([id, name, subs]) => ({ id, name, reference: `https://attack.example/${id}`, ...(subs ? { subtechnique: subs.map(([sid, sname]) => ({ id: sid, name: sname, reference: `https://attack.example/${sid}` })) } : {}) })),
});
const EXEC: [string, string] = ['TA0002', 'Execution'];
const PERSIST: [string, string] = ['TA0003', 'Persistence'];
const shell = { enabled: true, threat: [entry(EXEC, [['T1059', 'Command and Scripting Interpreter', [['T1059.004', 'Unix Shell']]]])] };
const cron = { enabled: true, threat: [entry(EXEC, [['T1053', 'Scheduled Task/Job']]), entry(PERSIST, [['T1053', 'Scheduled Task/Job']])] };

describe('ATT&CK coverage of rules', () => {
  it("reads tactics, techniques and subtechniques from a rule's threat, one technique naming every tactic it is under", () => {
    const covered = ruleCoverage(cron);
    assert.deepEqual([...covered.keys()], ['tactic:TA0002', 'technique:T1053', 'tactic:TA0003']);
    assert.deepEqual(covered.get('technique:T1053')!.tactics, ['TA0002', 'TA0003']);
    assert.equal(ruleCoverage(shell).get('technique:T1059.004')!.parent, 'T1059');
  });

  it('ignores entries of another framework and malformed ones', () => {
    const rule = { enabled: true, threat: [{ framework: 'Other', tactic: { id: 'X1', name: 'x' } }, { framework: 'MITRE ATT&CK' }, 'junk'] };
    assert.equal(ruleCoverage(rule).size, 0);
  });

  it('a technique is added when an enabled rule covers it after and none before, removed the reverse', () => {
    const diff = coverageDiff([shell], [shell, cron]);
    assert.deepEqual(diff.added.map((c) => c.id), ['TA0003', 'T1053']);
    assert.deepEqual(diff.removed, []);
    const disabled = coverageDiff([shell, cron], [shell, { ...cron, enabled: false }]);
    assert.deepEqual(disabled.removed.map((c) => c.id), ['TA0003', 'T1053']);
    // Execution stays: the shell rule still covers it.
    assert.ok(!disabled.removed.some((c) => c.id === 'TA0002'));
  });

  it('disabled rules cover nothing: enabling one adds what it covers', () => {
    assert.deepEqual(coverageDiff([{ ...shell, enabled: false }], [shell]).added.map((c) => c.id), ['TA0002', 'T1059', 'T1059.004']);
    assert.deepEqual(coverageDiff([{ threat: shell.threat }], [{ threat: shell.threat }]).added, []);
  });

  it('the matrix counts enabled rules per tactic, technique and subtechnique', () => {
    const m = coverageMatrix([shell, cron, { ...shell, enabled: false }, { enabled: true }]);
    assert.deepEqual({ enabled: m.enabled, disabled: m.disabled, unmapped: m.unmapped }, { enabled: 3, disabled: 1, unmapped: 1 });
    assert.deepEqual(m.tactics.map((t) => [t.id, t.rules]), [['TA0002', 2], ['TA0003', 1]]);
    const exec = m.tactics[0];
    assert.deepEqual(exec.techniques.map((t) => [t.id, t.rules, t.subtechniques.map((s) => [s.id, s.rules])]), [['T1053', 1, []], ['T1059', 1, [['T1059.004', 1]]]]);
    const text = matrixText(m);
    assert.match(text, /^TA0002 Execution: 2 rules$/m);
    assert.match(text, /^ {4}T1059\.004 Unix Shell: 1$/m);
    assert.match(matrixMarkdown(m), /^\| `T1053` \| Scheduled Task\/Job \| 1 \|$/m);
  });

  it('the text section lists added and removed entries and is empty when nothing changes', () => {
    const plain = { green: (s: string) => s, red: (s: string) => s } as never;
    assert.deepEqual(coverageDiffLines({ added: [], removed: [] }, plain), []);
    const lines = coverageDiffLines(coverageDiff([cron], [shell]), plain);
    assert.ok(lines.includes('  + technique T1059.004 Unix Shell (TA0002)'), lines.join('\n'));
    assert.ok(lines.includes('  - tactic TA0003 Persistence'), lines.join('\n'));
  });
});

describe('rules whose data no integration collects', () => {
  const rule = (spec: Record<string, unknown>) => resource('Rule', 'r1', { type: 'query', ...spec });
  const needsOkta = { enabled: true, related_integrations: [{ package: 'okta', version: '^3.0.0' }, { package: 'okta', integration: 'system', version: '^3.0.0' }] };
  /** The plan creates the rule: only rules a plan writes (or whose package it removes) are checked. */
  const created = [{ id: 'Rule/default/r1', kind: 'Rule', space: 'default', name: 'r1', action: 'create' }] as never;
  const fleet = (installed: string[], collected: string[]) => ({ installed: new Map(installed.map((p) => [p, '3.1.0'] as [string, string])), collected: new Set(collected) });

  it('warns for an enabled rule none of whose packages is installed, once the deployment has Fleet data', () => {
    const [w, ...more] = integrationWarnings([rule(needsOkta)], fleet(['system'], ['system']), created);
    assert.equal(more.length, 0);
    assert.match(w.message, /none of its related integrations \(okta\) is installed/);
    assert.equal(w.subject, 'Rule/r1 (space default)');
  });

  it('warns when the package is installed but no package policy collects with it', () => {
    const [w] = integrationWarnings([rule(needsOkta)], fleet(['okta'], []), created);
    assert.match(w.message, /no package policy collects .*okta/);
  });

  it('stays silent for installed and collected packages, disabled rules, rules without related integrations, and deployments without Fleet data', () => {
    assert.deepEqual(integrationWarnings([rule(needsOkta)], fleet(['okta'], ['okta']), created), []);
    assert.deepEqual(integrationWarnings([rule({ ...needsOkta, enabled: false })], fleet(['system'], []), created), []);
    assert.deepEqual(integrationWarnings([rule({ enabled: true })], fleet(['system'], []), created), []);
    assert.deepEqual(integrationWarnings([rule(needsOkta)], fleet([], []), created), []);
    assert.deepEqual(integrationWarnings([rule(needsOkta)], undefined, created), []);
  });

  it('a rule the plan leaves alone warns only when the plan deletes its package or the policy collecting with it', () => {
    assert.deepEqual(integrationWarnings([rule(needsOkta)], fleet(['system'], ['system']), []), []);
    const dropsPackage = [{ id: 'IntegrationPackage/default/okta', kind: 'IntegrationPackage', space: 'default', name: 'okta', action: 'delete', live: { body: {} } }] as never;
    assert.match(integrationWarnings([rule(needsOkta)], fleet(['system'], ['system']), dropsPackage)[0].message, /none of its related integrations \(okta\)/);
    const dropsPolicy = [{ id: 'PackagePolicy/default/p', kind: 'PackagePolicy', space: 'default', name: 'p', action: 'delete', live: { body: { package: { name: 'okta' } } } }] as never;
    assert.match(integrationWarnings([rule(needsOkta)], fleet(['okta'], []), dropsPolicy)[0].message, /no package policy collects/);
  });

  it('warns when every collected package is installed at a version outside the range the rule asks for', () => {
    const oldOkta = { installed: new Map([['okta', '2.10.0']]), collected: new Set(['okta']) };
    assert.match(integrationWarnings([rule(needsOkta)], oldOkta, created)[0].message, /ask for other versions \(okta \^3\.0\.0\) than the installed okta 2\.10\.0/);
  });

  it('reads caret ranges as npm does, and counts a form it cannot read as met', () => {
    assert.ok(versionInRange('3.1.0', '^3.0.0'));
    assert.ok(!versionInRange('2.10.0', '^3.0.0'));
    assert.ok(!versionInRange('4.0.0', '^3.0.0'));
    assert.ok(versionInRange('0.2.9', '^0.2.3'));
    assert.ok(!versionInRange('0.3.0', '^0.2.3'));
    assert.ok(!versionInRange('0.0.4', '^0.0.3'));
    assert.ok(versionInRange('2.0.0', '^1.0.0 || ^2.0.0'));
    assert.ok(versionInRange('1.11.4', '~1.11.0') && !versionInRange('1.12.0', '~1.11.0') && !versionInRange('1.10.9', '~1.11.0'));
    assert.ok(versionInRange('1.2.3', '1.2.3') && !versionInRange('1.2.4', '1.2.3'));
    assert.ok(versionInRange('1.0.0', '>=1.0.0 <2.0.0'));
    assert.ok(versionInRange(undefined, '^1.0.0') && versionInRange('1.0.0', undefined));
  });

  it('one of several related integrations installed is enough', () => {
    const either = { enabled: true, related_integrations: [{ package: 'okta', version: '^3.0.0' }, { package: 'system', version: '^1.0.0' }] };
    assert.deepEqual(relatedPackages(either), ['okta', 'system']);
    assert.deepEqual(integrationWarnings([rule(either)], { installed: new Map([['system', '1.60.0']]), collected: new Set(['system']) }, created), []);
  });
});
