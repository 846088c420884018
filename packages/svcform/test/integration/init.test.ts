import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { VERSION } from '../../src/cli/program.js';
import { call, emulatorResetPerTest, postFile } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { readTree, variablesEnv } from '../helpers/export-files.js';
import { ok, SSH_BRUTE_FORCE } from '../helpers/export-seed.js';
import { writeFiles } from '../helpers/repo.js';

/** The kit as the package holds it now; init must copy it as it is, not a text of its own. */
const KIT = resolve('examples/ci/github-actions');

const roots: string[] = [];
function newRoot(tag: string): string {
  const root = mkdtempSync(join(tmpdir(), `svcform-init-${tag}-`));
  roots.push(root);
  return root;
}
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** `plan --json` of a repository made by init: the summary, with the manifests folder named as a person would. */
async function planSummary(repo: string, url: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; summary: Record<string, number>; changes: string[] }> {
  const run = await cli(['plan', join(repo, 'manifests'), '--url', url, '--detailed-exitcode', '--json'], env);
  assert.ok(run.code === 0 || run.code === 2, run.out + run.err);
  const plan = JSON.parse(run.out);
  return { code: run.code, summary: plan.summary, changes: plan.changes.map((c: { action: string; kind: string; name: string }) => `${c.action} ${c.kind}/${c.name}`) };
}

