import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { connectorYaml, repo } from '../helpers/repo.js';
import { runBuiltCli } from '../helpers/spawn-cli.js';

/**
 * Issue "Safe apply", item 6: a plan made in one CI job applies in another checkout of the same
 * commit. Before, the saved plan held absolute paths of the first checkout.
 */
describe('saved plans are portable between checkouts', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  const artifacts = () => mkdtempSync(join(tmpdir(), 'svcform-artifacts-'));
  const exists = async (id: string) => (await call(emu, 'GET', `/api/actions/connector/${id}`)).status === 200;

  /** Plans in checkout A with `planArgs`, copies A to B, deletes A, and applies the saved plan from B; returns A's path and the plan's text. */
  async function planInAApplyInB(files: Record<string, string>, planArgs: string[]): Promise<{ a: string; saved: string }> {
    const a = repo(files, 'svcform-checkout-a-');
    const planFile = join(artifacts(), 'plan.json');
    const planned = await runBuiltCli(['plan', ...planArgs, '--url', emu.url, '--out', planFile], a);
    assert.equal(planned.code, 0, planned.out + planned.err);
    const saved = readFileSync(planFile, 'utf8');
    const b = mkdtempSync(join(tmpdir(), 'svcform-checkout-b-'));
    cpSync(a, b, { recursive: true });
    rmSync(a, { recursive: true });
    const applied = await runBuiltCli(['apply', '--plan', planFile], b);
    assert.equal(applied.code, 0, applied.out + applied.err);
    return { a, saved };
  }

  it('configuration beside the manifests: plan in A (plan infra/), copy to B, delete A, apply --plan from B', async () => {
    const { a, saved } = await planInAApplyInB({ 'infra/svcform.yaml': 'space: default\n', 'infra/connectors/c.yaml': connectorYaml('portable-a'), 'README.md': 'x\n' }, ['infra']);
    assert.ok(!saved.includes(a), 'the saved plan names no path of checkout A');
    assert.ok(await exists('portable-a'));
  });

  it('a plan made with --root applies in another checkout with that root, without --root again', async () => {
    // The manifest reads a file outside the configuration folder, which only --root allows.
    const manifest = ['apiVersion: svcform/v1', 'kind: Connector', 'metadata: {name: portable-root}', 'spec:', '  name: ${file:../shared/name.txt}', '  connector_type_id: .server-log', ''].join('\n');
    await planInAApplyInB({ 'infra/svcform.yaml': 'space: default\n', 'infra/c.yaml': manifest, 'shared/name.txt': 'from a shared file' }, ['infra', '--root', '.']);
    assert.ok(await exists('portable-root'));
  });

  it('configuration in the working directory: the same from the root of the checkout', async () => {
    await planInAApplyInB({ 'svcform.yaml': 'space: default\n', 'connectors/c.yaml': connectorYaml('portable-b') }, ['connectors']);
    assert.ok(await exists('portable-b'));
  });
});

describe('svcform show PLANFILE', () => {
  let emu: RunningEmulator;
  let planFile: string;
  before(async () => {
    emu = await emulator();
    const dir = repo({ 'c.yaml': connectorYaml('shown') });
    planFile = join(mkdtempSync(join(tmpdir(), 'svcform-show-')), 'plan.json');
    const planned = await cli(['plan', dir, '--url', emu.url, '--out', planFile]);
    assert.equal(planned.code, 0, planned.err);
  });
  after(() => emu.stop());

  it('renders the saved plan as text, JSON and markdown without contacting a server', async () => {
    await emu.stop();
    const text = await cli(['show', planFile, '--no-color']);
    assert.equal(text.code, 0, text.out + text.err);
    assert.match(text.out, /\+ create Connector\/shown \(space default\)/);
    assert.match(text.out, /Plan: 1 to create, 0 to update, 0 to delete, 0 unchanged/);
    const json = await cli(['show', planFile, '--json']);
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out), JSON.parse(readFileSync(planFile, 'utf8')).plan);
    const markdown = await cli(['show', planFile, '--format', 'markdown']);
    assert.equal(markdown.code, 0, markdown.err);
    assert.match(markdown.out, /### svcform plan/);
    assert.match(markdown.out, /create `Connector\/shown` in space `default`/);
  });

  it('refuses a file that is not a saved plan', async () => {
    const other = join(mkdtempSync(join(tmpdir(), 'svcform-show-')), 'x.json');
    cpSync(new URL('../../../package.json', import.meta.url), other);
    const run = await cli(['show', other]);
    assert.equal(run.code, 1);
    assert.match(run.err, /not a plan saved by svcform plan --out/);
  });
});

/**
 * A saved plan's fingerprints cover the live objects and the manifests; svcform.yaml decides the
 * plan too. A wider manage scope between plan and apply made the apply delete an object the saved
 * plan left alone, both fingerprints unchanged.
 */
describe('apply --plan applies the saved plan or nothing', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  const window = (name: string) => `apiVersion: svcform/v1\nkind: MaintenanceWindow\nmetadata:\n  name: ${name}\nspec:\n  schedule:\n    custom:\n      start: '2027-01-16T18:00:00Z'\n      duration: 1h\n`;

  it('refuses when svcform.yaml changed what the same state and manifests plan', async () => {
    assert.equal((await runBuiltCli(['apply', '.', '--url', emu.url, '--auto-approve'], repo({ 'w.yaml': window('Stray window') }))).code, 0);
    const dir = repo({ 'svcform.yaml': 'manage:\n  - kind: MaintenanceWindow\n    selector: {names: [Patching]}\n', 'w.yaml': window('Patching') });
    const planFile = join(mkdtempSync(join(tmpdir(), 'svcform-artifacts-')), 'plan.json');
    const planned = await runBuiltCli(['plan', '.', '--url', emu.url, '--out', planFile], dir);
    assert.match(planned.out, /Plan: 1 to create, 0 to update, 0 to delete/, planned.out + planned.err);
    writeFileSync(join(dir, 'svcform.yaml'), 'manage:\n  - kind: MaintenanceWindow\n');
    const refused = await runBuiltCli(['apply', '--plan', planFile, '--json'], dir);
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.out).refused, 'plan_changed');
    assert.match(refused.err, /plan other changes than the plan in .*: applied now, the plan would differ: now delete MaintenanceWindow\/Stray window \(space default\); nothing was applied/);
    const after = await runBuiltCli(['plan', '.', '--url', emu.url], dir);
    assert.match(after.out, /Plan: 1 to create, 0 to update, 1 to delete/, 'nothing was written');
    // The saved plan of the same configuration applies.
    const again = await runBuiltCli(['plan', '.', '--url', emu.url, '--out', planFile], dir);
    assert.equal(again.code, 0, again.err);
    const applied = await runBuiltCli(['apply', '--plan', planFile], dir);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /Apply: 2 done, 0 failed/);
  });
});
