import type { EmulatorContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { nameTaken, newAgentPolicy } from './agent-policies.js';
import { formatQuery } from './common.js';
import { validateRequest } from '../../config-schema.js';
import { CreateAgentlessPolicyBody } from './small-bodies.js';
import { formatPackagePolicy } from './package-model.js';
import { removePackagePolicy, writePackagePolicy } from './records.js';
import { packageOrThrow } from './package-registry.js';
import { fleetState } from './state.js';

/**
 * Agentless policies: a package policy run by the service on hosted infrastructure, with an agent
 * policy of its own. Self-managed deployments (the emulator's default) refuse both routes.
 */

function refuseSelfManaged(ctx: EmulatorContext): void {
  if (ctx.settings.selfManaged) {
    throw badRequest('Agentless policies are only supported on hosted cloud and serverless deployments, not on self-managed deployments');
  }
}

async function createAgentless(req: EmuRequest, ctx: EmulatorContext) {
  // Route validation runs before the handler, so a bad body is refused even where agentless is not.
  const format = formatQuery(req);
  const body = validateRequest(CreateAgentlessPolicyBody, req.body ?? null);
  refuseSelfManaged(ctx);
  // The package first, so that nothing below waits between the checks and the writes.
  await packageOrThrow(ctx, body.package.name, body.package.version);
  const state = fleetState(ctx, req.space);
  const id = body.id ?? ctx.uuid();
  if (state.agentPolicies[id] || state.packagePolicies[id]) throw conflict(`Saved object [ingest-package-policies/${id}] conflict`);
  const policyName = `Agentless policy for ${body.name}`;
  nameTaken(ctx, req.space, policyName);
  // The agent policy shares the package policy's id, so deleting one finds the other.
  const agentPolicy = newAgentPolicy(ctx, req, { name: policyName, namespace: body.namespace || 'default', supports_agentless: true, is_managed: true, inactivity_timeout: 3600 }, id);
  state.agentPolicies[id] = agentPolicy;
  try {
    const record = await writePackagePolicy(ctx, req.space, req.user, {
      id,
      name: body.name,
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.namespace !== undefined ? { namespace: body.namespace } : {}),
      policy_ids: [id],
      package: { name: body.package.name, version: body.package.version },
      vars: body.vars,
      inputs: body.inputs,
      supports_agentless: true,
      is_managed: true,
      // The route makes a simplified policy of the body (agentless_policy helpers): only a list is kept.
      ...(Array.isArray(body.additional_datastreams_permissions) ? { additional_datastreams_permissions: body.additional_datastreams_permissions } : {}),
    });
    return { body: { item: formatPackagePolicy(record, req.space, format ?? 'simplified') } };
  } catch (err) {
    delete state.agentPolicies[id];
    throw err;
  }
}

function deleteAgentless(req: EmuRequest, ctx: EmulatorContext) {
  refuseSelfManaged(ctx);
  const state = fleetState(ctx, req.space);
  const id = req.params.policyId;
  const record = state.packagePolicies[id];
  if (!record || !record.supports_agentless) throw notFound(`Agentless policy ${id} not found`);
  removePackagePolicy(ctx, req.space, record, req.user);
  for (const policyId of record.policy_ids) {
    const policy = state.agentPolicies[policyId];
    if (policy?.supports_agentless) delete state.agentPolicies[policyId];
  }
  return { body: { item: { id } } };
}

export function registerAgentless(router: Router): void {
  router.post('/api/fleet/agentless_policies', createAgentless);
  router.delete('/api/fleet/agentless_policies/:policyId', deleteAgentless);
}
