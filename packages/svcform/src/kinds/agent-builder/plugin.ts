import { ApiError } from '../../client/errors.js';
import { AREAS } from '../../client/areas.js';
import { runLookup } from '../run-lookup.js';
import { RunKey } from '../run-scope.js';
import type { AdapterContext, KindAdapter, LiveObject } from '../types.js';

/**
 * Agent-builder plugins (/api/agent_builder/plugins, technical preview since 9.4.0: service-api.md
 * line 670; routes K:x-pack/platform/plugins/shared/agent_builder/server/routes/plugins.ts).
 * The server gives an installed plugin a random id, so a plugin's identity in a manifest is its
 * name: svcform always installs with `plugin_name` = metadata.name. What the server keeps of the
 * manifest is the URL (`source_url`); version, description and skills come from the archive it
 * downloaded. There is no update route: a changed url is an uninstall and an install.
 */

const BASE = '/api/agent_builder/plugins';
const AGENTS = '/api/agent_builder/agents';
const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

interface PluginSummary {
  id: string;
  name: string;
}

async function listPlugins(ctx: AdapterContext, space: string): Promise<Array<Record<string, any>>> {
  return (await ctx.api.request<{ results?: Array<Record<string, any>> }>({ method: 'GET', path: BASE, space })).body?.results ?? [];
}

/** Spaces whose first plugin reading this run was done (a later reading is a re-read after a miss: it asks the server). */
const firstRead = new RunKey('agent plugin first readings', () => new Set<string>());

/**
 * A space's plugins by `name:<name>` and by `id:<id>`, one listing per space and run: the first
 * reading waits for the run's own AgentPlugin listing when the plan reads one (agents are listed
 * beside plugins, not after), so a plan reads the plugins once. Agents name plugins by id,
 * manifests by name.
 */
const pluginIndex = runLookup<PluginSummary>(async (ctx, space) => {
  const first = ctx.run.get(firstRead);
  if (!first.has(space)) {
    first.add(space);
    const listed = (await ctx.run.awaitListing('AgentPlugin', space)) as readonly LiveObject[] | undefined;
    if (listed) return indexOf(listed.map((o) => ({ id: o.serverId ?? o.body.id, name: o.name })));
  }
  let plugins: Array<Record<string, any>> = [];
  try {
    plugins = await listPlugins(ctx, space);
  } catch (err) {
    // A server without the plugin routes (before 9.4, or the feature off) answers 404: no plugins.
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
  return indexOf(plugins.map((p) => ({ id: p.id, name: p.name })));
});

function indexOf(plugins: PluginSummary[]): Map<string, PluginSummary> {
  const out = new Map<string, PluginSummary>();
  for (const p of plugins) {
    out.set(`name:${p.name}`, p);
    out.set(`id:${p.id}`, p);
  }
  return out;
}

/** Plugins this run reinstalled (a changed url): their new id by `<space>\u0000<name>`, ahead of the listing read before. */
const reinstalled = new RunKey('reinstalled agent plugins', () => new Map<string, string>());

/** The plugin ids an agent's write sends for the plugin names of its manifest; a name not installed is sent as it is (the server stores plugin_ids unchecked). */
export async function pluginIdsOf(ctx: AdapterContext, space: string, names: string[]): Promise<string[]> {
  const fresh = ctx.run.get(reinstalled);
  return Promise.all(names.map(async (name) => fresh.get(`${space}\u0000${name}`) ?? (await pluginIndex(ctx, space, `name:${name}`))?.id ?? name));
}

/** The plugin names of the ids an agent holds; an id of no installed plugin stays as it is. */
export async function pluginNamesOf(ctx: AdapterContext, space: string, ids: string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await pluginIndex(ctx, space, `id:${id}`))?.name ?? id));
}

async function install(ctx: AdapterContext, space: string, name: string, url: string): Promise<string | undefined> {
  return (await ctx.api.request<{ id?: string }>({ method: 'POST', path: `${BASE}/install`, space, body: { url, plugin_name: name } })).body?.id;
}

export const agentPluginAdapter: KindAdapter = {
  kind: 'AgentPlugin',
  schema: 'AgentPlugin.schema.json',
  area: AREAS.agentBuilder,

  references() {
    return [];
  },

  async list(ctx, space) {
    return (await listPlugins(ctx, space)).map((p): LiveObject => ({
      kind: 'AgentPlugin',
      space,
      name: p.name,
      serverId: p.id,
      body: p,
      // Plugins the server ships (its built-in plugin registry) cannot be deleted.
      readOnly: p.readonly ? 'built-in plugin (read-only)' : undefined,
    }));
  },

  normalizeDesired(res) {
    return { url: res.spec.url };
  },

  normalizeLive(live) {
    return { url: live.body.source_url };
  },

  async create(ctx, res) {
    await install(ctx, res.space, res.name, res.spec.url);
  },

  /**
   * A changed url: uninstall, then install from the new one, which gets a new id. The agents that
   * named the old id are given the new one: the uninstall takes the plugin out of them (force),
   * and each gets its plugin_ids back with the new id (an agent update merges configuration keys).
   */
  async update(ctx, res, live) {
    const oldId: string = live.serverId ?? live.body.id;
    const agents = ((await ctx.api.request<{ results?: Array<Record<string, any>> }>({ method: 'GET', path: AGENTS, space: live.space })).body?.results ?? [])
      .filter((a) => !a.readonly && Array.isArray(a.configuration?.plugin_ids) && a.configuration.plugin_ids.includes(oldId));
    await ctx.api.request({ method: 'DELETE', path: pathOf(oldId), space: live.space, query: { force: agents.length > 0 } });
    const newId = await install(ctx, res.space, res.name, res.spec.url);
    if (!newId) return;
    ctx.run.get(reinstalled).set(`${res.space}\u0000${res.name}`, newId);
    for (const a of agents) {
      const pluginIds = a.configuration.plugin_ids.map((id: string) => (id === oldId ? newId : id));
      await ctx.api.request({ method: 'PUT', path: `${AGENTS}/${encodeURIComponent(a.id)}`, space: live.space, body: { configuration: { plugin_ids: pluginIds } } });
    }
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.serverId ?? live.body.id), space: live.space, query: { force: false } });
  },

  toSpec(live) {
    return { spec: { url: live.body.source_url } };
  },
};
