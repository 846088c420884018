import type { Resource } from '../../manifest/types.js';
import { ApiError } from '../../client/errors.js';
import { clone, isPlainObject, sortKeys } from '../normalize.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from '../types.js';
import { AREAS } from '../../client/areas.js';

/**
 * Agent-builder tools (/api/agent_builder/tools; service-api.md Agent builder; wire-facts §11).
 * metadata.name is the tool id. The list answers every tool at once, built-ins included: those
 * (`platform.*`, `readonly: true`) are never written, and declaring one is a validate error.
 */

const BASE = '/api/agent_builder/tools';
/** The namespace of the server's own tools (service-api.md: "built-in tools start with platform."). */
export const BUILTIN_TOOL_PREFIX = 'platform.';

export const isBuiltinToolId = (id: string) => id.startsWith(BUILTIN_TOOL_PREFIX);

const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** The `?name` placeholders of a qlang query. */
function queryParams(query: string): Set<string> {
  return new Set([...query.matchAll(/\?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]));
}

/** A tool in comparable form: description "" and tags [] mean unset (wire-facts §11). */
function comparable(source: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { type: source.type, configuration: sortKeys(clone(isPlainObject(source.configuration) ? source.configuration : {})) };
  if (typeof source.description === 'string' && source.description !== '') out.description = source.description;
  if (Array.isArray(source.tags) && source.tags.length > 0) out.tags = [...new Set(source.tags as string[])].sort();
  return out;
}

function body(res: Resource): Record<string, any> {
  return { description: res.spec.description ?? '', tags: res.spec.tags ?? [], configuration: res.spec.configuration };
}

async function create(ctx: AdapterContext, res: Resource): Promise<void> {
  await ctx.api.request({ method: 'POST', path: BASE, space: res.space, body: { id: res.name, type: res.spec.type, ...body(res) } });
}

/** Without force: a tool that agents still use is refused (409) rather than taken from them. */
async function remove(ctx: AdapterContext, space: string, id: string): Promise<void> {
  await ctx.api.request({ method: 'DELETE', path: pathOf(id), space, query: { force: false } });
}

export const agentToolAdapter: KindAdapter = {
  kind: 'AgentTool',
  schema: 'AgentTool.schema.json',
  area: AREAS.agentBuilder,
  setFields: ['/tags'],
  referenceKinds: ['Connector', 'AgentWorkflow'],

  /**
   * An mcp tool's connector and a workflow tool's workflow: refused when missing, the tool type
   * reads either on write ("Connector '...' not found or not accessible", K:x-pack/platform/
   * plugins/shared/agent_builder/server/services/tools/tool_types/mcp/validate_configuration.ts;
   * "Workflow '...' not found", tool_types/workflow/validation.ts).
   */
  references(spec): Reference[] {
    if (spec.type === 'mcp' && typeof spec.configuration?.connector_id === 'string') {
      return [{ kind: 'Connector', name: spec.configuration.connector_id, path: ['spec', 'configuration', 'connector_id'], whenMissing: 'refused' }];
    }
    if (spec.type === 'workflow' && typeof spec.configuration?.workflow_id === 'string') {
      return [{ kind: 'AgentWorkflow', name: spec.configuration.workflow_id, path: ['spec', 'configuration', 'workflow_id'], whenMissing: 'refused' }];
    }
    return [];
  },

  check(res: Resource): CheckIssue[] {
    const issues: CheckIssue[] = [];
    if (isBuiltinToolId(res.name)) {
      issues.push({ path: ['metadata', 'name'], message: `${res.name} is a built-in tool (the ${BUILTIN_TOOL_PREFIX}* namespace is the server's own and read-only); svcform never writes it: remove this manifest` });
    }
    const config = res.spec.configuration;
    if (res.spec.type === 'qlang' && typeof config?.query === 'string' && isPlainObject(config.params)) {
      // The server refuses both mismatches (tool_types/esql/validate_configuration.ts); say it before any write.
      const used = queryParams(config.query);
      const undefinedParams = [...used].filter((p) => !(p in config.params));
      if (undefinedParams.length) issues.push({ path: ['spec', 'configuration', 'query'], message: `the query uses parameters that params does not define: ${undefinedParams.join(', ')}` });
      for (const name of Object.keys(config.params)) {
        if (!used.has(name)) issues.push({ path: ['spec', 'configuration', 'params', name], message: `parameter ${name} is not used in the query (write ?${name} in it, or remove it)` });
      }
    }
    return issues;
  },

  async list(ctx, space) {
    const res = await ctx.api.request<{ results?: Array<Record<string, any>> }>({ method: 'GET', path: BASE, space });
    return (res.body?.results ?? []).map((t): LiveObject => ({
      kind: 'AgentTool',
      space,
      name: t.id,
      body: t,
      tags: Array.isArray(t.tags) ? t.tags : [],
      readOnly: t.readonly || isBuiltinToolId(String(t.id)) ? 'built-in tool (read-only)' : undefined,
    }));
  },

  normalizeDesired(res) {
    return comparable(res.spec);
  },

  normalizeLive(live) {
    return comparable(live.body);
  },

  create,

  async update(ctx, res, live) {
    // The type cannot change, and an update merges configuration keys into the stored ones, so a
    // key the manifest drops cannot be cleared in place: both replace the tool (refused while
    // agents use it: the delete is sent without force).
    const dropped = Object.keys(live.body.configuration ?? {}).filter((k) => !(k in (res.spec.configuration ?? {})));
    if (live.body.type !== res.spec.type || dropped.length > 0) {
      try {
        await remove(ctx, live.space, live.name);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          const why = live.body.type !== res.spec.type ? 'its type changes' : `configuration keys are removed (${dropped.join(', ')})`;
          throw new Error(`AgentTool/${live.name}: ${why}, which needs the tool deleted and created again, but agents use it; take it out of those agents first`);
        }
        throw err;
      }
      await create(ctx, res);
      return;
    }
    await ctx.api.request({ method: 'PUT', path: pathOf(live.name), space: live.space, body: body(res) });
  },

  async delete(ctx, live) {
    await remove(ctx, live.space, live.name);
  },

  toSpec(live) {
    const spec: Record<string, any> = { type: live.body.type };
    if (typeof live.body.description === 'string' && live.body.description !== '') spec.description = live.body.description;
    if (Array.isArray(live.body.tags) && live.body.tags.length > 0) spec.tags = live.body.tags;
    spec.configuration = live.body.configuration ?? {};
    return { spec };
  },
};
