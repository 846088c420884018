import type { EmulatorContext } from '../../context.js';
import { badRequest, conflict, EmuError, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { compareVersions, latestPackage } from './catalog.js';
import { bodyObject, boolQuery, expectBoolean, expectObject, expectString, expectStringArray, formatQuery, pageRequest, paginate, rejectUnknownKeys } from './common.js';
import { epmState, fleetState, type PackagePolicyRecord } from './state.js';
import { kueryFilter, type KueryTarget } from './kuery.js';
import { formatPackagePolicy, inputKey, legacyInputsToSimplified, type SimplifiedInputs } from './package-model.js';
import { moveToVersion, reexpanded, removePackagePolicy, writePackagePolicy, type PackagePolicyWrite } from './records.js';

const BODY_FIELDS = new Set([
  'id', 'name', 'description', 'namespace', 'policy_id', 'policy_ids', 'output_id', 'package', 'force', 'vars', 'inputs',
  'supports_agentless', 'additional_datastreams_permissions', 'enabled', 'version', 'overrides',
]);

const PACKAGE_POLICY_KUERY: KueryTarget = {
  types: ['ingest-package-policies', 'fleet-package-policies'],
  fields: [
    'id', 'name', 'description', 'namespace', 'enabled', 'is_managed', 'policy_id', 'policy_ids', 'output_id', 'package.name', 'package.title',
    'package.version', 'revision', 'created_at', 'created_by', 'updated_at', 'updated_by', 'supports_agentless',
  ],
};

function packagePolicyOrThrow(ctx: EmulatorContext, space: string, id: string): PackagePolicyRecord {
  const record = fleetState(ctx, space).packagePolicies[id];
  if (!record) throw notFound(`Package policy ${id} not found`);
  return record;
}

function legacyVarValues(vars: unknown): Record<string, unknown> | undefined {
  if (vars === undefined || vars === null) return undefined;
  if (typeof vars !== 'object' || Array.isArray(vars)) throw badRequest('[request body.vars]: expected value of type [object]');
  return Object.fromEntries(Object.entries(vars as Record<string, any>).map(([k, v]) => [k, v && typeof v === 'object' && 'value' in v ? v.value : v]));
}

/** A create or full-update body in either format, as one write; `fallback` fills a partial legacy update. */
function parseWrite(body: Record<string, any>, fallback?: PackagePolicyWrite): PackagePolicyWrite {
  rejectUnknownKeys(body, BODY_FIELDS);
  const legacy = Array.isArray(body.inputs);
  const partial = fallback !== undefined && legacy;
  if (!partial) expectString(body, 'name', { required: true });
  for (const key of ['id', 'description', 'namespace']) expectString(body, key);
  expectString(body, 'policy_id', { nullable: true });
  expectString(body, 'output_id', { nullable: true });
  expectStringArray(body, 'policy_ids');
  expectBoolean(body, 'force');
  expectBoolean(body, 'supports_agentless');
  if (!partial || body.package !== undefined) {
    if (body.package === undefined) throw badRequest('[request body.package]: expected value of type [object] but got [undefined]');
    expectObject(body, 'package');
    if (typeof body.package.name !== 'string') throw badRequest('[request body.package.name]: expected value of type [string] but got [' + typeof body.package.name + ']');
    if (typeof body.package.version !== 'string') throw badRequest('[request body.package.version]: expected value of type [string] but got [' + typeof body.package.version + ']');
  }
  if (!legacy && body.inputs !== undefined) expectObject(body, 'inputs');
  if (!legacy) expectObject(body, 'vars');
  const policyIds: string[] | undefined = body.policy_ids ?? (typeof body.policy_id === 'string' ? [body.policy_id] : undefined);
  const inputs: SimplifiedInputs | undefined = legacy ? legacyInputsToSimplified(body.inputs) : body.inputs;
  const vars = legacy ? legacyVarValues(body.vars) : body.vars;
  return {
    ...(fallback ?? {}),
    ...(body.id !== undefined ? { id: body.id } : {}),
    name: body.name ?? fallback?.name,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.namespace !== undefined ? { namespace: body.namespace } : {}),
    policy_ids: policyIds ?? fallback?.policy_ids ?? [],
    ...(body.output_id !== undefined ? { output_id: body.output_id } : {}),
    package: body.package ? { name: body.package.name, version: body.package.version } : fallback!.package,
    ...(vars !== undefined ? { vars } : {}),
    ...(inputs !== undefined ? { inputs } : {}),
    force: body.force === true,
    ...(body.supports_agentless !== undefined ? { supports_agentless: body.supports_agentless } : {}),
  };
}

