import type { CheckIssue, Reference, Resource } from '../../manifest/types.js';
import { asSet, clone, deepEqual, isPlainObject } from '../normalize.js';
import { listAllPages } from '../paging.js';
import type { AdapterContext, KindAdapter, LiveObject } from '../types.js';
import { AREAS } from '../../client/areas.js';
import { knownWithoutDefend, markElasticDefend, tamperProtectionWarnings } from './tamper-protection.js';
import { addedIntegrationWarnings, markAddedIntegrations } from './added-integrations.js';
import { unknownSettingWarnings } from './advanced-settings.js';

/**
 * Fleet agent policies (wire-facts 5). metadata.name is the policy id. The PUT merges: an omitted
 * field keeps its server value, except `inactivity_timeout`, which falls back to its default. So
 * updates send the whole desired body plus an explicit clearing value for every field the manifest
 * no longer sets.
 */

const PATH = '/api/fleet/agent_policies';
const PAGE_SIZE = 1000;
const DEFAULT_INACTIVITY_TIMEOUT = 1209600;
/**
 * A manifest or a live policy without `monitoring_enabled` means no monitoring: the server fills no
 * default on create (wire-facts 15 fact 8), so a policy made without the field has none. svcform
 * sends the list explicitly on every write, so an update also switches off what a manifest dropped.
 */
const NO_MONITORING: string[] = [];

/** Server-managed (wire-facts 5.4): never compared. */
const RESPONSE_ONLY = ['id', 'revision', 'status', 'updated_at', 'updated_by', 'created_at', 'created_by', 'agents', 'unprivileged_agents', 'version', 'is_preconfigured', 'schema_version', 'package_policies', 'fleet_server_hosts'];
/** Request flags, not policy state. */
const REQUEST_FLAGS = ['sys_monitoring', 'force', 'bump_revision', 'bumpRevision'];
/**
 * Worked out by the server from the policy's package policies (their packages'
 * `conditions.agent.version`) on every update and every change of its integrations, whatever a body
 * said (K-FLEET services/agent_policy.ts update() and bumpRevision(), computeMinAgentVersionData).
 * service-api.md lists them as body fields, so a manifest may name them; but a value svcform sent
 * would be replaced and compare as a change forever. Never sent, compared or exported; a manifest
 * that sets one gets a warning (check).
 */
const SERVER_COMPUTED = ['has_agent_version_conditions', 'min_agent_version', 'package_agent_version_conditions'];
/** Booleans whose `false` (or null) is the same as not set. */
const FALSE_BY_DEFAULT = ['is_managed', 'is_default', 'is_default_fleet_server', 'has_fleet_server', 'is_protected', 'supports_agentless', 'keep_monitoring_alive', 'monitoring_pprof_enabled', 'is_verifier'];
/** Ids whose null means "the default" (default output, download source, Fleet server host). */
const NULLABLE_IDS = ['data_output_id', 'monitoring_output_id', 'download_source_id', 'fleet_server_host_id'];
/** Fields that name a FleetOutput. */
const OUTPUT_FIELDS = ['data_output_id', 'monitoring_output_id'];
/** Objects whose `{}` (or null) is the same as not set. */
const EMPTY_OBJECTS = ['overrides', 'advanced_settings', 'agentless', 'monitoring_diagnostics'];
/** Arrays that compare as sets, whose `[]` (or null) is the same as not set. */
const SET_ARRAYS = ['global_data_tags', 'required_versions'];

/** What to send for a field the manifest dropped, since the PUT would otherwise keep the old value. */
function clearingValue(field: string, live: Record<string, any>, space: string): unknown {
  // `space_ids` takes an array, never null (AgentPolicyBaseSchema: schema.maybe(arrayOf(string))):
  // dropping it leaves the policy in its own space only.
  if (field === 'space_ids') return [space];
  if (FALSE_BY_DEFAULT.includes(field)) return false;
  if (NULLABLE_IDS.includes(field) || field === 'overrides') return null;
  if (EMPTY_OBJECTS.includes(field)) return {};
  if (SET_ARRAYS.includes(field)) return [];
  if (field === 'agent_features') return (live.agent_features as Array<{ name: string }>).map((f) => ({ name: f.name, enabled: false }));
  if (field === 'monitoring_http') return { enabled: false };
  if (field === 'unenroll_timeout') return 0;
  if (field === 'description') return '';
  return null;
}

function monitoringHttp(v: unknown): Record<string, any> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, any> = { ...v, host: v.host ?? 'localhost', port: v.port ?? 6791 };
  if (isPlainObject(v.buffer)) out.buffer = { ...v.buffer, enabled: v.buffer.enabled ?? false };
  const inert = !out.enabled && out.host === 'localhost' && out.port === 6791 && !out.buffer?.enabled;
  return inert ? undefined : out;
}

