import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator, KEYS } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, ruleYaml } from '../helpers/repo.js';

/** Issue 33 part 1: `environments:` in svcform.yaml, `--env NAME`, and their overlays. */

/** svcform.yaml with a dev and a prod environment; dev disables every rule, prod pages through another connector. */
function config(dev: string, prod: string, extra = ''): string {
  return [
    'environments:',
    '  dev:',
    `    url: ${dev}`,
    '    overlays:',
    '      - select: {kind: Rule}',
    '        values: {spec: {enabled: false}}',
    '  prod:',
    `    url: ${prod}`,
    '    overlays:',
    '      - select: {kind: Rule, name: "net-*"}',
    '        patch:',
    '          - {op: replace, path: /spec/severity, value: high}',
    extra,
  ].join('\n');
}

/** A rule enabled as written (the server's default is disabled). */
const enabledRule = (name: string) => ruleYaml(name) + '  enabled: true\n';
const change = (plan: any, name: string) => plan.changes.find((c: any) => c.name === name);

describe('--env: one repository, several targets', () => {
  let dev: RunningEmulator;
  let prod: RunningEmulator;
  let dir: string;
  before(async () => {
    [dev, prod] = await Promise.all([emulator(), emulator()]);
    dir = repo({ 'svcform.yaml': config(dev.url, prod.url), 'r.yaml': enabledRule('net-scan'), 'q.yaml': enabledRule('quiet') });
  });
  after(async () => {
    await Promise.all([dev.stop(), prod.stop()]);
  });

  it('an overlay changes its field in its environment only', async () => {
    const d = await cli(['plan', dir, '--env', 'dev', '--json']);
    assert.equal(d.code, 0, d.err);
    const devPlan = JSON.parse(d.out);
    assert.equal(devPlan.target.url, dev.url.replace(/\/$/, ''));
    assert.equal(devPlan.target.environment, 'dev');
    assert.equal(change(devPlan, 'net-scan').after.enabled, false);
    assert.equal(change(devPlan, 'quiet').after.enabled, false);
    assert.equal(change(devPlan, 'net-scan').after.severity, 'low');

    const p = await cli(['plan', dir, '--env', 'prod', '--json']);
    assert.equal(p.code, 0, p.err);
    const prodPlan = JSON.parse(p.out);
    assert.equal(prodPlan.target.url, prod.url.replace(/\/$/, ''));
    assert.equal(change(prodPlan, 'net-scan').after.enabled, true);
    assert.equal(change(prodPlan, 'net-scan').after.severity, 'high');
    // The selector's name glob leaves the other rule as written.
    assert.equal(change(prodPlan, 'quiet').after.severity, 'low');
  });

  it('without --env nothing changes: the manifests as written, at the URL given', async () => {
    const run = await cli(['plan', dir, '--url', dev.url, '--json']);
    assert.equal(run.code, 0, run.err);
    const plan = JSON.parse(run.out);
    assert.equal(change(plan, 'net-scan').after.enabled, true);
    assert.equal(plan.target.environment, undefined);
  });

  it('apply --env writes to that environment only, and drift --env checks it', async () => {
    const applied = await cli(['apply', dir, '--env', 'dev']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const devDrift = await cli(['drift', dir, '--env', 'dev']);
    assert.equal(devDrift.code, 0, devDrift.out + devDrift.err);
    assert.match(devDrift.out, /No drift/);
    // prod has nothing yet: its drift names both rules, with its own overlay's value.
    const prodDrift = await cli(['drift', dir, '--env', 'prod', '--json']);
    assert.equal(prodDrift.code, 2, prodDrift.out + prodDrift.err);
    assert.deepEqual(JSON.parse(prodDrift.out).changes.map((c: any) => `${c.action} ${c.name}`).sort(), ['create net-scan', 'create quiet']);
  });

  it('a plan saved with --env applies to that environment, and to no other', async () => {
    const file = join(dir, 'prod.plan.json');
    const saved = await cli(['plan', dir, '--env', 'prod', '--out', file]);
    assert.equal(saved.code, 0, saved.err);
    const elsewhere = await cli(['apply', '--plan', file, '--env', 'dev']);
    assert.equal(elsewhere.code, 1);
    assert.match(elsewhere.err, /--env dev: the plan in .* was made for environment prod; nothing was applied/);
    const applied = await cli(['apply', '--plan', file], { SVC_URL: dev.url });
    assert.equal(applied.code, 0, applied.out + applied.err);
    const drift = await cli(['drift', dir, '--env', 'prod']);
    assert.equal(drift.code, 0, drift.out + drift.err);
  });

  it('an unknown --env is a usage error listing the known ones', async () => {
    for (const command of ['validate', 'plan', 'apply', 'drift']) {
      const run = await cli([command, dir, '--env', 'qa']);
      assert.equal(run.code, 1, command);
      assert.match(run.err, /--env qa: no such environment in .*svcform\.yaml \(known: dev, prod\)/, command);
    }
  });

  it('--env and --url together are refused: a write must not guess its target', async () => {
    const run = await cli(['plan', dir, '--env', 'dev', '--url', prod.url]);
    assert.equal(run.code, 1);
    assert.match(run.err, /--url and --env dev both name a target/);
  });

  it('SVC_URL set for another target does not redirect an environment', async () => {
    const run = await cli(['plan', dir, '--env', 'prod', '--json'], { SVC_URL: dev.url });
    assert.equal(run.code, 0, run.err);
    assert.equal(JSON.parse(run.out).target.url, prod.url.replace(/\/$/, ''));
  });
});

describe('--env: where findings point', () => {
  it('a value an overlay introduced is reported at the overlay line; the manifest\'s own at the manifest', async () => {
    const dir = repo({
      'svcform.yaml': ['environments:', '  dev:', '    url: http://127.0.0.1:1', '    overlays:', '      - select: {kind: Rule}', '        values:', '          spec: {severity: extreme}', ''].join('\n'),
      'r.yaml': ruleYaml('r1').replace('risk_score: 1', 'risk_score: 1000'),
    });
    const run = await cli(['validate', dir, '--env', 'dev']);
    assert.equal(run.code, 1, run.out + run.err);
    assert.match(run.err, /svcform\.yaml:7:\d+: .*severity/);
    assert.match(run.err, /r\.yaml:9:\d+: .*risk_score/);
    // As written, only the manifest's own mistake.
    const plain = await cli(['validate', dir]);
    assert.doesNotMatch(plain.err, /svcform\.yaml/);
    assert.match(plain.err, /r\.yaml:9/);
  });

  it('an overlay that matches nothing is a warning naming its line', async () => {
    const dir = repo({
      'svcform.yaml': ['environments:', '  dev:', '    url: http://127.0.0.1:1', '    overlays:', '      - select: {kind: Rule, name: "typo-*"}', '        values: {spec: {enabled: false}}', ''].join('\n'),
      'r.yaml': ruleYaml('r1'),
    });
    const run = await cli(['validate', dir, '--env', 'dev']);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.err, /svcform\.yaml:5:\d+: warning: environment dev, overlay 1 matches no manifest/);
  });

  it('a patch that fails names the environment, overlay, manifest and field, and the run stops', async () => {
    const dir = repo({
      'svcform.yaml': ['environments:', '  prod:', '    url: http://127.0.0.1:1', '    overlays:', '      - select: {kind: Rule}', '        patch:', '          - {op: replace, path: /spec/actions/0/id, value: pager}', ''].join('\n'),
      'r.yaml': ruleYaml('r1'),
    });
    const run = await cli(['plan', dir, '--env', 'prod']);
    assert.equal(run.code, 1, run.out + run.err);
    assert.match(run.err, /svcform\.yaml:7:\d+: .*environment prod, overlay 1: patch\[0\] replace \/spec\/actions\/0\/id on Rule\/r1 \(.*r\.yaml:1\): the path does not exist/);
    assert.match(run.err, /nothing was sent to the server/);
  });
});