/** A stored policy as a simplified write (the base a partial legacy update is merged onto). */
function asWrite(record: PackagePolicyRecord): PackagePolicyWrite {
  const values = (vars: Record<string, { value?: unknown }> | undefined) => (vars ? Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v.value])) : undefined);
  const inputs: SimplifiedInputs = {};
  for (const input of record.inputs) {
    inputs[inputKey(input)] = {
      enabled: input.enabled,
      ...(input.vars ? { vars: values(input.vars) } : {}),
      ...(input.condition !== undefined ? { condition: input.condition } : {}),
      streams: Object.fromEntries(input.streams.map((s) => [s.data_stream.dataset, { enabled: s.enabled, ...(s.vars ? { vars: values(s.vars) } : {}), ...(s.condition !== undefined ? { condition: s.condition } : {}) }])),
    };
  }
  return {
    name: record.name,
    ...(record.description !== undefined ? { description: record.description } : {}),
    namespace: record.namespace,
    policy_ids: record.policy_ids,
    ...(record.output_id !== undefined ? { output_id: record.output_id } : {}),
    package: { name: record.package.name, version: record.package.version },
    ...(record.vars ? { vars: values(record.vars) } : {}),
    inputs,
  };
}

function managedAgentPolicy(ctx: EmulatorContext, space: string, record: PackagePolicyRecord): string | undefined {
  const policies = fleetState(ctx, space).agentPolicies;
  return record.policy_ids.find((id) => policies[id]?.is_managed);
}

function deleteOne(ctx: EmulatorContext, req: EmuRequest, record: PackagePolicyRecord, force: boolean): void {
  const hosted = managedAgentPolicy(ctx, req.space, record);
  if (hosted && !force) throw badRequest(`Cannot remove integrations of hosted agent policy ${hosted}`);
  removePackagePolicy(ctx, req.space, record, req.user);
}

function targetVersion(ctx: EmulatorContext, name: string, requested?: string): string {
  return requested ?? epmState(ctx).installations[name]?.version ?? latestPackage(name)!.version;
}

function registerUpgrade(router: Router, base: string): void {
  router.post(`${base}/upgrade`, (req, ctx) => {
    const body = bodyObject(req);
    rejectUnknownKeys(body, new Set(['packagePolicyIds']));
    expectStringArray(body, 'packagePolicyIds', { required: true });
    const state = fleetState(ctx, req.space);
    const results = (body.packagePolicyIds as string[]).map((id) => {
      const record = state.packagePolicies[id];
      if (!record) return { id, success: false, statusCode: 404, body: { message: `Package policy ${id} not found` } };
      try {
        const version = targetVersion(ctx, record.package.name);
        if (compareVersions(version, record.package.version) <= 0) return { id, name: record.name, success: true };
        moveToVersion(ctx, req.space, record, version, req.user);
        return { id, name: record.name, success: true };
      } catch (err) {
        const status = err instanceof EmuError ? err.status : 500;
        return { id, name: record.name, success: false, statusCode: status, body: { message: (err as Error).message } };
      }
    });
    return { body: results };
  });

  router.post(`${base}/upgrade/dryrun`, (req, ctx) => {
    const body = bodyObject(req);
    rejectUnknownKeys(body, new Set(['packagePolicyIds', 'packageVersion']));
    expectStringArray(body, 'packagePolicyIds', { required: true });
    expectString(body, 'packageVersion');
    const state = fleetState(ctx, req.space);
    const results = (body.packagePolicyIds as string[]).map((id) => {
      const record = state.packagePolicies[id];
      if (!record) return { hasErrors: true, statusCode: 404, body: { message: `Package policy ${id} not found` } };
      try {
        const { pkg, inputs, vars } = reexpanded(record, targetVersion(ctx, record.package.name, body.packageVersion));
        const proposed = { ...record, inputs, ...(vars ? { vars } : {}), package: { name: pkg.name, title: pkg.title, version: pkg.version } };
        return { name: record.name, hasErrors: false, diff: [formatPackagePolicy(record, req.space, undefined), formatPackagePolicy(proposed, req.space, undefined)] };
      } catch (err) {
        return { name: record.name, hasErrors: true, statusCode: err instanceof EmuError ? err.status : 500, body: { message: (err as Error).message } };
      }
    });
    return { body: results };
  }, { access: 'read' });
}

