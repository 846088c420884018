import type { EmulatorContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { latestPackage } from './catalog.js';
import {
  bodyObject,
  boolQuery,
  expectBoolean,
  expectObject,
  expectString,
  expectStringArray,
  formatQuery,
  namespaceError,
  pageRequest,
  paginate,
  rejectUnknownKeys,
  typeName,
} from './common.js';
import { kueryFilter, type KueryTarget } from './kuery.js';
import { formatPackagePolicy } from './package-model.js';
import { agentPolicyOrThrow, bumpRevision, nextFreeName, removePackagePolicy, writePackagePolicy } from './records.js';
import { AGENT_POLICY_SCHEMA_VERSION, DEFAULT_INACTIVITY_TIMEOUT, fleetState, type AgentPolicyRecord } from './state.js';

/** Body fields the agent policy schema defines (create and update share it). */
const BODY_FIELDS = [
  'id', 'space_ids', 'name', 'namespace', 'description', 'is_managed', 'has_fleet_server', 'is_default', 'is_default_fleet_server',
  'unenroll_timeout', 'inactivity_timeout', 'monitoring_enabled', 'keep_monitoring_alive', 'data_output_id', 'monitoring_output_id',
  'download_source_id', 'fleet_server_host_id', 'agent_features', 'is_protected', 'overrides', 'advanced_settings', 'supports_agentless',
  'global_data_tags', 'agentless', 'monitoring_pprof_enabled', 'monitoring_http', 'monitoring_diagnostics', 'required_versions',
  'bump_revision', 'has_agent_version_conditions', 'is_verifier', 'min_agent_version', 'package_agent_version_conditions', 'force',
];
const CREATE_FIELDS = new Set(BODY_FIELDS);
const UPDATE_FIELDS = new Set([...BODY_FIELDS, 'bumpRevision']);
/** Request flags, not policy state: never stored. */
const FLAG_FIELDS = new Set(['id', 'force', 'bumpRevision', 'bump_revision', 'space_ids']);
/** What a hosted (managed) policy lets callers change without `force`. */
const EDITABLE_WHEN_MANAGED = new Set(['namespace']);

export const AGENT_POLICY_KUERY: KueryTarget = {
  types: ['ingest-agent-policies', 'fleet-agent-policies'],
  fields: [
    'id', 'name', 'namespace', 'description', 'is_managed', 'is_default', 'is_default_fleet_server', 'has_fleet_server', 'is_preconfigured',
    'status', 'updated_at', 'updated_by', 'revision', 'monitoring_enabled', 'inactivity_timeout', 'unenroll_timeout', 'is_protected',
    'data_output_id', 'monitoring_output_id', 'download_source_id', 'fleet_server_host_id', 'agent_features.name', 'agent_features.enabled',
    'supports_agentless', 'schema_version', 'space_ids',
  ],
};

function expectInteger(body: Record<string, any>, key: string): void {
  const v = body[key];
  if (v === undefined) return;
  if (typeof v !== 'number') throw badRequest(`[request body.${key}]: expected value of type [number] but got [${typeName(v)}]`);
  if (v < 0) throw badRequest(`[request body.${key}]: Value must be equal to or greater than [0].`);
  if (!Number.isInteger(v)) throw badRequest(`[request body.${key}]: ${v} is not a valid integer`);
}

function validateBody(body: Record<string, any>, allowed: Set<string>, space: string): void {
  rejectUnknownKeys(body, allowed);
  expectString(body, 'name', { required: true });
  if (!body.name.trim()) throw badRequest('[request body.name]: Invalid empty string');
  expectString(body, 'namespace', { required: true });
  if (body.namespace.length === 0) throw badRequest('[request body.namespace]: value has length [0] but it must have a minimum length of [1].');
  const nsError = namespaceError(body.namespace);
  if (nsError) throw badRequest(`[request body.namespace]: ${nsError}`);
  for (const key of ['id', 'description']) expectString(body, key);
  for (const key of ['data_output_id', 'monitoring_output_id', 'download_source_id', 'fleet_server_host_id', 'min_agent_version']) expectString(body, key, { nullable: true });
  for (const key of ['is_managed', 'has_fleet_server', 'is_default', 'is_default_fleet_server', 'is_protected', 'monitoring_pprof_enabled', 'bump_revision', 'bumpRevision', 'force', 'has_agent_version_conditions', 'is_verifier']) expectBoolean(body, key);
  if (body.keep_monitoring_alive !== null) expectBoolean(body, 'keep_monitoring_alive');
  if (body.supports_agentless !== null) expectBoolean(body, 'supports_agentless');
  for (const key of ['advanced_settings', 'agentless', 'monitoring_diagnostics', 'monitoring_http']) expectObject(body, key);
  expectObject(body, 'overrides', { nullable: true });
  if (body.overrides && Object.keys(body.overrides).some((k) => /^inputs(\.)?/.test(k))) throw badRequest('[request body.overrides]: inputs overrides is not allowed');
  expectInteger(body, 'inactivity_timeout');
  expectInteger(body, 'unenroll_timeout');
  expectStringArray(body, 'space_ids');
  if (body.space_ids && !(body.space_ids.length === 1 && body.space_ids[0] === space)) {
    // The emulator keeps each policy in the space that created it (see the area's notes).
    throw badRequest(`[request body.space_ids]: the emulator supports only the calling space [${space}]`);
  }
  expectStringArray(body, 'monitoring_enabled');
  for (const [i, m] of (body.monitoring_enabled ?? []).entries()) {
    if (!['logs', 'metrics', 'traces'].includes(m)) throw badRequest(`[request body.monitoring_enabled.${i}]: expected one of [logs, metrics, traces] but got [${m}]`);
  }
  if (body.agent_features !== undefined) {
    if (!Array.isArray(body.agent_features)) throw badRequest(`[request body.agent_features]: expected value of type [array] but got [${typeName(body.agent_features)}]`);
    body.agent_features.forEach((f: any, i: number) => {
      if (typeof f?.name !== 'string' || typeof f?.enabled !== 'boolean') throw badRequest(`[request body.agent_features.${i}]: expected {name: string, enabled: boolean}`);
    });
  }
  if (body.global_data_tags !== undefined) {
    if (!Array.isArray(body.global_data_tags)) throw badRequest(`[request body.global_data_tags]: expected value of type [array] but got [${typeName(body.global_data_tags)}]`);
    const seen = new Set<string>();
    const duplicates: string[] = [];
    const withSpaces: string[] = [];
    body.global_data_tags.forEach((t: any, i: number) => {
      if (typeof t?.name !== 'string' || (typeof t?.value !== 'string' && typeof t?.value !== 'number')) {
        throw badRequest(`[request body.global_data_tags.${i}]: expected {name: string, value: string | number}`);
      }
      if (/\s/.test(t.name)) withSpaces.push(`'${t.name}'`);
      if (seen.has(t.name.trim())) duplicates.push(`'${t.name.trim()}'`);
      seen.add(t.name.trim());
    });
    const errors: string[] = [];
    if (duplicates.length) errors.push(`Found duplicate tag names: [${duplicates.join(', ')}], duplicate tag names are not allowed.`);
    if (withSpaces.length) errors.push(`Found tag names with spaces: [${withSpaces.join(', ')}], tag names with spaces are not allowed.`);
    if (errors.length) throw badRequest(`[request body.global_data_tags]: ${errors.join(' ')}`);
  }
  if (body.required_versions !== undefined && body.required_versions !== null) {
    if (!Array.isArray(body.required_versions)) throw badRequest(`[request body.required_versions]: expected value of type [array] but got [${typeName(body.required_versions)}]`);
    body.required_versions.forEach((r: any, i: number) => {
      if (typeof r?.version !== 'string' || typeof r?.percentage !== 'number') throw badRequest(`[request body.required_versions.${i}]: expected {version: string, percentage: number}`);
      if (r.percentage < 0 || r.percentage > 100) throw badRequest(`[request body.required_versions.${i}.percentage]: Value must be between 0 and 100.`);
    });
  }
}

/** The server's schema defaults inside `monitoring_http` (host, port, buffer.enabled). */
function withMonitoringHttpDefaults(v: any): any {
  if (!v || typeof v !== 'object') return v;
  return {
    ...v,
    host: v.host ?? 'localhost',
    port: v.port ?? 6791,
    ...(v.buffer ? { buffer: { ...v.buffer, enabled: v.buffer.enabled ?? false } } : {}),
  };
}

/** Body fields as stored: request flags dropped, schema defaults applied. */
function storedFields(body: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!FLAG_FIELDS.has(k) && v !== undefined) out[k] = v;
  if (out.monitoring_http) out.monitoring_http = withMonitoringHttpDefaults(out.monitoring_http);
  return out;
}

