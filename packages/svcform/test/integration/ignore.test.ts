import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-ignore-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('ignored fields survive apply, whatever the update verb (issue: plan must be what apply does)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('a saved query whose description is owned outside Git keeps it when its query changes', async () => {
    const created = await call(emu, 'POST', '/api/hostquery/saved_queries', { id: 'users-query', query: 'SELECT * FROM users;', interval: '3600', description: 'Owned by the UI team' });
    assert.equal(created.status, 200, created.text);
    const dir = repo({
      'q.yaml': [
        'apiVersion: svcform/v1',
        'kind: HostQuerySavedQuery',
        'metadata:',
        '  name: users-query',
        '  ignore: [/spec/description]',
        'spec:',
        "  query: 'SELECT uid FROM users;'",
        '  interval: 3600',
        '',
      ].join('\n'),
    });
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 0, plan.err);
    assert.match(plan.out, /spec\.query/);
    assert.doesNotMatch(plan.out, /description/);
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const found = await call(emu, 'GET', '/api/hostquery/saved_queries');
    const query = found.body.data.find((q: any) => q.id === 'users-query');
    assert.equal(query.query, 'SELECT uid FROM users;');
    assert.equal(query.description, 'Owned by the UI team');
    const again = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(again.code, 0, again.out);
  });

  it('an ignore rule in svcform.yaml works like metadata.ignore for every object of the kind', async () => {
    const created = await call(emu, 'POST', '/api/hostquery/saved_queries', { id: 'groups-query', query: 'SELECT * FROM groups;', interval: '60', description: 'Set in the UI' });
    assert.equal(created.status, 200, created.text);
    const dir = repo({
      'svcform.yaml': 'ignore:\n  - kind: HostQuerySavedQuery\n    pointers: [/spec/description]\n',
      'q.yaml': ['apiVersion: svcform/v1', 'kind: HostQuerySavedQuery', 'metadata: {name: groups-query}', 'spec:', "  query: 'SELECT gid FROM groups;'", '  interval: 60', ''].join('\n'),
    });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const found = await call(emu, 'GET', '/api/hostquery/saved_queries');
    const query = found.body.data.find((q: any) => q.id === 'groups-query');
    assert.equal(query.query, 'SELECT gid FROM groups;');
    assert.equal(query.description, 'Set in the UI');
  });

  it('rejects an ignore rule that is not a pointer into spec, at its line', async () => {
    const dir = repo({
      'svcform.yaml': 'ignore:\n  - kind: Rule\n    pointers: [enabled]\n',
      'q.yaml': ['apiVersion: svcform/v1', 'kind: HostQuerySavedQuery', 'metadata: {name: x}', 'spec: {query: select 1, interval: 60}', ''].join('\n'),
    });
    const planned = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(planned.code, 1);
    assert.match(planned.err, /svcform\.yaml:3:\d+: ignore\[0\]\.pointers\[0\] must be a JSON Pointer into the manifest's spec/);
  });
});
