import type { EmulatorContext } from '../../context.js';
import { parseRequest } from '../../zod.js';
import { CreateRuleExceptionsBody } from './exception-schemas.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { finishUpdate, ruleParameters, securityError } from './build.js';
import { writer } from './crud.js';
import { allRules, ruleById, rulesState, saveRule, type StoredRule } from './state.js';

/**
 * POST /api/detection_engine/rules/{id}/exceptions: adds exception items to the rule's default
 * exception list (`type: rule_default`), creating that list and linking it in `exceptions_list`
 * the first time. The items are kept with the rules of the space, per list.
 */

interface ExceptionsState {
  /** Items by list_id, then by item_id. */
  items: Record<string, Record<string, Record<string, unknown>>>;
}

function exceptionsState(ctx: EmulatorContext, space: string): ExceptionsState {
  return ctx.store.area<ExceptionsState>(space, 'rule_exceptions', () => ({ items: {} }));
}

export function addRuleExceptions(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = parseRequest(CreateRuleExceptionsBody, req.body) as { items: Array<Record<string, any>> };
  // A rule's default list lives in the rule's space only, so its items cannot be agnostic.
  const agnostic = body.items.findIndex((item) => item.namespace_type === 'agnostic');
  if (agnostic >= 0) throw securityError(400, `items.${agnostic}.namespace_type: rule default lists are single-space`);
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
