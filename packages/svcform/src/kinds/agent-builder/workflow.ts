import type { Resource } from '../../manifest/types.js';
import { clone, isPlainObject, sortKeys } from '../normalize.js';
import type { AdapterContext, KindAdapter, LiveObject } from '../types.js';
import { AREAS } from '../../client/areas.js';
import { yaml } from '../../common/yaml.js';

/**
 * Workflows (/api/workflows; routes K:src/platform/plugins/shared/workflows_management/server/api/
 * routes/workflows/). metadata.name is the workflow id; spec.definition is the workflow's YAML
 * definition, written inline in the manifest and sent as YAML text (`{id, yaml}`). Agent-builder
 * `workflow` tools and agents' `workflow_ids` name workflows.
 *
 * The list pages and carries no YAML text, so each workflow is read once more by id (one GET per
 * workflow); the comparison is of the parsed definition, so formatting and comments never show as
 * a change. name, description, enabled and tags are also fields of their own, which a person may
 * change without touching the text: the live fields win over the text's.
 */

const BASE = '/api/workflows';
const ONE = `${BASE}/workflow`;
const PAGE = 100;
const pathOf = (id: string) => `${ONE}/${encodeURIComponent(id)}`;

/** The definition with the fields the server keeps apart taken from them; unset and empty alike. */
function merged(definition: Record<string, any>, fields?: Record<string, any>): Record<string, any> {
  const def = clone(definition);
  if (fields) {
    def.name = fields.name;
    if (typeof fields.description === 'string' && fields.description !== '') def.description = fields.description;
    if (typeof fields.enabled === 'boolean') def.enabled = fields.enabled;
    if (Array.isArray(fields.tags) && fields.tags.length > 0) def.tags = fields.tags;
  }
  // Unset and empty mean the same: no description, not enabled, no tags.
  if (def.description === '' || def.description === undefined) delete def.description;
  if (def.enabled !== true) delete def.enabled;
  if (!Array.isArray(def.tags) || def.tags.length === 0) delete def.tags;
  return def;
}

/** The comparable form: keys sorted, so the order the YAML wrote them in is no change. */
function comparable(definition: Record<string, any>, fields?: Record<string, any>): Record<string, any> {
  return { definition: sortKeys(merged(definition, fields)) };
}

function definitionOf(live: LiveObject): Record<string, any> {
  const parsed = typeof live.body.yaml === 'string' ? yaml().parse(live.body.yaml) : live.body.definition;
  return isPlainObject(parsed) ? parsed : {};
}

const text = (res: Resource) => yaml().stringify(res.spec.definition);

async function listAll(ctx: AdapterContext, space: string): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  for (let page = 1; ; page++) {
    const res = await ctx.api.request<{ results?: Array<Record<string, any>>; total?: number }>({ method: 'GET', path: BASE, space, query: { size: PAGE, page } });
    const results = res.body?.results ?? [];
    out.push(...results);
    if (results.length < PAGE || out.length >= (res.body?.total ?? 0)) return out;
  }
}

export const agentWorkflowAdapter: KindAdapter = {
  kind: 'AgentWorkflow',
  schema: 'AgentWorkflow.schema.json',
  area: AREAS.workflows,

  references() {
    return [];
  },

  async list(ctx, space) {
    const items = await listAll(ctx, space);
    return Promise.all(items.map(async (item): Promise<LiveObject> => {
      const full = await ctx.api.request<Record<string, any>>({ method: 'GET', path: pathOf(item.id), space });
      const body = full.body ?? item;
      return { kind: 'AgentWorkflow', space, name: item.id, body, tags: Array.isArray(body.tags) ? body.tags : [] };
    }));
  },

  normalizeDesired(res) {
    return comparable(res.spec.definition ?? {});
  },

  normalizeLive(live) {
    return comparable(definitionOf(live), live.body);
  },

  async create(ctx, res) {
    await ctx.api.request({ method: 'POST', path: ONE, space: res.space, body: { id: res.name, yaml: text(res) } });
  },

  /** The YAML carries every field: name, description, enabled and tags follow it. */
  async update(ctx, res, live) {
    await ctx.api.request({ method: 'PUT', path: pathOf(live.name), space: live.space, body: { yaml: text(res) } });
  },

  /**
   * With force=true: a delete without it only hides the workflow and keeps its id taken, so the
   * manifest could never create it again (delete_workflow.ts: force is the hard delete).
   */
  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.name), space: live.space, query: { force: true } });
  },

  toSpec(live) {
    return { spec: { definition: merged(definitionOf(live), live.body) } };
  },
};