/** One canonical form for both sides: defaults filled, "not set" spellings removed, sets sorted. */
function canonical(body: Record<string, any>, space: string): Record<string, any> {
  const out: Record<string, any> = clone(body);
  for (const k of [...RESPONSE_ONLY, ...REQUEST_FLAGS, ...SERVER_COMPUTED]) delete out[k];
  out.description = out.description ?? '';
  out.inactivity_timeout = out.inactivity_timeout ?? DEFAULT_INACTIVITY_TIMEOUT;
  out.monitoring_enabled = asSet(out.monitoring_enabled ?? NO_MONITORING);
  if (Array.isArray(out.space_ids) && deepEqual(asSet(out.space_ids), [space])) delete out.space_ids;
  else if (Array.isArray(out.space_ids)) out.space_ids = asSet(out.space_ids);
  for (const k of FALSE_BY_DEFAULT) if (!out[k]) delete out[k];
  for (const k of NULLABLE_IDS) if (out[k] === null || out[k] === '') delete out[k];
  for (const k of EMPTY_OBJECTS) if (out[k] === null || (isPlainObject(out[k]) && Object.keys(out[k]).length === 0)) delete out[k];
  for (const k of SET_ARRAYS) {
    if (Array.isArray(out[k]) && out[k].length) out[k] = asSet(out[k]);
    else delete out[k];
  }
  // A feature switched off is the same as a feature not listed (that is how one is cleared).
  const features = Array.isArray(out.agent_features) ? out.agent_features.filter((f: any) => f?.enabled !== false) : [];
  if (features.length) out.agent_features = asSet(features);
  else delete out.agent_features;
  const http = monitoringHttp(out.monitoring_http);
  if (http) out.monitoring_http = http;
  else delete out.monitoring_http;
  if (!out.unenroll_timeout) delete out.unenroll_timeout;
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return out;
}

/** Whether a listed policy belongs to another of its spaces: the first its `space_ids` names. */
function sharedElsewhere(body: Record<string, any>, space: string): boolean {
  const ids = body.space_ids;
  return Array.isArray(ids) && ids.length > 1 && ids[0] !== space;
}

/** The body svcform sends on create and update: the manifest's fields plus the defaults made explicit. */
function writeBody(res: Resource): Record<string, any> {
  const body: Record<string, any> = clone(res.spec);
  // The manifest's own space first: the space that lists the policy as its own (sharedElsewhere).
  if (Array.isArray(body.space_ids) && body.space_ids.includes(res.space)) body.space_ids = [res.space, ...body.space_ids.filter((s: string) => s !== res.space)];
  for (const k of REQUEST_FLAGS) if (k !== 'force') delete body[k];
  for (const k of SERVER_COMPUTED) delete body[k];
  body.description = body.description ?? '';
  body.monitoring_enabled = body.monitoring_enabled ?? [...NO_MONITORING];
  body.inactivity_timeout = body.inactivity_timeout ?? DEFAULT_INACTIVITY_TIMEOUT;
  return body;
}

const FIRST_KEYS = ['name', 'namespace', 'description'];

function orderedSpec(spec: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const k of FIRST_KEYS) if (spec[k] !== undefined) out[k] = spec[k];
  for (const k of Object.keys(spec).sort()) if (!FIRST_KEYS.includes(k)) out[k] = spec[k];
  return out;
}