export function nameTaken(ctx: EmulatorContext, space: string, name: string, selfId?: string): void {
  const clash = Object.values(fleetState(ctx, space).agentPolicies).find((p) => p.name === name && p.id !== selfId);
  if (clash) throw conflict(`Agent Policy '${clash.id}' already exists with name '${name}'`);
}

export function attachedPackagePolicies(ctx: EmulatorContext, space: string, policyId: string) {
  return Object.values(fleetState(ctx, space).packagePolicies)
    .filter((p) => p.policy_ids.includes(policyId))
    .sort((a, b) => a.seq - b.seq);
}

/** The answer shape: stored fields plus what the server computes on read. */
export function formatAgentPolicy(
  ctx: EmulatorContext,
  space: string,
  record: AgentPolicyRecord,
  options: { packagePolicies: boolean; format?: 'simplified' | 'legacy' },
): Record<string, unknown> {
  const { seq: _seq, ...fields } = record;
  return {
    ...fields,
    space_ids: [space],
    schema_version: AGENT_POLICY_SCHEMA_VERSION,
    agents: 0,
    unprivileged_agents: 0,
    ...(options.packagePolicies ? { package_policies: attachedPackagePolicies(ctx, space, record.id).map((p) => formatPackagePolicy(p, space, options.format)) } : {}),
  };
}

