import type { EmulatorContext } from '../../context.js';
import { badRequest, EmuError, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { compareVersions } from './package-types.js';
import { latestOrThrow } from './package-registry.js';
import { boolQuery, formatQuery, pageRequest, paginate } from './common.js';
import { validateRequest } from '../../config-schema.js';
import { BulkGetPackagePoliciesBody, DeletePackagePoliciesBody, DryRunPackagePoliciesBody, UpgradePackagePoliciesBody } from './small-bodies.js';
import { epmState, fleetState, visibleAgentPolicies, type PackagePolicyRecord } from './state.js';
import { kueryFilter, type KueryTarget } from './kuery.js';
import { formatPackagePolicy } from './package-model.js';
import { createWrite, updateWrite } from './package-policy-bodies.js';
import { moveToVersion, reexpanded, removePackagePolicy, writePackagePolicy } from './records.js';

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

function managedAgentPolicy(ctx: EmulatorContext, space: string, record: PackagePolicyRecord): string | undefined {
  const policies = visibleAgentPolicies(ctx, space);
  return record.policy_ids.find((id) => policies[id]?.is_managed);
}

function deleteOne(ctx: EmulatorContext, req: EmuRequest, record: PackagePolicyRecord, force: boolean): void {
  const hosted = managedAgentPolicy(ctx, req.space, record);
  if (hosted && !force) throw badRequest(`Cannot remove integrations of hosted agent policy ${hosted}`);
  removePackagePolicy(ctx, req.space, record, req.user);
}

async function targetVersion(ctx: EmulatorContext, name: string, requested?: string): Promise<string> {
  return requested ?? epmState(ctx).installations[name]?.version ?? (await latestOrThrow(ctx, name)).version;
}

function registerUpgrade(router: Router, base: string): void {
  router.post(`${base}/upgrade`, async (req, ctx) => {
    const body = validateRequest(UpgradePackagePoliciesBody, req.body ?? null);
    const state = fleetState(ctx, req.space);
    const results = [];
    for (const id of body.packagePolicyIds as string[]) {
      const record = state.packagePolicies[id];
      if (!record) {
        results.push({ id, success: false, statusCode: 404, body: { message: `Package policy ${id} not found` } });
        continue;
      }
      try {
        const version = await targetVersion(ctx, record.package.name);
        if (compareVersions(version, record.package.version) > 0) await moveToVersion(ctx, req.space, record, version, req.user);
        results.push({ id, name: record.name, success: true });
      } catch (err) {
        const status = err instanceof EmuError ? err.status : 500;
        results.push({ id, name: record.name, success: false, statusCode: status, body: { message: (err as Error).message } });
      }
    }
    return { body: results };
  });

  router.post(`${base}/upgrade/dryrun`, async (req, ctx) => {
    const body = validateRequest(DryRunPackagePoliciesBody, req.body ?? null);
    const state = fleetState(ctx, req.space);
    const results = await Promise.all((body.packagePolicyIds as string[]).map(async (id) => {
      const record = state.packagePolicies[id];
      if (!record) return { hasErrors: true, statusCode: 404, body: { message: `Package policy ${id} not found` } };
      try {
        const { pkg, inputs, vars } = await reexpanded(ctx, record, await targetVersion(ctx, record.package.name, body.packageVersion));
        // The new version's agent version condition, as the upgrade would keep it (records.ts moveToVersion).
        const { package_agent_version_condition: _old, ...kept } = record;
        const proposed = { ...kept, inputs, ...(vars ? { vars } : {}), package: { name: pkg.name, title: pkg.title, version: pkg.version }, ...(pkg.agent_version ? { package_agent_version_condition: pkg.agent_version } : {}) };
        return { name: record.name, hasErrors: false, diff: [formatPackagePolicy(record, req.space, undefined), formatPackagePolicy(proposed, req.space, undefined)] };
      } catch (err) {
        return { name: record.name, hasErrors: true, statusCode: err instanceof EmuError ? err.status : 500, body: { message: (err as Error).message } };
      }
    }));
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

  router.post(base, async (req, ctx) => {
    const format = formatQuery(req);
    const write = createWrite(req);
    const record = await writePackagePolicy(ctx, req.space, req.user, write);
    return { body: { item: formatPackagePolicy(record, req.space, format) } };
  });

  router.post(`${base}/_bulk_get`, (req, ctx) => {
    const format = formatQuery(req);
    const body = validateRequest(BulkGetPackagePoliciesBody, req.body ?? null);
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
    const body = validateRequest(DeletePackagePoliciesBody, req.body ?? null);
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

  router.put(`${base}/:packagePolicyId`, async (req, ctx) => {
    const format = formatQuery(req);
    const existing = packagePolicyOrThrow(ctx, req.space, req.params.packagePolicyId);
    const write = updateWrite(req, existing);
    const hosted = managedAgentPolicy(ctx, req.space, existing);
    if (hosted && !write.force) throw badRequest(`Cannot update integrations of hosted agent policy ${hosted}`);
    const record = await writePackagePolicy(ctx, req.space, req.user, { ...write, id: existing.id, ...(existing.is_managed ? { is_managed: true } : {}) }, existing);
    return { body: { item: formatPackagePolicy(record, req.space, format) } };
  });

  router.delete(`${base}/:packagePolicyId`, (req, ctx) => {
    const record = packagePolicyOrThrow(ctx, req.space, req.params.packagePolicyId);
    deleteOne(ctx, req, record, boolQuery(req, 'force') === true);
    return { body: { id: record.id } };
  });

  registerUpgrade(router, base);
}
