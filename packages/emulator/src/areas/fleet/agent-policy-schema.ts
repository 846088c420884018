import { schema, type Schema } from '../../config-schema.js';
import { namespaceError } from './common.js';
import { AdvancedSettings } from './advanced-settings.js';

/**
 * The agent policy create and update bodies as the server declares them
 * (x-pack/platform/plugins/shared/fleet/server/types/models/agent_policy.ts `AgentPolicyBaseSchema`,
 * `NewAgentPolicySchema`; types/rest_spec/agent_policy.ts), with the field set of the OpenAPI
 * document (generated/kbapi/oas-filtered.yaml at b76003905: post-fleet-agent-policies,
 * put-fleet-agent-policies-agentpolicyid, which adds `bumpRevision`) and the fields service-api.md
 * lists on top of it (bump_revision, has_agent_version_conditions, is_verifier, min_agent_version,
 * package_agent_version_conditions). Every nested object refuses keys it does not define.
 */

const { string, number, boolean, literal, any, maybe, oneOf, arrayOf, recordOf, object } = schema;

const isInteger = (n: number) => (Number.isInteger(n) ? undefined : `${n} is not a valid integer`);
const nullOr = (s: Schema) => maybe(oneOf([literal(null), s]));

function globalDataTagsProblem(tags: unknown[]): string | undefined {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const withSpaces: string[] = [];
  for (const { name } of tags as Array<{ name: string }>) {
    if (/\s/.test(name)) withSpaces.push(`'${name}'`);
    if (seen.has(name.trim())) duplicates.push(`'${name.trim()}'`);
    seen.add(name.trim());
  }
  const errors: string[] = [];
  if (duplicates.length) errors.push(`Found duplicate tag names: [${duplicates.join(', ')}], duplicate tag names are not allowed.`);
  if (withSpaces.length) errors.push(`Found tag names with spaces: [${withSpaces.join(', ')}], tag names with spaces are not allowed.`);
  return errors.length ? errors.join(' ') : undefined;
}

const AGENT_POLICY_FIELDS: Record<string, Schema> = {
  id: maybe(string()),
  space_ids: maybe(arrayOf(string())),
  name: string({ minLength: 1, check: (v) => (v.trim() === '' ? 'Invalid empty string' : undefined) }),
  namespace: string({ minLength: 1, check: namespaceError }),
  description: maybe(string()),
  is_managed: maybe(boolean()),
  has_fleet_server: maybe(boolean()),
  is_default: maybe(boolean()),
  is_default_fleet_server: maybe(boolean()),
  unenroll_timeout: maybe(number({ min: 0, check: isInteger })),
  // Has a schema default (1209600), so it may be left out.
  inactivity_timeout: maybe(number({ min: 0, check: isInteger })),
  monitoring_enabled: maybe(arrayOf(oneOf([literal('logs'), literal('metrics'), literal('traces')]))),
  keep_monitoring_alive: nullOr(boolean()),
  data_output_id: nullOr(string()),
  monitoring_output_id: nullOr(string()),
  download_source_id: nullOr(string()),
  fleet_server_host_id: nullOr(string()),
  agent_features: maybe(arrayOf(object({ name: string(), enabled: boolean() }))),
  is_protected: maybe(boolean()),
  overrides: nullOr(recordOf(any(), { check: (v) => (Object.keys(v).some((k) => /^inputs(\.)?/.test(k)) ? 'inputs overrides is not allowed' : undefined) })),
  // Each value checked as the server's settings list checks it (advanced-settings.ts).
  advanced_settings: AdvancedSettings,
  supports_agentless: nullOr(boolean()),
  global_data_tags: maybe(arrayOf(object({ name: string(), value: oneOf([string(), number()]) }), { check: globalDataTagsProblem })),
  agentless: maybe(object({
    resources: maybe(object({
      requests: maybe(object({
        memory: maybe(string({ check: (v) => (/^\d+(Mi|Gi)$/.test(v) ? undefined : 'Invalid memory format') })),
        cpu: maybe(string({ check: (v) => (/^(\d+m|\d+(\.\d+)?)$/.test(v) ? undefined : 'Invalid CPU format') })),
      })),
    })),
    cloud_connectors: maybe(object({ enabled: boolean(), target_csp: maybe(string()) })),
  })),
  monitoring_pprof_enabled: maybe(boolean()),
  monitoring_http: maybe(object({
    enabled: maybe(boolean()),
    host: maybe(string()),
    port: maybe(number({ min: 0, max: 65353 })),
    buffer: maybe(object({ enabled: maybe(boolean()) })),
  })),
  monitoring_diagnostics: maybe(object({
    limit: maybe(object({ interval: maybe(string()), burst: maybe(number()) })),
    uploader: maybe(object({ max_retries: maybe(number()), init_dur: maybe(string()), max_dur: maybe(string()) })),
  })),
  required_versions: nullOr(arrayOf(object({ version: string(), percentage: number({ min: 0, max: 100 }) }))),
  // Listed by service-api.md (Fleet policies, agent policy create body).
  bump_revision: maybe(boolean()),
  has_agent_version_conditions: maybe(boolean()),
  is_verifier: maybe(boolean()),
  min_agent_version: nullOr(string()),
  package_agent_version_conditions: maybe(arrayOf(object({ packageName: string(), versionCondition: string() }))),
  force: maybe(boolean()),
};

/** POST /api/fleet/agent_policies. */
export const CreateAgentPolicyBody = object(AGENT_POLICY_FIELDS);
/** PUT /api/fleet/agent_policies/{id}: the create body plus `bumpRevision`. */
export const UpdateAgentPolicyBody = object({ ...AGENT_POLICY_FIELDS, bumpRevision: maybe(boolean()) });
