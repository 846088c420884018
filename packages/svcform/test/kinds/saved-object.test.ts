import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { adapterTestBed } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { repo, writeFiles } from '../helpers/repo.js';
import { savedObjectAdapter as adapter } from '../../src/kinds/saved-object.js';
import type { AdapterContext } from '../../src/kinds/types.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

const SO = '/api/saved_objects';
const MANAGE = 'manage:\n  - kind: SavedObject\n    selector: {namePrefix: "soc-"}\n  - kind: Rule\n    selector: {tags: [managed]}\n';

const dataView = (title = 'logs-web-*') => `apiVersion: svcform/v1
kind: SavedObject
metadata:
  name: soc-web
spec:
  type: index-pattern
  attributes:
    title: ${title}
    timeFieldName: '@timestamp'
`;

const rule = `apiVersion: svcform/v1
kind: Rule
metadata:
  name: web-shell
spec:
  type: query
  name: Web shell upload
  description: d
  severity: high
  risk_score: 73
  language: kuery
  data_view_id: soc-web
  query: 'url.extension : "php"'
  tags: [managed]
`;

describe('SavedObject kind', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  adapterTestBed((e, c) => {
    emu = e;
    ctx = c;
  });

  it('updates with the version the plan read: a change made since then is a 409, not overwritten', async () => {
    const res = resource('SavedObject', 'soc-tag', { type: 'tag', attributes: { name: 'SOC', color: '#111111', description: '' } });
    await adapter.create(ctx, res);
    const [planned] = await adapter.list(ctx, 'default');
    // Someone edits the tag between plan and apply.
    const edited = await call(emu, 'PUT', `${SO}/tag/soc-tag`, { attributes: { color: '#999999' } });
    assert.equal(edited.status, 200);
    const desired = resource('SavedObject', 'soc-tag', { type: 'tag', attributes: { name: 'SOC team', color: '#111111', description: '' } });
    await assert.rejects(adapter.update(ctx, desired, planned, { rotateSecrets: false }), /-> 409: Saved object \[tag\/soc-tag\] conflict/);
    assert.equal((await call(emu, 'GET', `${SO}/tag/soc-tag`)).body.attributes.color, '#999999', 'the edit survived');
    // Read again, the update goes through.
    const [fresh] = await adapter.list(ctx, 'default');
    await adapter.update(ctx, desired, fresh, { rotateSecrets: false });
    const [after] = await adapter.list(ctx, 'default');
    assert.deepEqual(adapter.normalizeLive(after, RUN), adapter.normalizeDesired(desired, RUN));
  });

  it('clears an attribute the manifest drops (the update merges, so it sends null)', async () => {
    await adapter.create(ctx, resource('SavedObject', 'soc-v', { type: 'index-pattern', attributes: { title: 'a-*', timeFieldName: '@timestamp' } }));
    const [live] = await adapter.list(ctx, 'default');
    const desired = resource('SavedObject', 'soc-v', { type: 'index-pattern', attributes: { title: 'a-*' } });
    await adapter.update(ctx, desired, live, { rotateSecrets: false });
    const [after] = await adapter.list(ctx, 'default');
    assert.deepEqual(adapter.normalizeLive(after, RUN), adapter.normalizeDesired(desired, RUN));
  });

  it("writes the data view a rule's data_view_id names before the rule, and plans empty", async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'a-rule.yaml': rule, 'z-view.yaml': dataView() });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const order = emu.log.all().filter((r) => r.method === 'POST' && !r.path.includes('lease')).map((r) => r.path);
    assert.deepEqual(order, [`${SO}/index-pattern/soc-web`, '/api/detection_engine/rules']);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('refuses to delete a data view a rule still names (engine/references.ts)', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'rule.yaml': rule, 'view.yaml': dataView() });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    rmSync(join(dir, 'view.yaml'));
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 1, plan.out + plan.err);
    assert.match(plan.out + plan.err, /SavedObject\/soc-web is used by Rule\/web-shell \(space default\): its manifest names it at spec\.data_view_id/);
    writeFiles(dir, { 'view.yaml': dataView('logs-web-*,logs-proxy-*') });
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('takes a reference to a type svcform does not manage (a dashboard links panel), warns of nothing, and plans empty (OAS: reference items untyped; emulator saved-objects.ts: any type)', async () => {
    const dashboard = `apiVersion: svcform/v1
kind: SavedObject
metadata:
  name: soc-overview
spec:
  type: dashboard
  attributes:
    title: SOC overview
  references:
    - {name: 'panel_0', type: links, id: nav-links-1}
    - {name: 'panel_1', type: index-pattern, id: soc-web}
`;
    const dir = repo({ 'svcform.yaml': MANAGE, 'dashboard.yaml': dashboard, 'view.yaml': dataView() });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    // The managed data view is still a dependency: written first. The links object is nobody's to check.
    const order = emu.log.all().filter((r) => r.method === 'POST' && !r.path.includes('lease')).map((r) => r.path);
    assert.deepEqual(order, [`${SO}/index-pattern/soc-web`, `${SO}/dashboard/soc-overview`]);
    assert.doesNotMatch(applied.out + applied.err, /warning/);
    const stored = await call(emu, 'GET', `${SO}/dashboard/soc-overview`);
    assert.deepEqual(stored.body.references.map((r: any) => r.type).sort(), ['index-pattern', 'links']);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});
