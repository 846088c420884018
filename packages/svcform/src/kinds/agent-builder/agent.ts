import type { Resource } from '../../manifest/types.js';
import { clone, isPlainObject } from '../normalize.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from '../types.js';
import { AREAS } from '../../client/areas.js';
import { isBuiltinToolId } from './tool.js';
import { pluginIdsOf, pluginNamesOf } from './plugin.js';

/**
 * Agent-builder agents (/api/agent_builder/agents; service-api.md Agent builder; wire-facts §11).
 * metadata.name is the agent id. Agents name tools, skills and workflows by id; each AgentTool,
 * AgentSkill and AgentWorkflow named is a reference, so it is created first and cannot be deleted
 * while an agent keeps it (engine/references.ts).
 * The built-in agent (`readonly: true`) is never written.
 */

const BASE = '/api/agent_builder/agents';
/** The built-in default agent (wire-facts §11): declaring it is a validate error. */
export const BUILTIN_AGENT_ID = 'elastic-ai-agent';
const DEFAULT_VISIBILITY = 'private';
const LIST_KEYS = ['skill_ids', 'plugin_ids', 'workflow_ids'] as const;

const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/**
 * Configuration in comparable form. An update merges configuration keys, so clearing one is done
 * by sending its empty value: "" instructions, [] lists and false mean unset on both sides.
 */
function comparableConfiguration(config: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {
    tools: (Array.isArray(config.tools) ? config.tools : []).map((s: any) => ({ tool_ids: [...new Set<string>(s?.tool_ids ?? [])].sort() })),
  };
  if (typeof config.instructions === 'string' && config.instructions !== '') out.instructions = config.instructions;
  for (const key of LIST_KEYS) if (Array.isArray(config[key]) && config[key].length > 0) out[key] = [...new Set<string>(config[key])].sort();
  if (config.enable_vendor_capabilities === true) out.enable_vendor_capabilities = true;
  return out;
}

const AVATAR_KEYS = ['avatar_color', 'avatar_symbol'] as const;

function comparable(source: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {
    name: source.name,
    description: source.description ?? '',
    visibility: source.visibility ?? DEFAULT_VISIBILITY,
    configuration: comparableConfiguration(isPlainObject(source.configuration) ? source.configuration : {}),
  };
  if (Array.isArray(source.labels) && source.labels.length > 0) out.labels = [...new Set<string>(source.labels)].sort();
  // "" is no avatar (wire-facts §16 #6), the same as leaving the field out.
  for (const key of AVATAR_KEYS) if (typeof source[key] === 'string' && source[key] !== '') out[key] = source[key];
  return out;
}

/**
 * The full body: every managed key, with its empty value when the manifest leaves it out. The PUT
 * keeps what it is not given, so an update clears an avatar the manifest leaves out by sending ""
 * (wire-facts §16 #6); a create sends only what the manifest sets.
 */
function body(res: Resource, update = false): Record<string, any> {
  const spec = res.spec;
  const config = spec.configuration ?? {};
  const out: Record<string, any> = {
    name: spec.name,
    description: spec.description,
    labels: spec.labels ?? [],
    visibility: spec.visibility ?? DEFAULT_VISIBILITY,
    configuration: {
      instructions: config.instructions ?? '',
      tools: config.tools ?? [],
      ...Object.fromEntries(LIST_KEYS.map((k) => [k, config[k] ?? []])),
      enable_vendor_capabilities: config.enable_vendor_capabilities ?? false,
    },
  };
  for (const key of AVATAR_KEYS) {
    if (spec[key] !== undefined) out[key] = spec[key];
    else if (update) out[key] = '';
  }
  return out;
}

/**
 * The server keeps plugin_ids as the plugins' random ids; a manifest names AgentPlugins by name.
 * A write sends ids, and a listing is read back as names.
 */
async function withPluginIds(ctx: AdapterContext, res: Resource, out: Record<string, any>): Promise<Record<string, any>> {
  if (out.configuration.plugin_ids.length) out.configuration.plugin_ids = await pluginIdsOf(ctx, res.space, out.configuration.plugin_ids);
  return out;
}

