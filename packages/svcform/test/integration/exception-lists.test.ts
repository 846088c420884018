import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parseAllDocuments } from 'yaml';
import { readTree } from '../helpers/export-files.js';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';

/**
 * Issue 13, "Must show": a shared exception list with three items linked from two rules; one item
 * changed on the server shows as that item only; deleting the list from Git while a rule still
 * links it is a plan error.
 */

const MANAGE = 'manage:\n  - kind: ExceptionList\n    selector: {namePrefix: "soc-"}\n';

const LIST = `apiVersion: svcform/v1
kind: ExceptionList
metadata:
  name: soc-allowlist
spec:
  type: detection
  name: SOC allowlist
  description: Sources and accounts that trip the credential rules on purpose
  items:
    - item_id: scanner
      name: Vulnerability scanner
      description: The weekly authenticated scan
      entries:
        - { field: source.ip, type: match, operator: included, value: 10.20.0.15 }
    - item_id: backup
      name: Backup account
      description: Logs in every night
      entries:
        - { field: user.name, type: match_any, operator: included, value: [svc-backup, svc-restore] }
    - item_id: jump-hosts
      name: Jump hosts
      description: Administrators connect through them
      entries:
        - { field: host.name, type: wildcard, operator: included, value: 'jump-*' }
`;

function rule(ruleId: string, name: string, links = '  exceptions_list:\n    - list_id: soc-allowlist\n'): string {
  return `apiVersion: svcform/v1
kind: Rule
metadata:
  name: ${ruleId}
spec:
  type: query
  name: ${name}
  description: ${name}
  severity: high
  risk_score: 73
  index: [logs-system.auth-*]
  query: 'event.category:authentication and event.outcome:failure'
${links}`;
}

