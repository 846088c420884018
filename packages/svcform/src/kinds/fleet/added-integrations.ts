import type { Resource } from '../../manifest/types.js';
import type { AdapterContext, LiveObject, ManifestWarning, PlanChangeView } from '../types.js';
import { attachedIntegrations, integrationsAfter, type AgentPolicyExtra } from './tamper-protection.js';

/**
 * Flags that make an agent policy's create add an integration to the new policy, a package policy
 * with a generated id and a `<package>-<n>` name (K-FLEET = x-pack/platform/plugins/shared/fleet/server,
 * services/agent_policies/agent_policy_create.ts createAgentPolicyWithPackages): `sys_monitoring`
 * (a query flag) adds `system`, `has_fleet_server` adds `fleet_server`. No manifest declares that
 * package policy, so a manage scope that owns every PackagePolicy of the space deletes it at the
 * next apply: the integration the flag asked for. Only a create adds it: an update that sets
 * `has_fleet_server` stores the flag and adds nothing (services/agent_policy.ts update()).
 */
const ADDED_INTEGRATIONS = [
  { field: 'sys_monitoring', pkg: 'system', effect: 'a system integration' },
  { field: 'has_fleet_server', pkg: 'fleet_server', effect: 'the Fleet Server integration' },
];
const FLEET_SERVER = 'fleet_server';
/** Fleet Server package policies are small: the default page of a listing. */
const PAGE_SIZE = 100;

/** The manifests whose live policy lacks the stored `has_fleet_server` flag the manifest sets. */
function flagToStore(res: Resource, live: LiveObject | undefined): boolean {
  return res.kind === 'AgentPolicy' && res.spec.has_fleet_server === true && !!live && live.body.has_fleet_server !== true;
}

/**
 * Marks the listed AgentPolicy objects that a manifest gives `has_fleet_server: true` while the
 * server holds no flag (the plan updates them) with the Fleet Server package policies attached
 * (AgentPolicyExtra.fleetServer): a policy with one needs nothing more, one without gets nothing
 * from the update. Nothing is read once every such policy holds the flag. Where they cannot be
 * read the objects stay unmarked and the plan says nothing.
 */
export async function markFleetServer(
  ctx: AdapterContext,
  resources: readonly Resource[],
  objectsOf: (kind: string, space: string) => LiveObject[] | undefined,
): Promise<void> {
  const bySpace = new Map<string, LiveObject[]>();
  for (const res of resources) {
    if (res.kind !== 'AgentPolicy' || res.spec.has_fleet_server !== true) continue;
    const live = objectsOf('AgentPolicy', res.space)?.find((o) => o.name === res.name);
    if (live && flagToStore(res, live)) bySpace.set(res.space, [...(bySpace.get(res.space) ?? []), live]);
  }
  await Promise.all([...bySpace].map(async ([space, policies]) => {
    let byPolicy: Map<string, string[]>;
    try {
      byPolicy = await attachedIntegrations(ctx, space, objectsOf, FLEET_SERVER, PAGE_SIZE);
    } catch (err) {
      ctx.log(`could not read the Fleet Server package policies of space ${space} (${(err as Error).message})`);
      return;
    }
    for (const o of policies) o.extra = { ...(o.extra ?? {}), fleetServer: byPolicy.get(o.name) ?? [] } satisfies AgentPolicyExtra;
  }));
}

export function addedIntegrationWarnings(
  resources: readonly Resource[],
  changes: readonly PlanChangeView[],
  liveOf: (res: Resource) => LiveObject | undefined | 'unknown',
  ownsUnnamed: (kind: string, space: string) => boolean,
): ManifestWarning[] {
  const actions = new Map(changes.filter((c) => c.kind === 'AgentPolicy').map((c) => [`${c.space}/${c.name}`, c.action]));
  const warnings: ManifestWarning[] = [];
  for (const resource of resources) {
    if (resource.kind !== 'AgentPolicy') continue;
    const action = actions.get(`${resource.space}/${resource.name}`);
    for (const { field, pkg, effect } of ADDED_INTEGRATIONS) {
      if (resource.spec[field] !== true || action !== 'create' || !ownsUnnamed('PackagePolicy', resource.space)) continue;
      warnings.push({
        resource,
        path: ['spec', field],
        message: `spec.${field} makes the server add ${effect} (a package policy no manifest declares) to the new policy, and the manage scope over PackagePolicy in space ${resource.space} deletes it at the next apply: declare a PackagePolicy of the ${pkg} package for this policy instead`,
      });
    }
    const live = action === 'update' ? liveOf(resource) : undefined;
    if (!live || live === 'unknown' || !flagToStore(resource, live)) continue;
    const now = (live.extra as AgentPolicyExtra | undefined)?.fleetServer;
    if (now && integrationsAfter(resource, now, changes, FLEET_SERVER).size === 0) {
      warnings.push({
        resource,
        path: ['spec', 'has_fleet_server'],
        message: 'spec.has_fleet_server: true on an existing policy without a Fleet Server integration only marks it: the server adds the integration only when it creates a policy, so declare a PackagePolicy of the fleet_server package for this policy',
      });
    }
  }
  return warnings;
}
