import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import type { ConnectorsState } from '@svcform/emulator/areas/connectors/index.js';
import { emulator } from '@svcform/emulator/testing.js';
import { ruleYaml, writeFiles } from '../helpers/repo.js';
import { fakeGitHub, runScript } from './github-script.js';
import { workflowRunner } from './workflow-steps.js';

/**
 * Issue 30, "A team's day in CI": the kit's steps run as the workflows run them (their run:
 * scripts, their env:, svcform on PATH), against the emulator, on a repository whose connector
 * takes its secret from ${env:...}.
 */
const API_KEY = 'ci-only-key';
const WEBHOOK = 'https://chat.example/hooks/production';
/** Every secret the repository holds; each step gets only those its workflow passes it. */
const SECRETS = (url: string) => ({ SVC_URL: url, SVC_API_KEY: API_KEY, SVCFORM_CONNECTOR_SOC_CHAT_WEBHOOKURL: WEBHOOK });

const CONFIG = 'manage:\n  - kind: Connector\n    selector: {namePrefix: soc-}\n  - kind: Rule\n';
const CHAT = `apiVersion: svcform/v1
kind: Connector
metadata: {name: soc-chat}
spec:
  name: SOC chat
  connector_type_id: .chat
  secrets:
    webhookUrl: \${env:SVCFORM_CONNECTOR_SOC_CHAT_WEBHOOKURL}
`;

/** A checkout: the repository's manifests/ as a commit holds them. */
function checkout(rules: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-checkout-'));
  writeFiles(dir, { 'manifests/svcform.yaml': CONFIG, 'manifests/connectors/soc-chat.yaml': CHAT });
  for (const [name, yaml] of Object.entries(rules)) writeFiles(dir, { [`manifests/rules/${name}.yaml`]: yaml });
  return dir;
}

