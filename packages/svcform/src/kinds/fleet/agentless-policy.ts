import type { Resource } from '../../manifest/types.js';
import { loadPackageInfo } from './packages.js';
import { desiredVarsAndInputs, extraDatastreams, listPackagePolicies, liveVarsAndInputs, packagePolicyAdapter } from './package-policy.js';
import type { AdapterContext, KindAdapter, LiveObject, Reference } from '../types.js';
import type { RunScope } from '../run-scope.js';
import { AREAS } from '../../client/areas.js';

/**
 * Fleet agentless policies: an integration policy the service runs on hosted infrastructure, with
 * an agent policy the server makes for it (OAS post-fleet-agentless-policies, delete-fleet-
 * agentless-policies-policyid). metadata.name is the package policy id, sent as `id`.
 *
 * The OAS has a create and a delete and no update, so a change is a replace (delete, then create),
 * which the plan says. Self-managed deployments refuse both routes with 400 (service-api.md Fleet
 * policies and Errors): the apply then fails with the server's words, naming the manifest.
 *
 * Agentless policies are package policies (`supports_agentless: true`), read from the package
 * policy listing and compared the way PackagePolicy compares (semantically, against the package's
 * defaults; password vars never compared). PackagePolicy leaves them alone: they are managed.
 */

const AGENTLESS = '/api/fleet/agentless_policies';

function commonFields(src: Record<string, any>): Record<string, any> {
  const extra = extraDatastreams(src);
  return {
    name: src.name,
    ...(src.description ? { description: src.description } : {}),
    namespace: src.namespace ?? '',
    package: { name: src.package?.name, version: src.package?.version },
    ...(extra ? { additional_datastreams_permissions: extra } : {}),
  };
}

async function createPolicy(ctx: AdapterContext, res: Resource): Promise<void> {
  await ctx.api.request({ method: 'POST', path: AGENTLESS, space: res.space, query: { format: 'simplified' }, body: { id: res.name, ...res.spec }, idempotent: true });
  if (res.spec.package?.name) await loadPackageInfo(ctx, res.space, res.spec.package.name, res.spec.package.version);
}

async function deletePolicy(ctx: AdapterContext, live: LiveObject): Promise<void> {
  await ctx.api.request({ method: 'DELETE', path: `${AGENTLESS}/${encodeURIComponent(live.name)}`, space: live.space, accept: [404] });
}

export const agentlessPolicyAdapter: KindAdapter = {
  kind: 'AgentlessPolicy',
  schema: 'AgentlessPolicy.schema.json',
  referenceKinds: ['IntegrationPackage'],
  area: AREAS.fleet,
  setFields: ['/additional_datastreams_permissions'],

  references(spec): Reference[] {
    // Ordering only, as for a PackagePolicy: the server installs the package a new policy names.
    return typeof spec.package?.name === 'string' ? [{ kind: 'IntegrationPackage', name: spec.package.name, path: ['spec', 'package', 'name'], whenMissing: 'installed' }] : [];
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    // Filtered here rather than by kuery: the listing is the one PackagePolicy reads.
    const items = (await listPackagePolicies(ctx, space)).filter((item) => item.supports_agentless === true);
    const versions = new Map<string, { name: string; version: string }>();
    for (const item of items) if (item.package?.name) versions.set(`${item.package.name}@${item.package.version}`, item.package);
    await Promise.all([...versions.values()].map((p) => loadPackageInfo(ctx, space, p.name, p.version)));
    return items.map((body) => ({ kind: 'AgentlessPolicy', space, name: body.id, body }));
  },

  normalizeDesired(res: Resource, run: RunScope) {
    return { ...commonFields(res.spec), ...desiredVarsAndInputs(res.spec, run) };
  },

  normalizeLive(live: LiveObject, run: RunScope) {
    return { ...commonFields(live.body), ...liveVarsAndInputs(live.body, run) };
  },

  replacedOnUpdate() {
    return 'deleted and created again: agentless policies have no update route';
  },

  create: createPolicy,

  async update(ctx, res, live) {
    await deletePolicy(ctx, live);
    await createPolicy(ctx, res);
  },

  delete: deletePolicy,

  toSpec(live: LiveObject, run: RunScope) {
    // additional_datastreams_permissions included, as PackagePolicy exports it.
    const { spec, variables } = packagePolicyAdapter.toSpec(live, run);
    delete spec.policy_ids;
    delete spec.output_id;
    return { spec, variables: variables?.map((v) => ({ ...v, description: v.description.replace('in package policy', 'in agentless policy') })) };
  },
};