export const agentPolicyAdapter: KindAdapter = {
  kind: 'AgentPolicy',
  schema: 'AgentPolicy.schema.json',
  area: AREAS.fleet,
  setFields: ['/monitoring_enabled', '/global_data_tags', '/required_versions', '/agent_features', '/space_ids'],

  referenceKinds: ['FleetOutput'],

  // Tamper protection holds only with Elastic Defend, which PackagePolicy manifests attach, and the
  // integrations of sys_monitoring and has_fleet_server come only with a create: what the
  // comparison and the plan's warnings need from beyond this kind (tamper-protection.ts,
  // added-integrations.ts).
  readForPlan: async (ctx, resources, objectsOf) => {
    await Promise.all([markElasticDefend(ctx, resources, objectsOf), markAddedIntegrations(ctx, resources, objectsOf)]);
  },
  planWarnings: (resources, changes, liveOf, ownsUnnamed) => [...tamperProtectionWarnings(resources, changes, liveOf), ...addedIntegrationWarnings(resources, changes, liveOf, ownsUnnamed)],

  check(res: Resource): CheckIssue[] {
    const computed = SERVER_COMPUTED.filter((field) => res.spec[field] !== undefined).map((field) => ({
      path: ['spec', field],
      severity: 'warning' as const,
      message: `spec.${field} is computed by the server from the policy's integrations (their packages' agent version conditions), so svcform does not send it: remove it`,
    }));
    // K-FLEET agent_policy.ts: checkAgentless refuses it (400) outside cloud and serverless, and
    // create stores `is_managed || supports_agentless`: a hosted policy, which svcform reads as
    // read-only (list), so the plan after the create refuses the manifest.
    const agentless: CheckIssue[] = res.spec.supports_agentless === true ? [{
      path: ['spec', 'supports_agentless'],
      severity: 'warning',
      message: 'spec.supports_agentless: true is refused by self-managed servers, and cloud and serverless store the policy as hosted (is_managed), which svcform does not write after creating it: declare an AgentlessPolicy for an agentless integration',
    }] : [];
    return [...computed, ...agentless, ...unknownSettingWarnings(res)];
  },

  references(spec) {
    const refs: Reference[] = [];
    for (const field of OUTPUT_FIELDS) {
      const id = spec[field];
      // The server checks only the licence, never that the output exists (agent_policies/outputs_helpers.ts validateOutputForPolicy).
      if (typeof id === 'string' && id !== '') refs.push({ kind: 'FleetOutput', name: id, path: ['spec', field], whenMissing: 'accepted', missingEffect: "the policy's agents get no output to send to until it exists" });
    }
    return refs;
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const items = await listAllPages<Record<string, any>>(ctx.api, {
      path: PATH,
      space,
      // A stable order (names are unique) so that pages fetched together neither overlap nor skip.
      query: { sortField: 'name', sortOrder: 'asc' },
      sizeParam: 'perPage',
      pageSize: PAGE_SIZE,
      items: (body) => body.items ?? [],
      total: (body) => body.total ?? 0,
    });
    // A policy in several spaces (Fleet space awareness) is listed by each of them; svcform takes it
    // as an object of its first space, where its manifest puts it (writeBody), so that another of
    // its spaces never plans it as unmanaged or deleted.
    return items.filter((body) => !sharedElsewhere(body, space)).map((body) => ({
      kind: 'AgentPolicy',
      space,
      name: body.id,
      body,
      ...(body.is_preconfigured ? { readOnly: 'preconfigured agent policy' } : body.is_managed ? { readOnly: 'managed (hosted) agent policy' } : {}),
    }));
  },

  normalizeDesired(res: Resource) {
    return canonical(res.spec, res.space);
  },

  normalizeLive(live: LiveObject) {
    return canonical(live.body, live.space);
  },

  /**
   * `is_protected: true` is the server's to decide where the policy has no Elastic Defend
   * integration: it stores false there whatever is sent (tamper-protection.ts), so comparing it
   * would plan the same update forever. The plan warns at the field instead; an update still
   * sends the manifest's value, which the server takes once the integration is attached. Which
   * policies have one is read by the plan, and only for manifests asking for tamper protection
   * (markElasticDefend): a listing does not pay for Elastic Defend's large package policies.
   */
  chosenByServer(res: Resource, live: LiveObject) {
    return res.spec.is_protected === true && knownWithoutDefend(live) ? ['/spec/is_protected'] : [];
  },

  async create(ctx: AdapterContext, res: Resource) {
    await ctx.api.request({
      method: 'POST',
      path: PATH,
      space: res.space,
      query: res.spec.sys_monitoring === true ? { sys_monitoring: true } : undefined,
      body: { id: res.name, ...writeBody(res) },
      idempotent: true,
    });
    // The create route takes `has_fleet_server` out of the body: it makes the server add the Fleet
    // Server integration, but the policy is stored without the flag, and the next plan would update
    // it. An update stores it (K-FLEET routes/agent_policy/handlers.ts createAgentPolicyHandler and
    // updateAgentPolicyHandler). Should this write fail, the policy exists and the next plan shows
    // that update; the error says so rather than leave the create's outcome to be guessed.
    if (res.spec.has_fleet_server === true) {
      try {
        await ctx.api.request({ method: 'PUT', path: `${PATH}/${encodeURIComponent(res.name)}`, space: res.space, body: writeBody(res) });
      } catch (err) {
        throw new Error(`the policy was created, but the update that stores has_fleet_server (the create does not) failed: ${(err as Error).message}; the next plan shows that update`);
      }
    }
  },

  async update(ctx: AdapterContext, res: Resource, live: LiveObject) {
    const body = writeBody(res);
    const wanted = canonical(res.spec, res.space);
    const current = canonical(live.body, live.space);
    for (const field of Object.keys(current)) {
      if (!(field in wanted)) body[field] = clearingValue(field, live.body, live.space);
    }
    await ctx.api.request({ method: 'PUT', path: `${PATH}/${encodeURIComponent(live.name)}`, space: live.space, body });
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    await ctx.api.request({
      method: 'POST',
      path: `${PATH}/delete`,
      space: live.space,
      body: { agentPolicyId: live.name },
      accept: [404],
      idempotent: true,
    });
  },

  toSpec(live: LiveObject) {
    const spec = canonical(live.body, live.space);
    if (spec.description === '') delete spec.description;
    if (spec.inactivity_timeout === DEFAULT_INACTIVITY_TIMEOUT) delete spec.inactivity_timeout;
    if (spec.monitoring_enabled.length === 0) delete spec.monitoring_enabled;
    return { spec: orderedSpec(spec) };
  },
};