describe('CI kit: the workflows\' own steps on a repository with ${env:} connector secrets (issue 30)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ apiKey: API_KEY });
  });
  after(() => emu.stop());
  const connector = (id: string) => (emu.store.data.bySpace.default?.connectors as ConnectorsState | undefined)?.records[id];

  it('validate, plan and drift pass with no secret value set; apply, which the workflow gives the value, applies', async () => {
    emu.store.reset();
    const ws = checkout({ base: ruleYaml('base-rule', 'soc-chat') });
    const ci = workflowRunner(SECRETS(emu.url));
    const validated = await ci.run('svcform-plan.yml', 'validate', ws);
    assert.equal(validated.code, 0, validated.err);
    assert.equal(ci.outputs.validate.exitcode, '0', validated.out + validated.err);
    const planned = await ci.run('svcform-plan.yml', 'plan', ws);
    assert.equal(ci.outputs.plan.exitcode, '2', planned.err);
    const planMd = readFileSync(join(ws, 'plan.md'), 'utf8');
    assert.match(planMd, /Plan: 2 to create/);
    assert.ok(!planMd.includes(emu.url), 'the comment hides the target (--hide-target)');
    assert.ok(existsSync(join(ws, 'plan.json')));
    const drift = await ci.run('svcform-drift.yml', 'drift', ws);
    assert.equal(ci.outputs.drift.exitcode, '2', drift.err);
    assert.doesNotMatch(planned.err + drift.err, /SVCFORM_CONNECTOR_SOC_CHAT_WEBHOOKURL/, 'never asked for');

    // The comment the plan workflow posts from these files.
    const gh = fakeGitHub();
    await runScript((await import('yaml')).parse(readFileSync('examples/ci/github-actions/.github/workflows/svcform-plan.yml', 'utf8')).jobs.plan.steps.find((s: any) => s.name === 'Comment the plan on the pull request').with.script, {
      gh,
      dir: ws,
      env: { VALIDATE_CODE: '0', EXIT_CODE: '2' },
      payload: { pull_request: { number: 3, head: { sha: '0123456789abc' } } },
    });
    assert.match(gh.comments[0].body, /^<!-- svcform-plan -->\n### svcform plan/);

    // The merge: the apply job downloads plan.json (here: the same checkout) and applies the merge commit.
    const applied = await ci.run('svcform-apply.yml', 'apply', ws);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /Apply: 2 done/);
    assert.deepEqual(connector('soc-chat')?.secrets, { webhookUrl: WEBHOOK });
    assert.ok(!applied.out.includes(WEBHOOK), 'the value is never printed');
    const after = await ci.run('svcform-drift.yml', 'drift', ws);
    assert.equal(ci.outputs.drift.exitcode, '0', after.out + after.err);
  });

  it('the plan and drift workflows give their steps no connector secret; the apply job does', () => {
    for (const f of ['svcform-plan.yml', 'svcform-drift.yml']) assert.doesNotMatch(readFileSync(join('examples/ci/github-actions/.github/workflows', f), 'utf8'), /SVCFORM_CONNECTOR_/, f);
    assert.match(readFileSync('examples/ci/github-actions/.github/workflows/svcform-apply.yml', 'utf8'), /SVCFORM_CONNECTOR_SOC_CHAT_WEBHOOKURL: \$\{\{ secrets\.SVCFORM_CONNECTOR_SOC_CHAT_WEBHOOKURL \}\}/);
  });

  it('two pull requests from one base merge one after the other and both apply; a third whose plan no one reviewed is not applied, its new plan is posted, and applies once reviewed', async () => {
    emu.store.reset();
    const ci = workflowRunner(SECRETS(emu.url));
    const rules = { base: ruleYaml('base-rule', 'soc-chat') };
    const base = checkout(rules);
    assert.equal((await ci.run('svcform-apply.yml', 'apply', withPlanOf(base, await planOn(ci, base)))).code, 0);
    const ruleNames = async () => ((await (await fetch(`${emu.url}/api/detection_engine/rules/_find?per_page=100`, { headers: { authorization: `ApiKey ${API_KEY}` } })).json()) as any).data.map((r: any) => r.rule_id).sort();
    assert.deepEqual(await ruleNames(), ['base-rule']);

    // Two pull requests from the same base, each planned (and reviewed) on its own branch; and one never merged.
    const prA = checkout({ ...rules, a: ruleYaml('rule-a', 'soc-chat') });
    const prB = checkout({ ...rules, b: ruleYaml('rule-b') });
    const prD = checkout({ ...rules, d: ruleYaml('rule-d') });
    const planA = await planOn(ci, prA);
    const planB = await planOn(ci, prB);
    await planOn(ci, prD);
    assert.deepEqual(await ruleNames(), ['base-rule'], 'planning applies nothing');

    // A merges: main = base + a. Its apply job re-plans the merge commit, which is A's reviewed plan.
    const mainA = checkout({ ...rules, a: ruleYaml('rule-a', 'soc-chat') });
    const appliedA = await ci.run('svcform-apply.yml', 'apply', withPlanOf(mainA, planA));
    assert.equal(appliedA.code, 0, appliedA.out + appliedA.err);
    // B merges next: main = base + a + b. B's saved plan is stale for `apply --plan` (the server changed), but its changes are the same.
    const mainAB = checkout({ ...rules, a: ruleYaml('rule-a', 'soc-chat'), b: ruleYaml('rule-b') });
    const appliedB = await ci.run('svcform-apply.yml', 'apply', withPlanOf(mainAB, planB));
    assert.equal(appliedB.code, 0, appliedB.out + appliedB.err);
    assert.match(appliedB.out, /Apply: 1 done/);
    assert.deepEqual(await ruleNames(), ['base-rule', 'rule-a', 'rule-b'], 'both merges applied, and nothing of the pull request never merged (rule-d)');

    // C was reviewed with severity low, then changed to high without a new plan, and merged.
    const planC = await planOn(ci, checkout({ ...rules, a: ruleYaml('rule-a', 'soc-chat'), b: ruleYaml('rule-b'), c: ruleYaml('rule-c') }));
    const mainABC = withPlanOf(checkout({ ...rules, a: ruleYaml('rule-a', 'soc-chat'), b: ruleYaml('rule-b'), c: ruleYaml('rule-c').replace('severity: low', 'severity: high') }), planC);
    const refused = await ci.run('svcform-apply.yml', 'apply', mainABC);
    assert.notEqual(refused.code, 0);
    assert.match(refused.out, /not reviewed: create Rule\/rule-c \(space default\)/);
    assert.match(refused.out, /1 of the 1 changes of this plan is not in the reviewed plan \(plan\.json\); nothing was applied/);
    assert.deepEqual(await ruleNames(), ['base-rule', 'rule-a', 'rule-b']);
    // The job plans again, keeps that plan and posts it on the pull request.
    const replanned = await ci.run('svcform-apply.yml', 'replan', mainABC);
    assert.equal(ci.outputs.replan.exitcode, '0', replanned.err);
    const gh = fakeGitHub();
    const apply = (await import('yaml')).parse(readFileSync('examples/ci/github-actions/.github/workflows/svcform-apply.yml', 'utf8'));
    const say = apply.jobs.apply.steps.find((s: any) => s.name === 'Say on the pull request what was applied').with.script;
    await runScript(say, { gh, dir: mainABC, env: { OUTCOME: 'failure', REPLAN_CODE: '0' }, payload: { pull_request: { number: 12 } } });
    assert.match(gh.comments[0].body, /not applied as reviewed[\s\S]*`reviewed_run` = `42`[\s\S]*create `Rule\/rule-c`/);
    // Once reviewed, the run by hand downloads that plan (the same file here) and applies main.
    const byHand = await ci.run('svcform-apply.yml', 'apply', mainABC);
    assert.equal(byHand.code, 0, byHand.out + byHand.err);
    assert.deepEqual(await ruleNames(), ['base-rule', 'rule-a', 'rule-b', 'rule-c']);
  });
});

/** The plan workflow's validate and plan steps on a checkout; returns the saved plan (its artifact). */
async function planOn(ci: ReturnType<typeof workflowRunner>, ws: string): Promise<string> {
  const v = await ci.run('svcform-plan.yml', 'validate', ws);
  assert.equal(ci.outputs.validate.exitcode, '0', v.out + v.err);
  const p = await ci.run('svcform-plan.yml', 'plan', ws);
  assert.match(ci.outputs.plan.exitcode, /^[02]$/, p.err);
  const artifact = join(mkdtempSync(join(tmpdir(), 'svcform-artifact-')), 'plan.json');
  cpSync(join(ws, 'plan.json'), artifact);
  return artifact;
}

/** A checkout with a downloaded plan artifact as plan.json, as the apply job has it. */
function withPlanOf(ws: string, artifact: string): string {
  cpSync(artifact, join(ws, 'plan.json'));
  return ws;
}
