import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * An exception item's item_id is unique across the lists of its namespace (a space's single lists,
 * rules' default lists among them, or the agnostic lists of every space): the create route answers
 * 409 to a second one whatever its list (lists plugin create_exception_list_item_route; the
 * emulator's exception area). The Terraform provider's acceptance configurations use one item_id
 * in many lists; declared together, svcform validated them and the apply failed item after item.
 */

const list = (name: string, itemId: string, extra = '') => `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: ${name}
${extra}spec:
  type: detection
  name: ${name}
  description: d
  items:
    - item_id: ${itemId}
      name: Scanner
      description: d
      entries:
        - {field: source.ip, type: match, operator: included, value: 10.0.0.1}
`;

const ruleWithDefault = (itemId: string) => `apiVersion: svcform/v1
kind: Rule
metadata:
  name: tmp-exec
spec:
  type: query
  name: Execution from tmp
  description: d
  severity: medium
  risk_score: 47
  query: 'process.executable:/tmp/*'
  default_exceptions:
    items:
      - item_id: ${itemId}
        name: CI builds
        description: d
        entries:
          - {field: host.name, type: wildcard, operator: included, value: 'ci-*'}
`;

describe('ExceptionList and Rule default exceptions: item_ids unique across the lists of a namespace', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['blue'] });
  });
  after(() => emu.stop());

  it('refuses at validate a second list holding an item_id, naming the first, and writes nothing', async () => {
    const dir = repo({ 'a.yaml': list('first-list', 'scanner'), 'b.yaml': list('second-list', 'scanner') });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 1, validated.out + validated.err);
    assert.match(validated.err, /b\.yaml:\d+:\d+: ExceptionList\/second-list: item_id "scanner" is taken by ExceptionList\/first-list \(.*a\.yaml:\d+\): the server keeps item ids unique across the lists of space default/);
    assert.doesNotMatch(validated.err, /a\.yaml:\d+:\d+: ExceptionList\/first-list/);
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 1);
    const lists = await call(emu, 'GET', '/api/exception_lists/_find?namespace_type=single');
    assert.equal(lists.body.total, 0, 'nothing was written');
  });

  it('says which list holds an item_id when the server refuses the create for an item of a list no manifest declares', async () => {
    await call(emu, 'POST', '/api/exception_lists', { list_id: 'made-by-hand', name: 'By hand', description: 'd', type: 'detection', namespace_type: 'single' });
    const item = await call(emu, 'POST', '/api/exception_lists/items', { list_id: 'made-by-hand', item_id: 'vpn', name: 'VPN', description: 'd', type: 'simple', namespace_type: 'single', entries: [{ field: 'source.ip', type: 'match', operator: 'included', value: '10.0.0.2' }] });
    assert.equal(item.status, 200, item.text);
    const applied = await cli(['apply', repo({ 'a.yaml': list('mine', 'vpn') }), '--url', emu.url]);
    assert.equal(applied.code, 1, applied.out + applied.err);
    assert.match(applied.out + applied.err, /item_id "vpn" is held by exception list "made-by-hand", and the server keeps item ids unique across the lists of space default \(409\)/);
    assert.doesNotMatch(applied.out + applied.err, /someone else meanwhile/);
  });

  it('warns at plan when a live list holds the item_id, and when the plan moves an item between lists; a second apply finishes a move', async () => {
    // made-by-hand holds vpn on the server since the test before.
    const held = JSON.parse((await cli(['plan', repo({ 'a.yaml': list('mine', 'vpn') }), '--url', emu.url, '--json'])).out);
    assert.deepEqual(held.warnings.map((w: any) => w.message), ['item_id "vpn" is held by exception list "made-by-hand" on the server, which this plan leaves as it is: item ids are unique across the lists of a namespace, so the server will refuse this item (409); give it another item_id, or take it out of that list']);
    const moving = repo({ 'a.yaml': list('mine', 'vpn'), 'b.yaml': list('made-by-hand', 'proxy') });
    const planned = JSON.parse((await cli(['plan', moving, '--url', emu.url, '--json'])).out);
    assert.equal(planned.warnings.length, 1);
    assert.match(planned.warnings[0].message, /^item_id "vpn" moves here from exception list "made-by-hand", which this plan takes it out of/);
    await cli(['apply', moving, '--url', emu.url]);
    const again = await cli(['apply', moving, '--url', emu.url]);
    assert.equal(again.code, 0, again.out + again.err);
    assert.equal((await cli(['plan', moving, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it("counts a rule's default list, which is a single list of the rule's space", async () => {
    const validated = await cli(['validate', repo({ 'a.yaml': list('builds', 'ci-builds'), 'r.yaml': ruleWithDefault('ci-builds') })]);
    assert.equal(validated.code, 1, validated.out + validated.err);
    assert.match(validated.err, /r\.yaml:\d+:\d+: Rule\/tmp-exec: item_id "ci-builds" is taken by ExceptionList\/builds/);
  });

  it('takes the same item_id in single lists of two spaces, and counts agnostic lists across spaces', async () => {
    const spaces = await cli(['validate', repo({ 'a.yaml': list('first-list', 'scanner'), 'b.yaml': list('second-list', 'scanner', '  space: blue\n') })]);
    assert.equal(spaces.code, 0, spaces.out + spaces.err);
    const agnostic = (name: string) => list(name, 'scanner').replace('  type: detection\n', '  type: detection\n  namespace_type: agnostic\n');
    const both = await cli(['validate', repo({ 'a.yaml': agnostic('first-list'), 'b.yaml': agnostic('second-list') })]);
    assert.equal(both.code, 1, both.out + both.err);
    assert.match(both.err, /the server keeps item ids unique across the agnostic lists of every space/);
  });
});
