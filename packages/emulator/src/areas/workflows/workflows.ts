import { randomUUID } from 'node:crypto';
import { schema, validateRequest } from '../../config-schema.js';
import { EmuError, badRequest, notFound } from '../../errors.js';
import { yaml, parseErrorWords } from '../../yaml.js';

/**
 * Workflows (/api/workflows; 9.4, named by agent-builder workflow tools and agents' workflow_ids).
 * Real routes: src/platform/plugins/shared/workflows_management/server/api/routes/workflows/
 * (get_workflows.ts, get_workflow.ts, create_workflow.ts, update_workflow.ts, delete_workflow.ts)
 * and their OAS examples (examples/*.yaml); bodies from @kbn/workflows (CreateWorkflowCommandSchema
 * `{yaml, id?}`, UpdateWorkflowCommandSchema partial `{name, description, enabled, tags, yaml}`).
 * A workflow is a YAML definition: name, description, enabled and tags are read from it.
 */

export interface StoredWorkflow {
  id: string;
  name: string;
  description?: string;
  enabled: boolean;
  tags: string[];
  yaml: string;
  definition: Record<string, any>;
  valid: boolean;
  validationErrors: string[];
  createdAt: string;
  createdBy: string;
  lastUpdatedAt: string;
  lastUpdatedBy: string;
  /** A delete without force is soft: the workflow leaves every answer but keeps its id (delete_workflow.ts). */
  deleted_at?: string;
}

const CreateBody = schema.object({ id: schema.maybe(schema.string({ minLength: 1 })), yaml: schema.string() });
const UpdateBody = schema.object({
  name: schema.maybe(schema.string()),
  description: schema.maybe(schema.string()),
  enabled: schema.maybe(schema.boolean()),
  tags: schema.maybe(schema.arrayOf(schema.string())),
  yaml: schema.maybe(schema.string()),
});

/** Parse a definition; a text that is no YAML mapping with a name is refused (the route parses before it saves). */
function parseDefinition(text: string): Record<string, any> {
  let parsed: unknown;
  try {
    parsed = yaml().parse(text);
  } catch (err) {
    throw badRequest(`Invalid workflow yaml: ${parseErrorWords(err)}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('Invalid workflow yaml: the definition must be a mapping');
  const def = parsed as Record<string, any>;
  if (typeof def.name !== 'string' || def.name === '') throw badRequest('Invalid workflow yaml: name is required');
  return def;
}

/** What the definition lacks to run: kept as `valid: false` with `validationErrors` (the update answer's fields). */
function validationErrorsOf(def: Record<string, any>): string[] {
  const errors: string[] = [];
  if (!Array.isArray(def.triggers) || def.triggers.length === 0) errors.push('triggers: at least one trigger is required');
  if (!Array.isArray(def.steps) || def.steps.length === 0) errors.push('steps: at least one step is required');
  return errors;
}

/** Name, description, enabled and tags come from the definition (the vendor's provider: "extracted from YAML"). */
function applyDefinition(wf: StoredWorkflow, text: string): void {
  const def = parseDefinition(text);
  wf.yaml = text;
  wf.definition = def;
  wf.name = def.name;
  if (typeof def.description === 'string') wf.description = def.description;
  else delete wf.description;
  wf.tags = Array.isArray(def.tags) ? def.tags.map(String) : [];
  wf.validationErrors = validationErrorsOf(def);
  wf.valid = wf.validationErrors.length === 0;
  // An invalid workflow cannot run, so it is never enabled.
  wf.enabled = wf.valid && def.enabled === true;
}

/** A field set on its own is written into the definition too, so the YAML and the fields never disagree. */
function setField(wf: StoredWorkflow, key: 'name' | 'description' | 'enabled' | 'tags', value: unknown): void {
  const doc = yaml().parseDocument(wf.yaml);
  doc.set(key, value);
  applyDefinition(wf, doc.toString());
}

export function renderWorkflow(wf: StoredWorkflow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: wf.id,
    name: wf.name,
    enabled: wf.enabled,
    tags: [...wf.tags],
    createdAt: wf.createdAt,
    createdBy: wf.createdBy,
    lastUpdatedAt: wf.lastUpdatedAt,
    lastUpdatedBy: wf.lastUpdatedBy,
    definition: structuredClone(wf.definition),
    yaml: wf.yaml,
    valid: wf.valid,
  };
  if (wf.description !== undefined) out.description = wf.description;
  return out;
}

/** A list item (examples/get_workflows.yaml): no yaml text, an execution history (none here). */
export function listItem(wf: StoredWorkflow): Record<string, unknown> {
  const { yaml: _text, createdBy: _c, lastUpdatedAt: _u, lastUpdatedBy: _b, ...rest } = renderWorkflow(wf);
  return { ...rest, history: [] };
}

export function createWorkflow(body: unknown, existing: (id: string) => StoredWorkflow | undefined, now: Date, user: string): StoredWorkflow {
  const value = validateRequest<Record<string, any>>(CreateBody, body);
  const id: string = value.id ?? `workflow-${randomUUID()}`;
  // A soft-deleted workflow keeps its id until a delete with force=true (delete_workflow.ts).
  if (existing(id)) throw new EmuError(409, `Workflow with id '${id}' already exists`, 'platform');
  const at = now.toISOString();
  const wf = { id, createdAt: at, createdBy: user, lastUpdatedAt: at, lastUpdatedBy: user } as StoredWorkflow;
  applyDefinition(wf, value.yaml);
  return wf;
}

/** PUT: partial; answers the short form of update_workflow.yaml. */
export function updateWorkflow(wf: StoredWorkflow, body: unknown, now: Date, user: string): Record<string, unknown> {
  const value = validateRequest<Record<string, any>>(UpdateBody, body);
  if (value.yaml !== undefined) applyDefinition(wf, value.yaml);
  for (const key of ['name', 'description', 'enabled', 'tags'] as const) if (value[key] !== undefined) setField(wf, key, value[key]);
  wf.lastUpdatedAt = now.toISOString();
  wf.lastUpdatedBy = user;
  return { id: wf.id, lastUpdatedAt: wf.lastUpdatedAt, lastUpdatedBy: wf.lastUpdatedBy, enabled: wf.enabled, validationErrors: [...wf.validationErrors], valid: wf.valid };
}

export function workflowNotFound(id: string): EmuError {
  return notFound(`Workflow with id '${id}' not found`);
}
