import type { EmulatorContext } from '../../context.js';

/** A rule as the API answers it (server-managed fields included); kept in that shape so reads cost nothing. */
export type StoredRule = Record<string, any>;

export interface RulesState {
  /** Rules by object id. Plain-object keys keep insertion order, which is the unsorted _find order. */
  byId: Record<string, StoredRule>;
  /** rule_id -> id, for the rule_id lookups every route offers. */
  idByRuleId: Record<string, string>;
  /**
   * Whether a pre-8.0 `.siem-signals-<space>` index exists. Nothing in the API creates one (9.4.3
   * only has the space-aware alias), so it is only ever set through a saved state file.
   */
  legacySignalsIndex: boolean;
}

export function rulesState(ctx: EmulatorContext, space: string): RulesState {
  return ctx.store.area<RulesState>(space, 'rules', () => ({ byId: {}, idByRuleId: {}, legacySignalsIndex: false }));
}

function own<T>(rec: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(rec, key) ? rec[key] : undefined;
}

export function ruleById(state: RulesState, id: string): StoredRule | undefined {
  return own(state.byId, id);
}

export function ruleByRuleId(state: RulesState, ruleId: string): StoredRule | undefined {
  const id = own(state.idByRuleId, ruleId);
  return id === undefined ? undefined : own(state.byId, id);
}

/** Inserts or replaces (a replaced rule keeps its place in the insertion order). */
export function saveRule(state: RulesState, rule: StoredRule): void {
  state.byId[rule.id] = rule;
  // defineProperty, not assignment: a rule_id such as `__proto__` must stay an ordinary key.
  Object.defineProperty(state.idByRuleId, rule.rule_id, { value: rule.id, enumerable: true, writable: true, configurable: true });
}

export function deleteRule(state: RulesState, rule: StoredRule): void {
  delete state.byId[rule.id];
  if (own(state.idByRuleId, rule.rule_id) === rule.id) delete state.idByRuleId[rule.rule_id];
}

export function allRules(state: RulesState): StoredRule[] {
  return Object.values(state.byId);
}

/** How many rules of the space name each connector in their actions (the connectors list's referenced_by_count). */
export function connectorReferenceCounts(ctx: EmulatorContext, space: string): Record<string, number> {
  const counts: Record<string, number> = Object.create(null);
  for (const rule of allRules(rulesState(ctx, space))) {
    const ids = new Set<string>((rule.actions ?? []).map((a: { id: string }) => a.id));
    for (const id of ids) counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}
