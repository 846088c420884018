import { schema, validateRequest, type Schema } from '../../config-schema.js';
import { badRequest, notFound, type EmuError } from '../../errors.js';

/**
 * Agent-builder agents (service-api.md Agent builder: the Agent and Agent configuration tables and
 * the agents routes; wire-facts §11; real route x-pack/platform/plugins/shared/agent_builder/server/
 * routes/agents.ts, whose OpenAPI body is `additionalProperties: false`). Platform error shape.
 */

/** The built-in default agent's id (wire-facts §11: the vendor's default agent, `can_edit: false`). */
export const BUILTIN_AGENT_ID = 'elastic-ai-agent';
const AGENT_ID = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/;
const AGENT_ID_MAX = 64;
const VISIBILITY = ['public', 'shared', 'private'];

export interface StoredAgent {
  id: string;
  name: string;
  description: string;
  labels: string[];
  avatar_color?: string;
  avatar_symbol?: string;
  visibility: string;
  configuration: Record<string, any>;
  readonly: boolean;
}

const toolSelection = schema.object({ tool_ids: schema.arrayOf(schema.string()) });
const CONFIGURATION: Record<string, Schema> = {
  instructions: schema.maybe(schema.string()),
  tools: schema.arrayOf(toolSelection),
  skill_ids: schema.maybe(schema.arrayOf(schema.string())),
  plugin_ids: schema.maybe(schema.arrayOf(schema.string())),
  workflow_ids: schema.maybe(schema.arrayOf(schema.string())),
  enable_vendor_capabilities: schema.maybe(schema.boolean()),
};
const FIELDS: Record<string, Schema> = {
  name: schema.string({ minLength: 1 }),
  description: schema.string(),
  // "" clears the avatar and is stored and answered as "" (wire-facts §16 #6).
  avatar_color: schema.maybe(schema.string({ check: (v) => (v === '' || /^#[0-9a-fA-F]{6}$/.test(v) ? undefined : 'must be a hex color such as #0077cc') })),
  avatar_symbol: schema.maybe(schema.string({ maxLength: 2 })),
  labels: schema.maybe(schema.arrayOf(schema.string())),
  visibility: schema.maybe(schema.oneOf(VISIBILITY.map((v) => schema.literal(v)))),
};
const CreateBody = schema.object({ id: schema.string(), ...FIELDS, configuration: schema.object(CONFIGURATION) });
const UpdateBody = schema.object({
  ...Object.fromEntries(Object.entries(FIELDS).map(([k, s]) => [k, s.kind === 'maybe' ? s : schema.maybe(s)])),
  configuration: schema.maybe(schema.object(Object.fromEntries(Object.entries(CONFIGURATION).map(([k, s]) => [k, s.kind === 'maybe' ? s : schema.maybe(s)])))),
});

export function builtinAgent(): StoredAgent {
  return {
    id: BUILTIN_AGENT_ID,
    name: 'AI Agent',
    description: 'The default agent: searches and analyses the data of the deployment.',
    labels: [],
    visibility: 'public',
    configuration: { instructions: '', tools: [{ tool_ids: ['platform.core.search', 'platform.core.list_indices', 'platform.core.get_document_by_id', 'platform.core.execute_qlang', 'platform.core.generate_qlang'] }] },
    readonly: true,
  };
}

export function renderAgent(a: StoredAgent): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: a.id,
    type: 'chat',
    name: a.name,
    description: a.description,
    labels: [...a.labels],
    visibility: a.visibility,
    configuration: structuredClone(a.configuration),
    readonly: a.readonly,
  };
  if (a.avatar_color !== undefined) out.avatar_color = a.avatar_color;
  if (a.avatar_symbol !== undefined) out.avatar_symbol = a.avatar_symbol;
  return out;
}

/** Every selected tool must exist in the space (the agent service checks the selection on write). */
function checkTools(configuration: Record<string, any>, toolExists: (id: string) => boolean): void {
  for (const selection of configuration.tools ?? []) {
    const missing = selection.tool_ids.filter((id: string) => id !== '*' && !toolExists(id));
    if (missing.length) throw badRequest(`Agent configuration references unknown tools: ${missing.join(', ')}`);
  }
}

/** What an agent's write is checked against: the tools and skills of its space. */
export interface AgentRefs {
  toolExists: (id: string) => boolean;
  skillExists: (id: string) => boolean;
}

/**
 * Every named skill must exist in the space, built-ins included (agents/persisted/client/utils/
 * skills.ts validateSkillIds: "Skill id '...' does not exist."). workflow_ids are not looked up:
 * the agent client only keeps them to administrators (client.ts assertCanConfigureWorkflows).
 */
function checkSkills(configuration: Record<string, any>, skillExists: (id: string) => boolean): void {
  const problems = (configuration.skill_ids ?? []).filter((id: string) => !skillExists(id)).map((id: string) => `Skill id '${id}' does not exist.`);
  if (problems.length) throw badRequest(`Agent skill validation failed:\n${problems.map((p: string) => `- ${p}`).join('\n')}`);
}

export function createAgent(body: unknown, existing: (id: string) => StoredAgent | undefined, refs: AgentRefs): StoredAgent {
  const value = validateRequest<Record<string, any>>(CreateBody, body);
  if (value.id.length > AGENT_ID_MAX || !AGENT_ID.test(value.id)) {
    throw badRequest(`Invalid agent id: "${value.id}": must be at most ${AGENT_ID_MAX} characters of lower-case letters, digits, '-' and '_'`);
  }
  if (existing(value.id)) throw badRequest(`Agent with id ${value.id} already exists`);
  checkTools(value.configuration, refs.toolExists);
  checkSkills(value.configuration, refs.skillExists);
  const agent: StoredAgent = {
    id: value.id,
    name: value.name,
    description: value.description,
    labels: value.labels ?? [],
    visibility: value.visibility ?? 'private',
    configuration: value.configuration,
    readonly: false,
  };
  if (value.avatar_color !== undefined) agent.avatar_color = value.avatar_color;
  if (value.avatar_symbol !== undefined) agent.avatar_symbol = value.avatar_symbol;
  return agent;
}

/** PUT: only the given fields change (service-api.md); a given configuration is merged key by key. */
export function updateAgent(agent: StoredAgent, body: unknown, refs: AgentRefs): void {
  if (agent.readonly) throw badRequest(`Agent ${agent.id} is read-only and can't be updated`);
  const value = validateRequest<Record<string, any>>(UpdateBody, body);
  if (value.configuration !== undefined) {
    const merged = { ...agent.configuration, ...value.configuration };
    checkTools(merged, refs.toolExists);
    if (value.configuration.skill_ids !== undefined) checkSkills(merged, refs.skillExists);
    agent.configuration = merged;
  }
  for (const key of ['name', 'description', 'labels', 'visibility', 'avatar_color', 'avatar_symbol'] as const) {
    if (value[key] !== undefined) (agent as any)[key] = value[key];
  }
}

/** Whether an agent selects a tool (what a tool delete without force checks). */
export function agentUsesTool(agent: StoredAgent, toolId: string): boolean {
  return (agent.configuration.tools ?? []).some((s: { tool_ids: string[] }) => s.tool_ids.includes(toolId));
}

/** The tool delete with force=true: the tool leaves every selection first (wire-facts §11). */
export function dropTool(agent: StoredAgent, toolId: string): void {
  agent.configuration.tools = (agent.configuration.tools ?? []).map((s: { tool_ids: string[] }) => ({ tool_ids: s.tool_ids.filter((id) => id !== toolId) }));
}

/** Whether an agent names a skill (what a skill delete without force checks). */
export function agentUsesSkill(agent: StoredAgent, skillId: string): boolean {
  return (agent.configuration.skill_ids ?? []).includes(skillId);
}

/** The skill delete with force=true: the skill leaves every agent first (K-AB/skills.ts). */
export function dropSkill(agent: StoredAgent, skillId: string): void {
  agent.configuration.skill_ids = (agent.configuration.skill_ids ?? []).filter((id: string) => id !== skillId);
}

/** Whether an agent names a plugin (what a plugin delete without force checks, K-AB/plugins.ts). */
export function agentUsesPlugin(agent: StoredAgent, pluginId: string): boolean {
  return (agent.configuration.plugin_ids ?? []).includes(pluginId);
}

/** The plugin delete with force=true: the plugin leaves every agent first (removePluginRefsFromAgents). */
export function dropPlugin(agent: StoredAgent, pluginId: string): void {
  agent.configuration.plugin_ids = (agent.configuration.plugin_ids ?? []).filter((id: string) => id !== pluginId);
}

export function agentNotFound(id: string): EmuError {
  return notFound(`Agent ${id} not found`);
}
