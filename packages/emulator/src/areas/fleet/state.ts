import type { EmulatorContext } from '../../context.js';

/** Store slot of the Fleet area (per space) and of the package install state (space-global). */
export const FLEET_AREA = 'fleet';
export const EPM_GLOBAL = 'fleet-epm';

/** Saved-object schema version the server stamps on agent policies. */
export const AGENT_POLICY_SCHEMA_VERSION = '1.1.1';
export const DEFAULT_INACTIVITY_TIMEOUT = 1209600;
/** The monitoring of the preconfigured Fleet Server policy (a create body without one gets none). */
export const FLEET_SERVER_POLICY_MONITORING: string[] = ['logs', 'metrics'];

/** An agent policy as stored: the accepted body fields plus what the server manages. */
export interface AgentPolicyRecord {
  id: string;
  name: string;
  namespace: string;
  description: string;
  inactivity_timeout: number;
  /** Absent when the create body named none: the server fills no default (wire-facts 15 fact 8). */
  monitoring_enabled?: string[];
  is_managed: boolean;
  is_protected: boolean;
  is_preconfigured: boolean;
  supports_agentless: boolean;
  status: 'active' | 'inactive';
  revision: number;
  updated_at: string;
  updated_by: string;
  /** Concurrency token in the search backend's `_version` shape. */
  version: string;
  /** Creation order: the tie-break when sort values are equal (never returned). */
  seq: number;
  /** Every other body field the caller sent (advanced_settings, global_data_tags, ...). */
  [field: string]: unknown;
}

export type VarRecord = Record<string, { type?: string; value?: unknown }>;

export interface StoredStream {
  id: string;
  enabled: boolean;
  data_stream: { type: string; dataset: string };
  vars?: VarRecord;
}

export interface StoredInput {
  type: string;
  policy_template: string;
  enabled: boolean;
  vars?: VarRecord;
  streams: StoredStream[];
}

/** A package policy as stored: the legacy (array) shape the server keeps. */
export interface PackagePolicyRecord {
  id: string;
  name: string;
  namespace: string;
  description?: string;
  package: { name: string; title: string; version: string };
  enabled: boolean;
  policy_ids: string[];
  output_id?: string | null;
  inputs: StoredInput[];
  vars?: VarRecord;
  is_managed: boolean;
  supports_agentless?: boolean;
  /**
   * Data streams the agent policy may also write to (OAS package_policy_request, stored and
   * answered as the package policy's own field; null only as a legacy body sent it).
   */
  additional_datastreams_permissions?: string[] | null;
  /**
   * The package's `conditions.agent.version`, kept with the policy as the server keeps it
   * (K-FLEET package_policy.ts create, `package_agent_version_condition`; answered too): what the
   * agent policies it is attached to work their agent version fields out from.
   */
  package_agent_version_condition?: string;
  revision: number;
  version: string;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  seq: number;
}

export interface FleetSpaceState {
  agentPolicies: Record<string, AgentPolicyRecord>;
  packagePolicies: Record<string, PackagePolicyRecord>;
}

export interface Installation {
  name: string;
  version: string;
  install_status: 'installed';
  install_source: 'registry';
  installed_kibana_space_id: string;
  keep_policies_up_to_date: boolean;
  /** The version an update replaced: what a rollback returns to. */
  previous_version?: string;
  created_at: string;
  updated_at: string;
}

export interface EpmState {
  installations: Record<string, Installation>;
}

/** The managed, preconfigured Fleet Server policy every space starts with (its id follows the server's rule). */
export function preconfiguredPolicyId(space: string): string {
  return space === 'default' ? 'fleet-server-policy' : `${space}-fleet-server-policy`;
}

