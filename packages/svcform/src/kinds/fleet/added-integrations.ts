import type { Resource } from '../../manifest/types.js';
import type { AdapterContext, LiveObject, ManifestWarning, PlanChangeView } from '../types.js';
import { attachedIntegrations, integrationsAfter, type AgentPolicyExtra } from './attached-integrations.js';

/**
 * Flags that make an agent policy's create add an integration to the new policy, a package policy
 * with a generated id and a `<package>-<n>` name (K-FLEET = x-pack/platform/plugins/shared/fleet/server,
 * services/agent_policies/agent_policy_create.ts createAgentPolicyWithPackages): `sys_monitoring`
 * (a query flag of the create) adds `system`, `has_fleet_server` adds `fleet_server`.
 * - No manifest declares that package policy, so a manage scope that owns every PackagePolicy of
 *   the space deletes it at the next apply: the integration the flag asked for.
 * - Only a create adds it. On an existing policy `sys_monitoring` is sent nowhere, and an update
 *   that sets `has_fleet_server` stores the flag and adds nothing (services/agent_policy.ts
 *   update()): a manifest that asks for the integration of a policy without one gets nothing.
 */
interface AddedIntegration {
  field: string;
  pkg: string;
  effect: string;
  /** Whether the plan must know the live policy's integrations of `pkg` to judge the manifest. */
  toCheck(live: LiveObject): boolean;
  /** What the manifest's flag does to a policy that has none of them. */
  onExisting: string;
}

const ADDED_INTEGRATIONS: AddedIntegration[] = [
  {
    field: 'sys_monitoring',
    pkg: 'system',
    effect: 'a system integration',
    toCheck: () => true,
    onExisting: 'does nothing',
  },
  {
    field: 'has_fleet_server',
    pkg: 'fleet_server',
    effect: 'the Fleet Server integration',
    // Once the flag is stored the plan has nothing to say: only the update that stores it would
    // add nothing, and nothing is read for it.
    toCheck: (live) => live.body.has_fleet_server !== true,
    onExisting: 'only marks it',
  },
];
/** Their package policies are small (system's a few dozen inputs): the default page of a listing. */
const PAGE_SIZE = 100;

function integrationsOf(live: LiveObject, pkg: string): string[] | undefined {
  return (live.extra as AgentPolicyExtra | undefined)?.integrations?.[pkg];
}

/**
 * Marks the listed AgentPolicy objects whose manifest sets one of the flags (and needs the check)
 * with the package policies of the flag's package attached to them (AgentPolicyExtra.integrations):
 * from the plan's own PackagePolicy listing of the space when it has one, else one listing
 * filtered to the package. Where they cannot be read the objects stay unmarked and the plan says
 * nothing.
 */
export async function markAddedIntegrations(
  ctx: AdapterContext,
  resources: readonly Resource[],
  objectsOf: (kind: string, space: string) => LiveObject[] | undefined,
): Promise<void> {
  const wanted = new Map<string, { space: string; pkg: string; policies: LiveObject[] }>();
  for (const res of resources) {
    if (res.kind !== 'AgentPolicy') continue;
    const live = objectsOf('AgentPolicy', res.space)?.find((o) => o.name === res.name);
    if (!live) continue;
    for (const added of ADDED_INTEGRATIONS) {
      if (res.spec[added.field] !== true || !added.toCheck(live)) continue;
      const key = `${res.space}/${added.pkg}`;
      const entry = wanted.get(key) ?? { space: res.space, pkg: added.pkg, policies: [] };
      entry.policies.push(live);
      wanted.set(key, entry);
    }
  }
  await Promise.all([...wanted.values()].map(async ({ space, pkg, policies }) => {
    let byPolicy: Map<string, string[]>;
    try {
      byPolicy = await attachedIntegrations(ctx, space, objectsOf, pkg, PAGE_SIZE);
    } catch (err) {
      ctx.log(`could not read the ${pkg} package policies of space ${space} (${(err as Error).message})`);
      return;
    }
    for (const o of policies) {
      const extra = (o.extra ?? {}) as AgentPolicyExtra;
      o.extra = { ...extra, integrations: { ...extra.integrations, [pkg]: byPolicy.get(o.name) ?? [] } } satisfies AgentPolicyExtra;
    }
  }));
}

export function addedIntegrationWarnings(
  resources: readonly Resource[],
  changes: readonly PlanChangeView[],
  liveOf: (res: Resource) => LiveObject | undefined | 'unknown',
  ownsUnnamed: (kind: string, space: string) => boolean,
): ManifestWarning[] {
  const creates = new Set(changes.filter((c) => c.kind === 'AgentPolicy' && c.action === 'create').map((c) => `${c.space}/${c.name}`));
  const warnings: ManifestWarning[] = [];
  for (const resource of resources) {
    if (resource.kind !== 'AgentPolicy') continue;
    const created = creates.has(`${resource.space}/${resource.name}`);
    for (const { field, pkg, effect, onExisting } of ADDED_INTEGRATIONS) {
      if (resource.spec[field] !== true) continue;
      if (created) {
        // A manifest that declares the integration too (an export of a policy that holds the flag
        // and its integration does) gets two: the server's, named `<package>-<n>`, and its own,
        // whose name is often that same one, which the server then refuses.
        const declared = [...integrationsAfter(resource, [], changes, pkg)];
        if (declared.length > 0) {
          warnings.push({
            resource,
            path: ['spec', field],
            message: `spec.${field} makes the server add ${effect} (named ${pkg}-<n>) to the new policy beside PackagePolicy/${declared[0]} that the manifests attach to it: two of them, or a refused create where the names meet; remove ${field} and keep the declared one`,
          });
          continue;
        }
        if (!ownsUnnamed('PackagePolicy', resource.space)) continue;
        warnings.push({
          resource,
          path: ['spec', field],
          message: `spec.${field} makes the server add ${effect} (a package policy no manifest declares) to the new policy, and the manage scope over PackagePolicy in space ${resource.space} deletes it at the next apply: declare a PackagePolicy of the ${pkg} package for this policy instead`,
        });
        continue;
      }
      const live = liveOf(resource);
      const now = live && live !== 'unknown' ? integrationsOf(live, pkg) : undefined;
      if (now && integrationsAfter(resource, now, changes, pkg).size === 0) {
        warnings.push({
          resource,
          path: ['spec', field],
          message: `spec.${field}: true on an existing policy without ${effect} ${onExisting}: the server adds the integration only when it creates a policy, so declare a PackagePolicy of the ${pkg} package for this policy`,
        });
      }
    }
  }
  return warnings;
}