export function newAgentPolicy(ctx: EmulatorContext, req: EmuRequest, fields: Record<string, any>, id: string): AgentPolicyRecord {
  return {
    ...storedFields(fields),
    id,
    name: fields.name,
    namespace: fields.namespace,
    description: fields.description ?? '',
    inactivity_timeout: fields.inactivity_timeout ?? DEFAULT_INACTIVITY_TIMEOUT,
    is_managed: fields.is_managed ?? false,
    is_protected: fields.is_protected ?? false,
    is_preconfigured: false,
    supports_agentless: fields.supports_agentless ?? false,
    status: 'active',
    revision: 1,
    updated_at: ctx.now().toISOString(),
    updated_by: req.user,
    version: ctx.store.versionToken(),
    seq: ctx.store.nextSeq(),
  };
}

function createPolicy(req: EmuRequest, ctx: EmulatorContext) {
  const body = bodyObject(req);
  validateBody(body, CREATE_FIELDS, req.space);
  const sysMonitoring = boolQuery(req, 'sys_monitoring') === true;
  const state = fleetState(ctx, req.space);
  const id = body.id ?? ctx.uuid();
  if (state.agentPolicies[id]) throw conflict(`Saved object [fleet-agent-policies/${id}] conflict`);
  nameTaken(ctx, req.space, body.name);
  const record = newAgentPolicy(ctx, req, body, id);
  state.agentPolicies[id] = record;
  if (sysMonitoring) {
    const system = latestPackage('system')!;
    writePackagePolicy(ctx, req.space, req.user, {
      name: nextFreeName(ctx, req.space, 'system-1', (n) => `system-${n}`),
      namespace: record.namespace,
      description: '',
      policy_ids: [id],
      package: { name: system.name, version: system.version },
    });
  }
  return { body: { item: formatAgentPolicy(ctx, req.space, record, { packagePolicies: false }) } };
}

function updatePolicy(req: EmuRequest, ctx: EmulatorContext) {
  const existing = agentPolicyOrThrow(ctx, req.space, req.params.agentPolicyId);
  const body = bodyObject(req);
  validateBody(body, UPDATE_FIELDS, req.space);
  // Fields with a schema default are reset when omitted; everything else is merged (wire-facts 5.3).
  const incoming: Record<string, any> = { ...storedFields(body), inactivity_timeout: body.inactivity_timeout ?? DEFAULT_INACTIVITY_TIMEOUT };
  if (existing.is_managed && body.force !== true) {
    for (const [key, value] of Object.entries(incoming)) {
      if (EDITABLE_WHEN_MANAGED.has(key)) continue;
      if (JSON.stringify(existing[key]) !== JSON.stringify(value)) throw badRequest(`Cannot update ${key} in hosted agent policy ${existing.id}`);
    }
  }
  nameTaken(ctx, req.space, body.name, existing.id);
  Object.assign(existing, incoming);
  bumpRevision(ctx, existing, req.user);
  return { body: { item: formatAgentPolicy(ctx, req.space, existing, { packagePolicies: false }) } };
}

