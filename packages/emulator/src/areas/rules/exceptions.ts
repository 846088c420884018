import type { EmulatorContext } from '../../context.js';
import { parseRequest } from '../../zod.js';
import { CreateRuleExceptionsBody } from './exception-schemas.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { ruleParameters, securityError } from './build.js';
import { finishUpdate } from './rule-updates.js';
import { writer } from './crud.js';
import { ruleById, rulesState, saveRule, type StoredRule } from './state.js';
import { containers, itemByItemId, listByListId, newItem, newList, put, type Row } from '../exceptions/state.js';

/**
 * POST /api/detection_engine/rules/{id}/exceptions: adds exception items to the rule's default
 * exception list (`type: rule_default`), creating that list and linking it in `exceptions_list`
 * the first time (security_solution rule_exceptions/api/create_rule_exceptions/route.ts,
 * createAndAssociateDefaultExceptionList: name `Exceptions for rule - <rule name>`, tags
 * [default_rule_exception_list], namespace single). The list and items live in the one
 * exception-list store, so /api/exception_lists reads them too.
 */

export function addRuleExceptions(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const body = parseRequest(CreateRuleExceptionsBody, req.body) as { items: Array<Record<string, any>> };
  // A rule's default list lives in the rule's space only, so its items cannot be agnostic.
  const agnostic = body.items.findIndex((item) => item.namespace_type === 'agnostic');
  if (agnostic >= 0) throw securityError(400, `items.${agnostic}.namespace_type: rule default lists are single-space`);
  const state = rulesState(ctx, req.space);
  const rule = ruleById(state, req.params.id);
  if (!rule) throw securityError(404, `rule with id: "${req.params.id}" not found`);

  const where = containers(ctx, req.space, 'single');
  const w = writer(req, ctx);
  let target: StoredRule = rule;
  const link = (rule.exceptions_list ?? []).find((l: { type: string }) => l.type === 'rule_default');
  let list: Row | undefined = link ? listByListId(where, link.list_id) : undefined;
  if (!list) {
    list = newList(ctx, req.user, {
      type: 'rule_default',
      name: `Exceptions for rule - ${rule.name}`,
      description: `Exception list containing exceptions for rule with id: ${rule.id}`,
      namespace_type: 'single',
      tags: ['default_rule_exception_list'],
      list_id: link?.list_id,
    });
    if (!link) {
      const params = ruleParameters(rule);
      params.exceptions_list = [...(rule.exceptions_list ?? []), { id: list.id, list_id: list.list_id, type: 'rule_default', namespace_type: 'single' }];
      target = finishUpdate(w, rule, params);
    }
  }
  const seen = new Set<string>();
  const created = body.items.map((input) => {
    const item = newItem(ctx, req.user, list!, input);
    if (seen.has(item.item_id) || itemByItemId(where, item.item_id)) throw securityError(409, `exception list item id: "${item.item_id}" already exists`);
    seen.add(item.item_id);
    return item;
  });
  if (!listByListId(where, list.list_id)) put(where.lists, list.list_id, list);
  for (const item of created) put(where.items, item.item_id, item);
  if (target !== rule) saveRule(state, target);
  return { body: created };
}
