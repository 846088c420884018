import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';

/**
 * The exception item update route keeps what it is not sent and never drops a comment: stored
 * comments stay and only comments without an id are added, after them (lists plugin
 * exception_lists/utils transformUpdateCommentsToComments); tags, meta and expire_time left out
 * stay as stored and meta is merged (a saved-object partial update). svcform had rewritten and
 * dropped comments through the update, which the real server ignores: a plan that never settled,
 * and a changed comment added again on every apply.
 */

const ITEMS = '/api/exception_lists/items';

function listYaml(item: string): string {
  return ['apiVersion: svcform/v1', 'kind: ExceptionList', 'metadata: {name: soc-allow}', 'spec:', '  type: detection', '  name: SOC allow',
    '  description: d', '  items:', '    - item_id: scanner', '      name: Scanner', '      description: Weekly scan',
    '      entries: [{field: source.ip, type: match, operator: included, value: 10.0.0.5}]', item].join('\n') + '\n';
}

describe('exception item updates as the route makes them', () => {
  let emu: RunningEmulator;
  let dir: string;
  const stored = async () => (await call(emu, 'GET', `${ITEMS}?item_id=scanner&namespace_type=single`)).body;
  const writes = () => emu.log.all().filter((r) => r.route === ITEMS && r.method !== 'GET').map((r) => r.method);
  const applyThenPlanEmpty = async (item: string) => {
    writeFiles(dir, { 'list.yaml': listYaml(item) });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  };

  before(async () => {
    emu = await emulator();
    dir = repo({});
    await applyThenPlanEmpty(['      tags: [weekly]', '      expire_time: "2031-01-01T00:00:00.000Z"', '      meta: {owner: soc, ticket: SEC-1}', '      comments:', '        - comment: Approved by the SOC lead'].join('\n'));
  });
  after(() => emu.stop());

  it('a comment added after the stored ones is one update that keeps the stored comment as it was', async () => {
    const first = (await stored()).comments[0];
    await applyThenPlanEmpty(['      tags: [weekly]', '      expire_time: "2031-01-01T00:00:00.000Z"', '      meta: {owner: soc, ticket: SEC-1}', '      comments:',
      '        - comment: Approved by the SOC lead', '        - comment: Renewed for 2031'].join('\n'));
    assert.deepEqual(writes(), ['PUT']);
    const now = await stored();
    assert.deepEqual(now.comments[0], first);
    assert.deepEqual(now.comments.map((c: any) => c.comment), ['Approved by the SOC lead', 'Renewed for 2031']);
  });

  it('tags left out of the manifest are sent empty, as the route keeps tags it is not sent', async () => {
    await applyThenPlanEmpty(['      expire_time: "2031-01-01T00:00:00.000Z"', '      meta: {owner: soc, ticket: SEC-1}', '      comments:',
      '        - comment: Approved by the SOC lead', '        - comment: Renewed for 2031'].join('\n'));
    assert.deepEqual(writes(), ['PUT']);
    assert.deepEqual((await stored()).tags, []);
  });

  for (const [change, item] of [
    ['a changed comment', ['      expire_time: "2031-01-01T00:00:00.000Z"', '      meta: {owner: soc, ticket: SEC-1}', '      comments:', '        - comment: Approved by the CISO']],
    ['a dropped expire_time', ['      meta: {owner: soc, ticket: SEC-1}', '      comments:', '        - comment: Approved by the CISO']],
    ['a dropped meta key', ['      meta: {owner: soc}', '      comments:', '        - comment: Approved by the CISO']],
    ['dropped comments', ['      meta: {owner: soc}']],
  ] as const) {
    it(`${change} makes a new item (the update route cannot), and the next plan is empty`, async () => {
      await applyThenPlanEmpty(item.join('\n'));
      assert.deepEqual(writes(), ['DELETE', 'POST']);
    });
  }

  it('what the server holds at the end is what the manifest says', async () => {
    const now = await stored();
    assert.deepEqual([now.comments, now.meta, now.expire_time, now.tags], [[], { owner: 'soc' }, undefined, []]);
  });
});

describe('exception list meta as the update route keeps it', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('a meta key dropped from the manifest is an error naming it: the update merges meta and cannot remove a key (update_exception_list.ts)', async () => {
    const list = (meta: string) => ['apiVersion: svcform/v1', 'kind: ExceptionList', 'metadata: {name: soc-meta}', 'spec:', '  type: detection', '  name: SOC meta',
      '  description: d', `  meta: ${meta}`, '  items: []'].join('\n') + '\n';
    const dir = repo({ 'list.yaml': list('{owner: soc, ticket: SEC-2}') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFiles(dir, { 'list.yaml': list('{owner: soc-leads}') });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 1, shown(applied));
    assert.match(applied.out + applied.err, /ExceptionList soc-meta: the server keeps every meta key an update leaves out, so meta cannot lose meta\.ticket through an update/);
    // A changed key is an update the route can make.
    writeFiles(dir, { 'list.yaml': list('{owner: soc-leads, ticket: SEC-3}') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});

describe('exception list version, which the create and update routes take (OAS CreateExceptionList, UpdateExceptionList)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  const list = (extra: string[]) => ['apiVersion: svcform/v1', 'kind: ExceptionList', 'metadata: {name: soc-versioned}', 'spec:', '  type: detection',
    '  name: SOC versioned', '  description: d', ...extra, '  items: []'].join('\n') + '\n';
  const held = async () => (await call(emu, 'GET', '/api/exception_lists?list_id=soc-versioned&namespace_type=single')).body;

  it('a declared version is sent and compared; left out, the version the server chose is not a change (update_exception_list.ts: the stored one plus one)', async () => {
    const dir = repo({ 'list.yaml': list(['  version: 3']) });
    const created = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(created.code, 0, shown(created));
    assert.equal((await held()).version, 3);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
    // A changed description: the update sends the declared version, which the server keeps.
    writeFiles(dir, { 'list.yaml': list(['  version: 3', '  description: d2']).replace('  description: d\n', '') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    assert.equal((await held()).version, 3);
    // Left out: the next update lets the server count on, and a plan after it is empty.
    writeFiles(dir, { 'list.yaml': list(['  description: d3']).replace('  description: d\n', '') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    assert.equal((await held()).version, 4);
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
    // A declared version other than the server's is a change.
    writeFiles(dir, { 'list.yaml': list(['  version: 9', '  description: d3']).replace('  description: d\n', '') });
    const changed = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(changed.code, 2, shown(changed));
    assert.match(changed.out, /version/);
  });
});

describe('exception list os_types, which the update route never writes (update_exception_list.ts)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('a changed os_types is an error naming both sides, with no write, instead of an update that changes nothing', async () => {
    const list = (os: string) => ['apiVersion: svcform/v1', 'kind: ExceptionList', 'metadata: {name: soc-os}', 'spec:', '  type: detection', '  name: SOC os',
      '  description: d', `  os_types: [${os}]`, '  items: []'].join('\n') + '\n';
    const dir = repo({ 'list.yaml': list('linux') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFiles(dir, { 'list.yaml': list('windows') });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 1, shown(applied));
    assert.match(applied.out + applied.err, /ExceptionList soc-os: the os_types of a list cannot change through an update, which keeps the stored ones \(server: linux, manifest: windows\)/);
    assert.deepEqual(emu.log.all().filter((r) => r.method !== 'GET' && r.path.startsWith('/api/exception_lists')).map((r) => `${r.method} ${r.path}`), []);
  });
});
