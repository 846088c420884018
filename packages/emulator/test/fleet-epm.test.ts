import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const EPM = '/api/fleet/epm';

describe('Fleet package manager (service-api.md Fleet package manager, wire-facts 7)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'] });
  });
  after(() => emu.stop());

  it('lists categories as items of {id, title, count} (service-api.md: "Category | id, title, count")', async () => {
    const res = await call(emu, 'GET', `${EPM}/categories`);
    assert.equal(res.status, 200);
    const security = res.body.items.find((c: any) => c.id === 'security');
    assert.deepEqual(Object.keys(security).sort(), ['count', 'id', 'title']);
    // The bundled packages of the security category (data/packages): aws, endpoint, gcp, hostquery_manager, okta, system, windows.
    assert.equal(security.count, 7);
    assert.equal((await call(emu, 'GET', `${EPM}/categories?include_policy_templates=true`)).status, 200);
  });

  it('lists packages as items with status (service-api.md GET /epm/packages: "items"; wire-facts 7: "each with `name`, `version`, `status`")', async () => {
    const res = await call(emu, 'GET', `${EPM}/packages`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.items.map((p: any) => p.name), ['aws', 'aws_logs', 'elastic_agent', 'endpoint', 'fleet_server', 'gcp', 'gcp_pubsub', 'hostquery_manager', 'kafka', 'log', 'okta', 'sql', 'system', 'tcp', 'windows']);
    const system = res.body.items.find((p: any) => p.name === 'system');
    assert.equal(system.version, '1.60.0', 'the latest version');
    assert.equal(system.latestVersion, '1.60.0');
    assert.equal(system.status, 'not_installed');
    assert.equal('installationInfo' in system, false, 'installationInfo only when installed');
    assert.ok(Array.isArray(system.dataStreams));
  });

  it('filters packages by category and leaves out the status with exclude_install_status (service-api.md: "category, prerelease, exclude_install_status")', async () => {
    const custom = await call(emu, 'GET', `${EPM}/packages?category=custom`);
    assert.deepEqual(custom.body.items.map((p: any) => p.name), ['aws_logs', 'gcp_pubsub', 'log', 'sql', 'tcp']);
    const bare = await call(emu, 'GET', `${EPM}/packages?excludeInstallStatus=true&prerelease=true`);
    assert.ok(bare.body.items.every((p: any) => !('status' in p)));
  });

  it('answers the latest version for /{pkgName} and the asked version for /{pkgName}/{pkgVersion} (service-api.md: "`item` (latest version if no version given)")', async () => {
    const latest = await call(emu, 'GET', `${EPM}/packages/system`);
    assert.equal(latest.body.item.version, '1.60.0');
    const pinned = await call(emu, 'GET', `${EPM}/packages/system/1.58.0`);
    assert.equal(pinned.body.item.version, '1.58.0');
    assert.equal(pinned.body.item.policy_templates[0].name, 'system');
    const auth = pinned.body.item.data_streams.find((d: any) => d.dataset === 'system.auth');
    assert.equal(auth.streams[0].input, 'logfile');
    assert.ok(auth.streams[0].vars.some((v: any) => v.name === 'paths' && v.required === true));
  });

  it('always answers item.assets, the package assets grouped by service then type (wire-facts 15 fact 7; OAS package_info required: [name, version, title, assets])', async () => {
    for (const path of ['system', 'system/1.58.0', 'hostquery_manager/1.14.0', 'endpoint']) {
      const res = await call(emu, 'GET', `${EPM}/packages/${path}`);
      assert.equal(res.status, 200, path);
      const { assets } = res.body.item;
      assert.ok(assets && typeof assets === 'object' && !Array.isArray(assets), path);
    }
    const system = (await call(emu, 'GET', `${EPM}/packages/system/1.60.0`)).body.item.assets;
    const auth = system.elasticsearch.ingest_pipeline.find((a: any) => a.dataset === 'auth');
    assert.deepEqual(auth, { pkgkey: 'system-1.60.0', dataset: 'auth', service: 'elasticsearch', type: 'ingest_pipeline', file: 'default.yml', path: 'system-1.60.0/data_stream/auth/elasticsearch/ingest_pipeline/default.yml' });
  });

  it('answers an input package\'s templates as declared, one input each with its type and vars, and an integration\'s templates with the data streams they name (package-spec input and integration manifests; fleet common/services policy_template.ts normalizes them client side)', async () => {
    const input = (await call(emu, 'GET', `${EPM}/packages/gcp_pubsub/1.3.1`)).body.item;
    const [template] = input.policy_templates;
    assert.deepEqual([template.name, template.input, template.type, template.template_path, template.inputs], ['gcp_pubsub', 'gcp-pubsub', 'logs', 'input.yml.hbs', undefined]);
    assert.ok(template.vars.some((v: any) => v.name === 'credentials_json' && v.secret === true));
    assert.deepEqual(input.data_streams, []);
    const integration = (await call(emu, 'GET', `${EPM}/packages/gcp/2.45.2`)).body.item;
    assert.deepEqual(integration.policy_templates.map((t: any) => [t.name, t.data_streams]), [['audit', ['audit']], ['firewall', ['firewall']]]);
    assert.deepEqual(integration.data_streams.map((d: any) => d.path).sort(), ['audit', 'firewall', 'vpcflow']);
  });

  it('answers 404 for an unknown package or version (service-api.md Errors: "Resource does not exist (..., package, ...) | 404")', async () => {
    const name = await call(emu, 'GET', `${EPM}/packages/nope`);
    assert.equal(name.status, 404);
    assert.equal(name.body.message, '[nope] package not found in registry');
    const version = await call(emu, 'GET', `${EPM}/packages/system/9.9.9`);
    assert.equal(version.status, 404);
  });

  it('installs a package: status becomes installed (service-api.md Package install status: "not installed | install package | | installed | status `installed` in package reply")', async () => {
    const res = await call(emu, 'POST', `${EPM}/packages/log/2.4.3`);
    assert.equal(res.status, 200);
    assert.ok(res.body.items.some((a: any) => a.type === 'index_template' && a.id === 'logs-log.logs'));
    assert.deepEqual(res.body._meta, { install_source: 'registry', name: 'log' });
    const info = await call(emu, 'GET', `${EPM}/packages/log/2.4.3`);
    assert.equal(info.body.item.status, 'installed');
    assert.equal(info.body.item.installationInfo.version, '2.4.3');
    assert.equal(info.body.item.installationInfo.install_status, 'installed');
    assert.equal(info.body.item.installationInfo.installed_kibana_space_id, 'default');
  });

  it('installs the latest version when no version is given (service-api.md: "install package (pkg_name, optional pkg_version")', async () => {
    const res = await call(emu, 'POST', `${EPM}/packages/endpoint`);
    assert.equal(res.status, 200);
    assert.equal((await call(emu, 'GET', `${EPM}/packages/endpoint`)).body.item.installationInfo.version, '8.18.1');
  });

  it('needs force for an older pinned version (service-api.md: "an older pinned version needs `force`")', async () => {
    const refused = await call(emu, 'POST', `${EPM}/packages/system/1.58.0`, { force: false });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, 'system-1.58.0 is out-of-date and cannot be installed or updated');
    const forced = await call(emu, 'POST', `${EPM}/packages/system/1.58.0`, { force: true });
    assert.equal(forced.status, 200);
  });

  it('reports status installed for any version once one is installed (wire-facts 7: "Quirk: GET /{name}/{version} reports status: \\"installed\\" when any version is installed")', async () => {
    const other = await call(emu, 'GET', `${EPM}/packages/system/1.60.0`);
    assert.equal(other.body.item.status, 'installed');
    assert.equal(other.body.item.installationInfo.version, '1.58.0');
  });

  it('keeps install state global: another space sees the package installed (brief: install state is space-global)', async () => {
    const res = await call(emu, 'GET', `/s/other${EPM}/packages/system`);
    assert.equal(res.body.item.status, 'installed');
  });

  it('lists installed packages with items, total, searchAfter and pages with per_page / search_after (service-api.md GET /epm/packages/installed)', async () => {
    const all = await call(emu, 'GET', `${EPM}/packages/installed`);
    assert.deepEqual(all.body.items.map((p: any) => p.name), ['endpoint', 'log', 'system']);
    assert.equal(all.body.total, 3);
    assert.equal(all.body.items.find((p: any) => p.name === 'system').version, '1.58.0');
    const first = await call(emu, 'GET', `${EPM}/packages/installed?perPage=2`);
    assert.deepEqual(first.body.items.map((p: any) => p.name), ['endpoint', 'log']);
    assert.deepEqual(first.body.searchAfter, ['log']);
    const next = await call(emu, 'GET', `${EPM}/packages/installed?perPage=2&searchAfter=log`);
    assert.deepEqual(next.body.items.map((p: any) => p.name), ['system']);
    const desc = await call(emu, 'GET', `${EPM}/packages/installed?sort_order=desc`);
    assert.deepEqual(desc.body.items.map((p: any) => p.name), ['system', 'log', 'endpoint']);
  });

  it('filters installed packages by data_stream_type and name_query (service-api.md: "data_stream_type (`logs`, `metrics`, `traces`, `synthetics`, `profiling`)")', async () => {
    const metrics = await call(emu, 'GET', `${EPM}/packages/installed?dataStreamType=metrics`);
    assert.deepEqual(metrics.body.items.map((p: any) => p.name), ['endpoint', 'system']);
    assert.ok(metrics.body.items.every((p: any) => p.dataStreams.every((d: any) => d.name.startsWith('metrics-'))));
    const named = await call(emu, 'GET', `${EPM}/packages/installed?nameQuery=sys`);
    assert.deepEqual(named.body.items.map((p: any) => p.name), ['system']);
    assert.equal((await call(emu, 'GET', `${EPM}/packages/installed?dataStreamType=events`)).status, 400);
  });

  it('lists the limited packages (service-api.md: "items (packages that may be added once per agent policy)")', async () => {
    const res = await call(emu, 'GET', `${EPM}/packages/limited`);
    assert.deepEqual(res.body.items, ['endpoint', 'hostquery_manager']);
  });

  it('answers package stats as `response` counts (service-api.md: "Package stats | `response.agent_policy_count`, `response.package_policy_count`")', async () => {
    await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'stats-policy', name: 'stats', namespace: 'default' });
    const pp = await call(emu, 'POST', '/api/fleet/package_policies', { name: 'stats-logs', policy_ids: ['stats-policy'], package: { name: 'log', version: '2.4.3' }, inputs: { 'logs-logfile': { streams: { 'log.logs': { vars: { paths: ['/a.log'] } } } } } });
    assert.equal(pp.status, 200);
    const res = await call(emu, 'GET', `${EPM}/packages/log/stats`);
    assert.deepEqual(res.body, { response: { agent_policy_count: 1, package_policy_count: 1 } });
    const elsewhere = await call(emu, 'GET', `/s/other${EPM}/packages/log/stats`);
    assert.deepEqual(elsewhere.body.response, { agent_policy_count: 0, package_policy_count: 0 });
    const counted = await call(emu, 'GET', `${EPM}/packages?withPackagePoliciesCount=true`);
    assert.equal(counted.body.items.find((p: any) => p.name === 'log').packagePoliciesInfo.count, 1);
    const meta = await call(emu, 'GET', `${EPM}/packages/log/2.4.3?withMetadata=true`);
    assert.deepEqual(meta.body.metadata, { has_policies: true });
  });

  it('refuses to uninstall a package package policies use (wire-facts 7; service-api.md: "uninstall (force)")', async () => {
    const res = await call(emu, 'DELETE', `${EPM}/packages/log/2.4.3`);
    assert.equal(res.status, 400);
    assert.match(res.body.message, /existing package policy/);
  });

  it('uninstalls: status goes back to not_installed (service-api.md Package install status: "installed | uninstall package | | removed")', async () => {
    const res = await call(emu, 'DELETE', `${EPM}/packages/endpoint/8.18.1`);
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body.items));
    assert.equal((await call(emu, 'GET', `${EPM}/packages/endpoint`)).body.item.status, 'not_installed');
  });

  it('answers 400 "<name> is not installed" when uninstalling what is not installed (wire-facts 7)', async () => {
    const res = await call(emu, 'DELETE', `${EPM}/packages/hostquery_manager/1.14.0`);
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'hostquery_manager is not installed');
  });

  it('serves package files as raw text (service-api.md: "raw file: text as string")', async () => {
    const manifest = await call(emu, 'GET', `${EPM}/packages/system/1.60.0/manifest.yml`);
    assert.equal(manifest.status, 200);
    assert.match(manifest.text, /^name: system$/m);
    assert.match(manifest.text, /^version: 1\.60\.0$/m);
    const readme = await call(emu, 'GET', `${EPM}/packages/system/1.60.0/docs/README.md`);
    assert.match(readme.text, /^# System/);
    assert.equal((await call(emu, 'GET', `${EPM}/packages/system/1.60.0/nope.txt`)).status, 404);
  });

  it('answers dependencies as items (service-api.md: "Dependency | name, version")', async () => {
    const res = await call(emu, 'GET', `${EPM}/packages/system/1.60.0/dependencies`);
    assert.deepEqual(res.body, { items: [] });
    assert.equal((await call(emu, 'GET', `${EPM}/packages/system/0.1.0/dependencies`)).status, 404);
  });

  it('answers the verification key id (service-api.md: "key id, or null when verification is disabled")', async () => {
    const res = await call(emu, 'GET', `${EPM}/verification_key_id`);
    assert.equal(typeof res.body.id, 'string');
  });

  it('updates keep_policies_up_to_date (wire-facts 7: settings `{keepPoliciesUpToDate: bool}`)', async () => {
    const res = await call(emu, 'PUT', `${EPM}/packages/system/1.58.0`, { keepPoliciesUpToDate: true });
    assert.equal(res.status, 200);
    assert.equal(res.body.item.keepPoliciesUpToDate, true);
    assert.equal(res.body.item.installationInfo.keep_policies_up_to_date, true);
  });

  it('bulk installs synchronously (service-api.md: "bulk install (synchronous)"; "Bulk package entry | a package name string, or `{name, version}`")', async () => {
    const res = await call(emu, 'POST', `${EPM}/packages/_bulk`, { packages: ['endpoint', { name: 'system', version: '1.60.0' }, 'nope'] });
    assert.equal(res.status, 200);
    assert.equal(res.body.items[0].result.status, 'installed');
    assert.equal(res.body.items[1].version, '1.60.0');
    assert.equal(res.body.items[1].result.installType, 'update');
    assert.equal(res.body.items[2].statusCode, 404);
    assert.equal((await call(emu, 'GET', `${EPM}/packages/system`)).body.item.installationInfo.version, '1.60.0');
  });

  it('rolls back to the previously installed version, with the package policies that followed (service-api.md Package install status: "installed | rollback | | previously installed version")', async () => {
    await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'rollback-policy', name: 'rollback', namespace: 'default' });
    const pp = await call(emu, 'POST', '/api/fleet/package_policies?format=simplified', { name: 'rollback-system', policy_ids: ['rollback-policy'], package: { name: 'system', version: '1.60.0' } });
    assert.equal(pp.status, 200);
    const res = await call(emu, 'POST', `${EPM}/packages/system/rollback`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { version: '1.58.0', success: true });
    assert.equal((await call(emu, 'GET', `${EPM}/packages/system`)).body.item.installationInfo.version, '1.58.0');
    const after = await call(emu, 'GET', `/api/fleet/package_policies/${pp.body.item.id}?format=simplified`);
    assert.equal(after.body.item.package.version, '1.58.0');
    assert.equal('preserve_original_event' in after.body.item.inputs['system-logfile'].streams['system.auth'].vars, false);
    const again = await call(emu, 'POST', `${EPM}/packages/system/rollback`);
    assert.equal(again.status, 400);
    assert.equal((await call(emu, 'POST', `${EPM}/packages/hostquery_manager/rollback`)).status, 400);
  });
});