export const agentAdapter: KindAdapter = {
  kind: 'Agent',
  schema: 'Agent.schema.json',
  area: AREAS.agentBuilder,
  setFields: ['/labels'],
  referenceKinds: ['AgentTool', 'AgentSkill', 'AgentWorkflow', 'AgentPlugin'],

  /**
   * Tools named by id, except the server's own `platform.*` ones (always there, never managed).
   * Refused when missing: the agent client checks every selected tool id against the tool
   * registry ("Tool id '...' does not exist.", K:x-pack/platform/plugins/shared/agent_builder/
   * server/services/agents/persisted/client/utils/tools.ts).
   */
  references(spec): Reference[] {
    const refs: Reference[] = [];
    (spec.configuration?.tools ?? []).forEach((selection: any, i: number) => {
      (selection?.tool_ids ?? []).forEach((id: unknown, j: number) => {
        if (typeof id === 'string' && !isBuiltinToolId(id)) refs.push({ kind: 'AgentTool', name: id, path: ['spec', 'configuration', 'tools', i, 'tool_ids', j], whenMissing: 'refused' });
      });
    });
    // Skills, built-in ones included (listed, read-only): refused when missing, the agent client
    // looks each up ("Skill id '...' does not exist.", services/agents/persisted/client/utils/skills.ts).
    (spec.configuration?.skill_ids ?? []).forEach((id: unknown, i: number) => {
      if (typeof id === 'string') refs.push({ kind: 'AgentSkill', name: id, path: ['spec', 'configuration', 'skill_ids', i], whenMissing: 'refused' });
    });
    // Workflows: stored unchecked (the agent client only keeps them to administrators, client.ts
    // assertCanConfigureWorkflows), so a missing one is a plan warning.
    (spec.configuration?.workflow_ids ?? []).forEach((id: unknown, i: number) => {
      if (typeof id === 'string') refs.push({ kind: 'AgentWorkflow', name: id, path: ['spec', 'configuration', 'workflow_ids', i], whenMissing: 'accepted', missingEffect: 'the agent runs without that workflow until it exists' });
    });
    // Plugins, by name: stored unchecked (the agent client does not look plugin_ids up), so a missing one is a plan warning.
    (spec.configuration?.plugin_ids ?? []).forEach((name: unknown, i: number) => {
      if (typeof name === 'string') refs.push({ kind: 'AgentPlugin', name, path: ['spec', 'configuration', 'plugin_ids', i], whenMissing: 'accepted', missingEffect: 'the agent runs without that plugin\'s skills until it is installed' });
    });
    return refs;
  },

  check(res: Resource): CheckIssue[] {
    if (res.name !== BUILTIN_AGENT_ID) return [];
    return [{ path: ['metadata', 'name'], message: `${res.name} is the built-in default agent (read-only); svcform never writes it: remove this manifest and declare an agent of your own` }];
  },

  async list(ctx, space) {
    const res = await ctx.api.request<{ results?: Array<Record<string, any>> }>({ method: 'GET', path: BASE, space });
    const agents = res.body?.results ?? [];
    for (const a of agents) {
      const ids = a.configuration?.plugin_ids;
      if (Array.isArray(ids) && ids.length) a.configuration = { ...a.configuration, plugin_ids: await pluginNamesOf(ctx, space, ids) };
    }
    return agents.map((a): LiveObject => ({
      kind: 'Agent',
      space,
      name: a.id,
      body: a,
      tags: Array.isArray(a.labels) ? a.labels : [],
      readOnly: a.readonly || a.id === BUILTIN_AGENT_ID ? 'built-in agent (read-only)' : undefined,
    }));
  },

  normalizeDesired(res) {
    return comparable(res.spec);
  },

  normalizeLive(live) {
    return comparable(live.body);
  },

  async create(ctx, res) {
    await ctx.api.request({ method: 'POST', path: BASE, space: res.space, body: { id: res.name, ...(await withPluginIds(ctx, res, body(res))) } });
  },

  async update(ctx, res, live) {
    await ctx.api.request({ method: 'PUT', path: pathOf(live.name), space: live.space, body: await withPluginIds(ctx, res, body(res, true)) });
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.name), space: live.space });
  },

  toSpec(live) {
    const b = live.body;
    const spec: Record<string, any> = { name: b.name, description: b.description ?? '' };
    for (const key of AVATAR_KEYS) if (typeof b[key] === 'string' && b[key] !== '') spec[key] = b[key];
    if (Array.isArray(b.labels) && b.labels.length > 0) spec.labels = b.labels;
    if (b.visibility !== undefined && b.visibility !== DEFAULT_VISIBILITY) spec.visibility = b.visibility;
    const config = comparableConfiguration(clone(b.configuration ?? {}));
    spec.configuration = config;
    return { spec };
  },
};