function deletePolicy(req: EmuRequest, ctx: EmulatorContext) {
  const body = bodyObject(req);
  rejectUnknownKeys(body, new Set(['agentPolicyId', 'force']));
  expectString(body, 'agentPolicyId', { required: true });
  expectBoolean(body, 'force');
  const policy = agentPolicyOrThrow(ctx, req.space, body.agentPolicyId);
  if (policy.is_preconfigured) throw badRequest(`Cannot delete preconfigured agent policy ${policy.id}`);
  if (policy.is_managed && body.force !== true) throw badRequest(`Cannot delete hosted agent policy ${policy.id}`);
  for (const pp of attachedPackagePolicies(ctx, req.space, policy.id)) {
    if (pp.policy_ids.length === 1) removePackagePolicy(ctx, req.space, pp, req.user);
    else pp.policy_ids = pp.policy_ids.filter((x) => x !== policy.id);
  }
  delete fleetState(ctx, req.space).agentPolicies[policy.id];
  return { body: { id: policy.id, name: policy.name } };
}

function listPolicies(req: EmuRequest, ctx: EmulatorContext) {
  const paging = pageRequest(req, { sortField: 'updated_at', sortOrder: 'desc' });
  const full = boolQuery(req, 'full') === true;
  const withAgentCount = boolQuery(req, 'withAgentCount', 'with_agent_count');
  const noAgentCount = boolQuery(req, 'noAgentCount', 'no_agent_count');
  boolQuery(req, 'showUpgradeable', 'show_upgradeable');
  const format = formatQuery(req);
  if (paging.perPage > 100 && (full || noAgentCount === false || withAgentCount === true)) {
    throw badRequest('[request query]: perPage should be less or equal to 100 when fetching full policies or agent count.');
  }
  const filter = kueryFilter(req.query.get('kuery'), AGENT_POLICY_KUERY);
  const matching = Object.values(fleetState(ctx, req.space).agentPolicies).filter((p) => filter(p));
  const { items, total } = paginate(matching, paging);
  return {
    body: {
      items: items.map((p) => formatAgentPolicy(ctx, req.space, p, { packagePolicies: full, format })),
      total,
      page: paging.page,
      perPage: paging.perPage,
    },
  };
}

function bulkGet(req: EmuRequest, ctx: EmulatorContext) {
  const body = bodyObject(req);
  rejectUnknownKeys(body, new Set(['ids', 'ignoreMissing', 'full']));
  expectStringArray(body, 'ids', { required: true, minSize: 1 });
  expectBoolean(body, 'ignoreMissing');
  expectBoolean(body, 'full');
  const format = formatQuery(req);
  const policies = fleetState(ctx, req.space).agentPolicies;
  const items: Record<string, unknown>[] = [];
  for (const id of body.ids as string[]) {
    const policy = policies[id];
    if (!policy) {
      if (body.ignoreMissing === true) continue;
      throw notFound(`Agent policy ${id} not found`);
    }
    items.push(formatAgentPolicy(ctx, req.space, policy, { packagePolicies: body.full === true, format }));
  }
  return { body: { items } };
}

export function registerAgentPolicies(router: Router): void {
  const base = '/api/fleet/agent_policies';
  router.get(base, listPolicies);
  router.post(base, createPolicy);
  router.post(`${base}/_bulk_get`, bulkGet, { access: 'read' });
  router.post(`${base}/delete`, deletePolicy);
  router.get(`${base}/:agentPolicyId`, (req, ctx) => {
    const format = formatQuery(req);
    const policy = agentPolicyOrThrow(ctx, req.space, req.params.agentPolicyId);
    return { body: { item: formatAgentPolicy(ctx, req.space, policy, { packagePolicies: true, format }) } };
  });
  router.put(`${base}/:agentPolicyId`, updatePolicy);
}
