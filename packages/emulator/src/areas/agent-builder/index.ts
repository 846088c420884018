import type { EmulatorArea } from '../../area.js';
import type { EmulatorContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { agentNotFound, agentUsesPlugin, agentUsesSkill, agentUsesTool, builtinAgent, createAgent, dropPlugin, dropSkill, dropTool, renderAgent, updateAgent, type AgentRefs, type StoredAgent } from './agents.js';
import { builtinSkills, createSkill, renderSkill, skillInUse, skillNotFound, summarizeSkill, updateSkill, type StoredSkill } from './skills.js';
import { installPlugin, pluginInUse, pluginNotFound, renderPlugin, type StoredPlugin } from './plugins.js';
import { workflowExists } from '../workflows/index.js';
import { builtinTools, createTool, renderTool, toolInUse, toolNotFound, updateTool, type StoredTool } from './tools.js';

const BASE = '/api/agent_builder';

interface AgentBuilderState {
  tools: Record<string, StoredTool>;
  agents: Record<string, StoredAgent>;
  skills: Record<string, StoredSkill>;
  plugins: Record<string, StoredPlugin>;
}

/** Every space starts with the built-in tools and the built-in agent, read-only. */
function stateOf(ctx: EmulatorContext, space: string): AgentBuilderState {
  const state = ctx.store.area<AgentBuilderState>(space, 'agent_builder', () => ({
    tools: Object.fromEntries(builtinTools().map((t) => [t.id, t])),
    agents: { [builtinAgent().id]: builtinAgent() },
    skills: {},
    plugins: {},
  }));
  state.skills ??= {};
  state.plugins ??= {};
  for (const skill of builtinSkills()) if (!state.skills[skill.id]) state.skills[skill.id] = skill;
  // A state file saved by an older build holds an older list of built-ins: the server's own tools
  // are what this build knows, whatever was saved.
  for (const tool of builtinTools()) if (!state.tools[tool.id]) state.tools[tool.id] = tool;
  return state;
}

/** What an agent's write is checked against in a space. */
const agentRefs = (state: AgentBuilderState): AgentRefs => ({ toolExists: (id) => !!own(state.tools, id), skillExists: (id) => !!own(state.skills, id) });

const own = <T>(map: Record<string, T>, id: string): T | undefined => (Object.prototype.hasOwnProperty.call(map, id) ? map[id] : undefined);

/**
 * Agent builder (/api/agent_builder): tools and agents, space-scoped, lists without pagination
 * (`{results}`, built-ins included: service-api.md Agent builder routes; wire-facts 0.4 and §11).
 * Reads need `read`, writes `all`.
 */
export const agentBuilderArea: EmulatorArea = {
  name: 'agent_builder',
  register(router) {
    router.get(`${BASE}/tools`, (req, ctx) => ({ body: { results: Object.values(stateOf(ctx, req.space).tools).map(renderTool) } }), { access: 'read' });

    router.get(`${BASE}/tools/:id`, (req, ctx) => {
      const tool = own(stateOf(ctx, req.space).tools, req.params.id);
      if (!tool) throw toolNotFound(req.params.id);
      return { body: renderTool(tool) };
    }, { access: 'read' });

    router.post(`${BASE}/tools`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const tool = createTool(req.body, (id) => own(state.tools, id), (id) => workflowExists(ctx, req.space, id));
      state.tools[tool.id] = tool;
      return { body: renderTool(tool) };
    });

    router.put(`${BASE}/tools/:id`, (req, ctx) => {
      const tool = own(stateOf(ctx, req.space).tools, req.params.id);
      if (!tool) throw toolNotFound(req.params.id);
      updateTool(tool, req.body, (id) => workflowExists(ctx, req.space, id));
      return { body: renderTool(tool) };
    });

    router.delete(`${BASE}/tools/:id`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const tool = own(state.tools, req.params.id);
      if (!tool) throw toolNotFound(req.params.id);
      if (tool.readonly) throw badRequest(`Tool ${tool.id} is read-only and can't be deleted`);
      const force = req.query.get('force');
      if (force !== null && force !== 'true' && force !== 'false') throw badRequest(`[request query.force]: expected value of type [boolean] but got [string]`);
      const users = Object.values(state.agents).filter((a) => agentUsesTool(a, tool.id));
      if (users.length && force !== 'true') throw toolInUse(users.map((a) => a.id));
      for (const agent of users) dropTool(agent, tool.id);
      delete state.tools[tool.id];
      return { body: { success: true } };
    });

    router.get(`${BASE}/agents`, (req, ctx) => ({ body: { results: Object.values(stateOf(ctx, req.space).agents).map(renderAgent) } }), { access: 'read' });

    router.get(`${BASE}/agents/:id`, (req, ctx) => {
      const agent = own(stateOf(ctx, req.space).agents, req.params.id);
      if (!agent) throw agentNotFound(req.params.id);
      return { body: renderAgent(agent) };
    }, { access: 'read' });

    router.post(`${BASE}/agents`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const agent = createAgent(req.body, (id) => own(state.agents, id), agentRefs(state));
      state.agents[agent.id] = agent;
      return { body: renderAgent(agent) };
    });

    router.put(`${BASE}/agents/:id`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const agent = own(state.agents, req.params.id);
      if (!agent) throw agentNotFound(req.params.id);
      updateAgent(agent, req.body, agentRefs(state));
      return { body: renderAgent(agent) };
    });

    router.delete(`${BASE}/agents/:id`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const agent = own(state.agents, req.params.id);
      if (!agent) throw agentNotFound(req.params.id);
      // service-api.md: "built-in read-only agents cannot be deleted".
      if (agent.readonly) throw badRequest(`Agent ${agent.id} is read-only and can't be deleted`);
      delete state.agents[agent.id];
      return { body: { success: true } };
    });

    // Skills (K-AB/skills.ts): the list answers summaries, the get the whole skill.
    router.get(`${BASE}/skills`, (req, ctx) => {
      const include = req.query.get('include_plugins');
      for (const key of req.query.keys()) if (key !== 'include_plugins') throw badRequest(`[request query.${key}]: definition for this key is missing`);
      if (include !== null && include !== 'true' && include !== 'false') throw badRequest('[request query.include_plugins]: expected value of type [boolean] but got [string]');
      // Skills a plugin brought are listed only when asked for (wording of the query inferred from its name).
      const skills = Object.values(stateOf(ctx, req.space).skills).filter((s) => include === 'true' || !s.plugin_id);
      return { body: { results: skills.map(summarizeSkill) } };
    }, { access: 'read' });

    router.get(`${BASE}/skills/:id`, (req, ctx) => {
      const skill = own(stateOf(ctx, req.space).skills, req.params.id);
      if (!skill) throw skillNotFound(req.params.id);
      return { body: renderSkill(skill) };
    }, { access: 'read' });

    router.post(`${BASE}/skills`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const skill = createSkill(req.body, (id) => own(state.skills, id), (id) => !!own(state.tools, id));
      state.skills[skill.id] = skill;
      return { body: renderSkill(skill) };
    });

    router.put(`${BASE}/skills/:id`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const skill = own(state.skills, req.params.id);
      // The registry answers a missing skill on update with a 400 (skill_registry.ts update).
      if (!skill) throw badRequest(`Skill with id '${req.params.id}' not found`);
      updateSkill(skill, req.body, (id) => !!own(state.tools, id));
      return { body: renderSkill(skill) };
    });

    router.delete(`${BASE}/skills/:id`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const skill = own(state.skills, req.params.id);
      if (!skill) throw skillNotFound(req.params.id);
      if (skill.readonly) throw badRequest(`Skill '${skill.id}' is read-only and cannot be deleted`);
      const force = req.query.get('force');
      if (force !== null && force !== 'true' && force !== 'false') throw badRequest('[request query.force]: expected value of type [boolean] but got [string]');
      const users = Object.values(state.agents).filter((a) => agentUsesSkill(a, skill.id));
      if (users.length && force !== 'true') throw skillInUse(users.map((a) => ({ id: a.id, name: a.name })));
      for (const agent of users) dropSkill(agent, skill.id);
      delete state.skills[skill.id];
      return { body: { success: true } };
    });

    // Plugins (K-AB/plugins.ts): space-scoped like the rest of the area (plugin_service.ts scopes its clients to the request's space).
    router.get(`${BASE}/plugins`, (req, ctx) => ({ body: { results: Object.values(stateOf(ctx, req.space).plugins).map(renderPlugin) } }), { access: 'read' });

    router.get(`${BASE}/plugins/:id`, (req, ctx) => {
      const plugin = own(stateOf(ctx, req.space).plugins, req.params.id);
      if (!plugin) throw pluginNotFound(req.params.id);
      return { body: renderPlugin(plugin) };
    }, { access: 'read' });

    router.post(`${BASE}/plugins/install`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const { plugin, skills } = installPlugin(req.body, (name) => Object.values(state.plugins).find((p) => p.name === name), ctx.uuid(), ctx.now());
      for (const skill of skills) state.skills[skill.id] = skill;
      state.plugins[plugin.id] = plugin;
      return { body: renderPlugin(plugin) };
    });

    router.delete(`${BASE}/plugins/:id`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      for (const key of req.query.keys()) if (key !== 'force') throw badRequest(`[request query.${key}]: definition for this key is missing`);
      const force = req.query.get('force');
      if (force !== null && force !== 'true' && force !== 'false') throw badRequest('[request query.force]: expected value of type [boolean] but got [string]');
      const users = Object.values(state.agents).filter((a) => agentUsesPlugin(a, req.params.id));
      // The route checks the agents before it looks the plugin up.
      if (users.length && force !== 'true') throw pluginInUse(users.map((a) => ({ id: a.id, name: a.name })));
      for (const agent of users) dropPlugin(agent, req.params.id);
      const plugin = own(state.plugins, req.params.id);
      if (!plugin) throw pluginNotFound(req.params.id);
      for (const skill of Object.values(state.skills)) if (skill.plugin_id === plugin.id) delete state.skills[skill.id];
      delete state.plugins[plugin.id];
      return { body: { success: true } };
    });
  },
};
