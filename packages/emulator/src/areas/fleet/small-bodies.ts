import { schema } from '../../config-schema.js';
import { namespaceError } from './common.js';
import { additionalDatastreamsPermissions, packageRef, simplifiedInputs, simplifiedVars } from './package-policy-schemas.js';

/**
 * The smaller Fleet request bodies, declared with the config-schema model like the large ones, so
 * every Fleet route refuses unknown keys and converts values the way the server's schemas do
 * (booleans from "true"/"false", numbers from numeric strings). Field sets from the server's
 * rest_spec (K-FLEET/rest_spec/agent_policy.ts, package_policy.ts, agentless_policy.ts) as checked
 * in the OpenAPI document at b76003905 (request bodies of the paths named beside each schema).
 */

const { string, boolean, maybe, arrayOf, object } = schema;

/** POST /api/fleet/agent_policies/delete */
export const DeleteAgentPolicyBody = object({ agentPolicyId: string(), force: maybe(boolean()) });

/** POST /api/fleet/agent_policies/_bulk_get */
export const BulkGetAgentPoliciesBody = object({ ids: arrayOf(string(), { minSize: 1 }), ignoreMissing: maybe(boolean()), full: maybe(boolean()) });

/** POST /api/fleet/agent_policies/{agentPolicyId}/copy */
export const CopyAgentPolicyBody = object({ name: string({ minLength: 1 }), description: maybe(string()) });

/** POST /api/fleet/agent_policies/outputs */
export const AgentPolicyOutputsBody = object({ ids: arrayOf(string()) });

/** POST /api/fleet/package_policies/_bulk_get */
export const BulkGetPackagePoliciesBody = object({ ids: arrayOf(string(), { minSize: 1 }), ignoreMissing: maybe(boolean()) });

/** POST /api/fleet/package_policies/delete */
export const DeletePackagePoliciesBody = object({ packagePolicyIds: arrayOf(string()), force: maybe(boolean()) });

/** POST /api/fleet/package_policies/upgrade */
export const UpgradePackagePoliciesBody = object({ packagePolicyIds: arrayOf(string()) });

/** POST /api/fleet/package_policies/upgrade/dryrun */
export const DryRunPackagePoliciesBody = object({ packagePolicyIds: arrayOf(string()), packageVersion: maybe(string()) });

/**
 * POST /api/fleet/agentless_policies: a simplified package policy of its own (inputs and vars as
 * maps), with no policy ids (the server makes the agent policy) and no `policy_template`.
 */
export const CreateAgentlessPolicyBody = object({
  id: maybe(string()),
  name: string(),
  description: maybe(string()),
  namespace: maybe(string({ check: namespaceError })),
  package: packageRef,
  inputs: maybe(simplifiedInputs),
  vars: maybe(simplifiedVars),
  force: maybe(boolean()),
  additional_datastreams_permissions: additionalDatastreamsPermissions,
});

/** POST /api/fleet/epm/packages/{pkgName}[/{pkgVersion}]: an optional, nullable object. */
export const InstallPackageBody = schema.nullable(object({ force: maybe(boolean()), ignore_constraints: maybe(boolean()) }));

/** PUT /api/fleet/epm/packages/{pkgName}/{pkgVersion}: keepPoliciesUpToDate is required. */
export const UpdatePackageBody = object({ keepPoliciesUpToDate: boolean() });

/** POST /api/fleet/epm/packages/_bulk: names, or {name, version, prerelease?}, at least one. */
export const BulkInstallPackagesBody = object({
  packages: arrayOf(schema.oneOf([string(), object({ name: string(), version: string(), prerelease: maybe(boolean()) })]), { minSize: 1 }),
  force: maybe(boolean()),
});