describe('environments: bad entries', () => {
  const check = async (lines: string[], expected: RegExp[]) => {
    const dir = repo({ 'svcform.yaml': lines.join('\n') + '\n', 'r.yaml': ruleYaml('r1') });
    const run = await cli(['validate', dir, '--env', 'dev']);
    assert.equal(run.code, 1, run.out + run.err);
    for (const e of expected) assert.match(run.err, e);
    return run;
  };

  it('names the file, line and field of each mistake', async () => {
    await check(
      ['environments:', '  dev:', '    ur: http://x', '    overlays:', '      - select: {kind: Rul}', '        values: {spec: {enabled: false}}', '      - select: {kind: Rule}', '      - select: {kind: Rule}', '        patch:', '          - {op: replace, path: /metadata/name, value: x}'],
      [
        /svcform\.yaml:3:5: environments\.dev\.ur is not a known setting \(url, space, credentials, overlays\)/,
        /svcform\.yaml:2:\d+: environments\.dev\.url is required/,
        /svcform\.yaml:5:\d+: environments\.dev\.overlays\[0\]\.select\.kind: "Rul" is not a known kind/,
        /svcform\.yaml:7:\d+: environments\.dev\.overlays\[1\] needs values .* or patch/,
        /svcform\.yaml:10:\d+: environments\.dev\.overlays\[2\]\.patch\[0\]\.path: an overlay may change only/,
      ],
    );
  });

  it('credentials name variables; a secret pasted there is refused and never printed', async () => {
    const run = await check(['environments:', '  dev:', '    url: http://x', '    credentials: {apiKey: "c2VjcmV0OmtleQ=="}'], [/svcform\.yaml:4:\d+: environments\.dev\.credentials\.apiKey must name an environment variable/]);
    assert.doesNotMatch(run.err + run.out, /c2VjcmV0OmtleQ/);
  });
});

describe('environments: credentials from the variables they name', () => {
  let server: RunningEmulator;
  before(async () => {
    server = await emulator({ credentials: KEYS.credentials });
  });
  after(() => server.stop());

  it('sends the key the environment names, not SVC_API_KEY, and says which variable is unset', async () => {
    const dir = repo({ 'svcform.yaml': ['environments:', '  prod:', `    url: ${server.url}`, '    credentials: {apiKey: PROD_KEY}', ''].join('\n'), 'r.yaml': ruleYaml('r1') });
    const unset = await cli(['plan', dir, '--env', 'prod'], { SVC_API_KEY: 'full' });
    assert.equal(unset.code, 1);
    assert.match(unset.err, /environment prod: credentials\.apiKey names PROD_KEY, which is not set/);
    const wrong = await cli(['plan', dir, '--env', 'prod'], { PROD_KEY: 'nope', SVC_API_KEY: 'full' });
    assert.equal(wrong.code, 1, wrong.out + wrong.err);
    const right = await cli(['plan', dir, '--env', 'prod'], { PROD_KEY: 'full' });
    assert.equal(right.code, 0, right.out + right.err);
    assert.match(right.out, /create Rule\/r1/);
  });
});
