import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { connectorYaml, repo } from '../helpers/repo.js';
import { CLI_PATH, childEnv } from '../helpers/spawn-cli.js';

/** Issue "Safe apply", item 1: a plan that deletes runs only once approved, as Terraform's apply. */

const QUESTION = "Do you want to perform these actions? Only 'yes' will be accepted:";
const MANAGE = 'manage:\n  - kind: Connector\n    selector: {namePrefix: "soc-"}\n';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/**
 * Runs the built CLI on a real pseudo-terminal (util-linux `script` allocates it; -e passes the
 * exit code on) and types `answer` once the approval question shows.
 */
function applyOnTerminal(args: string[], cwd: string, answer: string): Promise<{ code: number; output: string; asked: boolean }> {
  const command = [process.execPath, CLI_PATH, ...args].map(shellQuote).join(' ');
  return new Promise((resolveRun, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: childEnv({ TERM: 'xterm' }), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let asked = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const read = (d: Buffer) => {
      output += d.toString('utf8');
      if (!asked && output.includes(QUESTION)) {
        asked = true;
        child.stdin.write(answer + '\r');
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolveRun({ code: code ?? 1, output, asked });
    });
  });
}

describe('approval of deletes', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = repo({ 'svcform.yaml': MANAGE, 'keep.yaml': connectorYaml('soc-keep') });
  });
  after(() => emu.stop());

  const exists = async (id: string) => (await call(emu, 'GET', `/api/actions/connector/${id}`)).status === 200;
  const strayConnector = async (id: string) => {
    const made = await call(emu, 'POST', `/api/actions/connector/${id}`, { name: id, connector_type_id: '.server-log' });
    assert.equal(made.status, 200, made.text);
  };

  it('on a terminal: the plan is shown and the question asked; "no" applies nothing, "yes" deletes', { skip: !hasScript && 'util-linux script is not installed' }, async () => {
    await strayConnector('soc-gone');
    const declined = await applyOnTerminal(['apply', dir, '--url', emu.url], dir, 'no');
    assert.ok(declined.asked, declined.output);
    assert.equal(declined.code, 1, declined.output);
    assert.ok(declined.output.indexOf('- delete Connector/soc-gone (space default)') < declined.output.indexOf(QUESTION), 'the plan comes before the question');
    assert.match(declined.output, /Apply cancelled: nothing was applied\./);
    assert.ok(await exists('soc-gone'), 'nothing was deleted');
    assert.ok(!(await exists('soc-keep')), 'nor the creates of the same plan');

    const approved = await applyOnTerminal(['apply', dir, '--url', emu.url], dir, 'yes');
    assert.ok(approved.asked, approved.output);
    assert.equal(approved.code, 0, approved.output);
    assert.match(approved.output, /Apply: 2 done, 0 failed, 0 skipped\./);
    assert.ok(!(await exists('soc-gone')));
  });

  it('without a terminal a plan with deletes needs --auto-approve or CI=true, and nothing is applied otherwise', async () => {
    await strayConnector('soc-ci');
    const refused = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(refused.err, /The plan deletes 1 object \(Connector\/soc-ci \(space default\)\) and there is no terminal to ask for approval on: pass --auto-approve \(or set CI=true\) to apply it\. Nothing was applied\./);
    assert.ok(await exists('soc-ci'));
    const underCi = await cli(['apply', dir, '--url', emu.url], { CI: 'true' });
    assert.equal(underCi.code, 0, underCi.out + underCi.err);
    assert.ok(!(await exists('soc-ci')));
    await strayConnector('soc-flag');
    const flagged = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(flagged.code, 0, flagged.out + flagged.err);
    assert.ok(!(await exists('soc-flag')));
  });

  it('never asks for plans without deletes, nor with --auto-approve, nor for a saved plan', async () => {
    const creates = repo({ 'svcform.yaml': MANAGE, 'keep.yaml': connectorYaml('soc-keep'), 'new.yaml': connectorYaml('soc-new') });
    const created = await cli(['apply', creates, '--url', emu.url], {}, { answers: [] });
    assert.equal(created.code, 0, created.out + created.err);
    assert.deepEqual(created.asked, []);
    const flagged = await cli(['apply', dir, '--url', emu.url, '--auto-approve'], {}, { answers: [] });
    assert.equal(flagged.code, 0, flagged.out + flagged.err);
    assert.deepEqual(flagged.asked, []);
    assert.ok(!(await exists('soc-new')));
    // A saved plan was reviewed when it was made (Terraform applies a saved plan without asking).
    await strayConnector('soc-saved');
    const planFile = join(repo({}), 'plan.json');
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--out', planFile])).code, 0);
    const saved = await cli(['apply', '--plan', planFile]);
    assert.equal(saved.code, 0, saved.out + saved.err);
    assert.ok(!(await exists('soc-saved')));
  });

  it('on a terminal with --json, the plan goes to stderr before the question and stdout stays JSON', async () => {
    await strayConnector('soc-json');
    const run = await cli(['apply', dir, '--url', emu.url, '--json'], {}, { answers: ['no'] });
    assert.equal(run.code, 1);
    assert.deepEqual(run.asked, [`${QUESTION} `]);
    assert.match(run.err, /- delete Connector\/soc-json/);
    // A refusal is still one JSON document on stdout: nothing applied, and why.
    const answer = JSON.parse(run.out);
    assert.equal(answer.refused, 'deletes_not_approved');
    assert.deepEqual(answer.results, []);
    assert.deepEqual(answer.plan.changes.filter((c: any) => c.action === 'delete').map((c: any) => c.name), ['soc-json']);
    assert.ok(await exists('soc-json'));
  });
  it('--if-matches with a change no one reviewed: with --json, one document with no results and refused not_reviewed', async () => {
    const reviewedDir = repo({ 'svcform.yaml': MANAGE, 'keep.yaml': connectorYaml('soc-keep'), 'a.yaml': connectorYaml('soc-reviewed') });
    const planned = await cli(['plan', reviewedDir, '--url', emu.url, '--json']);
    const reviewed = join(reviewedDir, 'reviewed.json');
    writeFileSync(reviewed, planned.out);
    const merged = repo({ 'svcform.yaml': MANAGE, 'keep.yaml': connectorYaml('soc-keep'), 'a.yaml': connectorYaml('soc-reviewed'), 'b.yaml': connectorYaml('soc-unreviewed') });
    const run = await cli(['apply', merged, '--url', emu.url, '--if-matches', reviewed, '--json']);
    assert.equal(run.code, 1, run.out + run.err);
    assert.match(run.err, /not reviewed: create Connector\/soc-unreviewed/);
    const answer = JSON.parse(run.out);
    assert.equal(answer.refused, 'not_reviewed');
    assert.deepEqual(answer.results, []);
    assert.ok(!(await exists('soc-reviewed')) && !(await exists('soc-unreviewed')), 'nothing was applied');
  });
});
