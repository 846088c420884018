import { licenseAtLeast, type EmulatorContext } from '../../context.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { latestOrThrow, latestPackage } from './package-registry.js';
import { ensureVersionInstalled } from './installations.js';
import { CreateAgentPolicyBody, UpdateAgentPolicyBody } from './agent-policy-schema.js';
import { boolQuery, formatQuery, pageRequest, paginate } from './common.js';
import { BulkGetAgentPoliciesBody, DeleteAgentPolicyBody } from './small-bodies.js';
import { validateRequest, type Schema } from '../../config-schema.js';
import { kueryFilter, type KueryTarget } from './kuery.js';
import { checkPolicyOutputs } from './outputs.js';
import { formatPackagePolicy } from './package-model.js';
import { agentPolicyOrThrow, bumpRevision, ELASTIC_DEFEND_PACKAGE, nextFreeName, removePackagePolicy, writePackagePolicy } from './records.js';
import { AGENT_POLICY_SCHEMA_VERSION, attachedTo, DEFAULT_INACTIVITY_TIMEOUT, fleetState, packagePoliciesIn, policySpaces, storageSpaceOf, visibleAgentPolicies, type AgentPolicyRecord } from './state.js';

/** The package Fleet installs for agent policies with monitoring (fleet common/constants/epm.ts FLEET_ELASTIC_AGENT_PACKAGE). */
const ELASTIC_AGENT_PACKAGE = 'elastic_agent';
/** The package of a Fleet Server policy (the same file's FLEET_SERVER_PACKAGE). */
const FLEET_SERVER_PACKAGE = 'fleet_server';

/** Request flags, not policy state: never stored. */
const FLAG_FIELDS = new Set(['id', 'force', 'bumpRevision', 'bump_revision']);
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

/**
 * The body as the route validates it. `space_ids` may name several spaces (Fleet space awareness,
 * wire-facts §16 #10); an empty list is the same as none (the calling space).
 */
function validBody(req: EmuRequest, bodySchema: Schema): Record<string, any> {
  const body = validateRequest(bodySchema, req.body ?? null);
  if (Array.isArray(body.space_ids)) {
    if (body.space_ids.length === 0) delete body.space_ids;
    else body.space_ids = [...new Set(body.space_ids as string[])];
  }
  return body;
}