export function registerPackagePolicies(router: Router): void {
  const base = '/api/fleet/package_policies';

  router.get(base, (req, ctx) => {
    const paging = pageRequest(req, { sortField: 'updated_at', sortOrder: 'desc' });
    const format = formatQuery(req);
    const withAgentCount = boolQuery(req, 'withAgentCount', 'with_agent_count') === true;
    boolQuery(req, 'showUpgradeable', 'show_upgradeable');
    const filter = kueryFilter(req.query.get('kuery'), PACKAGE_POLICY_KUERY);
    const matching = Object.values(fleetState(ctx, req.space).packagePolicies).filter((p) => filter({ ...p, policy_id: p.policy_ids[0] }));
    const { items, total } = paginate(matching, paging);
    return {
      body: {
        items: items.map((p) => ({ ...formatPackagePolicy(p, req.space, format), ...(withAgentCount ? { agents: 0 } : {}) })),
        total,
        page: paging.page,
        perPage: paging.perPage,
      },
    };
  });

  router.post(base, (req, ctx) => {
    const format = formatQuery(req);
    const write = parseWrite(bodyObject(req));
    const record = writePackagePolicy(ctx, req.space, req.user, write);
    return { body: { item: formatPackagePolicy(record, req.space, format) } };
  });

  router.post(`${base}/_bulk_get`, (req, ctx) => {
    const format = formatQuery(req);
    const body = bodyObject(req);
    rejectUnknownKeys(body, new Set(['ids', 'ignoreMissing']));
    expectStringArray(body, 'ids', { required: true, minSize: 1 });
    expectBoolean(body, 'ignoreMissing');
    const records = fleetState(ctx, req.space).packagePolicies;
    const items: Record<string, unknown>[] = [];
    for (const id of body.ids as string[]) {
      if (!records[id]) {
        if (body.ignoreMissing === true) continue;
        throw notFound(`Package policy ${id} not found`);
      }
      items.push(formatPackagePolicy(records[id], req.space, format));
    }
    return { body: { items } };
  }, { access: 'read' });

  router.post(`${base}/delete`, (req, ctx) => {
    const body = bodyObject(req);
    rejectUnknownKeys(body, new Set(['packagePolicyIds', 'force']));
    expectStringArray(body, 'packagePolicyIds', { required: true });
    expectBoolean(body, 'force');
    const records = fleetState(ctx, req.space).packagePolicies;
    const results = (body.packagePolicyIds as string[]).map((id) => {
      const record = records[id];
      if (!record) return { id, success: false, statusCode: 404, body: { message: `Saved object [ingest-package-policies/${id}] not found` }, policy_ids: [], package: undefined };
      const summary = { id, name: record.name, policy_id: record.policy_ids[0] ?? null, policy_ids: record.policy_ids, output_id: record.output_id ?? null, package: record.package };
      try {
        deleteOne(ctx, req, record, body.force === true);
        return { ...summary, success: true };
      } catch (err) {
        return { ...summary, success: false, statusCode: err instanceof EmuError ? err.status : 500, body: { message: (err as Error).message } };
      }
    });
    return { body: results };
  });

  router.get(`${base}/:packagePolicyId`, (req, ctx) => {
    const format = formatQuery(req);
    return { body: { item: formatPackagePolicy(packagePolicyOrThrow(ctx, req.space, req.params.packagePolicyId), req.space, format) } };
  });

  router.put(`${base}/:packagePolicyId`, (req, ctx) => {
    const format = formatQuery(req);
    const existing = packagePolicyOrThrow(ctx, req.space, req.params.packagePolicyId);
    const body = bodyObject(req);
    if (body.version !== undefined && body.version !== existing.version) {
      throw conflict(`Saved object [ingest-package-policies/${existing.id}] conflict`);
    }
    const write = parseWrite(body, Array.isArray(body.inputs) ? asWrite(existing) : undefined);
    const hosted = managedAgentPolicy(ctx, req.space, existing);
    if (hosted && !write.force) throw badRequest(`Cannot update integrations of hosted agent policy ${hosted}`);
    const record = writePackagePolicy(ctx, req.space, req.user, { ...write, id: existing.id, ...(existing.is_managed ? { is_managed: true } : {}) }, existing);
    return { body: { item: formatPackagePolicy(record, req.space, format) } };
  });

  router.delete(`${base}/:packagePolicyId`, (req, ctx) => {
    const record = packagePolicyOrThrow(ctx, req.space, req.params.packagePolicyId);
    deleteOne(ctx, req, record, boolQuery(req, 'force') === true);
    return { body: { id: record.id } };
  });

  registerUpgrade(router, base);
}
