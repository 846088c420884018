import { schema, validateRequest } from '../../config-schema.js';
import { EmuError, badRequest, notFound } from '../../errors.js';

/**
 * Agent-builder skills (technical preview since 9.4.0: service-api.md line 670). Real routes
 * K-AB/skills.ts (list, get, create, update, delete under /api/agent_builder/skills), the body
 * checks after route validation in agent-builder-common skills schemas (zod:
 * skillCreateRequestSchema, skillUpdateRequestSchema, validateSkillId), and the registry's checks
 * (server/services/skills/skill_registry.ts: duplicates, read-only built-ins, tool ids).
 */

const SKILL_ID = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/;
const SKILL_ID_MAX = 64;
const RELATIVE_PATH = /^\.\//;

export interface ReferencedContent {
  name: string;
  relativePath: string;
  content: string;
}

export interface StoredSkill {
  id: string;
  name: string;
  description: string;
  content: string;
  referenced_content?: ReferencedContent[];
  tool_ids: string[];
  readonly: boolean;
  /** Set on the skills an installed plugin brought (plugin_service.ts toSkillCreateRequest); they go with it. */
  plugin_id?: string;
}

/** The route's declaration (config-schema): referenced_content and tool_ids at most 100 each. */
const REFERENCED = schema.arrayOf(schema.object({ name: schema.string(), relativePath: schema.string(), content: schema.string() }), { maxSize: 100 });
const CreateBody = schema.object({
  id: schema.string(),
  name: schema.string(),
  description: schema.string(),
  content: schema.string(),
  referenced_content: schema.maybe(REFERENCED),
  tool_ids: schema.maybe(schema.arrayOf(schema.string(), { maxSize: 100 })),
});
const UpdateBody = schema.object({
  name: schema.maybe(schema.string()),
  description: schema.maybe(schema.string()),
  content: schema.maybe(schema.string()),
  referenced_content: schema.maybe(REFERENCED),
  tool_ids: schema.maybe(schema.arrayOf(schema.string(), { maxSize: 100 })),
});

/**
 * The checks after route validation, every issue joined with "; " (K-AB/skills.ts runs
 * agent-builder-common's zod skill schemas). Only the rules the vendor's provider acceptance tests
 * agree with are kept: non-empty fields, the id rule (also the registry's validateSkillId) and a
 * referenced-content path starting "./". The source read also holds names and reference names to
 * the id's pattern and paths to "./name", but those tests create skills named "Test Skill" with
 * paths like "./runbooks/standard.md" against real servers, so a 9.4 server does not.
 */
function bodyIssues(value: Record<string, any>, create: boolean): string[] {
  const issues: string[] = [];
  if (create) {
    if (value.id.length < 1) issues.push('ID must be non-empty');
    if (value.id.length > SKILL_ID_MAX) issues.push(`ID must be at most ${SKILL_ID_MAX} characters`);
    if (!SKILL_ID.test(value.id)) issues.push('ID must start and end with a letter or number, and contain only lowercase letters, numbers, hyphens, and underscores');
  }
  if (value.name !== undefined && value.name.length < 1) issues.push('Name must be non-empty');
  if (value.description !== undefined && value.description.length < 1) issues.push('Description must be non-empty');
  if (value.content !== undefined && value.content.length < 1) issues.push('Content must be non-empty');
  for (const ref of value.referenced_content ?? []) {
    if (ref.name.length < 1) issues.push('Name must be non-empty');
    if (!RELATIVE_PATH.test(ref.relativePath)) issues.push('Relative path must start with ./');
    if (ref.content.length < 1) issues.push('Content must be non-empty');
  }
  for (const id of value.tool_ids ?? []) if (id.length < 1) issues.push('Tool ID must be non-empty');
  return issues;
}

/** Every tool a skill names must exist in the space's tool registry (skill_registry.ts validateToolIds). */
function checkToolIds(ids: string[], toolExists: (id: string) => boolean): void {
  const invalid = ids.filter((id) => !toolExists(id));
  if (invalid.length) throw badRequest(`Invalid tool IDs: ${invalid.join(', ')}. These tools do not exist in the tool registry.`);
}

/**
 * Built-in skills every space lists (`readonly: true`): solution plugins register them with the
 * agent builder (defineSkillType in the security solution's `find-security-rules` and the
 * platform's `dashboard-management`); their id is also their name.
 */
const BUILTIN_SKILLS: Array<[id: string, description: string]> = [
  ['find-security-rules', 'List, count, filter and rank detection rules.'],
  ['dashboard-management', 'Compose and update dashboards.'],
];

export function builtinSkills(): StoredSkill[] {
  return BUILTIN_SKILLS.map(([id, description]) => ({ id, name: id, description, content: description, tool_ids: [], readonly: true }));
}

/** GET by id: the full definition (utils.ts internalToPublicDefinition). */
export function renderSkill(skill: StoredSkill): Record<string, unknown> {
  const out: Record<string, unknown> = { id: skill.id, name: skill.name, description: skill.description, content: skill.content, tool_ids: [...skill.tool_ids], readonly: skill.readonly };
  if (skill.referenced_content) out.referenced_content = structuredClone(skill.referenced_content);
  return out;
}

/** The list answers summaries only: no content, a count of referenced content (internalToPublicSummary). */
export function summarizeSkill(skill: StoredSkill): Record<string, unknown> {
  return { id: skill.id, name: skill.name, description: skill.description, tool_ids: [...skill.tool_ids], readonly: skill.readonly, referenced_content_count: skill.referenced_content?.length ?? 0 };
}

export function createSkill(body: unknown, existing: (id: string) => StoredSkill | undefined, toolExists: (id: string) => boolean): StoredSkill {
  const value = validateRequest<Record<string, any>>(CreateBody, body);
  const issues = bodyIssues(value, true);
  if (issues.length) throw badRequest(issues.join('; '));
  if (existing(value.id)) throw badRequest(`Skill with id '${value.id}' already exists`);
  const toolIds: string[] = value.tool_ids ?? [];
  checkToolIds(toolIds, toolExists);
  const skill: StoredSkill = { id: value.id, name: value.name, description: value.description, content: value.content, tool_ids: toolIds, readonly: false };
  if (value.referenced_content !== undefined) skill.referenced_content = value.referenced_content;
  return skill;
}

/** PUT: partial, only the given fields change (skill_registry.ts update; built-ins refused). */
export function updateSkill(skill: StoredSkill, body: unknown, toolExists: (id: string) => boolean): void {
  const value = validateRequest<Record<string, any>>(UpdateBody, body);
  const issues = bodyIssues(value, false);
  if (issues.length) throw badRequest(issues.join('; '));
  if (skill.readonly) throw badRequest(`Skill '${skill.id}' is read-only and can't be updated`);
  if (value.tool_ids) checkToolIds(value.tool_ids, toolExists);
  for (const key of ['name', 'description', 'content', 'referenced_content', 'tool_ids'] as const) {
    if (value[key] !== undefined) (skill as any)[key] = value[key];
  }
}

export function skillNotFound(id: string): EmuError {
  return notFound(`Skill with id '${id}' not found`);
}

/** The 409 of a delete without force while agents name the skill (K-AB/skills.ts, SKILL_USED_BY_AGENTS). */
export function skillInUse(agents: Array<{ id: string; name: string }>): EmuError {
  return new EmuError(409, 'Skill is used by one or more agents. Use force=true to remove it from agents and delete.', 'platform', { code: 'SKILL_USED_BY_AGENTS', agents });
}
