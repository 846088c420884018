import type { EmulatorContext } from '../../context.js';
import { validateRequest } from '../../config-schema.js';
import { BulkInstallPackagesBody, InstallPackageBody, UpdatePackageBody } from './small-bodies.js';
import { badRequest, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { CATEGORY_TITLES, compareVersions, isLimitedPackage, type CatalogPackage } from './package-types.js';
import { findPackage, latestOfEach, latestOrThrow, latestPackage, packageFile, packageOrThrow } from './package-registry.js';
import { boolQuery, numberQuery, queryValue } from './common.js';
import { epmState, fleetState, packagePoliciesEverywhere, packagePoliciesIn, type Installation } from './state.js';
import { moveToVersion } from './records.js';
import { install } from './installations.js';

/**
 * The package manager (/api/fleet/epm). Install state is global to the deployment (packages are
 * installed once, whatever the space), package policies and their counts are per space.
 */

/** The id of the key packages are signed with (GET /epm/verification_key_id). */
const VERIFICATION_KEY_ID = 'D27D666CD88E42B4';

function assetsOf(pkg: CatalogPackage): Array<{ id: string; type: string }> {
  const out: Array<{ id: string; type: string }> = [];
  for (const ds of pkg.data_streams) {
    if (ds.type === 'logs') out.push({ id: `${ds.type}-${ds.dataset}-${pkg.version}`, type: 'ingest_pipeline' });
    out.push({ id: `${ds.type}-${ds.dataset}`, type: 'index_template' });
    out.push({ id: `${ds.type}-${ds.dataset}@package`, type: 'component_template' });
  }
  return out;
}

/** Asset types of the `kibana` folder the server groups (KibanaAssetType); other folders there are not assets. */
const KIBANA_ASSET_TYPES = new Set(['dashboard', 'visualization', 'search', 'index_pattern', 'map', 'lens', 'security_rule', 'ml_module', 'tag', 'csp_rule_template', 'osquery_pack_asset', 'osquery_saved_query', 'alerting_rule_template', 'slo_template']);

/**
 * Package info's `assets`: the package's files under `elasticsearch/` and `kibana/` (at the root
 * or in a data stream) grouped by service, then by asset type (`AssetsGroupedByServiceByType` in
 * the server's common/types/models/epm.ts, grouped by its getPathParts; required by the OpenAPI
 * `package_info` schema, wire-facts 15 fact 7). Field definitions, manifests and docs are no assets.
 */
function groupedAssets(pkg: CatalogPackage): Record<string, Record<string, unknown[]>> {
  const pkgkey = `${pkg.name}-${pkg.version}`;
  const out: Record<string, Record<string, unknown[]>> = {};
  for (const path of pkg.files) {
    const parts = path.split('/');
    const dataset = parts[0] === 'data_stream' ? parts[1] : undefined;
    const [service, type, ...file] = dataset !== undefined ? parts.slice(2) : parts;
    if (file.length === 0 || (service !== 'elasticsearch' && service !== 'kibana')) continue;
    if (service === 'kibana' && !KIBANA_ASSET_TYPES.has(type)) continue;
    const asset = { pkgkey, ...(dataset !== undefined ? { dataset } : {}), service, type, file: file.join('/'), path: `${pkgkey}/${path}` };
    ((out[service] ??= {})[type] ??= []).push(asset);
  }
  return out;
}

function installationInfo(inst: Installation, pkg: CatalogPackage | undefined) {
  return {
    type: 'epm-packages',
    created_at: inst.created_at,
    updated_at: inst.updated_at,
    namespaces: [],
    installed_kibana: [],
    installed_kibana_space_id: inst.installed_kibana_space_id,
    installed_es: pkg ? assetsOf(pkg) : [],
    name: inst.name,
    version: inst.version,
    install_status: inst.install_status,
    install_source: inst.install_source,
    install_format_schema_version: '1.3.0',
    verification_status: 'unverified',
    verification_key_id: null,
    experimental_data_stream_features: [],
    latest_install_failed_attempts: [],
    keep_policies_up_to_date: inst.keep_policies_up_to_date,
  };
}

async function installState(ctx: EmulatorContext, name: string) {
  const inst = epmState(ctx).installations[name];
  // Quirk (wire-facts 7): the status says `installed` when ANY version is, whatever version was asked.
  return {
    status: inst ? 'installed' : 'not_installed',
    ...(inst ? { installationInfo: installationInfo(inst, await findPackage(ctx, inst.name, inst.version)) } : {}),
  };
}

function dataStreamPath(pkg: CatalogPackage, dataset: string): string {
  return dataset.startsWith(`${pkg.name}.`) ? dataset.slice(pkg.name.length + 1).replace(/\./g, '_') : dataset;
}

function summary(pkg: CatalogPackage, latestVersion: string) {
  return {
    name: pkg.name,
    title: pkg.title,
    version: pkg.version,
    release: 'ga',
    description: pkg.description,
    type: pkg.type,
    download: `/epr/${pkg.name}/${pkg.name}-${pkg.version}.zip`,
    path: `/package/${pkg.name}/${pkg.version}`,
    icons: [{ src: '/img/logo.svg', path: `/package/${pkg.name}/${pkg.version}/img/logo.svg`, type: 'image/svg+xml' }],
    categories: pkg.categories,
    format_version: pkg.format_version,
    owner: pkg.owner,
    conditions: { kibana: { version: pkg.kibana_version }, ...(pkg.agent_version ? { agent: { version: pkg.agent_version } } : {}) },
    latestVersion,
    dataStreams: pkg.data_streams.map((ds) => ({ name: `${ds.type}-${ds.dataset}-*`, title: ds.title })),
  };
}

/** The registry package info the server answers with (what clients expand package policies from). */
export async function packageInfo(ctx: EmulatorContext, pkg: CatalogPackage) {
  const latest = await latestOrThrow(ctx, pkg.name);
  const state = await installState(ctx, pkg.name);
  const inst = epmState(ctx).installations[pkg.name];
  return {
    ...summary(pkg, latest.version),
    // An input package answers its templates as declared (one input each, no data streams):
    // clients normalize them as the server does (fleet common/services policy_template.ts).
    policy_templates: pkg.policy_templates.map(({ declared, ...t }) =>
      declared ? { name: t.name, title: t.title, description: t.description, multiple: t.multiple !== false, ...declared } : { ...t, multiple: t.multiple !== false }),
    data_streams: pkg.type === 'input' ? [] : pkg.data_streams.map((ds) => ({
      type: ds.type,
      dataset: ds.dataset,
      title: ds.title,
      release: 'ga',
      package: pkg.name,
      path: ds.path ?? dataStreamPath(pkg, ds.dataset),
      ...(ds.streams ? { streams: ds.streams } : {}),
    })),
    ...(pkg.vars ? { vars: pkg.vars } : {}),
    assets: groupedAssets(pkg),
    keepPoliciesUpToDate: inst?.keep_policies_up_to_date ?? false,
    ...(pkg.files.includes('LICENSE.txt') ? { licensePath: `/package/${pkg.name}/${pkg.version}/LICENSE.txt` } : {}),
    ...(pkg.files.includes('docs/README.md') ? { readme: `/package/${pkg.name}/${pkg.version}/docs/README.md` } : {}),
    ...state,
  };
}

function packagePolicyCount(ctx: EmulatorContext, space: string, name: string) {
  const policies = Object.values(fleetState(ctx, space).packagePolicies).filter((p) => p.package.name === name);
  return { package_policy_count: policies.length, agent_policy_count: new Set(policies.flatMap((p) => p.policy_ids)).size };
}

/** How a file is served: YAML and Markdown as text of their kind, anything else as plain text. */
function contentTypeOf(path: string): string {
  if (/\.ya?ml$/.test(path)) return 'text/yaml; charset=utf-8';
  if (path.endsWith('.md')) return 'text/markdown; charset=utf-8';
  if (path.endsWith('.json')) return 'application/json; charset=utf-8';
  return 'text/plain; charset=utf-8';
}

/**
 * Installing from the registry, with the server's rules (fleet services/epm/packages/install.ts,
 * installPackageFromRegistry and installPackageWithStateMachine): a version older than the
 * registry's latest needs `force` unless it is a reinstall of the installed version; so an older
 * pinned version, and every downgrade, needs `force` (service-api.md: "an older pinned version
 * needs `force`"). Asking for the installed version without `force` changes nothing and answers
 * the installed assets (status `already_installed` inside the server).
 */
async function installRoute(req: EmuRequest, ctx: EmulatorContext, name: string, version: string | undefined) {
  const latest = await latestOrThrow(ctx, name);
  const pkg = version ? await packageOrThrow(ctx, name, version) : latest;
  // An empty body reaches the route as null, which the nullable schema takes.
  const body = validateRequest<{ force?: boolean } | null>(InstallPackageBody, req.body ?? null);
  const force = body?.force === true;
  const installed = epmState(ctx).installations[name];
  const reinstall = installed?.version === pkg.version;
  if (compareVersions(pkg.version, latest.version) < 0 && !force && !reinstall) {
    throw badRequest(`${pkg.name}-${pkg.version} is out-of-date and cannot be installed or updated`);
  }
  if (!(reinstall && !force)) install(ctx, req.space, pkg);
  return { body: { items: assetsOf(pkg), _meta: { install_source: 'registry', name: pkg.name } } };
}

export function registerEpm(router: Router): void {
  const base = '/api/fleet/epm';

  router.get(`${base}/categories`, async (_req, ctx) => {
    const counts = new Map<string, number>();
    for (const pkg of await latestOfEach(ctx)) for (const c of pkg.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
    const items = [...counts.entries()]
      .map(([id, count]) => ({ id, title: CATEGORY_TITLES[id] ?? id, count }))
      .sort((a, b) => a.title.localeCompare(b.title));
    return { body: { items } };
  });

  router.get(`${base}/packages`, async (req, ctx) => {
    const category = queryValue(req, 'category');
    const excludeStatus = boolQuery(req, 'excludeInstallStatus', 'exclude_install_status') === true;
    const withCount = boolQuery(req, 'withPackagePoliciesCount', 'with_package_policies_count') === true;
    const latest = (await latestOfEach(ctx)).filter((pkg) => !category || pkg.categories.includes(category));
    const states = excludeStatus ? [] : await Promise.all(latest.map((pkg) => installState(ctx, pkg.name)));
    const items = latest.map((pkg, i) => ({
      id: pkg.name,
      ...summary(pkg, pkg.version),
      ...(excludeStatus ? {} : states[i]),
      ...(withCount ? { packagePoliciesInfo: { count: packagePolicyCount(ctx, req.space, pkg.name).package_policy_count } } : {}),
    }));
    return { body: { items } };
  });

  router.get(`${base}/packages/installed`, async (req, ctx) => {
    const perPage = numberQuery(req, 'perPage', 'per_page', 15);
    const sortOrder = queryValue(req, 'sortOrder', 'sort_order') ?? 'asc';
    if (sortOrder !== 'asc' && sortOrder !== 'desc') throw badRequest('[request query.sortOrder]: expected value to equal [asc] or [desc]');
    const nameQuery = queryValue(req, 'nameQuery', 'name_query');
    const dataStreamType = queryValue(req, 'dataStreamType', 'data_stream_type');
    if (dataStreamType && !['logs', 'metrics', 'traces', 'synthetics', 'profiling'].includes(dataStreamType)) {
      throw badRequest(`[request query.dataStreamType]: expected one of [logs, metrics, traces, synthetics, profiling] but got [${dataStreamType}]`);
    }
    const searchAfter = req.query.getAll('searchAfter').concat(req.query.getAll('search_after'));
    const found = await Promise.all(Object.values(epmState(ctx).installations).map(async (inst) => ({ inst, pkg: (await findPackage(ctx, inst.name, inst.version))! })));
    const installed = found
      .filter(({ pkg }) => pkg && (!nameQuery || pkg.name.includes(nameQuery) || pkg.title.toLowerCase().includes(nameQuery.toLowerCase())))
      .map(({ inst, pkg }) => ({
        inst,
        pkg,
        dataStreams: pkg.data_streams.filter((ds) => !dataStreamType || ds.type === dataStreamType),
      }))
      .filter(({ dataStreams }) => !dataStreamType || dataStreams.length > 0)
      .sort((a, b) => (sortOrder === 'asc' ? 1 : -1) * a.pkg.name.localeCompare(b.pkg.name));
    const after = searchAfter[0];
    const rest = after === undefined ? installed : installed.filter(({ pkg }) => (sortOrder === 'asc' ? pkg.name > after : pkg.name < after));
    const page = rest.slice(0, perPage);
    const items = page.map(({ inst, pkg, dataStreams }) => ({
      name: pkg.name,
      version: inst.version,
      status: 'installed',
      title: pkg.title,
      description: pkg.description,
      icons: summary(pkg, pkg.version).icons,
      dataStreams: dataStreams.map((ds) => ({ name: `${ds.type}-${ds.dataset}-*`, title: ds.title })),
    }));
    const last = page[page.length - 1];
    return { body: { items, total: installed.length, ...(last ? { searchAfter: [last.pkg.name] } : {}) } };
  });

  router.get(`${base}/packages/limited`, async (_req, ctx) => ({
    body: { items: (await latestOfEach(ctx)).filter(isLimitedPackage).map((pkg) => pkg.name) },
  }));

  router.get(`${base}/verification_key_id`, () => ({ body: { id: VERIFICATION_KEY_ID } }));

  const infoRoute = async (req: EmuRequest, ctx: EmulatorContext, pkg: CatalogPackage) => {
    const withMetadata = boolQuery(req, 'withMetadata', 'with_metadata') === true;
    const item = await packageInfo(ctx, pkg);
    const hasPolicies = packagePolicyCount(ctx, req.space, pkg.name).package_policy_count > 0;
    return { body: { item, ...(withMetadata ? { metadata: { has_policies: hasPolicies } } : {}) } };
  };

  router.get(`${base}/packages/:pkgName`, async (req, ctx) => infoRoute(req, ctx, await latestOrThrow(ctx, req.params.pkgName)));

  router.get(`${base}/packages/:pkgName/:pkgVersion`, async (req, ctx) => infoRoute(req, ctx, await packageOrThrow(ctx, req.params.pkgName, req.params.pkgVersion)));

  router.get(`${base}/packages/:pkgName/stats`, (req, ctx) => ({ body: { response: packagePolicyCount(ctx, req.space, req.params.pkgName) } }));

  router.get(`${base}/packages/:pkgName/:pkgVersion/dependencies`, async (req, ctx) => {
    const pkg = await packageOrThrow(ctx, req.params.pkgName, req.params.pkgVersion);
    return { body: { items: pkg.dependencies ?? [] } };
  });

  /**
   * A file of a registry package as text (the real route `GET
   * /api/fleet/epm/packages/{pkgName}/{pkgVersion}/{filePath*}`, OAS
   * get-fleet-epm-packages-pkgname-pkgversion-filepath): the manifest, a data stream's field
   * definitions, the docs; 404 for a path the package does not have.
   */
  router.get(`${base}/packages/:pkgName/:pkgVersion/:filePath*`, async (req, ctx) => {
    const pkg = await packageOrThrow(ctx, req.params.pkgName, req.params.pkgVersion);
    const path = req.params.filePath;
    const text = await packageFile(ctx, pkg.name, pkg.version, path);
    if (text === undefined) throw notFound(`File not found: ${pkg.name}-${pkg.version}/${path}`);
    return { text, contentType: contentTypeOf(path) };
  });

  router.post(`${base}/packages/:pkgName`, async (req, ctx) => installRoute(req, ctx, req.params.pkgName, undefined));
  router.post(`${base}/packages/:pkgName/:pkgVersion`, async (req, ctx) => installRoute(req, ctx, req.params.pkgName, req.params.pkgVersion));

  router.post(`${base}/packages/_bulk`, async (req, ctx) => {
    const { packages } = validateRequest<{ packages: unknown[] }>(BulkInstallPackagesBody, req.body ?? null);
    const wanted = await Promise.all(packages.map(async (entry: unknown) => {
      const name = typeof entry === 'string' ? entry : (entry as any)?.name;
      const version = typeof entry === 'string' ? undefined : (entry as any)?.version;
      return { name, pkg: version ? await findPackage(ctx, name, version) : await latestPackage(ctx, name) };
    }));
    const items = wanted.map(({ name, pkg }) => {
      if (!pkg) return { name, statusCode: 404, error: { message: `[${name}] package not found in registry` } };
      const { installType } = install(ctx, req.space, pkg);
      return { name: pkg.name, version: pkg.version, result: { assets: assetsOf(pkg), status: 'installed', installType, installSource: 'registry' } };
    });
    return { body: { items } };
  });

  router.post(`${base}/packages/:pkgName/rollback`, async (req, ctx) => {
    const name = req.params.pkgName;
    const inst = epmState(ctx).installations[name];
    if (!inst) throw badRequest(`${name} is not installed`);
    const previous = inst.previous_version ? await findPackage(ctx, name, inst.previous_version) : undefined;
    if (!previous) throw badRequest(`No previous version found for package ${name}`);
    const current = inst.version;
    install(ctx, req.space, previous);
    delete epmState(ctx).installations[name].previous_version;
    // Package policies that followed the update go back with the package.
    for (const space of ctx.store.data.spaces) {
      for (const record of packagePoliciesIn(ctx, space)) {
        if (record.package.name === name && record.package.version === current) await moveToVersion(ctx, space, record, previous.version, req.user);
      }
    }
    return { body: { version: previous.version, success: true } };
  });

  router.put(`${base}/packages/:pkgName/:pkgVersion`, async (req, ctx) => {
    const pkg = await packageOrThrow(ctx, req.params.pkgName, req.params.pkgVersion);
    const inst = epmState(ctx).installations[pkg.name];
    if (!inst) throw badRequest(`package ${pkg.name} is not installed`);
    inst.keep_policies_up_to_date = validateRequest<{ keepPoliciesUpToDate: boolean }>(UpdatePackageBody, req.body ?? null).keepPoliciesUpToDate;
    return { body: { item: await packageInfo(ctx, pkg) } };
  });

  router.delete(`${base}/packages/:pkgName/:pkgVersion`, async (req, ctx) => {
    const name = req.params.pkgName;
    const state = epmState(ctx);
    const inst = state.installations[name];
    if (!inst) throw badRequest(`${name} is not installed`);
    const force = boolQuery(req, 'force') === true;
    const inUse = packagePoliciesEverywhere(ctx).some((p) => p.package.name === name);
    if (inUse && !force) throw badRequest('Unable to remove package with existing package policy(s) in use by agent(s)');
    const pkg = await findPackage(ctx, inst.name, inst.version);
    if (state.installations[name] !== inst) throw badRequest(`${name} is not installed`);
    delete state.installations[name];
    return { body: { items: pkg ? assetsOf(pkg) : [] } };
  });
}
