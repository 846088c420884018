import { schema, validateRequest, type Schema } from '../../config-schema.js';
import { EmuError, badRequest, notFound } from '../../errors.js';

/**
 * Agent-builder tools (service-api.md Agent builder; wire-facts §11; real routes
 * x-pack/platform/plugins/shared/agent_builder/server/routes/tools.ts, per-type configuration
 * schemas under server/services/tools/tool_types/<type>/schemas.ts). Platform error shape.
 */

export const EDITABLE_TOOL_TYPES = ['qlang', 'index_search', 'workflow', 'mcp'] as const;
/** agent-builder-common/tools/tool_ids.ts: dotted lower-case segments, at most 64 characters. */
const TOOL_ID = /^(?:[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?)(?:\.(?:[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?))*$/;
const TOOL_ID_MAX = 64;
/** Namespaces the server keeps for its own tools (service-api.md: "built-in tools start with platform."). */
const PROTECTED_NAMESPACES = ['platform', 'core'];

export interface StoredTool {
  id: string;
  type: string;
  description: string;
  tags: string[];
  configuration: Record<string, any>;
  readonly: boolean;
}

/** qlang tool parameter types of 9.4 (tool_types/esql/schemas.ts paramValueTypeSchema). */
const PARAM_TYPES = ['string', 'integer', 'float', 'boolean', 'date', 'array'];
const param = schema.object({
  type: schema.oneOf(PARAM_TYPES.map((t) => schema.literal(t))),
  description: schema.string(),
  optional: schema.maybe(schema.boolean()),
  defaultValue: schema.maybe(schema.any()),
}, { check: (p) => (p.defaultValue !== undefined && p.optional !== true ? 'defaultValue can only be set when optional is true' : undefined) });

/** Per type: the configuration on create, and its partial form on update (every key maybe). */
const CONFIGURATION: Record<string, Record<string, Schema>> = {
  qlang: { query: schema.string({ minLength: 1 }), params: schema.recordOf(param) },
  index_search: { pattern: schema.string({ minLength: 1 }), row_limit: schema.maybe(schema.number({ min: 1 })), custom_instructions: schema.maybe(schema.string()) },
  workflow: { workflow_id: schema.string({ minLength: 1 }), wait_for_completion: schema.maybe(schema.boolean()) },
  mcp: { connector_id: schema.string({ minLength: 1 }), tool_name: schema.string({ minLength: 1 }) },
};

const CreateBody = schema.object({
  id: schema.string(),
  type: schema.oneOf(EDITABLE_TOOL_TYPES.map((t) => schema.literal(t))),
  description: schema.maybe(schema.string()),
  tags: schema.maybe(schema.arrayOf(schema.string())),
  configuration: schema.recordOf(schema.any()),
});

const UpdateBody = schema.object({
  description: schema.maybe(schema.string()),
  tags: schema.maybe(schema.arrayOf(schema.string())),
  configuration: schema.maybe(schema.recordOf(schema.any())),
});

/** The `?name` placeholders a query uses. */
function queryParams(query: string): Set<string> {
  return new Set([...query.matchAll(/\?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]));
}

/** A type's configuration, as its own schema and validator check it (tool_types/esql/validate_configuration.ts). */
function checkConfiguration(type: string, configuration: unknown, workflowExists: (id: string) => boolean): Record<string, any> {
  const value = validateRequest<Record<string, any>>(schema.object(CONFIGURATION[type]), configuration, 'request body.configuration');
  // The workflow tool type reads its workflow on write (tool_types/workflow/validation.ts).
  if (type === 'workflow' && !workflowExists(value.workflow_id)) throw badRequest(`Workflow '${value.workflow_id}' not found`);
  if (type === 'qlang') {
    const used = queryParams(value.query);
    const defined = Object.keys(value.params);
    const undefinedParams = [...used].filter((p) => !defined.includes(p));
    if (undefinedParams.length) throw badRequest(`Query uses undefined parameters: ${undefinedParams.join(', ')}`);
    const unused = defined.filter((p) => !used.has(p));
    if (unused.length) throw badRequest(`Defined parameters not used in query: ${unused.join(', ')}`);
  }
  return value;
}

/** The parameter schema the server derives from the configuration and returns as `schema`. */
function parameterSchema(tool: StoredTool): Record<string, unknown> {
  if (tool.type === 'qlang') {
    const params = tool.configuration.params as Record<string, { type: string; description: string; optional?: boolean }>;
    const jsonType = (t: string) => (t === 'integer' ? 'integer' : t === 'float' ? 'number' : t === 'boolean' ? 'boolean' : t === 'array' ? 'array' : 'string');
    return {
      type: 'object',
      properties: Object.fromEntries(Object.entries(params).map(([k, p]) => [k, { type: jsonType(p.type), description: p.description }])),
      required: Object.entries(params).filter(([, p]) => !p.optional).map(([k]) => k),
      additionalProperties: false,
    };
  }
  if (tool.type === 'index_search') return { type: 'object', properties: { nlQuery: { type: 'string' } }, required: ['nlQuery'], additionalProperties: false };
  return { type: 'object', properties: {}, additionalProperties: false };
}

export function renderTool(tool: StoredTool): Record<string, unknown> {
  return { id: tool.id, type: tool.type, description: tool.description, tags: [...tool.tags], configuration: structuredClone(tool.configuration), readonly: tool.readonly, schema: parameterSchema(tool) };
}

/**
 * The built-in tools every space lists (`type: builtin`, `readonly: true`; wire-facts §11 and §16
 * #11). The ids are the platform core tools of 9.4 (`platformCoreTools` in the real
 * agent-builder-common/tools/constants.ts, and the built-in tools reference, which marks
 * product_documentation, integration_knowledge, cases and get_workflow_execution_status 9.3+ and
 * create_visualization 9.4+), with the glossary's rename of esql to qlang. The solution tools
 * (`observability.*`, `security.*`) depend on the solution view and are left out.
 */
const BUILTIN_TOOLS: Array<[id: string, description: string]> = [
  ['platform.core.search', 'Search the indices of the cluster.'],
  ['platform.core.index_explorer', 'Find the indices and mappings that fit a question.'],
  ['platform.core.list_indices', 'List the indices, aliases and data streams the user may read.'],
  ['platform.core.get_index_mapping', 'Read the mappings of indices.'],
  ['platform.core.get_document_by_id', 'Read one document by id.'],
  ['platform.core.execute_qlang', 'Run a qlang query.'],
  ['platform.core.generate_qlang', 'Write a qlang query from a question.'],
  ['platform.core.product_documentation', 'Search the product documentation.'],
  ['platform.core.integration_knowledge', 'Search what installed integrations say about themselves.'],
  ['platform.core.cases', 'Search cases.'],
  ['platform.core.get_workflow_execution_status', 'Read the status of a workflow run.'],
  ['platform.core.create_visualization', 'Make a chart from a specification.'],
];

export function builtinTools(): StoredTool[] {
  return BUILTIN_TOOLS.map(([id, description]) => ({ id, type: 'builtin', description, tags: [], configuration: {}, readonly: true }));
}

export function createTool(body: unknown, existing: (id: string) => StoredTool | undefined, workflowExists: (id: string) => boolean): StoredTool {
  const value = validateRequest<Record<string, any>>(CreateBody, body);
  const id: string = value.id;
  if (id.length > TOOL_ID_MAX || !TOOL_ID.test(id)) {
    throw badRequest(`Invalid tool id: "${id}": must be at most ${TOOL_ID_MAX} characters of lower-case letters, digits, '-' and '_' in segments separated by '.'`);
  }
  if (PROTECTED_NAMESPACES.includes(id.split('.')[0])) throw badRequest(`Tool id "${id}" is using a protected namespace: "${id.split('.')[0]}"`);
  if (existing(id)) throw badRequest(`Tool with id ${id} already exists`);
  return {
    id,
    type: value.type,
    description: value.description ?? '',
    tags: value.tags ?? [],
    configuration: checkConfiguration(value.type, value.configuration, workflowExists),
    readonly: false,
  };
}

/** PUT: partial; a given configuration is merged key by key into the stored one, then checked whole. */
export function updateTool(tool: StoredTool, body: unknown, workflowExists: (id: string) => boolean): void {
  if (tool.readonly) throw badRequest(`Tool ${tool.id} is read-only and can't be updated`);
  const value = validateRequest<Record<string, any>>(UpdateBody, body);
  if (value.configuration !== undefined) tool.configuration = checkConfiguration(tool.type, { ...tool.configuration, ...value.configuration }, workflowExists);
  if (value.description !== undefined) tool.description = value.description;
  if (value.tags !== undefined) tool.tags = value.tags;
}

export function toolNotFound(id: string): EmuError {
  return notFound(`Tool ${id} not found`);
}

/** The 409 of a delete without force while agents use the tool (wire-facts §11, K-AB/tools.ts). */
export function toolInUse(agents: string[]): EmuError {
  return new EmuError(409, 'Tool is used by one or more agents. Use force=true to remove the tool from those agents and delete it.', 'platform', { code: 'TOOL_USED_BY_AGENTS', agents });
}
