import { stringify } from 'yaml';
import type { EmulatorContext } from '../../context.js';
import type { EmuRequest, Router } from '../../router.js';
import { attachedPackagePolicies, formatAgentPolicy, nameTaken, newAgentPolicy } from './agent-policies.js';
import { boolQuery } from './common.js';
import { validateRequest } from '../../config-schema.js';
import { AgentPolicyOutputsBody, CopyAgentPolicyBody } from './small-bodies.js';
import { inputKey } from './package-model.js';
import { agentPolicyOrThrow, bumpRevision, nextFreeName } from './records.js';
import { fleetState, visibleAgentPolicies, type AgentPolicyRecord, type PackagePolicyRecord } from './state.js';

/** Copy, the compiled ("full") policy, its YAML download and the outputs a policy sends data to. */

const DEFAULT_OUTPUT = { id: 'fleet-default-output', name: 'default' };

/** Server-managed and identity fields a copy does not inherit. */
const NOT_COPIED = new Set([
  'id', 'name', 'description', 'is_managed', 'is_preconfigured', 'is_default', 'is_default_fleet_server', 'revision', 'updated_at', 'updated_by', 'version', 'seq', 'status',
  // Worked out again from the copy's own package policies (K-FLEET agent_policy.ts copy picks
  // fields that leave them out, then bumpRevision computes them).
  'has_agent_version_conditions', 'min_agent_version', 'package_agent_version_conditions',
]);

function copyPolicy(req: EmuRequest, ctx: EmulatorContext) {
  const source = agentPolicyOrThrow(ctx, req.space, req.params.agentPolicyId);
  const body = validateRequest(CopyAgentPolicyBody, req.body ?? null);
  nameTaken(ctx, req.space, body.name);
  const inherited = Object.fromEntries(Object.entries(source).filter(([k]) => !NOT_COPIED.has(k)));
  const id = ctx.uuid();
  const copy = newAgentPolicy(ctx, req, { ...inherited, name: body.name, description: body.description ?? source.description }, id);
  const state = fleetState(ctx, req.space);
  state.agentPolicies[id] = copy;
  const now = ctx.now().toISOString();
  const originals = attachedPackagePolicies(ctx, req.space, source.id);
  for (const original of originals) {
    const ppId = ctx.uuid();
    const cloned: PackagePolicyRecord = {
      ...structuredClone(original),
      id: ppId,
      name: nextFreeName(ctx, req.space, `${original.name} (copy)`, (n) => `${original.name} (copy ${n + 1})`),
      policy_ids: [id],
      is_managed: false,
      revision: 1,
      version: ctx.store.versionToken(),
      created_at: now,
      created_by: req.user,
      updated_at: now,
      updated_by: req.user,
      seq: ctx.store.nextSeq(),
    };
    for (const input of cloned.inputs) for (const s of input.streams) s.id = `${input.type}-${s.data_stream.dataset}-${ppId}`;
    state.packagePolicies[ppId] = cloned;
  }
  // The create stored false; the copy then takes the source's setting over without checking for
  // Elastic Defend (K-FLEET agent_policy.ts copy(): `_update` with `is_protected: true`), and is
  // bumped whatever it holds (its `policyNeedsBump` tests the source's package_policies, an array).
  copy.is_protected = source.is_protected;
  bumpRevision(ctx, copy, req.user);
  return { body: { item: formatAgentPolicy(ctx, req.space, copy, { packagePolicies: true }) } };
}

function streamConfig(stream: PackagePolicyRecord['inputs'][number]['streams'][number]) {
  const vars = Object.fromEntries(Object.entries(stream.vars ?? {}).filter(([, v]) => v.value !== undefined && v.type !== 'yaml').map(([k, v]) => [k, v.value]));
  return { id: stream.id, data_stream: { ...stream.data_stream }, ...vars };
}