export function fleetState(ctx: EmulatorContext, space: string): FleetSpaceState {
  return ctx.store.area<FleetSpaceState>(space, FLEET_AREA, () => {
    const id = preconfiguredPolicyId(space);
    const seeded: AgentPolicyRecord = {
      id,
      name: space === 'default' ? 'Fleet Server Policy' : `Fleet Server Policy (${space})`,
      namespace: 'default',
      description: '',
      inactivity_timeout: DEFAULT_INACTIVITY_TIMEOUT,
      monitoring_enabled: [...FLEET_SERVER_POLICY_MONITORING],
      is_managed: true,
      is_protected: false,
      is_preconfigured: true,
      is_default_fleet_server: true,
      has_fleet_server: true,
      supports_agentless: false,
      status: 'active',
      revision: 1,
      updated_at: ctx.now().toISOString(),
      updated_by: 'system',
      version: ctx.store.versionToken(),
      seq: ctx.store.nextSeq(),
    };
    return { agentPolicies: { [id]: seeded }, packagePolicies: {} };
  });
}

export function epmState(ctx: EmulatorContext): EpmState {
  return ctx.store.global<EpmState>(EPM_GLOBAL, () => ({ installations: {} }));
}

/** Package policies of one space, without seeding a space nobody has used yet. */
export function packagePoliciesIn(ctx: EmulatorContext, space: string): PackagePolicyRecord[] {
  const state = ctx.store.data.bySpace[space]?.[FLEET_AREA] as FleetSpaceState | undefined;
  return state ? Object.values(state.packagePolicies) : [];
}

/** Package policies of every space (install state is global, so uninstall looks everywhere). */
export function packagePoliciesEverywhere(ctx: EmulatorContext): PackagePolicyRecord[] {
  // Read without initializing, so looking does not seed spaces nobody has used yet.
  return Object.values(ctx.store.data.bySpace).flatMap((slots) => {
    const state = slots[FLEET_AREA] as FleetSpaceState | undefined;
    return state ? Object.values(state.packagePolicies) : [];
  });
}

/** The spaces an agent policy is visible in: its `space_ids`, else the space that stores it. */
export function policySpaces(record: AgentPolicyRecord, storedIn: string): string[] {
  const ids = record.space_ids;
  return Array.isArray(ids) && ids.length ? (ids as string[]) : [storedIn];
}

/**
 * The agent policies visible in a space: its own and those other spaces store whose `space_ids`
 * name it (Fleet space awareness: one policy, several spaces; wire-facts §16 #10). Each policy is
 * stored once, in the space that created it, so a change made through any space is seen in all.
 */
export function visibleAgentPolicies(ctx: EmulatorContext, space: string): Record<string, AgentPolicyRecord> {
  fleetState(ctx, space);
  const out: Record<string, AgentPolicyRecord> = {};
  for (const [storedIn, slots] of Object.entries(ctx.store.data.bySpace)) {
    const state = slots[FLEET_AREA] as FleetSpaceState | undefined;
    for (const record of Object.values(state?.agentPolicies ?? {})) {
      if (policySpaces(record, storedIn).includes(space)) out[record.id] = record;
    }
  }
  return out;
}

/**
 * Package policies attached to an agent policy, in creation order, from every space the policy is
 * in (and `space`, the caller's, when given): each stays in the space that made it.
 */
export function attachedTo(ctx: EmulatorContext, policy: AgentPolicyRecord, space?: string): PackagePolicyRecord[] {
  const storedIn = storageSpaceOf(ctx, policy) ?? space;
  const spaces = new Set([...(space ? [space] : []), ...(storedIn ? policySpaces(policy, storedIn) : [])]);
  return [...spaces]
    .flatMap((s) => packagePoliciesIn(ctx, s))
    .filter((p) => p.policy_ids.includes(policy.id))
    .sort((a, b) => a.seq - b.seq);
}

/** The space whose state stores an agent policy (where a delete must remove it). */
export function storageSpaceOf(ctx: EmulatorContext, record: AgentPolicyRecord): string | undefined {
  for (const [storedIn, slots] of Object.entries(ctx.store.data.bySpace)) {
    const state = slots[FLEET_AREA] as FleetSpaceState | undefined;
    if (state?.agentPolicies[record.id] === record) return storedIn;
  }
  return undefined;
}
