import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { lastSeq, requestsSince } from '../helpers/emulator-requests.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';
import { SvcClient } from '../../src/client/client.js';
import { exceptionListAdapter } from '../../src/kinds/exception/list.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/** The ExceptionList kind against the emulator, through the CLI: agnostic lists, endpoint artifacts, rule default lists. */

const TRUSTED_APPS = (space = '', entries = "        - { field: process.executable.caseless, type: match, operator: included, value: /opt/backup/bin/agent }\n") => `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: endpoint_trusted_apps
${space}spec:
  type: endpoint_trusted_apps
  namespace_type: agnostic
  name: Trusted applications
  description: Endpoint trusted applications
  items:
    - item_id: backup-agent
      name: Backup agent
      description: Reads every file
      os_types: [linux]
      entries:
${entries}`;

const SINGLE = (name: string, space: string) => `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: ${name}
  space: ${space}
spec:
  type: detection
  name: ${name}
  description: Team list
  items: []
`;

describe('ExceptionList kind', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator({ spaces: ['soc'] });
  });
  after(() => emu.stop());

  it('a list deleted between the find of the lists and the find of their items is left out, not an error (found by the fault campaign)', async () => {
    for (const list_id of ['staying', 'going']) assert.equal((await call(emu, 'POST', '/api/exception_lists', { list_id, name: list_id, description: 'd', type: 'detection' })).status, 200);
    // The items find is held back; while it waits, another writer deletes one of the lists.
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'GET', path: '^/api/exception_lists/items/_find$', delayMs: 300, times: 1 }] });
    const client = new SvcClient({ url: emu.url });
    const listing = exceptionListAdapter.list({ api: client, log: () => {}, run: new RunScope() }, 'default');
    while ((await call(emu, 'GET', '/__emulator/faults')).body.faults[0].fired === 0) await new Promise((r) => setTimeout(r, 10));
    assert.equal((await call(emu, 'DELETE', '/api/exception_lists?list_id=going&namespace_type=single')).status, 200);
    const names = (await listing).map((o) => o.name);
    await call(emu, 'DELETE', '/__emulator/faults');
    await client.close();
    assert.deepEqual(names, ['staying']);
  });

  describe('agnostic lists across two spaces (wire-facts 0.1: visible in every space)', () => {
    const manage = 'manage:\n  - kind: ExceptionList\n';

    it('are read once per run and planned once, not as a create or delete per space', async () => {
      const dir = repo({ 'svcform.yaml': manage, 'apps.yaml': TRUSTED_APPS(), 'team-default.yaml': SINGLE('team-list', 'default'), 'team-soc.yaml': SINGLE('team-list', 'soc') });
      const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      assert.equal((applied.out.match(/\+ create ExceptionList\/endpoint_trusted_apps/g) ?? []).length, 1, applied.out);

      const since = await lastSeq(emu);
      const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
      assert.equal(plan.code, 0, plan.out + plan.err);
      const finds = (await requestsSince(emu, since)).filter((r) => r.route === '/api/exception_lists/_find');
      const agnostic = finds.filter((r) => r.query.includes('namespace_type=agnostic'));
      assert.equal(agnostic.length, 1, `agnostic lists read once: ${JSON.stringify(finds.map((r) => r.path + '?' + r.query))}`);
      assert.equal(finds.length - agnostic.length, 2, 'single lists read per space');
    });

    it('are the same object whatever space the manifest names', async () => {
      const dir = repo({ 'svcform.yaml': manage, 'apps.yaml': TRUSTED_APPS('  space: soc\n'), 'team-soc.yaml': SINGLE('team-list', 'soc') });
      assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
      // Visible from both spaces through the API.
      for (const prefix of ['', '/s/soc']) {
        const read = await call(emu, 'GET', `${prefix}/api/exception_lists?list_id=endpoint_trusted_apps&namespace_type=agnostic`);
        assert.equal(read.status, 200, read.text);
      }
      const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode', '--space', 'soc']);
      assert.equal(plan.code, 0, plan.out + plan.err);
      // Removing the manifest leaves it once, kept: the server makes this artifact list itself,
      // and deleting it would delete every trusted application in it.
      writeFiles(dir, { 'apps.yaml': '' });
      const json = JSON.parse((await cli(['plan', dir, '--url', emu.url, '--json'])).out);
      assert.deepEqual(json.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`), []);
      assert.deepEqual(json.unmanaged.filter((o: any) => o.name === 'endpoint_trusted_apps').map((o: any) => /endpoint artifact list/.test(o.kept)), [true]);
    });

    it('survive a lost answer: a create finishes its items, an update repeated into a 409 against its own write is done', async () => {
      const lose = (method: string) => call(emu, 'PUT', '/__emulator/faults', { faults: [{ method, path: '^/api/exception_lists$', dropAfterServe: true, times: 1 }] });
      await lose('POST');
      const dir = repo({ 'apps.yaml': TRUSTED_APPS() });
      const created = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(created.code, 0, created.out + created.err);
      assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0, 'the items were written after the 409 of the repeated create');

      writeFiles(dir, { 'apps.yaml': TRUSTED_APPS().replace('description: Endpoint trusted applications', 'description: Reviewed monthly') });
      await lose('PUT');
      const updated = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(updated.code, 0, updated.out + updated.err);
      assert.match(updated.out, /✓ update ExceptionList\/endpoint_trusted_apps/);
      assert.match(updated.out, /Apply: 1 done, 0 failed, 0 skipped\./);
      assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0, 'the update landed');
    });

    it('can be linked from a rule in another space', async () => {
      const rule = `apiVersion: svcform/v1
kind: Rule
metadata:
  name: soc-rule
  space: soc
spec:
  type: query
  name: Soc rule
  description: Linked to the trusted apps
  severity: low
  risk_score: 21
  query: 'process.name:*'
  exceptions_list:
    - { list_id: endpoint_trusted_apps, namespace_type: agnostic }
`;
      const dir = repo({ 'apps.yaml': TRUSTED_APPS(), 'rule.yaml': rule });
      const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      const stored = (await call(emu, 'GET', '/s/soc/api/detection_engine/rules?rule_id=soc-rule')).body;
      assert.equal(stored.exceptions_list[0].type, 'endpoint_trusted_apps', 'the type of a fixed endpoint list_id is inferred');
      assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
    });
  });

  describe('endpoint artifact entries are checked offline (security_solution lists_integration/endpoint/validators)', () => {
    it('names file, line and field of each wrong entry', async () => {
      const entries = [
        '        - { field: process.hash.sha256, type: match, operator: included, value: not-a-hash }',
        '        - { field: process.Ext.code_signature, type: nested, entries: [{ field: trusted, type: match, operator: included, value: "true" }] }',
        '        - { field: file.path, type: match, operator: excluded, value: /tmp/x }',
        '',
      ].join('\n');
      const dir = repo({ 'apps.yaml': TRUSTED_APPS('', entries) });
      const run = await cli(['validate', dir]);
      assert.equal(run.code, 1, run.out + run.err);
      const out = run.out + run.err;
      assert.match(out, /apps\.yaml:16:\d+: .*spec\.items\[0\]\.entries\[0\]\.value.*invalid hash value \[not-a-hash\]/);
      assert.match(out, /apps\.yaml:17:\d+: .*spec\.items\[0\]\.entries\[1\]\.field.*allowed on Windows only/);
      assert.match(out, /apps\.yaml:18:\d+: .*spec\.items\[0\]\.entries\[2\]\.field.*trusted applications match on process\.hash\.md5/);
    });

    it('checks the fixed list_id, the agnostic namespace and host isolation exceptions (destination.ip only)', async () => {
      const hie = `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: isolation
spec:
  type: endpoint_host_isolation_exceptions
  name: Host isolation exceptions
  description: Reachable while isolated
  items:
    - item_id: vpn
      name: VPN concentrator
      description: ''
      os_types: [windows, linux, macos]
      entries:
        - { field: source.ip, type: match, operator: included, value: 10.0.0.300 }
`;
      const run = await cli(['validate', repo({ 'hie.yaml': hie })]);
      assert.equal(run.code, 1);
      const out = run.out + run.err;
      assert.match(out, /hie\.yaml:4:\d+: .*metadata\.name.*fixed list_id "endpoint_host_isolation_exceptions"/);
      assert.match(out, /hie\.yaml:\d+:\d+: .*spec(\.namespace_type)?.*set namespace_type: agnostic/);
      assert.match(out, /hie\.yaml:15:\d+: .*entries\[0\]\.field.*destination\.ip only/);
      assert.match(out, /hie\.yaml:15:\d+: .*entries\[0\]\.value.*invalid ip: 10\.0\.0\.300/);
    });

    it('takes a type: endpoint list with a list_id of its own in the single namespace as an ordinary list; endpoint_list keeps its rules (wire-facts §16 #7)', async () => {
      const own = (name: string) => `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: ${name}
  space: soc
spec:
  type: endpoint
  name: Endpoint exceptions of the SOC
  description: Endpoint alerts to leave out
  items:
    - item_id: backup
      name: Backup agent
      description: ''
      entries:
        - { field: process.executable, type: match, operator: included, value: /opt/backup/agent }
`;
      const dir = repo({ 'own.yaml': own('soc-endpoint-exceptions') });
      const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      const stored = (await call(emu, 'GET', '/s/soc/api/exception_lists?list_id=soc-endpoint-exceptions&namespace_type=single')).body;
      assert.deepEqual([stored.type, stored.namespace_type], ['endpoint', 'single']);
      assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
      // The artifact list itself must still be agnostic.
      const artifact = await cli(['validate', repo({ 'own.yaml': own('endpoint_list') })]);
      assert.equal(artifact.code, 1);
      assert.match(artifact.out + artifact.err, /set namespace_type: agnostic/);
    });

    it('takes the trusted devices list, a type of the list route svcform has no item rules for: its items are the server\'s to judge (OpenAPI ExceptionListType: endpoint_trusted_devices)', async () => {
      const devices = `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: endpoint_trusted_devices
spec:
  type: endpoint_trusted_devices
  namespace_type: agnostic
  name: Trusted devices
  description: USB devices the SOC issues
  items:
    - item_id: soc-keys
      name: SOC security keys
      description: ''
      os_types: [windows, macos]
      entries:
        - { field: device.serial_number, type: match, operator: included, value: SOC-0001 }
`;
      const dir = repo({ 'devices.yaml': devices });
      const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      const stored = (await call(emu, 'GET', '/api/exception_lists?list_id=endpoint_trusted_devices&namespace_type=agnostic')).body;
      assert.equal(stored.type, 'endpoint_trusted_devices');
      assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
    });

    it('takes blocklist entries as the current blocklist validator does: paths (file.path, file.path.caseless), a signer match, and refuses the old file.executable.caseless (lists_integration/endpoint/validators/blocklist_validator.ts)', async () => {
      const blocklist = (entries: string[]) => `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: endpoint_blocklists
spec:
  type: endpoint_blocklists
  namespace_type: agnostic
  name: Blocklist
  description: Known bad binaries
  items:
${entries.join('\n')}
`;
      const item = (id: string, os: string, entry: string) => [`    - item_id: ${id}`, `      name: ${id}`, "      description: ''", `      os_types: [${os}]`, '      entries:', `        - ${entry}`].join('\n');
      const good = blocklist([
        item('by-path', 'windows', "{ field: file.path.caseless, type: match_any, operator: included, value: ['c:\\temp\\dropper.exe'] }"),
        item('by-linux-path', 'linux', '{ field: file.path, type: match_any, operator: included, value: [/tmp/dropper] }'),
        item('by-signer', 'windows', '{ field: file.Ext.code_signature, type: nested, entries: [{ field: subject_name, type: match, operator: included, value: Evil Corp }] }'),
      ]);
      const dir = repo({ 'blocklist.yaml': good });
      const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
      const old = await cli(['validate', repo({ 'old.yaml': blocklist([item('by-executable', 'windows', '{ field: file.executable.caseless, type: match_any, operator: included, value: [c:/x.exe] }')]) })]);
      assert.equal(old.code, 1, old.out + old.err);
      assert.match(old.out + old.err, /old\.yaml:16:\d+: .*entries\[0\]\.field.*blocklist entries match on .*file\.path\.caseless/);
    });

    it('the emulator refuses the same item as the real server would (400 EndpointArtifactError)', async () => {
      await call(emu, 'POST', '/api/exception_lists', { list_id: 'endpoint_blocklists', name: 'Blocklist', description: '', type: 'endpoint_blocklists', namespace_type: 'agnostic' });
      const bad = await call(emu, 'POST', '/api/exception_lists/items', {
        list_id: 'endpoint_blocklists', namespace_type: 'agnostic', type: 'simple', name: 'Bad', description: '', os_types: ['linux'],
        entries: [{ field: 'file.hash.md5', type: 'match', operator: 'included', value: 'abc' }],
      });
      assert.equal(bad.status, 400, bad.text);
      assert.match(bad.body.message, /^EndpointArtifactError: .*blocklist entries are of type match_any/);
      assert.equal(bad.body.status_code, 400);
    });
  });

  describe("a rule's default exceptions (spec.default_exceptions)", () => {
    const rule = (value: string) => `apiVersion: svcform/v1
kind: Rule
metadata:
  name: tmp-exec
spec:
  type: query
  name: Execution from tmp
  description: A file written to /tmp was executed
  severity: medium
  risk_score: 47
  query: 'process.executable:/tmp/*'
  default_exceptions:
    items:
      - item_id: ci-builds
        name: CI builds
        description: Builds run from /tmp
        entries:
          - { field: host.name, type: wildcard, operator: included, value: '${value}' }
`;

    it('creates the rule_default container through the rule exceptions route, plans empty, and updates one item', async () => {
      const dir = repo({ 'svcform.yaml': 'manage:\n  - kind: ExceptionList\n', 'rule.yaml': rule('ci-*') });
      const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
      assert.equal(applied.code, 0, applied.out + applied.err);
      const stored = (await call(emu, 'GET', '/api/detection_engine/rules?rule_id=tmp-exec')).body;
      const link = stored.exceptions_list.find((l: any) => l.type === 'rule_default');
      assert.ok(link, JSON.stringify(stored.exceptions_list));
      const container = (await call(emu, 'GET', `/api/exception_lists?list_id=${link.list_id}`)).body;
      assert.equal(container.name, 'Exceptions for rule - Execution from tmp');
      assert.deepEqual(container.tags, ['default_rule_exception_list']);
      // The container is the rule's: an ExceptionList manage scope never deletes it.
      assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);

      writeFiles(dir, { 'rule.yaml': rule('build-*') });
      const json = JSON.parse((await cli(['plan', dir, '--url', emu.url, '--json'])).out);
      assert.deepEqual(json.changes[0].fields.map((f: any) => f.pointer), ['/default_exceptions/items/0/entries']);
      assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
      const items = (await call(emu, 'GET', `/api/exception_lists/items/_find?list_id=${link.list_id}`)).body.data;
      assert.equal(items.length, 1);
      assert.equal(items[0].entries[0].value, 'build-*');
      assert.equal((await call(emu, 'GET', '/api/detection_engine/rules?rule_id=tmp-exec')).body.exceptions_list.length, 1, 'the link is kept by the rule update');
      assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
    });
  });
});
