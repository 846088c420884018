import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

const TEMPLATE = `apiVersion: svcform/v1
kind: TimelineTemplate
metadata: {name: process-tree}
spec:
  title: Process tree
  description: Parent and child processes of the alerted host.
  indexNames: [logs-endpoint.events.process-*]
`;
const RULE = `apiVersion: svcform/v1
kind: Rule
metadata: {name: uses-template}
spec:
  type: query
  name: Uses a template
  description: d
  severity: low
  risk_score: 1
  query: 'process.name:*'
  timeline_id: process-tree
  timeline_title: Process tree
`;

describe('TimelineTemplate: apply, plan empty, drift, and rules that name it', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((running) => (emu = running));
  const run = (args: string[]) => cli([...args, '--url', emu.url]);

  for (const routes of [[], ['timelines.camel-case']]) {
    it(`converges against ${routes.length ? 'the real routes (camel case)' : 'service-api.md (snake case)'}; an out-of-band title change is drift`, async () => {
      await call(emu, 'PUT', '/__emulator/real-routes', { routes });
      const dir = repo({ 't.yaml': TEMPLATE, 'r.yaml': RULE });
      const plan = JSON.parse((await run(['plan', dir, '--json'])).out);
      const waves = Object.fromEntries(plan.changes.map((c: any) => [c.kind, c.wave]));
      assert.ok(waves.TimelineTemplate < waves.Rule, `the template comes first: ${JSON.stringify(waves)}`);
      const applied = await run(['apply', dir]);
      assert.equal(applied.code, 0, applied.out + applied.err);
      assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);

      const t = (await call(emu, 'GET', '/api/timeline?template_timeline_id=process-tree')).body;
      const ids = routes.length ? { timelineId: t.savedObjectId } : { timeline_id: t.savedObjectId };
      assert.equal((await call(emu, 'PATCH', '/api/timeline', { ...ids, version: t.version, timeline: { title: 'Renamed', templateTimelineVersion: 2 } })).status, 200);
      const drift = await run(['plan', dir, '--json']);
      const changed = JSON.parse(drift.out).changes;
      assert.deepEqual(changed.map((c: any) => [c.kind, c.fields.map((f: any) => f.pointer)]), [['TimelineTemplate', ['/title']]]);
      assert.equal((await run(['apply', dir])).code, 0);
      const after = (await call(emu, 'GET', '/api/timeline?template_timeline_id=process-tree')).body;
      assert.deepEqual([after.title, after.templateTimelineVersion], ['Process tree', 3]);
      assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);
    });
  }

  it('takes what the timeline route takes (OAS Security_Timeline_API_SavedTimeline: title, kqlMode, dataViewId and indexNames free, nullable strings): no title, empty names, and a kqlMode other than filter or search, which is a warning', async () => {
    const loose = ['apiVersion: svcform/v1', 'kind: TimelineTemplate', 'metadata: {name: loose}', 'spec:', '  description: No title yet.', '  kqlMode: query', "  dataViewId: ''", "  indexNames: ['']", ''].join('\n');
    const dir = repo({ 'loose.yaml': loose });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 0, validated.out + validated.err);
    assert.match(validated.err, /6:3: warning: TimelineTemplate\/loose: kqlMode "query" is neither filter nor search, the timeline's two modes; the server stores it as written/);
    assert.match(validated.out, /valid \(0 errors, 1 warning/);
    const applied = await run(['apply', dir]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await run(['plan', dir, '--detailed-exitcode'])).code, 0);
  });

  it('a rule naming a template that exists nowhere is a plan warning (wire-facts §16 #8)', async () => {
    const planned = await run(['plan', repo({ 'r.yaml': RULE })]);
    assert.equal(planned.code, 0, planned.out + planned.err);
    assert.match(planned.out, /warning: .*spec\.timeline_id names TimelineTemplate "process-tree", which neither the manifests nor the server hold; the server accepts this/);
  });
});
