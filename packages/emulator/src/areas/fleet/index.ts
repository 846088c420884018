import type { EmulatorArea } from '../../area.js';
import { registerAgentPolicies } from './agent-policies.js';
import { registerAgentPolicyExtras } from './agent-policy-extras.js';
import { registerAgentless } from './agentless.js';
import { registerEpm } from './epm.js';
import { registerOutputs } from './outputs.js';
import { registerPackagePolicies } from './package-policies.js';

/**
 * Fleet: agent policies, package (integration) policies, agentless policies, outputs and the
 * package manager. Policies live per space; package install state is global to the deployment.
 *
 * Emulator choices where the documents leave room:
 * - An agent policy created without `monitoring_enabled` has none: the server fills no default
 *   (wire-facts 15 fact 8); PUT keeps the stored value when the field is omitted (merge).
 * - Request bodies are checked against the server's own schemas (config-schema.ts models the
 *   validation library): unknown keys, wrong types and failed unions give the server's 400s.
 * - An agent policy is stored once, in the space that created it, and visible in every space its
 *   `space_ids` names (Fleet space awareness, wire-facts §16 #10); its package policies stay where
 *   they were made and are listed with it in each of its spaces.
 * - Preconfigured policies cannot be deleted, even with `force`; hosted (managed) ones need `force`.
 */
export const fleetArea: EmulatorArea = {
  name: 'fleet',
  register(router) {
    registerAgentPolicies(router);
    registerAgentPolicyExtras(router);
    registerPackagePolicies(router);
    registerAgentless(router);
    registerEpm(router);
    registerOutputs(router);
  },
};
