import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { redactor } from '../../src/manifest/redact.js';
import { knownKinds } from '../../src/kinds/registry.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { VERSION } from '../../src/cli/program.js';
import { DEFAULT_WORKLOAD, seedExportWorkload } from '../../bench/export.js';
import { expectExportPlansEmpty, readTree, variablesEnv } from '../helpers/export-files.js';
import { BIG_LIST_VALUES, ok, SECRETS, seedDetectionContent, seedEveryKind } from '../helpers/export-seed.js';

/** Secret values seeded into connectors; none may ever reach an exported file or the output. */
const roots: string[] = [];
/** A path for --out inside a fresh temporary folder (the path itself does not exist yet). */
// Exports go to temporary directories, outside the working directory (the default repository root):
// validate and plan get --root so that an exported items_file may be read.
function newDir(tag: string): string {
  const root = mkdtempSync(join(tmpdir(), `svcform-export-${tag}-`));
  roots.push(root);
  return join(root, 'out');
}
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function docsOf(text: string): any[] {
  return parseAllDocuments(text).map((d) => d.toJS());
}

describe('export round trip: objects made through the API, export, validate, plan shows nothing to change', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ deployment: 'cloud' });
    await seedEveryKind(emu);
    await ok(call(emu, 'PUT', '/api/detection_engine/rules/prepackaged'), 'prebuilt rules');
    await seedDetectionContent(emu);
  });
  after(() => emu.stop());

  for (const kind of knownKinds()) {
    it(`${kind}: export --kind ${kind}, then validate exits 0, then plan --detailed-exitcode exits 0 with every object unchanged`, async () => {
      const dir = newDir(kind);
      const exported = await cli(['export', '--out', dir, '--url', emu.url, '--kind', kind]);
      assert.equal(exported.code, 0, exported.err);
      const files = [...readTree(dir).keys()].filter((f) => f.endsWith('.yaml'));
      assert.ok(files.length > 0, `a manifest file for ${kind}`);
      const names = files.flatMap((f) => docsOf(readFileSync(join(dir, f), 'utf8'))).map((d) => d.kind);
      assert.ok(names.length >= 1 && names.every((k) => k === kind), `only ${kind} documents`);
      await expectExportPlansEmpty(dir, emu.url, names.length);
    });
  }

  for (const layout of ['per-kind', 'per-object']) {
    it(`every kind at once, --layout ${layout}: validate 0, plan 0; the value list over 1,000 values uses items_file beside its manifest`, async () => {
      const dir = newDir(layout);
      const exported = await cli(['export', '--out', dir, '--url', emu.url, '--layout', layout]);
      assert.equal(exported.code, 0, exported.err);
      const tree = readTree(dir);
      const manifest = layout === 'per-kind' ? 'default/value-list.yaml' : 'default/value-list/bad-domains.yaml';
      const big = docsOf(tree.get(manifest)!).find((d) => d.metadata.name === 'bad-domains');
      assert.equal(big.spec.items, undefined);
      const itemsPath = join(dir, manifest, '..', big.spec.items_file);
      assert.deepEqual(readFileSync(itemsPath, 'utf8').split('\n').filter(Boolean).sort(), [...BIG_LIST_VALUES].sort());
      const small = docsOf(tree.get(layout === 'per-kind' ? manifest : 'default/value-list/blocked-ips.yaml')!).find((d) => d.metadata.name === 'blocked-ips');
      assert.deepEqual([...small.spec.items].sort(), ['192.0.2.14', '198.51.100.23', '203.0.113.5']);
      const expected = layout === 'per-kind'
        ? ['agent-policy', 'connector', 'host-query-pack', 'host-query-saved-query', 'maintenance-window', 'package-policy', 'rule', 'value-list'].map((k) => `default/${k}.yaml`)
        : ['default/rule/ssh-brute-force.yaml', 'default/connector/soc-chat.yaml', 'default/maintenance-window/weekly-patching.yaml', 'default/host-query-pack/incident-response.yaml'];
      for (const f of expected) assert.ok(tree.has(f), `${f} written`);
      const env = variablesEnv(dir);
      assert.equal((await cli(['validate', dir, '--root', dir], env)).code, 0);
      const planned = await cli(['plan', dir, '--root', dir, '--url', emu.url, '--detailed-exitcode'], env);
      assert.equal(planned.code, 0, planned.out + planned.err);
      assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete, \d+ unchanged/);
    });
  }

  it('an exported rule still names its connector by id, and literal ${ in live text survives as $${', async () => {
    const dir = newDir('refs');
    assert.equal((await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Rule'])).code, 0);
    const text = readFileSync(join(dir, 'default/rule.yaml'), 'utf8');
    const rule = docsOf(text).find((d) => d.metadata.name === 'ssh-brute-force');
    assert.deepEqual(rule.spec.actions.map((a: any) => a.id), ['soc-chat']);
    assert.equal(rule.spec.note, '## Triage\n\nCheck $${source.ip} against the VPN ranges; $$${ stays literal too.\n');
    assert.deepEqual(Object.keys(rule), ['apiVersion', 'kind', 'metadata', 'spec']);
    assert.deepEqual(rule.metadata, { name: 'ssh-brute-force', space: 'default' });
    assert.deepEqual(Object.keys(rule.spec), [...Object.keys(rule.spec)].sort());
    // No path into this machine's installed package: the release's schemas, the same for everyone.
    assert.equal(text.split('\n')[0], `# yaml-language-server: $schema=https://raw.githubusercontent.com/svcform/svcform/v${VERSION}/schemas/Rule.schema.json`);
  });

  it('with --schemas DIR (written by svcform schemas --out DIR) the modelines are paths relative to each file', async () => {
    const dir = newDir('schemas-dir');
    const schemas = join(dir, '..', `${basename(dir)}-schemas`);
    const missing = await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Rule', '--schemas', schemas]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /lacks .*Rule\.schema\.json.*svcform schemas --out/);
    assert.equal((await cli(['schemas', '--out', schemas])).code, 0);
    assert.equal((await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Rule', '--layout', 'per-object', '--schemas', schemas])).code, 0);
    const text = readFileSync(join(dir, 'default/rule/ssh-brute-force.yaml'), 'utf8');
    const target = text.split('\n')[0].split('$schema=')[1];
    assert.equal(target, `../../../${basename(schemas)}/Rule.schema.json`);
    assert.ok(existsSync(join(dir, 'default/rule', target)), 'the modeline path resolves from the file');
  });

  it('a change made on the server after the export shows in plan (the round trip is not vacuous)', async () => {
    const dir = newDir('drift');
    assert.equal((await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Rule'])).code, 0);
    await ok(call(emu, 'PATCH', '/api/detection_engine/rules', { rule_id: 'failed-logins-threshold', risk_score: 91 }), 'patch');
    try {
      const planned = await cli(['plan', dir, '--root', dir, '--url', emu.url, '--detailed-exitcode']);
      assert.equal(planned.code, 2, planned.out + planned.err);
      assert.match(planned.out, /failed-logins-threshold/);
    } finally {
      await ok(call(emu, 'PATCH', '/api/detection_engine/rules', { rule_id: 'failed-logins-threshold', risk_score: 90 }), 'patch back');
    }
  });

  it('skips read-only objects by default and counts them; --include-builtin writes them under .readonly/ and plan on the directory still exits 0', async () => {
    const dir = newDir('builtin');
    const plain = await cli(['export', '--out', dir, '--url', emu.url]);
    assert.equal(plain.code, 0, plain.err);
    const tree = readTree(dir);
    // A customised prebuilt rule is exported as a customisation in its PrebuiltRules set, never as a Rule (a fork).
    const prebuiltSets = tree.get('default/prebuilt-rules.yaml') ?? '';
    assert.deepEqual(docsOf(prebuiltSets)[0]?.spec?.customize, { '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01': { severity: 'high' } }, prebuiltSets);
    const all = [...tree.entries()].filter(([f]) => f !== 'default/prebuilt-rules.yaml').map(([, t]) => t).join('\n');
    for (const builtIn of ['preconfigured-server-log', 'prebuilt-hardware-monitoring', 'prebuilt_users', '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01']) assert.ok(!all.includes(builtIn), `${builtIn} skipped`);
    assert.match(plain.err, /^Connector\s+default\s+4\s+2 skipped$/m);
    assert.match(plain.err, /^Rule\s+default\s+4\s+3 skipped$/m);
    assert.match(plain.err, /Skipped \d+ read-only objects/);
    assert.ok(![...tree.keys()].some((f) => f.startsWith('.readonly/')));

    const withBuiltin = newDir('builtin-incl');
    const run = await cli(['export', '--out', withBuiltin, '--url', emu.url, '--include-builtin']);
    assert.equal(run.code, 0, run.err);
    const incl = readTree(withBuiltin);
    const roConnectors = incl.get('.readonly/default/connector.yaml')!;
    assert.match(roConnectors, /READ-ONLY/);
    assert.deepEqual(docsOf(roConnectors).map((d) => d.metadata.name).sort(), ['preconfigured-server-log', 'system-connector-.cases']);
    assert.deepEqual(docsOf(incl.get('.readonly/default/rule.yaml')!).length, 3);
    assert.equal(incl.get('default/connector.yaml'), tree.get('default/connector.yaml'), 'the owned files are the same as without --include-builtin');
    const env = variablesEnv(withBuiltin);
    const planned = await cli(['plan', withBuiltin, '--root', withBuiltin, '--url', emu.url, '--detailed-exitcode'], env);
    assert.equal(planned.code, 0, planned.out + planned.err);
  });

  it('--manage-out writes a manage section covering exactly the exported objects; plan with it deletes what loses its manifest and leaves new objects alone', async () => {
    const dir = newDir('manage');
    const run = await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Connector', '--kind', 'MaintenanceWindow', '--manage-out', join(dir, 'svcform.yaml')]);
    assert.equal(run.code, 0, run.err);
    const manage = parse(readFileSync(join(dir, 'svcform.yaml'), 'utf8')).manage;
    assert.deepEqual(manage, [
      { kind: 'Connector', spaces: ['default'], selector: { names: ['soc-chat', 'soc-genai', 'soc-log', 'soc-webhook'] } },
      { kind: 'MaintenanceWindow', spaces: ['default'], selector: { names: ['Datacenter migration', 'Weekly patching'] } },
    ]);
    const env = variablesEnv(dir);
    const clean = await cli(['plan', dir, '--root', dir, '--url', emu.url, '--detailed-exitcode'], env);
    assert.equal(clean.code, 0, clean.out + clean.err);

    await ok(call(emu, 'POST', '/api/actions/connector/made-by-hand', { name: 'Later', connector_type_id: '.server-log' }), 'new connector');
    const connectors = readFileSync(join(dir, 'default/connector.yaml'), 'utf8');
    writeFileSync(join(dir, 'default/connector.yaml'), connectors.split('\n---\n').filter((d) => !/name: soc-log\n/.test(d)).join('\n---\n'));
    const planned = await cli(['plan', dir, '--root', dir, '--url', emu.url, '--detailed-exitcode', '--json'], env);
    assert.equal(planned.code, 2, planned.out + planned.err);
    const changes = JSON.parse(planned.out).changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`);
    assert.deepEqual(changes, ['delete Connector/soc-log']);

    const stdout = await cli(['export', '--out', newDir('manage-stdout'), '--url', emu.url, '--kind', 'Connector', '--manage-out', '-']);
    assert.equal(stdout.code, 0, stdout.err);
    assert.deepEqual(parse(stdout.out).manage[0].selector.names, ['made-by-hand', 'soc-chat', 'soc-genai', 'soc-log', 'soc-webhook']);
  });
});

describe('export never writes a secret', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['blue'], deployment: 'cloud' });
    await seedEveryKind(emu);
    await seedEveryKind(emu, '/s/blue');
  });
  after(() => emu.stop());

  it('no seeded secret value appears in any written file or in the output, in either layout, with or without built-ins', async () => {
    // The redactor must not know the values, or it would mask a leak instead of exposing it.
    for (const s of Object.values(SECRETS)) assert.equal(redactor.has(s), false);
    const runs = [
      [],
      ['--layout', 'per-object'],
      ['--include-builtin', '--space', 'default', '--space', 'blue'],
    ];
    for (const extra of runs) {
      const dir = newDir('secrets');
      const run = await cli(['export', '--out', dir, '--url', emu.url, '--manage-out', join(dir, 'svcform.yaml'), ...extra]);
      assert.equal(run.code, 0, run.err);
      const tree = readTree(dir);
      assert.ok(tree.size > 5);
      for (const [file, content] of [...tree.entries(), ['(stdout)', run.out], ['(stderr)', run.err]]) {
        for (const secret of Object.values(SECRETS)) assert.ok(!content.includes(secret), `${file} holds a secret value`);
      }
    }
  });

  it('each connector secret becomes ${env:NAME}; the names are listed on stderr and in variables.txt without values; a second space gets its own names', async () => {
    const dir = newDir('vars');
    const run = await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Connector', '--space', 'default', '--space', 'blue']);
    assert.equal(run.code, 0, run.err);
    const placeholders = new Set<string>();
    for (const file of ['default/connector.yaml', 'blue/connector.yaml']) {
      for (const doc of docsOf(readFileSync(join(dir, file), 'utf8'))) {
        for (const v of Object.values<string>(doc.spec.secrets ?? {})) {
          const m = /^\$\{env:([A-Z0-9_]+)\}$/.exec(v);
          assert.ok(m, `${doc.metadata.name}: ${v} is a placeholder`);
          placeholders.add(m[1]);
        }
      }
    }
    assert.equal(placeholders.size, 8, 'chat 1 + webhook 2 + gen-ai 1, per space');
    const listed = readFileSync(join(dir, 'variables.txt'), 'utf8');
    const listedNames = listed.split('\n').filter((l) => /^[A-Z]/.test(l)).map((l) => l.split('=')[0]);
    assert.deepEqual(new Set(listedNames), placeholders);
    for (const line of listed.split('\n').filter((l) => /^[A-Z]/.test(l))) assert.match(line, /^[A-Z0-9_]+= {2}# \S/);
    assert.match(run.err, /Set these environment variables before plan\/apply:/);
    for (const name of placeholders) assert.ok(run.err.includes(name), `${name} on stderr`);
    assert.ok([...placeholders].some((n) => n.endsWith('_BLUE')), 'the second space gets suffixed names');
  });
});

describe('export reads with list endpoints only', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    await seedExportWorkload(emu);
  });
  after(() => emu.stop());

  it('2,000 rules and 500 other objects: list/find requests only (plus one package info GET per distinct package and one GET per pack)', async () => {
    await call(emu, 'DELETE', '/__emulator/requests');
    const dir = newDir('scale');
    // Speed is measured in bench/export.ts, not timed here: request counts are the behaviour.
    const run = await cli(['export', '--out', dir, '--url', emu.url]);
    assert.equal(run.code, 0, run.err);
    const others = DEFAULT_WORKLOAD.connectors + DEFAULT_WORKLOAD.valueLists + DEFAULT_WORKLOAD.agentPolicies + DEFAULT_WORKLOAD.packagePolicies + DEFAULT_WORKLOAD.savedQueries + DEFAULT_WORKLOAD.packs + DEFAULT_WORKLOAD.maintenanceWindows;
    assert.equal(others, 500);
    // The package policies' package is installed by their creation: one IntegrationPackage. The
    // server's own default output and default anonymization fields (eight in the emulator) too.
    assert.match(run.err, new RegExp(`Exported ${DEFAULT_WORKLOAD.rules + others + 1 + 1 + 8} objects`));

    const { requests } = (await call(emu, 'GET', '/__emulator/requests')).body as { requests: Array<{ method: string; route: string; path: string; query: string }> };
    const listRoutes = new Set([
      '/api/spaces/space/:id',
      '/api/spaces/space', // the spaces themselves, once
      '/api/actions/connectors',
      '/api/detection_engine/rules/_find',
      '/api/lists/_find',
      '/api/lists/items/_find',
      '/api/exception_lists/_find', // single lists, then agnostic ones once
      '/api/exception_lists/items/_find',
      '/api/fleet/agent_policies',
      '/api/fleet/package_policies',
      '/api/hostquery/packs',
      '/api/hostquery/saved_queries',
      '/api/maintenance_window/_find',
      '/api/fleet/epm/packages',
      '/api/uptime/settings',
      '/api/cases/configure',
      '/api/agent_builder/tools',
      '/api/agent_builder/agents',
      '/api/attack_discovery/schedules/_find',
      '/api/saved_objects/_find',
      '/api/timelines',
      '/api/fleet/outputs',
      '/api/security_ai_assistant/anonymization_fields/_find',
      '/api/asset_criticality/list',
      '/api/agent_builder/skills', // built-in skills only here: no skill is read by id
      '/api/workflows',
      '/api/entity_analytics/watchlists/list',
      '/api/security/entity_store/entities', // every watchlist's members in one walk
      '/api/security/entity_store/status',
      '/api/endpoint/scripts_library',
      '/api/agent_builder/plugins',
      '/api/entity_analytics/monitoring/privileges/health',
      '/api/entity_analytics/monitoring/users/list',
    ]);
    const packageInfo = '/api/fleet/epm/packages/:pkgName/:pkgVersion';
    // The pack find reply has no shards (wire-facts §15 fact 3), so each pack is read whole once.
    const packRead = '/api/hostquery/packs/:id';
    // The API lists no protection-updates notes: one GET per package policy (one per policy seeded).
    const noteRead = '/api/endpoint/protection_updates_note/:package_policy_id';
    // The prebuilt review routes read over POST (review_rule_installation_route.ts, review_rule_upgrade_route.ts).
    const postReads = new Set(['/internal/detection_engine/prebuilt_rules/installation/_review', '/internal/detection_engine/prebuilt_rules/upgrade/_review']);
    assert.ok(requests.every((r) => r.method === 'GET' || (r.method === 'POST' && postReads.has(r.route))), 'reads only');
    for (const route of postReads) listRoutes.add(route);
    const unexpected = requests.filter((r) => !listRoutes.has(r.route) && r.route !== packageInfo && r.route !== packRead && r.route !== noteRead);
    assert.deepEqual(unexpected.map((r) => `${r.method} ${r.path}`), []);
    const infoPaths = requests.filter((r) => r.route === packageInfo).map((r) => r.path);
    assert.equal(new Set(infoPaths).size, infoPaths.length, 'each package version read at most once');
    assert.ok(infoPaths.length <= 2, 'two distinct system package versions at most');
    // Rules are read a page at a time, never one GET per rule.
    assert.ok(requests.filter((r) => r.route === '/api/detection_engine/rules/_find').length <= 20);
    // One items find per value list (each list holds 5 values), and no other per-object request.
    assert.equal(requests.filter((r) => r.route === '/api/lists/items/_find').length, DEFAULT_WORKLOAD.valueLists);
    const packReads = requests.filter((r) => r.route === packRead).map((r) => r.path);
    assert.equal(new Set(packReads).size, packReads.length, 'each pack read at most once');
    assert.ok(packReads.length <= DEFAULT_WORKLOAD.packs + 1, `${packReads.length} pack reads`); // plus the prebuilt pack
    const noteReads = requests.filter((r) => r.route === noteRead).map((r) => r.path);
    assert.equal(new Set(noteReads).size, noteReads.length, 'each package policy\'s note read at most once');
    assert.ok(requests.length - packReads.length - noteReads.length < 150, `${requests.length} requests`);
  });
});

describe('export command line', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['blue'], deployment: 'cloud' });
    await seedEveryKind(emu);
    await ok(call(emu, 'POST', '/s/blue/api/actions/connector/blue-log', { name: 'Blue log', connector_type_id: '.server-log' }), 'blue connector');
  });
  after(() => emu.stop());

  it('an unknown --kind is a clear error, exit 1, and nothing is written', async () => {
    const dir = newDir('unknown');
    const run = await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Rules']);
    assert.equal(run.code, 1);
    assert.match(run.err, /unknown kind "Rules" for --kind; known kinds: Connector, Rule/);
    assert.equal(existsSync(dir), false);
  });

  it('--kind accepts any spelling and narrows the kinds read; --space picks spaces; --select narrows objects', async () => {
    const dir = newDir('narrow');
    await call(emu, 'DELETE', '/__emulator/requests');
    const run = await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'value-list', '--kind', 'connector', '--space', 'blue', '--space', 'default', '--select', 'Connector/*-log', '--select', 'ValueList/blocked-*']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual([...readTree(dir).keys()].filter((f) => f.endsWith('.yaml')), ['blue/connector.yaml', 'default/connector.yaml', 'default/value-list.yaml']);
    assert.deepEqual(docsOf(readFileSync(join(dir, 'blue/connector.yaml'), 'utf8')).map((d) => [d.metadata.name, d.metadata.space]), [['blue-log', 'blue']]);
    assert.deepEqual(docsOf(readFileSync(join(dir, 'default/connector.yaml'), 'utf8')).map((d) => d.metadata.name), ['soc-log']);
    assert.deepEqual(docsOf(readFileSync(join(dir, 'default/value-list.yaml'), 'utf8')).map((d) => d.metadata.name), ['blocked-ips']);
    const routes = new Set(emu.log.all().map((r) => r.route));
    assert.ok(!routes.has('/api/detection_engine/rules/_find'), 'kinds not asked for are not read');

    const selectOnly = await cli(['export', '--out', newDir('select'), '--url', emu.url, '--select', 'Rule/ssh-*']);
    assert.equal(selectOnly.code, 0, selectOnly.err);
    assert.match(selectOnly.err, /^Rule\s+default\s+1\s/m);
    assert.doesNotMatch(selectOnly.err, /^Connector/m);
  });

  it('a space that does not exist is an error before anything is written', async () => {
    const dir = newDir('nospace');
    const run = await cli(['export', '--out', dir, '--url', emu.url, '--space', 'nowhere']);
    assert.equal(run.code, 1);
    assert.match(run.err, /nowhere/);
    assert.equal(existsSync(dir), false);
  });

  it('when a kind cannot be read in a space, names it, exits 1 and writes nothing', async () => {
    const dir = newDir('unreadable');
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'GET', path: '^/api/hostquery/packs', status: 403 }] });
    try {
      const run = await cli(['export', '--out', dir, '--url', emu.url]);
      assert.equal(run.code, 1);
      assert.match(run.err, /cannot list HostQueryPack in space default/);
      assert.match(run.err, /nothing was written/);
      assert.equal(existsSync(dir), false);
    } finally {
      await call(emu, 'DELETE', '/__emulator/faults');
    }
  });

  it('refuses a non-empty directory it did not write, and names the problem', async () => {
    const dir = newDir('foreign');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'notes.md'), 'mine');
    const run = await cli(['export', '--out', dir, '--url', emu.url]);
    assert.equal(run.code, 1);
    assert.match(run.err, /is not empty and was not written by svcform export/);
    assert.deepEqual(readdirSync(dir), ['notes.md']);
  });

  it('re-exports over its own earlier export, removing files of objects gone since, but refuses once a file was edited or added', async () => {
    const dir = newDir('again');
    const first = await cli(['export', '--out', dir, '--url', emu.url, '--layout', 'per-object', '--kind', 'Connector']);
    assert.equal(first.code, 0, first.err);
    assert.ok(existsSync(join(dir, 'default/connector/soc-log.yaml')));
    await ok(call(emu, 'DELETE', '/api/actions/connector/soc-log'), 'delete');
    try {
      const second = await cli(['export', '--out', dir, '--url', emu.url, '--layout', 'per-object', '--kind', 'Connector']);
      assert.equal(second.code, 0, second.err);
      assert.equal(existsSync(join(dir, 'default/connector/soc-log.yaml')), false, 'stale file removed');
      assert.ok(existsSync(join(dir, 'default/connector/soc-chat.yaml')));

      writeFileSync(join(dir, 'default/connector/soc-chat.yaml'), readFileSync(join(dir, 'default/connector/soc-chat.yaml'), 'utf8') + '# my note\n');
      const edited = await cli(['export', '--out', dir, '--url', emu.url, '--layout', 'per-object', '--kind', 'Connector']);
      assert.equal(edited.code, 1);
      assert.match(edited.err, /default\/connector\/soc-chat\.yaml \(changed since the earlier export\)/);
      assert.match(readFileSync(join(dir, 'default/connector/soc-chat.yaml'), 'utf8'), /# my note/);

      unlinkSync(join(dir, 'default/connector/soc-chat.yaml'));
      writeFileSync(join(dir, 'extra.yaml'), 'x: 1\n');
      const added = await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Connector']);
      assert.equal(added.code, 1);
      assert.match(added.err, /extra\.yaml \(not written by the earlier export\)/);
    } finally {
      await ok(call(emu, 'POST', '/api/actions/connector/soc-log', { name: 'Server log', connector_type_id: '.server-log' }), 'restore');
    }
  });

  it('--manage-out refuses to overwrite a file it did not write, and a .yaml inside --out other than svcform.yaml', async () => {
    const other = join(newDir('cfg'), '..', 'svcform.yaml');
    writeFileSync(other, 'url: https://example.com\n');
    const run = await cli(['export', '--out', newDir('mo'), '--url', emu.url, '--manage-out', other]);
    assert.equal(run.code, 1);
    assert.match(run.err, /already exists and was not written by svcform export/);
    assert.equal(readFileSync(other, 'utf8'), 'url: https://example.com\n');
    const inside = newDir('mo-inside');
    const bad = await cli(['export', '--out', inside, '--url', emu.url, '--manage-out', join(inside, 'manage.yaml')]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /name it svcform\.yaml/);
  });
});
