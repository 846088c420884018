import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, ruleYaml } from '../helpers/repo.js';

/** Issue 33 part 1: `svcform promote --from staging --to prod` between two live environments. */
describe('promote', () => {
  let staging: RunningEmulator;
  let prod: RunningEmulator;
  let dir: string;
  before(async () => {
    [staging, prod] = await Promise.all([emulator(), emulator()]);
    dir = repo({
      'svcform.yaml': [
        'manage:',
        '  - kind: Rule',
        'environments:',
        '  staging:',
        `    url: ${staging.url}`,
        '  prod:',
        `    url: ${prod.url}`,
        '    overlays:',
        '      - select: {kind: Rule, name: r1}',
        '        values: {spec: {severity: high}}',
        '',
      ].join('\n'),
      'rules.yaml': ruleYaml('r1') + '---\n' + ruleYaml('r2'),
    });
    for (const env of ['staging', 'prod']) {
      const run = await cli(['apply', dir, '--env', env]);
      assert.equal(run.code, 0, run.out + run.err);
    }
  });
  after(async () => {
    await Promise.all([staging.stop(), prod.stop()]);
  });

  it('finds no difference where only an overlay sets a field differently', async () => {
    const run = await cli(['promote', dir, '--from', 'staging', '--to', 'prod', '--detailed-exitcode']);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, /No differences: prod matches staging/);
  });

  it('names exactly the object created in staging and the field changed in prod, and writes nothing', async () => {
    // Out of band: a rule created in staging by hand, a description edited in prod.
    const extra = await cli(['apply', repo({ 'x.yaml': ruleYaml('r-new') }), '--url', staging.url]);
    assert.equal(extra.code, 0, extra.out + extra.err);
    const edited = await cli(['apply', repo({ 'x.yaml': ruleYaml('r2').replace('description: d', 'description: edited in prod') }), '--url', prod.url]);
    assert.equal(edited.code, 0, edited.out + edited.err);

    const run = await cli(['promote', dir, '--from', 'staging', '--to', 'prod', '--json', '--detailed-exitcode']);
    assert.equal(run.code, 2, run.out + run.err);
    const plan = JSON.parse(run.out);
    assert.deepEqual(plan.promoted_from, { url: staging.url.replace(/\/$/, ''), environment: 'staging' });
    assert.equal(plan.target.environment, 'prod');
    assert.deepEqual(plan.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`).sort(), ['create Rule/r-new', 'update Rule/r2']);
    const update = plan.changes.find((c: any) => c.name === 'r2');
    assert.deepEqual(update.fields.map((f: any) => [f.pointer, f.before, f.after]), [['/description', 'edited in prod', 'd']]);

    const text = await cli(['promote', dir, '--from', 'staging', '--to', 'prod']);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /Promote staging -> prod: 2 changes would make prod match staging/);
    assert.match(text.out, /create Rule\/r-new/);

    const markdown = await cli(['promote', dir, '--from', 'staging', '--to', 'prod', '--format', 'markdown']);
    assert.equal(markdown.code, 0, markdown.err);
    assert.match(markdown.out, /^\*\*Promote staging → prod\*\*/);
    assert.match(markdown.out, /r-new/);

    // A review tool: prod still differs afterwards.
    const again = await cli(['promote', dir, '--from', 'staging', '--to', 'prod', '--json']);
    assert.equal(JSON.parse(again.out).changes.length, 2);
  });

  it('reverse direction: what prod has and staging lacks is a delete in staging', async () => {
    const run = await cli(['promote', dir, '--from', 'prod', '--to', 'staging', '--json']);
    assert.equal(run.code, 0, run.out + run.err);
    const plan = JSON.parse(run.out);
    assert.deepEqual(plan.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`).sort(), ['delete Rule/r-new', 'update Rule/r2']);
  });

  it('refuses unknown environments, the same one twice, and --env', async () => {
    const unknown = await cli(['promote', dir, '--from', 'qa', '--to', 'prod']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /--from qa: no such environment .*\(known: staging, prod\)/);
    const twice = await cli(['promote', dir, '--from', 'prod', '--to', 'prod']);
    assert.equal(twice.code, 1);
    assert.match(twice.err, /--from and --to are both prod/);
    const env = await cli(['promote', dir, '--from', 'staging', '--to', 'prod', '--env', 'prod']);
    assert.equal(env.code, 1);
    assert.match(env.err, /promote takes --from and --to, not --env/);
  });
});
