import type { EmulatorArea } from '../../area.js';
import type { EmulatorContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { agentNotFound, agentUsesTool, builtinAgent, createAgent, dropTool, renderAgent, updateAgent, type StoredAgent } from './agents.js';
import { builtinTools, createTool, renderTool, toolInUse, toolNotFound, updateTool, type StoredTool } from './tools.js';

const BASE = '/api/agent_builder';

interface AgentBuilderState {
  tools: Record<string, StoredTool>;
  agents: Record<string, StoredAgent>;
}

/** Every space starts with the built-in tools and the built-in agent, read-only. */
function stateOf(ctx: EmulatorContext, space: string): AgentBuilderState {
  const state = ctx.store.area<AgentBuilderState>(space, 'agent_builder', () => ({
    tools: Object.fromEntries(builtinTools().map((t) => [t.id, t])),
    agents: { [builtinAgent().id]: builtinAgent() },
  }));
  // A state file saved by an older build holds an older list of built-ins: the server's own tools
  // are what this build knows, whatever was saved.
  for (const tool of builtinTools()) if (!state.tools[tool.id]) state.tools[tool.id] = tool;
  return state;
}

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
      const tool = createTool(req.body, (id) => own(state.tools, id));
      state.tools[tool.id] = tool;
      return { body: renderTool(tool) };
    });

    router.put(`${BASE}/tools/:id`, (req, ctx) => {
      const tool = own(stateOf(ctx, req.space).tools, req.params.id);
      if (!tool) throw toolNotFound(req.params.id);
      updateTool(tool, req.body);
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
      const agent = createAgent(req.body, (id) => own(state.agents, id), (id) => !!own(state.tools, id));
      state.agents[agent.id] = agent;
      return { body: renderAgent(agent) };
    });

    router.put(`${BASE}/agents/:id`, (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const agent = own(state.agents, req.params.id);
      if (!agent) throw agentNotFound(req.params.id);
      updateAgent(agent, req.body, (id) => !!own(state.tools, id));
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
  },
};