describe('svcform init', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((running) => (emu = running));

  it('init, validate, plan on an empty server: the example rule is the one create; apply, then plan is empty; removing the example deletes the rule', async () => {
    const repo = join(newRoot('fresh'), 'repo');
    const run = await cli(['init', repo]);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, '');
    for (const line of ['manifests/svcform.yaml', 'manifests/README.md', 'manifests/rules/example-rule.yaml', '.github/workflows/svcform-plan.yml', '.gitignore (created: .svcform/)']) {
      assert.ok(run.out.split('\n').includes(`  ${line}`), `${line} is listed:\n${run.out}`);
    }
    assert.match(run.out, /^Next:\n {2}cd .*repo\n {2}svcform validate manifests\n {2}svcform plan manifests /m);

    // The kit, byte for byte as the package holds it, and every file of it.
    const kit = readTree(join(KIT, '.github'));
    assert.ok(kit.size >= 3);
    for (const [rel, text] of kit) assert.equal(readFileSync(join(repo, '.github', rel), 'utf8'), text, rel);
    assert.deepEqual([...readTree(join(repo, '.github')).keys()], [...kit.keys()]);
    assert.match(readFileSync(join(repo, '.gitignore'), 'utf8'), /^\.svcform\/$/m);
    const example = readFileSync(join(repo, 'manifests/rules/example-rule.yaml'), 'utf8');
    assert.equal(example.split('\n')[0], `# yaml-language-server: $schema=https://raw.githubusercontent.com/svcform/svcform/v${VERSION}/schemas/Rule.schema.json`);
    const config = parse(readFileSync(join(repo, 'manifests/svcform.yaml'), 'utf8'));
    assert.deepEqual(config, { space: 'default', manage: [{ kind: 'Rule', spaces: ['default'], selector: { tags: ['managed-by:svcform'] } }] });

    const validated = await cli(['validate', join(repo, 'manifests')]);
    assert.equal(validated.code, 0, validated.err);
    assert.equal(validated.out, '1 resources in 1 files: valid (0 errors, 0 warnings)');
    const first = await planSummary(repo, emu.url);
    assert.deepEqual([first.code, first.changes], [2, ['create Rule/example-failed-logins']]);
    const applied = await cli(['apply', join(repo, 'manifests'), '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const again = await planSummary(repo, emu.url);
    assert.deepEqual([again.code, again.summary.create, again.summary.update, again.summary.delete, again.summary.unchanged], [0, 0, 0, 0, 1]);
    const live = await call(emu, 'GET', '/api/detection_engine/rules?rule_id=example-failed-logins');
    assert.equal(live.body.enabled, false, 'the example never runs on a real server');

    // The starting scope owns the example: without its manifest, the plan deletes it.
    unlinkSync(join(repo, 'manifests/rules/example-rule.yaml'));
    const gone = await planSummary(repo, emu.url);
    assert.deepEqual(gone.changes, ['delete Rule/example-failed-logins']);
  });

  it('the starting scope leaves alone what the server already holds: a rule made elsewhere is unmanaged, not deleted', async () => {
    const rule = { rule_id: 'made-by-hand', type: 'query', name: 'By hand', description: 'd', severity: 'low', risk_score: 1, query: 'a:b', index: ['logs-*'] };
    await ok(call(emu, 'POST', '/api/detection_engine/rules', rule), 'rule made by hand');
    const repo = newRoot('existing');
    assert.equal((await cli(['init', repo, '--quiet'])).code, 0);
    const plan = await planSummary(repo, emu.url);
    assert.deepEqual(plan.changes, ['create Rule/example-failed-logins']);
    assert.equal(plan.summary.unmanaged, 1);
  });

  it('init --from-server against a server holding a rule, connectors and a value list: validate passes and plan is empty; a later change on the server shows', async () => {
    await ok(call(emu, 'POST', '/api/actions/connector/soc-chat', { name: 'SOC chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example.com/hooks/SECRET-init-1' } }), 'chat connector');
    await ok(call(emu, 'POST', '/api/actions/connector/soc-log', { name: 'Server log', connector_type_id: '.server-log' }), 'server-log connector');
    await ok(call(emu, 'POST', '/api/detection_engine/rules', SSH_BRUTE_FORCE), 'rule');
    await ok(call(emu, 'POST', '/api/lists/index'), 'list data streams');
    await ok(call(emu, 'POST', '/api/lists', { id: 'blocked-ips', name: 'Blocked IPs', description: 'Blocked at the perimeter', type: 'ip' }), 'value list');
    await ok(postFile(emu, '/api/lists/items/_import?list_id=blocked-ips', '192.0.2.14\n198.51.100.23\n', 'ips.txt'), 'value list items');

    const repo = newRoot('adopt');
    const run = await cli(['init', repo, '--from-server', '--url', emu.url]);
    assert.equal(run.code, 0, run.err);
    // Besides the four made here: the server's own default output and its default anonymization fields.
    const seeded = 1 + 8;
    assert.match(run.out, new RegExp(`^ {2}manifests/ {2}${4 + seeded} exported objects in \\d+ files$`, 'm'));
    assert.match(run.out, /set the 1 variable listed in manifests\/variables\.txt/);
    assert.match(run.out, /svcform plan manifests --url http:\/\/127\.0\.0\.1:\d+ +# nothing to change/);
    assert.doesNotMatch(run.out + run.err, /SECRET-init-1/);
    assert.ok(!existsSync(join(repo, 'manifests/rules/example-rule.yaml')), 'no example beside an export');
    const config = parse(readFileSync(join(repo, 'manifests/svcform.yaml'), 'utf8'));
    assert.equal(config.space, 'default');
    const owned = Object.fromEntries(config.manage.map((s: { kind: string; spaces: string[]; selector: { names: string[] } }) => [s.kind, [s.spaces, s.selector.names]]));
    const { FleetOutput: outputs, AnonymizationField: fields, ...made } = owned;
    assert.deepEqual(made, { Connector: [['default'], ['soc-chat', 'soc-log']], Rule: [['default'], ['ssh-brute-force']], ValueList: [['default'], ['blocked-ips']] });
    assert.deepEqual(outputs, [['default'], ['fleet-default-output']]);
    assert.equal(fields[1].length, 8);
    for (const [rel, text] of readTree(join(KIT, '.github'))) assert.equal(readFileSync(join(repo, '.github', rel), 'utf8'), text, rel);

    const env = variablesEnv(join(repo, 'manifests'));
    assert.deepEqual(Object.keys(env).length, 1);
    const validated = await cli(['validate', join(repo, 'manifests')], env);
    assert.equal(validated.code, 0, validated.err);
    assert.match(validated.out, new RegExp(`^${4 + seeded} resources in \\d+ files: valid`));
    const plan = await planSummary(repo, emu.url, env);
    assert.deepEqual([plan.code, plan.changes, plan.summary.unchanged], [0, [], 4 + seeded]);

    // Not vacuous: a change made on the server since shows, and a new object stays unmanaged.
    await ok(call(emu, 'PATCH', '/api/detection_engine/rules', { rule_id: 'ssh-brute-force', severity: 'low' }), 'severity changed by hand');
    await ok(call(emu, 'POST', '/api/actions/connector/soc-new', { name: 'New', connector_type_id: '.server-log' }), 'new connector');
    const drifted = await planSummary(repo, emu.url, env);
    assert.deepEqual(drifted.changes, ['update Rule/ssh-brute-force']);
    assert.equal(drifted.summary.unmanaged, plan.summary.unmanaged + 1, 'the new connector is counted as unmanaged');
  });

  it('refuses to overwrite without --force and writes nothing; --force rewrites its own files; .gitignore gains its line once', async () => {
    const repo = newRoot('again');
    writeFileSync(join(repo, '.gitignore'), 'node_modules/');
    assert.equal((await cli(['init', repo])).code, 0);
    assert.equal(readFileSync(join(repo, '.gitignore'), 'utf8'), 'node_modules/\n.svcform/\n');
    writeFileSync(join(repo, 'manifests/svcform.yaml'), 'space: mine\n');
    unlinkSync(join(repo, '.github/workflows/svcform-drift.yml'));
    const before = readTree(repo);

    const refused = await cli(['init', repo]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /already holds files init would write:\n {2}manifests\/svcform\.yaml\n {2}manifests\/README\.md\n {2}manifests\/rules\/example-rule\.yaml\n {2}\.github\/workflows\/svcform-apply\.yml\n {2}\.github\/workflows\/svcform-plan\.yml\nNothing was written\. Pass --force to overwrite them\./);
    assert.deepEqual(readTree(repo), before, 'not one file written or changed');

    const forced = await cli(['init', repo, '--force']);
    assert.equal(forced.code, 0, forced.err);
    assert.match(readFileSync(join(repo, 'manifests/svcform.yaml'), 'utf8'), /^space: default$/m);
    assert.equal(readFileSync(join(repo, '.github/workflows/svcform-drift.yml'), 'utf8'), readFileSync(join(KIT, '.github/workflows/svcform-drift.yml'), 'utf8'));
    assert.equal(readFileSync(join(repo, '.gitignore'), 'utf8'), 'node_modules/\n.svcform/\n');
    assert.doesNotMatch(forced.out, /\.gitignore/, 'a line already there is not reported as written');
  });

  it('--from-server never exports over a person\'s manifests, even with --force, and reads no server then; over its own earlier export --force works', async () => {
    const repo = newRoot('theirs');
    writeFiles(repo, { 'manifests/mine.yaml': 'apiVersion: svcform/v1\nkind: Connector\nmetadata: {name: mine}\nspec: {name: mine, connector_type_id: .server-log}\n' });
    await call(emu, 'DELETE', '/__emulator/requests');
    const refused = await cli(['init', repo, '--from-server', '--force', '--url', emu.url]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /init --from-server exports into .*manifests, which must be empty or hold only an earlier export .*not written by svcform export/s);
    assert.deepEqual([...readTree(repo).keys()], ['manifests/mine.yaml']);
    const log = await call(emu, 'GET', '/__emulator/requests');
    assert.deepEqual(log.body.requests, [], 'no request reached the server');

    await ok(call(emu, 'POST', '/api/actions/connector/soc-log', { name: 'Server log', connector_type_id: '.server-log' }), 'connector');
    const fresh = newRoot('twice');
    assert.equal((await cli(['init', fresh, '--from-server', '--url', emu.url, '--quiet'])).code, 0);
    await ok(call(emu, 'POST', '/api/actions/connector/soc-log-2', { name: 'Server log 2', connector_type_id: '.server-log' }), 'second connector');
    const without = await cli(['init', fresh, '--from-server', '--url', emu.url]);
    assert.equal(without.code, 1);
    assert.match(without.err, /Pass --force/);
    const again = await cli(['init', fresh, '--from-server', '--url', emu.url, '--force']);
    assert.equal(again.code, 0, again.err);
    const config = parse(readFileSync(join(fresh, 'manifests/svcform.yaml'), 'utf8'));
    assert.deepEqual(config.manage.filter((s: { kind: string }) => !['FleetOutput', 'AnonymizationField'].includes(s.kind)), [{ kind: 'Connector', spaces: ['default'], selector: { names: ['soc-log', 'soc-log-2'] } }]);
    assert.deepEqual((await planSummary(fresh, emu.url)).changes, []);
  });

  it('target options without --from-server are an error, as is a space that is not a space id; nothing is written', async () => {
    const repo = newRoot('flags');
    const url = await cli(['init', repo, '--url', emu.url]);
    assert.equal(url.code, 1);
    assert.match(url.err, /--url is used only with --from-server/);
    const space = await cli(['init', repo, '--space', 'Not A Space']);
    assert.equal(space.code, 1);
    assert.match(space.err, /--space "Not A Space" is not a space id/);
    assert.deepEqual([...readTree(repo).keys()], []);
  });
});
