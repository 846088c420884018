import type { Resource } from '../../manifest/types.js';
import { listAllPages } from '../paging.js';
import type { AdapterContext, LiveObject, PlanChangeView } from '../types.js';

/**
 * Which integrations (package policies of a package) are attached to which agent policies, now and
 * once a plan is applied: what tamper protection (tamper-protection.ts) and the integrations the
 * server adds by itself (added-integrations.ts) need from beyond the AgentPolicy listing.
 */

/** What an AgentPolicy listing keeps in LiveObject.extra. */
export interface AgentPolicyExtra {
  /** Ids of the Elastic Defend package policies attached (tamper-protection.ts); absent when they could not be read. */
  defend?: string[];
  /** Ids of the attached package policies of a package, read only where a plan needs them (added-integrations.ts). */
  integrations?: Record<string, string[]>;
}

const POLICIES_PATH = '/api/fleet/package_policies';

function policyIdsOf(body: Record<string, any> | undefined): string[] {
  if (Array.isArray(body?.policy_ids)) return body.policy_ids.filter((id: unknown): id is string => typeof id === 'string');
  return typeof body?.policy_id === 'string' ? [body.policy_id] : [];
}

function attachments(packagePolicies: ReadonlyArray<Record<string, any>>, pkg: string): Map<string, string[]> {
  const byPolicy = new Map<string, string[]>();
  for (const body of packagePolicies) {
    if (body.package?.name !== pkg) continue;
    for (const id of policyIdsOf(body)) {
      const ids = byPolicy.get(id);
      if (ids) ids.push(String(body.id));
      else byPolicy.set(id, [String(body.id)]);
    }
  }
  return byPolicy;
}

/**
 * The package policies of package `pkg` attached to each agent policy of `space`, by agent policy
 * id: from the plan's own PackagePolicy listing of the space when it has one, else with one listing
 * filtered to the package.
 */
export async function attachedIntegrations(
  ctx: AdapterContext,
  space: string,
  objectsOf: (kind: string, space: string) => LiveObject[] | undefined,
  pkg: string,
  pageSize: number,
): Promise<Map<string, string[]>> {
  const listed = objectsOf('PackagePolicy', space);
  return attachments(listed ? listed.map((o) => o.body) : await listAllPages<Record<string, any>>(ctx.api, {
    path: POLICIES_PATH,
    space,
    query: { kuery: `ingest-package-policies.package.name:${pkg}` },
    sizeParam: 'perPage',
    pageSize,
    items: (body) => body.items ?? [],
    total: (body) => body.total ?? 0,
  }), pkg);
}

/**
 * The package policies of package `pkg` an agent policy has once the plan is applied: the live
 * ones (`now`), less those the plan deletes or moves away, plus those it creates or moves onto it.
 */
export function integrationsAfter(policy: Resource, now: readonly string[], changes: readonly PlanChangeView[], pkg: string): Set<string> {
  const after = new Set(now);
  for (const c of changes) {
    if (c.kind !== 'PackagePolicy' || c.space !== policy.space) continue;
    if (c.action === 'delete') after.delete(c.name);
    else if (c.action === 'create' || c.action === 'update') {
      const spec = c.resource?.spec;
      if (spec?.package?.name === pkg && policyIdsOf(spec).includes(policy.name)) after.add(c.name);
      else after.delete(c.name);
    }
  }
  return after;
}
