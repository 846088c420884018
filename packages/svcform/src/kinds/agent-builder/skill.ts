import type { Resource } from '../../manifest/types.js';
import { clone } from '../normalize.js';
import type { AdapterContext, KindAdapter, LiveObject, Reference } from '../types.js';
import { AREAS } from '../../client/areas.js';
import { isBuiltinToolId } from './tool.js';

/**
 * Agent-builder skills (/api/agent_builder/skills, technical preview since 9.4.0: service-api.md
 * line 670; routes K:x-pack/platform/plugins/shared/agent_builder/server/routes/skills.ts).
 * metadata.name is the skill id. A skill is markdown instructions (`content`), optional
 * referenced content, and the tools it uses. The list answers summaries without `content`, so each
 * skill of the space that is not built-in is read once more by id (one GET per skill).
 */

const BASE = '/api/agent_builder/skills';
const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

interface ReferencedContent {
  name: string;
  relativePath: string;
  content: string;
}

/** A skill in comparable form: tool_ids a set, referenced content an ordered list ([] = none). */
function comparable(source: Record<string, any>): Record<string, any> {
  return {
    name: source.name,
    description: source.description,
    content: source.content,
    referenced_content: (Array.isArray(source.referenced_content) ? source.referenced_content : []).map((r: ReferencedContent) => ({ name: r.name, relativePath: r.relativePath, content: r.content })),
    tool_ids: [...new Set<string>(Array.isArray(source.tool_ids) ? source.tool_ids : [])].sort(),
  };
}

/** Every managed field, with its empty value when the manifest leaves it out: the PUT keeps what it is not given. */
function body(res: Resource): Record<string, any> {
  const spec = res.spec;
  return { name: spec.name, description: spec.description, content: spec.content, referenced_content: spec.referenced_content ?? [], tool_ids: spec.tool_ids ?? [] };
}

async function readSkill(ctx: AdapterContext, space: string, id: string): Promise<Record<string, any>> {
  return (await ctx.api.request<Record<string, any>>({ method: 'GET', path: pathOf(id), space })).body ?? {};
}

export const agentSkillAdapter: KindAdapter = {
  kind: 'AgentSkill',
  schema: 'AgentSkill.schema.json',
  area: AREAS.agentBuilder,
  setFields: ['/tool_ids'],
  referenceKinds: ['AgentTool'],

  /**
   * The tools a skill names, except the server's own `platform.*` ones. Refused when missing: the
   * skill registry checks each id against the tool registry ("Invalid tool IDs: ... do not exist
   * in the tool registry.", K:.../server/services/skills/skill_registry.ts).
   */
  references(spec): Reference[] {
    const refs: Reference[] = [];
    (Array.isArray(spec.tool_ids) ? spec.tool_ids : []).forEach((id: unknown, i: number) => {
      if (typeof id === 'string' && !isBuiltinToolId(id)) refs.push({ kind: 'AgentTool', name: id, path: ['spec', 'tool_ids', i], whenMissing: 'refused' });
    });
    return refs;
  },

  async list(ctx, space) {
    // include_plugins: the skills installed plugins brought are listed too, so agents may name them.
    const res = await ctx.api.request<{ results?: Array<Record<string, any>> }>({ method: 'GET', path: BASE, space, query: { include_plugins: true } });
    const summaries = res.body?.results ?? [];
    // Built-ins and plugin skills are read-only and never compared: their summary is enough.
    return Promise.all(summaries.map(async (s): Promise<LiveObject> => ({
      kind: 'AgentSkill',
      space,
      name: s.id,
      body: s.readonly ? s : await readSkill(ctx, space, s.id),
      readOnly: s.readonly ? 'built-in or plugin skill (read-only)' : undefined,
    })));
  },

  normalizeDesired(res) {
    return comparable(res.spec);
  },

  normalizeLive(live) {
    return comparable(live.body);
  },

  async create(ctx, res) {
    await ctx.api.request({ method: 'POST', path: BASE, space: res.space, body: { id: res.name, ...body(res) } });
  },

  async update(ctx, res, live) {
    await ctx.api.request({ method: 'PUT', path: pathOf(live.name), space: live.space, body: body(res) });
  },

  /** Without force: a skill agents still name is refused (409) rather than taken from them. */
  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.name), space: live.space, query: { force: false } });
  },

  toSpec(live) {
    const b = live.body;
    const spec: Record<string, any> = { name: b.name, description: b.description, content: b.content };
    if (Array.isArray(b.referenced_content) && b.referenced_content.length > 0) spec.referenced_content = clone(b.referenced_content);
    if (Array.isArray(b.tool_ids) && b.tool_ids.length > 0) spec.tool_ids = [...b.tool_ids];
    return { spec };
  },
};
