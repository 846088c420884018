import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';

const CONFIGURE = '/api/cases/configure';
const NONE = { id: 'none', name: 'none', type: '.none', fields: null };

const CONNECTOR = `apiVersion: svcform/v1
kind: Connector
metadata:
  name: soc-tracker
spec:
  name: SOC issue tracker
  connector_type_id: .issue-tracker
  config: {apiUrl: 'https://tracker.example.com', projectKey: SOC}
  secrets: {email: 'bot@example.com', apiToken: '\${env:TRACKER_TOKEN}'}
`;

const config = (closure: string, extra = '') => `apiVersion: svcform/v1
kind: CaseConfiguration
metadata:
  name: securitySolution
spec:
  closure_type: ${closure}
  connector: {id: soc-tracker}
  customFields:
    - {key: tier, label: Tier, type: text, required: false, defaultValue: T2}
${extra}`;

/** wire-facts §13: PATCH with version when a configuration exists, POST only when none does. */
describe('CaseConfiguration', () => {
  let emu: RunningEmulator;
  let dir: string;
  const env = { TRACKER_TOKEN: 'tracker-token-value' };
  const write = (text: string) => writeFileSync(join(dir, 'manifests.yaml'), text);
  const run = (cmd: string, ...extra: string[]) => cli([cmd, dir, '--url', emu.url, ...extra], env);
  const configurations = async () => (await call(emu, 'GET', `${CONFIGURE}?owner=securitySolution`)).body;

  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-casecfg-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    return emu.stop();
  });
  beforeEach(async () => {
    await call(emu, 'POST', '/__emulator/reset');
    emu.log.clear();
  });

  it('creates the connector first, then the configuration with the connector name and type resolved; plan is then empty', async () => {
    write(`${CONNECTOR}---\n${config('close-by-pushing')}`);
    const applied = await run('apply');
    assert.equal(applied.code, 0, applied.out + applied.err);
    const [c] = await configurations();
    assert.deepEqual(c.connector, { id: 'soc-tracker', name: 'SOC issue tracker', type: '.issue-tracker', fields: null });
    assert.equal(c.closure_type, 'close-by-pushing');
    assert.equal((await run('plan', '--detailed-exitcode')).code, 0);
  });

  it('patches an existing configuration (id unchanged, version sent), never POSTs it again', async () => {
    write(CONNECTOR);
    assert.equal((await run('apply')).code, 0);
    const existing = (await call(emu, 'POST', CONFIGURE, { owner: 'securitySolution', closure_type: 'close-by-user', connector: NONE, customFields: [{ key: 'tier', label: 'Tier', type: 'text', required: true }] })).body;
    emu.log.clear();
    write(`${CONNECTOR}---\n${config('close-by-pushing')}`);
    const planned = JSON.parse((await run('plan', '--json')).out);
    assert.deepEqual(planned.changes.map((ch: any) => `${ch.action} ${ch.kind}/${ch.name}`), ['update CaseConfiguration/securitySolution']);
    assert.equal((await run('apply')).code, 0);
    const after = await configurations();
    assert.equal(after.length, 1);
    assert.equal(after[0].id, existing.id, 'the same configuration, patched');
    assert.equal(after[0].closure_type, 'close-by-pushing');
    // Only the case routes: apply also writes its lease (a connector).
    const writes = emu.log.all().filter((r) => r.method !== 'GET' && r.route.startsWith(CONFIGURE)).map((r) => `${r.method} ${r.route}`);
    assert.deepEqual(writes, [`PATCH ${CONFIGURE}/:configuration_id`]);
    assert.equal((await run('plan', '--detailed-exitcode')).code, 0);
  });

  it('a configuration still in its starting state is patched too, not replaced by a POST', async () => {
    const starting = (await call(emu, 'POST', CONFIGURE, { owner: 'securitySolution', closure_type: 'close-by-user', connector: NONE })).body;
    emu.log.clear();
    write(`${CONNECTOR}---\n${config('close-by-user')}`);
    const applied = await run('apply');
    assert.equal(applied.code, 0, applied.out + applied.err);
    const after = await configurations();
    assert.equal(after[0].id, starting.id);
    assert.equal(after[0].connector.id, 'soc-tracker');
    assert.ok(!emu.log.all().some((r) => r.method === 'POST' && r.route === CONFIGURE), 'no POST of the configuration');
  });

  it('an out-of-band change shows as an update of that field', async () => {
    write(`${CONNECTOR}---\n${config('close-by-pushing')}`);
    await run('apply');
    const [c] = await configurations();
    await call(emu, 'PATCH', `${CONFIGURE}/${c.id}`, { version: c.version, closure_type: 'close-by-user' });
    const plan = JSON.parse((await run('plan', '--json')).out);
    assert.deepEqual(plan.changes[0].fields.map((f: any) => f.pointer), ['/closure_type']);
  });

  it('refuses a manifest equal to the starting settings and duplicated custom field keys, naming the field', async () => {
    write(`apiVersion: svcform/v1\nkind: CaseConfiguration\nmetadata:\n  name: cases\nspec:\n  closure_type: close-by-user\n`);
    const starting = await cli(['validate', dir]);
    assert.equal(starting.code, 1);
    assert.match(starting.out + starting.err, /manifests\.yaml:\d+:\d+: .*CaseConfiguration\/cases.*settings an owner starts with/);
    write(config('close-by-user', '    - {key: tier, label: Again, type: text, required: false}\n'));
    const dup = await cli(['validate', dir], env);
    assert.match(dup.out + dup.err, /custom field key "tier" is used twice/);
  });

  it('a template without caseFields is sent with null, as the route requires the key; plan is then empty and export leaves it out (configure/v1.ts TemplateConfigurationRt)', async () => {
    const templates = '  templates:\n    - key: phishing\n      name: Phishing report\n      tags: [phishing, email]\n';
    write(`${CONNECTOR}---\n${config('close-by-user')}${templates}`);
    const applied = await run('apply');
    assert.equal(applied.code, 0, applied.out + applied.err);
    const [c] = await configurations();
    assert.deepEqual(c.templates, [{ key: 'phishing', name: 'Phishing report', tags: ['phishing', 'email'], caseFields: null }]);
    assert.equal((await run('plan', '--detailed-exitcode')).code, 0);
    const out = mkdtempSync(join(tmpdir(), 'svcform-casecfg-export-'));
    const exported = await cli(['export', '--url', emu.url, '--kind', 'CaseConfiguration', '--out', out]);
    assert.equal(exported.code, 0, exported.err);
    const text = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join(out, f), 'utf8')).join('');
    assert.match(text, /- key: phishing\n\s+name: Phishing report\n\s+tags:\n\s+- phishing\n\s+- email\n/);
    assert.doesNotMatch(text, /caseFields/);
    rmSync(out, { recursive: true, force: true });
  });

  it('refuses offline what the route refuses in templates: more than 10, a blank name or tag, more than 10 tags, a tag over 50 characters', async () => {
    const many = Array.from({ length: 11 }, (_, i) => `    - {key: t${i}, name: T${i}}`).join('\n');
    write(config('close-by-user', `  templates:\n${many}\n`));
    const tooMany = await cli(['validate', dir], env);
    assert.equal(tooMany.code, 1);
    assert.match(tooMany.err, /spec\.templates must have at most 10 items/);
    const tags = Array.from({ length: 11 }, (_, i) => `tag${i}`).join(', ');
    write(config('close-by-user', `  templates:\n    - {key: a, name: ' ', tags: [' ', '${'x'.repeat(51)}']}\n    - {key: b, name: B, tags: [${tags}]}\n`));
    const bad = await cli(['validate', dir], env);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /spec\.templates\[0\]\.name must be not blank/);
    assert.match(bad.err, /spec\.templates\[0\]\.tags\[0\] must be not blank/);
    assert.match(bad.err, /spec\.templates\[0\]\.tags\[1\] must be at most 50 characters/);
    assert.match(bad.err, /spec\.templates\[1\]\.tags must have at most 10 items/);
  });

  it('a manage scope resets a configuration without a manifest (there is no delete route); the reset is not planned again', async () => {
    write(`${CONNECTOR}---\n${config('close-by-pushing')}`);
    await run('apply');
    const id = (await configurations())[0].id;
    const cfg = join(dir, 'svcform.yaml');
    writeFileSync(cfg, 'manage:\n  - kind: CaseConfiguration\n    spaces: [default]\n');
    write(CONNECTOR);
    const applied = await run('apply', '--config', cfg, '--auto-approve');
    assert.equal(applied.code, 0, applied.out + applied.err);
    const [reset] = await configurations();
    assert.equal(reset.id, id);
    assert.deepEqual([reset.closure_type, reset.connector.id, reset.customFields], ['close-by-user', 'none', []]);
    assert.equal((await run('plan', '--config', cfg, '--detailed-exitcode')).code, 0);
    rmSync(cfg);
  });
});
