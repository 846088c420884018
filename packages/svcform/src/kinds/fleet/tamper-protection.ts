import type { Resource } from '../../manifest/types.js';
import type { AdapterContext, LiveObject, ManifestWarning, PlanChangeView } from '../types.js';
import { attachedIntegrations, integrationsAfter, type AgentPolicyExtra } from './attached-integrations.js';

/**
 * Tamper protection (`is_protected`) of agent policies. The server holds it only for a policy with
 * an Elastic Defend integration (a package policy of package `endpoint`), whatever a body says
 * (K-FLEET = x-pack/platform/plugins/shared/fleet/server, services/agent_policy.ts):
 * - create() stores false always (prepareAsNewSo): a new policy has no integration yet;
 * - update() stores false unless the policy has one (policyHasEndpointSecurity), without an error;
 * - services/package_policy.ts switches it off in the agent policies an `endpoint` package policy
 *   leaves or joins (update) and in those of a deleted one (delete); a create never does.
 * So a manifest's `is_protected: true` is compared only where the live policy has Elastic Defend
 * (agent-policy.ts chosenByServer; the plan reads which have one, markElasticDefend), or no plan
 * would ever settle; and the plan says, at the field, when the value takes a second apply and
 * when it cannot hold at all (tamperProtectionWarnings).
 */

export const ELASTIC_DEFEND = 'endpoint';
const IS_PROTECTED = ['spec', 'is_protected'];

/** Elastic Defend policies carry their whole protection settings: smaller pages than other listings. */
const PAGE_SIZE = 100;

/**
 * Marks the listed AgentPolicy objects of each space where a manifest asks for `is_protected: true`
 * with the Elastic Defend package policies attached to them (LiveObject.extra, AgentPolicyExtra):
 * from the plan's own PackagePolicy listing of the space when it has one, else with one listing
 * filtered to the endpoint package. Nothing is read for a run that asks for no tamper protection:
 * Elastic Defend package policies carry all their protection settings, too much to read on every
 * plan. Where they cannot be read (no privilege) the objects stay unmarked and `is_protected` is
 * compared as written.
 */
export async function markElasticDefend(
  ctx: AdapterContext,
  resources: readonly Resource[],
  objectsOf: (kind: string, space: string) => LiveObject[] | undefined,
): Promise<void> {
  const spaces = new Set(resources.filter((r) => r.kind === 'AgentPolicy' && r.spec.is_protected === true).map((r) => r.space));
  await Promise.all([...spaces].map(async (space) => {
    const policies = objectsOf('AgentPolicy', space);
    if (!policies) return;
    let byPolicy: Map<string, string[]>;
    try {
      byPolicy = await attachedIntegrations(ctx, space, objectsOf, ELASTIC_DEFEND, PAGE_SIZE);
    } catch (err) {
      ctx.log(`could not read the Elastic Defend package policies of space ${space} (${(err as Error).message}); is_protected is compared as written`);
      return;
    }
    for (const o of policies) o.extra = { ...(o.extra ?? {}), defend: byPolicy.get(o.name) ?? [] } satisfies AgentPolicyExtra;
  }));
}

/** Whether the live policy is known to have no Elastic Defend integration (so the server holds false). */
export function knownWithoutDefend(live: LiveObject): boolean {
  const defend = (live.extra as AgentPolicyExtra | undefined)?.defend;
  return Array.isArray(defend) && defend.length === 0;
}

/**
 * A warning at `is_protected` for each AgentPolicy manifest that sets it true where the server
 * will not hold true after this apply:
 * - no Elastic Defend integration after the plan (declared or live): the server stores false, and
 *   svcform leaves the field out of the comparison, so this repeats until the manifest changes;
 * - the plan creates the policy, or attaches its first Elastic Defend integration: the create (or
 *   the update, which runs before the integration it needs) stores false; the next apply sets it.
 * Nothing is said where the integration is already live: there the update simply works. A policy
 * whose live object or Defend attachments could not be read is left out (no guess).
 */
export function tamperProtectionWarnings(
  resources: readonly Resource[],
  changes: readonly PlanChangeView[],
  /** The live object of a manifest; undefined where there is none (a create), `unknown` where the plan cannot tell. */
  liveOf: (res: Resource) => LiveObject | undefined | 'unknown',
): ManifestWarning[] {
  const warnings: ManifestWarning[] = [];
  for (const res of resources) {
    if (res.kind !== 'AgentPolicy' || res.spec.is_protected !== true) continue;
    const live = liveOf(res);
    if (live === 'unknown') continue;
    const now = live ? (live.extra as AgentPolicyExtra | undefined)?.defend : [];
    if (!now) continue;
    const after = integrationsAfter(res, now, changes, ELASTIC_DEFEND);
    if (after.size === 0) {
      warnings.push({
        resource: res,
        path: IS_PROTECTED,
        message: 'is_protected is true, but no Elastic Defend integration (a PackagePolicy of package endpoint, declared or live) is attached to this agent policy after the plan: the server stores false without one, so svcform does not compare it; attach one, or remove is_protected',
      });
    } else if (!live) {
      warnings.push({
        resource: res,
        path: IS_PROTECTED,
        message: 'is_protected: the create stores false (the server turns tamper protection on only for a policy that already has its Elastic Defend integration, which this plan attaches after creating the policy); the next apply sets it',
      });
    } else if (now.length === 0 && live.body.is_protected !== true) {
      warnings.push({
        resource: res,
        path: IS_PROTECTED,
        message: 'is_protected takes effect at the next apply: the server turns tamper protection on only for a policy that already has its Elastic Defend integration, which this plan attaches',
      });
    }
  }
  return warnings;
}