describe('a shared exception list linked from two rules', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());

  const files = () => ({ 'svcform.yaml': MANAGE, 'list.yaml': LIST, 'ssh.yaml': rule('ssh-brute-force', 'SSH brute force'), 'rdp.yaml': rule('rdp-brute-force', 'RDP brute force') });

  it('is created before the rules, which link it by its server id; the next plan is empty', async () => {
    const dir = repo(files());
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    // The two rules' links are resolved from one listing of the space's lists, not a GET per link.
    const reads = emu.log.all().filter((r) => r.method === 'GET' && r.path.startsWith('/api/exception_lists'));
    assert.equal(reads.filter((r) => r.path === '/api/exception_lists').length, 0, 'no GET of one list per link');
    const list = (await call(emu, 'GET', '/api/exception_lists?list_id=soc-allowlist&namespace_type=single')).body;
    const items = (await call(emu, 'GET', '/api/exception_lists/items/_find?list_id=soc-allowlist&namespace_type=single')).body;
    assert.equal(items.total, 3);
    for (const ruleId of ['ssh-brute-force', 'rdp-brute-force']) {
      const r = (await call(emu, 'GET', `/api/detection_engine/rules?rule_id=${ruleId}`)).body;
      assert.deepEqual(r.exceptions_list, [{ id: list.id, list_id: 'soc-allowlist', type: 'detection', namespace_type: 'single' }]);
    }
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('takes an empty list name and empty tags, as the list route does (OpenAPI ExceptionListName, ExceptionListTags: plain strings), and plans empty after', async () => {
    const blank = LIST.replace('  name: SOC allowlist\n', "  name: ''\n  tags: ['']\n");
    const dir = repo({ 'svcform.yaml': MANAGE, 'list.yaml': blank });
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const list = (await call(emu, 'GET', '/api/exception_lists?list_id=soc-allowlist&namespace_type=single')).body;
    assert.equal(list.name, '');
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('shows one item changed on the server as that item only, and apply writes that item only', async () => {
    const dir = repo(files());
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    const backup = (await call(emu, 'GET', '/api/exception_lists/items?item_id=backup&namespace_type=single')).body;
    const edited = await call(emu, 'PUT', '/api/exception_lists/items', {
      item_id: 'backup', type: 'simple', name: backup.name, description: backup.description, _version: backup._version,
      entries: [{ field: 'user.name', type: 'match_any', operator: 'included', value: ['svc-backup', 'svc-restore', 'intruder'] }],
    });
    assert.equal(edited.status, 200, edited.text);

    const plan = await cli(['plan', dir, '--url', emu.url, '--json']);
    const parsed = JSON.parse(plan.out);
    assert.deepEqual(parsed.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`), ['update ExceptionList/soc-allowlist']);
    assert.deepEqual(parsed.changes[0].fields.map((f: any) => f.pointer), ['/items/1/entries'], JSON.stringify(parsed.changes[0].fields));

    const before = new Map<string, string>();
    for (const id of ['scanner', 'jump-hosts']) before.set(id, (await call(emu, 'GET', `/api/exception_lists/items?item_id=${id}`)).body._version);
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    for (const [id, version] of before) assert.equal((await call(emu, 'GET', `/api/exception_lists/items?item_id=${id}`)).body._version, version, `${id} was not rewritten`);
    const repaired = (await call(emu, 'GET', '/api/exception_lists/items?item_id=backup')).body;
    assert.deepEqual(repaired.entries[0].value, ['svc-backup', 'svc-restore']);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('refuses to delete the list from Git while a rule still links it, and deletes it after the rules drop the link', async () => {
    const dir = repo(files());
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    rmSync(join(dir, 'list.yaml'));
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 1, plan.out + plan.err);
    assert.match(plan.out, /ExceptionList\/soc-allowlist is used by Rule\/ssh-brute-force \(space default\): its manifest names it at spec\.exceptions_list\[0\]\.list_id/);
    assert.match(plan.out, /ExceptionList\/soc-allowlist is used by Rule\/rdp-brute-force \(space default\)/);
    const apply = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(apply.code, 1, apply.out + apply.err);
    assert.equal((await call(emu, 'GET', '/api/exception_lists?list_id=soc-allowlist')).status, 200, 'nothing was deleted');

    // Both rules drop the link in the same change: the rules are updated first, then the list goes.
    writeFiles(dir, { 'ssh.yaml': rule('ssh-brute-force', 'SSH brute force', ''), 'rdp.yaml': rule('rdp-brute-force', 'RDP brute force', '') });
    const json = JSON.parse((await cli(['plan', dir, '--url', emu.url, '--json'])).out);
    const wave = (kind: string, name: string) => json.changes.find((c: any) => c.kind === kind && c.name === name)?.wave ?? assert.fail(`${kind}/${name} not in the plan`);
    assert.ok(wave('ExceptionList', 'soc-allowlist') > wave('Rule', 'ssh-brute-force'), 'the list is deleted after the rules');
    const cleaned = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(cleaned.code, 0, cleaned.out + cleaned.err);
    assert.equal((await call(emu, 'GET', '/api/exception_lists?list_id=soc-allowlist')).status, 404);
  });

  it('exports rule links as list_ids (no server ids) and the list with its items; the export plans empty', async () => {
    const dir = repo(files());
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
    const out = join(mkdtempSync(join(tmpdir(), 'svcform-exc-export-')), 'out');
    const exported = await cli(['export', '--out', out, '--url', emu.url, '--kind', 'Rule', '--kind', 'ExceptionList']);
    assert.equal(exported.code, 0, exported.out + exported.err);
    const docs = [...readTree(out).entries()].filter(([name]) => name.endsWith('.yaml')).flatMap(([, text]) => parseAllDocuments(text).map((d) => d.toJS()));
    const ssh = docs.find((d) => d?.kind === 'Rule' && d.metadata.name === 'ssh-brute-force');
    assert.deepEqual(ssh.spec.exceptions_list, [{ list_id: 'soc-allowlist' }]);
    const list = docs.find((d) => d?.kind === 'ExceptionList');
    assert.deepEqual(list.spec.items.map((i: any) => i.item_id).sort(), ['backup', 'jump-hosts', 'scanner']);
    const plan = await cli(['plan', out, '--url', emu.url, '--detailed-exitcode', '--root', out]);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('is a plan warning when a rule links a list that no manifest declares and the server does not have (wire-facts §16 #8)', async () => {
    const dir = repo({ 'ssh.yaml': rule('ssh-brute-force', 'SSH brute force') });
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 0, plan.out + plan.err);
    assert.match(plan.out, /warning: .*spec\.exceptions_list\[0\]\.list_id names ExceptionList "soc-allowlist", which neither the manifests nor the server hold; the server accepts this, but the rule applies no exceptions from it until it exists/);
  });
});
