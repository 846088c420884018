import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { githubAnnotation } from '../../src/cli/validate.js';
import { displayPath } from '../../src/manifest/load.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { connectorYaml, repo, ruleYaml } from '../helpers/repo.js';

/** Issue 30: `validate --format github` for the kit's annotations, `--hide-target` for its plan comment. */
describe('validate --format github: workflow-command annotations', () => {
  it('escapes as the runner reads them back: %, CR, LF in the message; also : and , in properties', () => {
    const line = githubAnnotation({ severity: 'error', pos: { file: 'a,b:c%.yaml', line: 3, col: 7 }, subject: 'Rule/x', message: '50% of\r\nit' });
    assert.equal(line, '::error file=a%2Cb%3Ac%25.yaml,line=3,col=7,title=Rule/x::Rule/x: 50%25 of%0D%0Ait');
    const warning = githubAnnotation({ severity: 'warning', pos: { file: 'f.yaml', line: 1, col: 1 }, message: 'no subject' });
    assert.equal(warning, '::warning file=f.yaml,line=1,col=1::no subject');
  });

  it('one annotation per finding on stdout, errors and warnings, at file, line and column; exit 1 on errors', async () => {
    const bad = ruleYaml('r1').replace('risk_score: 1', 'risk_score: 101');
    const warned = ruleYaml('r2', 'nowhere');
    const dir = repo({ 'bad.yaml': bad, 'warned.yaml': warned });
    const run = await cli(['validate', dir, '--format', 'github']);
    assert.equal(run.code, 1);
    const lines = run.out.split('\n');
    // Paths as every other output shows them (relative to the working directory): GitHub places annotations by repository path.
    const file = (name: string) => displayPath(join(dir, name)).replace(/:/g, '%3A').replace(/,/g, '%2C');
    assert.ok(lines.includes(`::error file=${file('bad.yaml')},line=9,col=3,title=Rule/r1::Rule/r1: spec.risk_score must be <= 100`), run.out);
    assert.ok(lines.some((l) => l.startsWith(`::warning file=${file('warned.yaml')},line=12,col=7,title=Rule/r2::Rule/r2: spec.actions[0].id names Connector "nowhere"`)), run.out);
    assert.doesNotMatch(run.err, /risk_score/, 'not repeated as text');
    const clean = await cli(['validate', repo({ 'c.yaml': connectorYaml('c1') }), '--format', 'github']);
    assert.equal(clean.code, 0);
    assert.doesNotMatch(clean.out, /^::/m);
  });

  it('repeats of one cause are one annotation naming the others, as text folds them: GitHub shows ten a step', async () => {
    // The same shell-style ${TEAM} in twelve rules, and one error: GitHub would show the first ten
    // warnings and none of what follows them.
    const files: Record<string, string> = { 'bad.yaml': ruleYaml('r0').replace('risk_score: 1', 'risk_score: 101') };
    for (let n = 1; n <= 12; n++) files[`team-${String(n).padStart(2, '0')}.yaml`] = ruleYaml(`r${n}`).replace('description: d', 'description: owned by ${TEAM}');
    const dir = repo(files);
    const run = await cli(['validate', dir, '--format', 'github']);
    assert.equal(run.code, 1);
    const lines = run.out.split('\n').filter((l) => l.startsWith('::'));
    const file = (name: string) => displayPath(join(dir, name)).replace(/:/g, '%3A').replace(/,/g, '%2C');
    assert.equal(lines.length, 2, run.out);
    assert.ok(lines[0]!.startsWith(`::error file=${file('bad.yaml')},line=9,col=3,`), run.out);
    assert.match(lines[1]!, new RegExp(`^::warning file=${file('team-01.yaml').replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')},line=7,col=3,title=Rule/r1::Rule/r1: \\$\\{TEAM\\} is not interpolated .* \\[and 11 more: .*team-02\\.yaml:7, .*team-03\\.yaml:7, .*team-04\\.yaml:7, …; --json lists every one\\]$`));
  });

  it('more than GitHub shows: every annotation, then a notice of how many are only in the log', async () => {
    const files: Record<string, string> = {};
    for (let n = 1; n <= 12; n++) files[`bad-${String(n).padStart(2, '0')}.yaml`] = ruleYaml(`r${n}`).replace('risk_score: 1', 'risk_score: 101');
    const run = await cli(['validate', repo(files), '--format', 'github']);
    assert.equal(run.code, 1);
    const lines = run.out.split('\n').filter((l) => l.startsWith('::'));
    assert.equal(lines.filter((l) => l.startsWith('::error ')).length, 12, run.out);
    assert.equal(lines.at(-1), '::notice title=svcform::GitHub annotates 10 findings of each kind a step: 2 of these 12 errors are only in this step\'s log (svcform validate --json lists every finding)');
    const few = await cli(['validate', repo({ 'bad.yaml': files['bad-01.yaml']! }), '--format', 'github']);
    assert.doesNotMatch(few.out, /::notice/);
  });
});

describe('plan --hide-target: the Markdown plan without the target URL', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('leaves the Target line out of plan and drift Markdown and of show; without the flag it is there', async () => {
    const dir = repo({ 'c.yaml': connectorYaml('c1') });
    const planFile = join(mkdtempSync(join(tmpdir(), 'svcform-hide-')), 'plan.json');
    const shown = await cli(['plan', dir, '--format', 'markdown', '--out', planFile], { SVC_URL: emu.url });
    assert.match(shown.out, new RegExp(`Target: \`${emu.url}\``));
    for (const args of [['plan', dir, '--format', 'markdown', '--hide-target'], ['drift', dir, '--format', 'markdown', '--hide-target'], ['show', planFile, '--format', 'markdown', '--hide-target']]) {
      const run = await cli(args, { SVC_URL: emu.url });
      assert.match(run.out, /^### svcform (plan|drift)\n\n(Drift: .*\n\n)?\| create/, args.join(' '));
      assert.ok(!run.out.includes(emu.url) && !run.out.includes(`127.0.0.1:${emu.port}`), args.join(' '));
      assert.match(run.out, /Plan: 1 to create/);
    }
    // The HTML page likewise (issue 33 part 5).
    for (const args of [['plan', dir, '--format', 'html'], ['drift', dir, '--format', 'html'], ['show', planFile, '--format', 'html']]) {
      assert.ok((await cli(args, { SVC_URL: emu.url })).out.includes(`Target: <code>${emu.url}</code>`), args.join(' '));
      const hidden = await cli([...args, '--hide-target'], { SVC_URL: emu.url });
      assert.match(hidden.out, /^<!DOCTYPE html>/, args.join(' '));
      assert.ok(!hidden.out.includes(emu.url) && !hidden.out.includes(`127.0.0.1:${emu.port}`) && !hidden.out.includes('Target:'), args.join(' '));
    }
  });
});
