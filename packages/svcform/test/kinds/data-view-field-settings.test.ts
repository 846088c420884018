import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * A data view's field filters (`sourceFilters`) and field attributes (`fieldAttrs`: custom labels
 * and descriptions, and the popularity `count` the UI raises as fields are used), which the data
 * views routes take and answer (OAS Data_views_create_data_view_request_object_inner,
 * Data_views_sourcefilters, Data_views_fieldattrs) and the Terraform provider's acceptance
 * configurations declare (kibana/dataview testdata). svcform refused both at validate, so such a
 * data view could not be declared, and an export dropped them.
 */

const view = (extra = '') => `apiVersion: svcform/v1
kind: DataView
metadata:
  name: web-logs
spec:
  title: logs-web-*
  name: Web logs
  timeFieldName: '@timestamp'
${extra}`;

const SETTINGS = `  sourceFilters:
    - {value: 'user.*'}
    - {value: '*.keyword'}
  fieldAttrs:
    url.original: {customLabel: URL, customDescription: The URL as requested}
`;

describe('DataView: source filters and field attributes', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  const run = (args: string[]) => cli([...args, '--url', emu.url]);

  it('applies them, plans nothing after, and a popularity count the UI adds or a filter id is not drift', async () => {
    const dir = repo({ 'dv.yaml': view(SETTINGS) });
    const applied = await run(['apply', dir]);
    assert.equal(applied.code, 0, shown(applied));
    const live = (await call(emu, 'GET', '/api/data_views/data_view/web-logs')).body.data_view;
    assert.deepEqual(live.sourceFilters, [{ value: 'user.*' }, { value: '*.keyword' }]);
    assert.equal(live.fieldAttrs['url.original'].customLabel, 'URL');
    // Discover counts the fields used; the UI gives each field filter a client id and keeps its own order.
    const used = await call(emu, 'POST', '/api/data_views/data_view/web-logs', {
      data_view: {
        sourceFilters: [{ value: '*.keyword', clientId: 17 }, { value: 'user.*', clientId: 'a1' }],
        fieldAttrs: { 'url.original': { customLabel: 'URL', customDescription: 'The URL as requested', count: 4 }, 'host.name': { count: 2 } },
      },
    });
    assert.equal(used.status, 200, used.text);
    const planned = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });

  it('shows and writes a changed label and filter; left out of a manifest, the server\'s stay as they are', async () => {
    const changed = repo({ 'dv.yaml': view(SETTINGS.replace("{value: '*.keyword'}", "{value: '*.text'}").replace('customLabel: URL', 'customLabel: Requested URL')) });
    const planned = await run(['plan', changed, '--json']);
    assert.equal(planned.code, 0, shown(planned));
    const fields = JSON.parse(planned.out).changes[0].fields.map((f: any) => f.pointer).sort();
    assert.deepEqual(fields, ['/fieldAttrs/url.original/customLabel', '/sourceFilters']);
    assert.equal((await run(['apply', changed])).code, 0);
    assert.equal((await run(['plan', changed, '--detailed-exitcode'])).code, 0);
    const without = await run(['plan', repo({ 'dv.yaml': view() }), '--detailed-exitcode']);
    assert.equal(without.code, 0, shown(without));
  });

  it('export writes the filters and the labels, not the popularity counts', async () => {
    const out = repo({});
    const exported = await run(['export', '--kind', 'DataView', '--out', out]);
    assert.equal(exported.code, 0, shown(exported));
    const text = readFileSync(`${out}/default/data-view.yaml`, 'utf8');
    assert.match(text, /sourceFilters:\n\s+- value: "\*\.text"\n\s+- value: user\.\*\n/);
    assert.match(text, /customLabel: Requested URL/);
    assert.doesNotMatch(text, /count|clientId|host\.name/);
    assert.equal((await run(['plan', out, '--detailed-exitcode'])).code, 0);
  });
});
