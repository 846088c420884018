import type { EmulatorContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { isLimitedPackage, type CatalogPackage } from './package-types.js';
import { findPackage, packageOrThrow } from './package-registry.js';
import { namespaceError } from './common.js';
import { ensureInstalled, ensureVersionInstalled } from './installations.js';
import { alignInputsAndStreams, applySimplified, carryOver, defaultInputs, defaultPackageVars, validateAgainstPackage, type SimplifiedInputs } from './package-model.js';
import { attachedTo, fleetState, visibleAgentPolicies, type AgentPolicyRecord, type PackagePolicyRecord } from './state.js';
import { applyAgentVersionConditions } from './agent-version-conditions.js';

/** A package policy write after format handling: what create, update and sys_monitoring share. */
export interface PackagePolicyWrite {
  id?: string;
  name: string;
  description?: string;
  namespace?: string;
  policy_ids: string[];
  output_id?: string | null;
  package: { name: string; version: string };
  vars?: Record<string, unknown>;
  inputs?: SimplifiedInputs;
  force?: boolean;
  supports_agentless?: boolean;
  /** Set by the agentless route and for policies attached to managed agent policies. */
  is_managed?: boolean;
  /** Undefined: an update keeps what the policy has (see package-policy-bodies.ts). */
  additional_datastreams_permissions?: string[] | null;
}

export function agentPolicyOrThrow(ctx: EmulatorContext, space: string, id: string): AgentPolicyRecord {
  const policy = visibleAgentPolicies(ctx, space)[id];
  if (!policy) throw notFound(`Agent policy ${id} not found`);
  return policy;
}

/** The package of Elastic Defend, the integration tamper protection needs (K-FLEET common/services policyHasEndpointSecurity). */
export const ELASTIC_DEFEND_PACKAGE = 'endpoint';

/**
 * Every change to an agent policy or to what is attached to it moves its revision on and works
 * its agent version fields out again from its package policies (K-FLEET agent_policy.ts: update()
 * and bumpRevision() both run computeMinAgentVersionData). `removeProtection` switches tamper
 * protection off with it, as the server's bumpRevision does when an Elastic Defend package policy
 * leaves or joins the policy (agent_policy.ts _update: `is_protected: false`).
 */
export function bumpRevision(ctx: EmulatorContext, policy: AgentPolicyRecord, user: string, options: { removeProtection?: boolean } = {}): void {
  applyAgentVersionConditions(policy, attachedTo(ctx, policy));
  if (options.removeProtection) policy.is_protected = false;
  policy.revision += 1;
  policy.updated_at = ctx.now().toISOString();
  policy.updated_by = user;
  policy.version = ctx.store.versionToken();
}

export function bumpPolicies(ctx: EmulatorContext, space: string, ids: Iterable<string>, user: string, removeProtection: (id: string) => boolean = () => false): void {
  const policies = visibleAgentPolicies(ctx, space);
  for (const id of new Set(ids)) if (policies[id]) bumpRevision(ctx, policies[id], user, { removeProtection: removeProtection(id) });
}

/**
 * The agent policies whose tamper protection the server switches off when an Elastic Defend
 * package policy is updated: those it is newly assigned to and those it leaves, not those it stays
 * in (K-FLEET package_policy.ts update() and bulkUpdate(), `removeProtectionFn`). A create
 * switches off none (create() bumps without it).
 */
function defendMoved(packageName: string, before: string[], after: string[]): (id: string) => boolean {
  if (packageName !== ELASTIC_DEFEND_PACKAGE) return () => false;
  return (id) => before.includes(id) !== after.includes(id);
}

function checkAttachments(ctx: EmulatorContext, space: string, write: PackagePolicyWrite, pkg: CatalogPackage, selfId: string | undefined, verb: string): void {
  const state = fleetState(ctx, space);
  for (const policyId of write.policy_ids) {
    const policy = visibleAgentPolicies(ctx, space)[policyId];
    if (!policy) throw notFound(`Agent policy ${policyId} not found`);
    if (policy.is_managed && !write.force && !write.is_managed) throw badRequest(`Cannot ${verb} integrations of hosted agent policy ${policyId}`);
    if (isLimitedPackage(pkg)) {
      const clash = Object.values(state.packagePolicies).find((p) => p.id !== selfId && p.package.name === pkg.name && p.policy_ids.includes(policyId));
      if (clash) throw badRequest(`Unable to ${verb} integration policy. Integration '${pkg.name}' already exists on this agent policy.`);
    }
  }
}

/**
 * Creates (no `existing`) or replaces a package policy: package lookup, attachment checks, name
 * uniqueness, expansion of every input and stream with the package defaults, validation, install
 * of the package when none of its versions is installed, and revision bumps of the agent
 * policies involved.
 */
export async function writePackagePolicy(ctx: EmulatorContext, space: string, user: string, given: PackagePolicyWrite, existing?: PackagePolicyRecord): Promise<PackagePolicyRecord> {
  // The name is stored trimmed, and its uniqueness checked so (package_policy.ts create and update:
  // trailing whitespace breaks the API keys made from it).
  const write = { ...given, name: given.name.trim() };
  // The package first: everything after it runs without yielding, so no other request interleaves.
  const pkg = await packageOrThrow(ctx, write.package.name, write.package.version);
  const state = fleetState(ctx, space);
  if (write.namespace) {
    const err = namespaceError(write.namespace);
    if (err) throw badRequest(`[request body.namespace]: ${err}`);
  }
  if (existing && existing.package.name !== write.package.name) {
    throw badRequest(`Package policy ${existing.id}: the package cannot change from ${existing.package.name} to ${write.package.name}`);
  }
  const id = existing?.id ?? write.id ?? ctx.uuid();
  if (!existing && state.packagePolicies[id]) throw conflict(`Saved object [ingest-package-policies/${id}] conflict`);
  const nameClash = Object.values(state.packagePolicies).find((p) => p.name === write.name && p.id !== id);
  if (nameClash) throw conflict(`An integration policy with the name ${write.name} already exists. Please rename it or choose a different name.`);
  checkAttachments(ctx, space, write, pkg, existing?.id, existing ? 'update' : 'create');

  const inputs = defaultInputs(pkg, id);
  const vars = defaultPackageVars(pkg);
  applySimplified(inputs, vars, write);
  alignInputsAndStreams(inputs);
  validateAgainstPackage(pkg, inputs, vars);
  if (existing) ensureInstalled(ctx, space, pkg);
  else ensureVersionInstalled(ctx, space, pkg);

  const now = ctx.now().toISOString();
  // A partial saved-object update keeps an attribute the write leaves out (package_policy.ts update()).
  const extraPermissions = write.additional_datastreams_permissions !== undefined ? write.additional_datastreams_permissions : existing?.additional_datastreams_permissions;
  const managed = write.is_managed ?? write.policy_ids.some((pid) => visibleAgentPolicies(ctx, space)[pid]?.is_managed);
  const record: PackagePolicyRecord = {
    id,
    name: write.name,
    namespace: write.namespace ?? '',
    ...(write.description !== undefined ? { description: write.description } : {}),
    package: { name: pkg.name, title: pkg.title, version: pkg.version },
    enabled: true,
    policy_ids: [...write.policy_ids],
    ...(write.output_id !== undefined ? { output_id: write.output_id } : {}),
    inputs,
    ...(vars ? { vars } : {}),
    is_managed: managed,
    ...(write.supports_agentless !== undefined ? { supports_agentless: write.supports_agentless } : {}),
    ...(extraPermissions !== undefined ? { additional_datastreams_permissions: extraPermissions } : {}),
    ...(pkg.agent_version ? { package_agent_version_condition: pkg.agent_version } : {}),
    revision: existing ? existing.revision + 1 : 1,
    version: ctx.store.versionToken(),
    created_at: existing?.created_at ?? now,
    created_by: existing?.created_by ?? user,
    updated_at: now,
    updated_by: user,
    seq: existing?.seq ?? ctx.store.nextSeq(),
  };
  state.packagePolicies[id] = record;
  const removeProtection = existing ? defendMoved(pkg.name, existing.policy_ids, record.policy_ids) : () => false;
  bumpPolicies(ctx, space, [...(existing?.policy_ids ?? []), ...record.policy_ids], user, removeProtection);
  return record;
}

/**
 * Removes a package policy and moves the revisions of the agent policies it was attached to. An
 * Elastic Defend policy takes their tamper protection with it (K-FLEET package_policy.ts delete():
 * `removeProtectionFn` is true for every agent policy of a deleted `endpoint` package policy).
 */
export function removePackagePolicy(ctx: EmulatorContext, space: string, record: PackagePolicyRecord, user: string): void {
  delete fleetState(ctx, space).packagePolicies[record.id];
  bumpPolicies(ctx, space, record.policy_ids, user, () => record.package.name === ELASTIC_DEFEND_PACKAGE);
}

/** `<name>-<n>` with the first free n, as the server names policies it creates itself. */
export function nextFreeName(ctx: EmulatorContext, space: string, base: string, pattern: (n: number) => string): string {
  const taken = new Set(Object.values(fleetState(ctx, space).packagePolicies).map((p) => p.name));
  if (!taken.has(base)) return base;
  for (let n = 1; ; n++) if (!taken.has(pattern(n))) return pattern(n);
}

/** A stored policy re-expanded for another version of its package, keeping what both versions share. */
export async function reexpanded(ctx: EmulatorContext, record: PackagePolicyRecord, version: string) {
  const pkg = await findPackage(ctx, record.package.name, version);
  if (!pkg) throw notFound(`${record.package.name}@${version} not found`);
  const inputs = defaultInputs(pkg, record.id);
  carryOver(record.inputs, inputs);
  const vars = defaultPackageVars(pkg);
  for (const [k, v] of Object.entries(record.vars ?? {})) if (vars?.[k]) vars[k].value = v.value;
  validateAgainstPackage(pkg, inputs, vars);
  return { pkg, inputs, vars };
}

/** Upgrade (or roll back) a package policy to another version of its package. */
export async function moveToVersion(ctx: EmulatorContext, space: string, record: PackagePolicyRecord, version: string, user: string): Promise<void> {
  const { pkg, inputs, vars } = await reexpanded(ctx, record, version);
  record.inputs = inputs;
  if (vars) record.vars = vars;
  else delete record.vars;
  record.package = { name: pkg.name, title: pkg.title, version: pkg.version };
  // The new version's condition (an upgrade may add, change or drop it).
  if (pkg.agent_version) record.package_agent_version_condition = pkg.agent_version;
  else delete record.package_agent_version_condition;
  record.revision += 1;
  record.version = ctx.store.versionToken();
  record.updated_at = ctx.now().toISOString();
  record.updated_by = user;
  bumpPolicies(ctx, space, record.policy_ids, user);
}
