import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { connectorYaml, repo, ruleYaml, writeFiles } from '../helpers/repo.js';

const MANAGE_CONNECTORS = 'manage:\n  - kind: Connector\n    selector: {namePrefix: "soc-"}\n';
const MANAGE_BOTH = MANAGE_CONNECTORS + '  - kind: Rule\n    selector: {tags: [managed]}\n';

/**
 * Issue "Safe apply", item 2: a delete is checked against the live objects that stay. Before, a
 * connector whose manifest was removed was deleted although a rule still notified through it:
 * plan and apply exited 0 and the next plan failed on the dangling reference.
 */
describe('deleting an object that a remaining live object references', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    await emu?.stop();
    emu = await emulator();
  });
  after(() => emu.stop());

  const connectorExists = async (id: string) => (await call(emu, 'GET', `/api/actions/connector/${id}`)).status === 200;

  it('is a plan error naming both when a managed rule keeps its action (the repro)', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_CONNECTORS, 'c.yaml': connectorYaml('soc-chat'), 'r.yaml': ruleYaml('ssh-brute-force', 'soc-chat') });
    const created = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(created.code, 0, created.out + created.err);
    rmSync(join(dir, 'c.yaml'));
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 1, plan.out + plan.err);
    assert.match(plan.out, /Connector\/soc-chat is used by Rule\/ssh-brute-force \(space default\): /);
    const apply = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(apply.code, 1, apply.out + apply.err);
    assert.ok(await connectorExists('soc-chat'), 'nothing was deleted');
  });

  it('is a plan error when the referencing rule is not managed at all (read only to check the delete)', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_CONNECTORS, 'c.yaml': connectorYaml('soc-chat') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    const rule = { rule_id: 'hand-made', name: 'Hand made', description: 'd', type: 'query', query: 'a:b', severity: 'low', risk_score: 1, actions: [{ id: 'soc-chat', group: 'default', action_type_id: '.server-log', params: { message: 'x' } }] };
    const made = await call(emu, 'POST', '/api/detection_engine/rules', rule);
    assert.equal(made.status, 200, made.text);
    rmSync(join(dir, 'c.yaml'));
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 1, plan.out + plan.err);
    assert.match(plan.out, /Connector\/soc-chat is used by Rule\/hand-made \(space default\): /);
  });

  it('is fine when the rule drops the reference in the same plan: the rule is updated first, also under --select', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_CONNECTORS, 'c.yaml': connectorYaml('soc-chat'), 'r.yaml': ruleYaml('ssh-brute-force', 'soc-chat') });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    rmSync(join(dir, 'c.yaml'));
    writeFiles(dir, { 'r.yaml': ruleYaml('ssh-brute-force') });
    const selected = await cli(['plan', dir, '--url', emu.url, '--select', 'Connector/soc-chat']);
    assert.equal(selected.code, 0, selected.out + selected.err);
    assert.match(selected.out, /update Rule\/ssh-brute-force[\s\S]*delete Connector\/soc-chat/, 'the update that drops the reference comes with the delete');
    emu.log.clear();
    const apply = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(apply.code, 0, apply.out + apply.err);
    const writes = emu.log.all().filter((r) => r.method !== 'GET' && !r.path.includes('svcform-lease'));
    const ruleWrite = writes.findIndex((r) => r.path.startsWith('/api/detection_engine/rules'));
    const connectorDelete = writes.findIndex((r) => r.method === 'DELETE' && r.path === '/api/actions/connector/soc-chat');
    assert.ok(ruleWrite >= 0 && connectorDelete > ruleWrite, JSON.stringify(writes.map((w) => `${w.method} ${w.path}`)));
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('is fine when the referencing rule is deleted in the same plan', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE_BOTH, 'c.yaml': connectorYaml('soc-chat'), 'r.yaml': ruleYaml('ssh-brute-force', 'soc-chat', ['managed']) });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    rmSync(join(dir, 'c.yaml'));
    rmSync(join(dir, 'r.yaml'));
    const apply = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(apply.code, 0, apply.out + apply.err);
    assert.match(apply.out, /Plan: 0 to create, 0 to update, 2 to delete/);
    assert.ok(!(await connectorExists('soc-chat')));
  });
});