/** The policy as agents receive it: outputs, monitoring, features and the enabled inputs. */
function fullPolicy(ctx: EmulatorContext, space: string, policy: AgentPolicyRecord) {
  const packagePolicies = attachedPackagePolicies(ctx, space, policy.id);
  const permissions: Record<string, unknown> = {};
  const inputs = packagePolicies.flatMap((pp) => {
    const namespace = pp.namespace || policy.namespace;
    permissions[pp.id] = {
      indices: [
        ...pp.inputs.flatMap((i) => i.streams.filter((s) => s.enabled)).map((s) => ({ names: [`${s.data_stream.type}-${s.data_stream.dataset}-${namespace}`], privileges: ['auto_configure', 'create_doc'] })),
        // The policy's extra data streams, with the default privileges (K-FLEET
        // agent_policies/package_policies_to_agent_permissions.ts maybeAddAdditionalPackagePoliciesPermissions).
        ...(pp.additional_datastreams_permissions?.length ? [{ names: pp.additional_datastreams_permissions, privileges: ['auto_configure', 'create_doc'] }] : []),
      ],
    };
    return pp.inputs
      .filter((input) => input.enabled)
      .map((input) => ({
        id: `${inputKey(input)}-${pp.id}`,
        name: pp.name,
        revision: pp.revision,
        type: input.type,
        data_stream: { namespace },
        use_output: 'default',
        package_policy_id: pp.id,
        meta: { package: { name: pp.package.name, version: pp.package.version } },
        streams: input.streams.filter((s) => s.enabled).map(streamConfig),
      }));
  });
  const monitoring = policy.monitoring_enabled ?? [];
  const features = Object.fromEntries(((policy.agent_features as Array<{ name: string; enabled: boolean }> | undefined) ?? []).map((f) => [f.name, { enabled: f.enabled }]));
  return {
    id: policy.id,
    namespaces: [space],
    revision: policy.revision,
    outputs: { default: { type: 'elasticsearch', hosts: ['http://localhost:9200'] } },
    output_permissions: { default: { _elastic_agent_checks: { cluster: ['monitor'] }, ...permissions } },
    agent: {
      monitoring: { namespace: policy.namespace, use_output: 'default', enabled: monitoring.length > 0, logs: monitoring.includes('logs'), metrics: monitoring.includes('metrics'), traces: monitoring.includes('traces') },
      download: { sourceURI: 'https://artifacts.example.com/downloads/' },
      features,
    },
    inputs,
    secret_references: [],
  };
}

function outputsOf(ctx: EmulatorContext, space: string, policy: AgentPolicyRecord) {
  const named = (id: unknown) => (typeof id === 'string' && id ? { id, name: id } : DEFAULT_OUTPUT);
  return {
    agentPolicyId: policy.id,
    monitoring: { output: named(policy.monitoring_output_id) },
    data: {
      output: named(policy.data_output_id),
      integrations: attachedPackagePolicies(ctx, space, policy.id)
        .filter((pp) => pp.output_id)
        .map((pp) => ({ pkgName: pp.package.name, integrationPolicyName: pp.name, id: pp.output_id!, name: pp.output_id! })),
    },
  };
}

function yamlDownload(policy: AgentPolicyRecord, full: unknown) {
  return { text: stringify(full), contentType: 'text/x-yaml; charset=utf-8', headers: { 'content-disposition': `attachment; filename="elastic-agent.yml"`, 'x-policy-id': policy.id } };
}

export function registerAgentPolicyExtras(router: Router): void {
  const base = '/api/fleet/agent_policies';
  router.post(`${base}/:agentPolicyId/copy`, copyPolicy);
  router.get(`${base}/:agentPolicyId/full`, (req, ctx) => {
    const policy = agentPolicyOrThrow(ctx, req.space, req.params.agentPolicyId);
    boolQuery(req, 'standalone');
    boolQuery(req, 'kubernetes');
    const full = fullPolicy(ctx, req.space, policy);
    if (boolQuery(req, 'download') === true) return yamlDownload(policy, full);
    return { body: { item: full } };
  });
  router.get(`${base}/:agentPolicyId/download`, (req, ctx) => {
    const policy = agentPolicyOrThrow(ctx, req.space, req.params.agentPolicyId);
    return yamlDownload(policy, fullPolicy(ctx, req.space, policy));
  });
  router.get(`${base}/:agentPolicyId/outputs`, (req, ctx) => ({
    body: { item: outputsOf(ctx, req.space, agentPolicyOrThrow(ctx, req.space, req.params.agentPolicyId)) },
  }));
  router.post(`${base}/outputs`, (req, ctx) => {
    const body = validateRequest(AgentPolicyOutputsBody, req.body ?? null);
    const policies = visibleAgentPolicies(ctx, req.space);
    return { body: { items: (body.ids as string[]).filter((id) => policies[id]).map((id) => outputsOf(ctx, req.space, policies[id])) } };
  }, { access: 'read' });
}
