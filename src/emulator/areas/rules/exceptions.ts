import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { finishUpdate, requireObjectBody, ruleParameters, securityError } from './build.js';
import { writer } from './crud.js';
import { allRules, ruleById, rulesState, saveRule, type StoredRule } from './state.js';

/**
 * POST /api/detection_engine/rules/{id}/exceptions: adds exception items to the rule's default
 * exception list (`type: rule_default`), creating that list and linking it in `exceptions_list`
 * the first time. The items are kept with the rules of the space, per list.
 */

const ENTRY_TYPES = ['match', 'match_any', 'list', 'exists', 'wildcard', 'nested'];
const OS_TYPES = ['linux', 'macos', 'windows'];

interface ExceptionsState {
  /** Items by list_id, then by item_id. */
  items: Record<string, Record<string, Record<string, unknown>>>;
}

function exceptionsState(ctx: EmulatorContext, space: string): ExceptionsState {
  return ctx.store.area<ExceptionsState>(space, 'rule_exceptions', () => ({ items: {} }));
}

function itemIssues(item: unknown, i: number): string[] {
  const p = `items.${i}`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return [`${p}: Expected object`];
  const it = item as Record<string, any>;
  const issues: string[] = [];
  for (const key of ['name', 'description']) if (typeof it[key] !== 'string' || it[key] === '') issues.push(`${p}.${key}: Required`);
  if (it.type !== 'simple') issues.push(`${p}.type: Invalid literal value, expected "simple"`);
  if (!Array.isArray(it.entries) || it.entries.length === 0) issues.push(`${p}.entries: Array must contain at least 1 element(s)`);
  else it.entries.forEach((e: any, j: number) => {
    if (typeof e?.field !== 'string' || e.field === '') issues.push(`${p}.entries.${j}.field: Required`);
    if (!ENTRY_TYPES.includes(e?.type)) issues.push(`${p}.entries.${j}.type: Invalid discriminator value. Expected ${ENTRY_TYPES.map((t) => `'${t}'`).join(' | ')}`);
    if (e?.type !== 'nested' && !['included', 'excluded'].includes(e?.operator)) issues.push(`${p}.entries.${j}.operator: Invalid enum value. Expected 'included' | 'excluded'`);
  });
  if (it.os_types !== undefined && (!Array.isArray(it.os_types) || it.os_types.some((o: unknown) => !OS_TYPES.includes(o as string)))) {
    issues.push(`${p}.os_types: Invalid enum value. Expected 'linux' | 'macos' | 'windows'`);
  }
  if (it.namespace_type !== undefined && it.namespace_type !== 'single') issues.push(`${p}.namespace_type: rule default lists are single-space`);
  return issues;
}

export function addRuleExceptions(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = requireObjectBody(req.body);
  if (!Array.isArray(body.items)) throw new EmuError(400, '[request body]: items: Required', 'platform');
  const issues = body.items.flatMap((item: unknown, i: number) => itemIssues(item, i));
  if (issues.length) throw new EmuError(400, `[request body]: ${issues.join(', ')}`, 'platform');
  const state = rulesState(ctx, req.space);
  const rule = ruleById(state, req.params.id);
  if (!rule) throw securityError(404, `rule with id: "${req.params.id}" not found`);

  const w = writer(req, ctx);
  let target: StoredRule = rule;
  let list = (rule.exceptions_list ?? []).find((l: { type: string }) => l.type === 'rule_default');
  if (!list) {
    list = { id: ctx.uuid(), list_id: ctx.uuid(), type: 'rule_default', namespace_type: 'single' };
    const params = ruleParameters(rule);
    params.exceptions_list = [...(rule.exceptions_list ?? []), list];
    target = finishUpdate(w, rule, params);
  }
  const items = (exceptionsState(ctx, req.space).items[list.list_id] ??= {});
  const now = ctx.now().toISOString();
  const seen = new Set<string>();
  const created = (body.items as Array<Record<string, any>>).map((input) => {
    const itemId = input.item_id ?? ctx.uuid();
    if (seen.has(itemId) || Object.prototype.hasOwnProperty.call(items, itemId)) throw securityError(409, `exception list item id: "${itemId}" already exists`);
    const item = {
      id: ctx.uuid(),
      item_id: itemId,
      list_id: list.list_id,
      type: 'simple',
      name: input.name,
      description: input.description,
      entries: input.entries,
      namespace_type: 'single',
      os_types: input.os_types ?? [],
      tags: input.tags ?? [],
      comments: (input.comments ?? []).map((c: { comment: string }) => ({ id: ctx.uuid(), comment: c.comment, created_at: now, created_by: req.user })),
      ...(input.meta !== undefined ? { meta: input.meta } : {}),
      ...(input.expire_time !== undefined ? { expire_time: input.expire_time } : {}),
      _version: ctx.store.versionToken(),
      tie_breaker_id: ctx.uuid(),
      created_at: now,
      created_by: req.user,
      updated_at: now,
      updated_by: req.user,
    };
    seen.add(itemId);
    return item;
  });
  for (const item of created) Object.defineProperty(items, item.item_id, { value: item, enumerable: true, writable: true, configurable: true });
  if (target !== rule) saveRule(state, target);
  return { body: created };
}

/**
 * The exception lists of a space the emulator holds, by list_id: the rule default lists the route
 * above created, as rules link them (the emulator has no exception-lists API of its own).
 */
export function knownExceptionLists(ctx: EmulatorContext, space: string): Map<string, Record<string, unknown>> {
  const created = exceptionsState(ctx, space).items;
  const out = new Map<string, Record<string, unknown>>();
  for (const rule of allRules(rulesState(ctx, space))) {
    for (const list of rule.exceptions_list ?? []) {
      if (Object.prototype.hasOwnProperty.call(created, list.list_id)) out.set(list.list_id, list);
    }
  }
  return out;
}
