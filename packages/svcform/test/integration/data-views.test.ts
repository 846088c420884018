import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/** Issue 32: a rule's data_view_id names a DataView, or (as before) an index-pattern SavedObject. */

const dataViewYaml = (id: string) => ['apiVersion: svcform/v1', 'kind: DataView', `metadata: {name: ${id}}`, "spec: {title: 'logs-*', timeFieldName: '@timestamp'}", ''].join('\n');
const indexPatternYaml = (id: string) => ['apiVersion: svcform/v1', 'kind: SavedObject', `metadata: {name: ${id}}`, "spec: {type: index-pattern, attributes: {title: 'metrics-*'}}", ''].join('\n');
const ruleYaml = (name: string, dataView: string) =>
  ['apiVersion: svcform/v1', 'kind: Rule', `metadata: {name: ${name}}`, 'spec:', '  type: query', `  name: ${name}`, '  description: d', '  severity: low', '  risk_score: 1', "  query: 'a:b'", `  data_view_id: ${dataView}`, ''].join('\n');

describe('rules and data views', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));
  const run = (args: string[]) => cli([...args, '--url', emu.url]);
  const waves = (plan: any) => new Map(plan.changes.map((c: any) => [`${c.kind}/${c.name}`, c.wave]));

  for (const [kind, yaml] of [['DataView', dataViewYaml], ['SavedObject', indexPatternYaml]] as const) {
    it(`a rule naming a ${kind} of the run is written after it, with no missing-reference warning`, async () => {
      const dir = repo({ 'dv.yaml': yaml('team-dv'), 'rule.yaml': ruleYaml('uses-dv', 'team-dv') });
      const planned = await run(['plan', dir, '--json']);
      assert.equal(planned.code, 0, shown(planned));
      const plan = JSON.parse(planned.out);
      assert.deepEqual(plan.warnings, []);
      const w = waves(plan);
      assert.ok((w.get('Rule/uses-dv') as number) > (w.get(`${kind}/team-dv`) as number), planned.out);
      assert.equal((await run(['apply', dir])).code, 0);
      const again = await run(['plan', dir, '--detailed-exitcode']);
      assert.equal(again.code, 0, shown(again));
    });
  }

  it('a data view made on the server (either API) satisfies the reference; none warns naming DataView', async () => {
    const rule = repo({ 'rule.yaml': ruleYaml('uses-dv', 'server-dv') });
    const missing = JSON.parse((await run(['plan', rule, '--json'])).out);
    assert.match(missing.warnings[0].message, /^spec\.data_view_id names DataView "server-dv", which neither the manifests nor the server hold/);
    await call(emu, 'POST', '/api/saved_objects/index-pattern/server-dv', { attributes: { title: 'x-*' } });
    const found = JSON.parse((await run(['plan', rule, '--json'])).out);
    assert.deepEqual(found.warnings, []);
  });

  it('refuses to delete a data view a rule still names, whichever kind owns it', async () => {
    const dir = repo({ 'dv.yaml': dataViewYaml('team-dv'), 'rule.yaml': ruleYaml('uses-dv', 'team-dv') });
    assert.equal((await run(['apply', dir])).code, 0);
    const config = join(repo({}), 'svcform.yaml');
    writeFileSync(config, 'manage:\n  - kind: DataView\n');
    const planned = await run(['plan', repo({ 'rule.yaml': ruleYaml('uses-dv', 'team-dv') }), '--config', config]);
    assert.equal(planned.code, 1, shown(planned));
    assert.match(planned.out + planned.err, /DataView\/team-dv is used by Rule\/uses-dv/);
  });
});