/** An id is one policy wherever it is visible: no space the policy would join may see another of that id. */
function idTaken(ctx: EmulatorContext, spaces: string[], id: string, self?: AgentPolicyRecord): void {
  for (const space of spaces) {
    const other = visibleAgentPolicies(ctx, space)[id];
    if (other && other !== self) throw conflict(`Saved object [fleet-agent-policies/${id}] conflict`);
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

/**
 * Tamper protection needs Platinum: create and update refuse `is_protected: true` below it with
 * the 403 of a FleetUnauthorizedError (K-FLEET agent_policy.ts checkTamperProtectionLicense;
 * errors/handlers.ts maps that error to 403).
 */
function checkTamperProtectionLicense(ctx: EmulatorContext, body: Record<string, any>): void {
  if (body.is_protected === true && !licenseAtLeast(ctx.settings.license, 'platinum')) throw forbidden('Tamper protection requires Platinum license');
}

/**
 * `supports_agentless: true` needs a deployment that runs agentless integrations: create and update
 * refuse it elsewhere with the 400 of an AgentPolicyInvalidError (K-FLEET agent_policy.ts
 * checkAgentless, right after the licence check in both).
 */
function checkAgentless(ctx: EmulatorContext, body: Record<string, any>): void {
  if (body.supports_agentless === true && ctx.settings.selfManaged) {
    throw badRequest('supports_agentless is only allowed in serverless and cloud environments that support the agentless feature');
  }
}

/** Whether an Elastic Defend package policy is attached (K-FLEET common/services policyHasEndpointSecurity). */
export function hasElasticDefend(ctx: EmulatorContext, space: string, policy: AgentPolicyRecord): boolean {
  return attachedTo(ctx, policy, space).some((p) => p.package.name === ELASTIC_DEFEND_PACKAGE);
}

export function nameTaken(ctx: EmulatorContext, space: string, name: string, selfId?: string): void {
  const clash = Object.values(visibleAgentPolicies(ctx, space)).find((p) => p.name === name && p.id !== selfId);
  if (clash) throw conflict(`Agent Policy '${clash.id}' already exists with name '${name}'`);
}

/** Package policies attached to an agent policy, from every space the agent policy is in. */
export function attachedPackagePolicies(ctx: EmulatorContext, space: string, policyId: string) {
  const policy = visibleAgentPolicies(ctx, space)[policyId];
  if (policy) return attachedTo(ctx, policy, space);
  return packagePoliciesIn(ctx, space).filter((p) => p.policy_ids.includes(policyId)).sort((a, b) => a.seq - b.seq);
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
    space_ids: policySpaces(record, storageSpaceOf(ctx, record) ?? space),
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
    // An agentless policy is hosted: create stores `is_managed || supports_agentless` (K-FLEET agent_policy.ts create).
    is_managed: (fields.is_managed || fields.supports_agentless) ?? false,
    // Always false, whatever was sent: a new policy has no Elastic Defend integration, which tamper
    // protection needs (K-FLEET agent_policy.ts prepareAsNewSo; create() only logs a warning).
    // An update turns it on once the integration is attached.
    is_protected: false,
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

/**
 * An integration the create adds to the new policy itself (K-FLEET agent_policy_create.ts
 * createPackagePolicy): the package's defaults, named `<package>-<n>`, with no namespace of its own
 * (buildPackagePolicyFromPackage sets none, and createPackagePolicy no longer copies the policy's).
 */
async function addIntegration(ctx: EmulatorContext, req: EmuRequest, policyId: string, pkg: { name: string; version: string }): Promise<void> {
  await writePackagePolicy(ctx, req.space, req.user, {
    name: nextFreeName(ctx, req.space, `${pkg.name}-1`, (n) => `${pkg.name}-${n}`),
    description: '',
    policy_ids: [policyId],
    package: { name: pkg.name, version: pkg.version },
  });
}

async function createPolicy(req: EmuRequest, ctx: EmulatorContext) {
  const body = validBody(req, CreateAgentPolicyBody);
  // The route takes `has_fleet_server` out of the body (K-FLEET routes/agent_policy/handlers.ts
  // createAgentPolicyHandler): the create installs fleet_server and adds its integration to the
  // policy, and stores no flag. Only an update stores it (its handler passes the body on whole).
  const { has_fleet_server: hasFleetServer, ...fields } = body;
  const sysMonitoring = boolQuery(req, 'sys_monitoring') === true;
  // The packages are looked up first: after them the create runs without yielding.
  const fleetServer = hasFleetServer === true ? await latestOrThrow(ctx, FLEET_SERVER_PACKAGE) : undefined;
  const system = sysMonitoring ? await latestOrThrow(ctx, 'system') : undefined;
  const monitoring = body.monitoring_enabled?.length ? await latestPackage(ctx, ELASTIC_AGENT_PACKAGE) : undefined;
  // Installed before the policy is checked and created, as the server's
  // createAgentPolicyWithPackages runs bulkInstallPackages before agentPolicyService.create.
  if (fleetServer) ensureVersionInstalled(ctx, req.space, fleetServer);
  if (monitoring) ensureVersionInstalled(ctx, req.space, monitoring);
  const state = fleetState(ctx, req.space);
  // A Fleet Server policy without an id would take the space's default Fleet Server policy id while
  // no policy holds it (agent_policy_create.ts getFleetServerAgentPolicyId); here every space starts
  // with its preconfigured Fleet Server policy (state.ts), which holds it, so the id is generated.
  const id = body.id ?? ctx.uuid();
  const spaces: string[] = body.space_ids ?? [req.space];
  // Before the id and name checks, as the server's create (the licence check precedes requireUniqueName).
  checkTamperProtectionLicense(ctx, body);
  checkAgentless(ctx, body);
  idTaken(ctx, [req.space, ...spaces], id);
  for (const space of spaces) nameTaken(ctx, space, body.name);
  // The outputs are checked with the flag (agent_policy.ts create: policyForOutputValidation).
  checkPolicyOutputs(ctx, body);
  // The agent version fields are stored as sent: a create works nothing out (K-FLEET
  // agent_policy.ts create, prepareAsNewSo); the next change of the policy or of its package
  // policies replaces them with the computed ones (records.ts bumpRevision).
  const record = newAgentPolicy(ctx, req, fields, id);
  state.agentPolicies[id] = record;
  if (fleetServer) await addIntegration(ctx, req, id, fleetServer);
  if (system) await addIntegration(ctx, req, id, system);
  return { body: { item: formatAgentPolicy(ctx, req.space, record, { packagePolicies: false }) } };
}

async function updatePolicy(req: EmuRequest, ctx: EmulatorContext) {
  const body = validBody(req, UpdateAgentPolicyBody);
  // Switching monitoring on for a policy that never had the field installs the agent's package
  // (services/agent_policy.ts update: `!existingAgentPolicy.monitoring_enabled &&
  // monitoringEnabled?.length`). It is looked up first: after it the update runs without yielding.
  const before = agentPolicyOrThrow(ctx, req.space, req.params.agentPolicyId);
  const monitoring = !before.monitoring_enabled && body.monitoring_enabled?.length ? await latestPackage(ctx, ELASTIC_AGENT_PACKAGE) : undefined;
  const existing = agentPolicyOrThrow(ctx, req.space, req.params.agentPolicyId);
  // Fields with a schema default are reset when omitted; everything else is merged (wire-facts 5.3).
  const incoming: Record<string, any> = { ...storedFields(body), inactivity_timeout: body.inactivity_timeout ?? DEFAULT_INACTIVITY_TIMEOUT };
  const spaces: string[] = body.space_ids ?? policySpaces(existing, storageSpaceOf(ctx, existing) ?? req.space);
  // The server's update() order: the unique name (409), the licence (403), then tamper protection
  // switched off without Elastic Defend, then the hosted-policy check (400), which so compares the
  // value the update will store.
  for (const space of spaces) nameTaken(ctx, space, body.name, existing.id);
  checkTamperProtectionLicense(ctx, body);
  checkAgentless(ctx, body);
  // Not refused: stored false, with a warning in the server's log (agent_policy.ts update()).
  if (incoming.is_protected === true && !hasElasticDefend(ctx, req.space, existing)) incoming.is_protected = false;
  if (existing.is_managed && body.force !== true) {
    for (const [key, value] of Object.entries(incoming)) {
      if (EDITABLE_WHEN_MANAGED.has(key)) continue;
      if (JSON.stringify(existing[key]) !== JSON.stringify(value)) throw badRequest(`Cannot update ${key} in hosted agent policy ${existing.id}`);
    }
  }
  if (monitoring && !existing.monitoring_enabled) ensureVersionInstalled(ctx, req.space, monitoring);
  idTaken(ctx, spaces, existing.id, existing);
  checkPolicyOutputs(ctx, body, existing);
  Object.assign(existing, incoming);
  // Also replaces the agent version fields the body may have sent with the computed ones.
  bumpRevision(ctx, existing, req.user);
  return { body: { item: formatAgentPolicy(ctx, req.space, existing, { packagePolicies: false }) } };
}

function deletePolicy(req: EmuRequest, ctx: EmulatorContext) {
  const body = validateRequest(DeleteAgentPolicyBody, req.body ?? null);
  const policy = agentPolicyOrThrow(ctx, req.space, body.agentPolicyId);
  if (policy.is_preconfigured) throw badRequest(`Cannot delete preconfigured agent policy ${policy.id}`);
  if (policy.is_managed && body.force !== true) throw badRequest(`Cannot delete hosted agent policy ${policy.id}`);
  for (const pp of attachedPackagePolicies(ctx, req.space, policy.id)) {
    if (pp.policy_ids.length === 1) removePackagePolicy(ctx, req.space, pp, req.user);
    else pp.policy_ids = pp.policy_ids.filter((x) => x !== policy.id);
  }
  delete fleetState(ctx, storageSpaceOf(ctx, policy) ?? req.space).agentPolicies[policy.id];
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
  const matching = Object.values(visibleAgentPolicies(ctx, req.space)).filter((p) => filter(p));
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
  const body = validateRequest(BulkGetAgentPoliciesBody, req.body ?? null);
  const format = formatQuery(req);
  const policies = visibleAgentPolicies(ctx, req.space);
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
