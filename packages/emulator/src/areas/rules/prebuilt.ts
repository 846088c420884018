import type { EmulatorContext } from '../../context.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { buildNewRule, type Writer } from './build.js';
import { replaceRule } from './rule-updates.js';
import { writer } from './crud.js';
import { latestAssets } from './prebuilt-catalog.js';
import { pristineSource } from './prebuilt-customization.js';
import { allRules, ruleByRuleId, rulesState, saveRule, type StoredRule } from './state.js';

/**
 * The public prebuilt routes (OAS: ReadPrebuiltRulesAndTimelinesStatus,
 * InstallPrebuiltRulesAndTimelines). The install route takes no body and does everything at once:
 * it installs every missing prebuilt rule and upgrades every outdated one to the package's version,
 * erasing customisations (legacy_create_prepackaged_rules.ts is marked deprecated for exactly that).
 */

export const isPrebuilt = (rule: StoredRule) => rule.rule_source?.type === 'external';

/** An installed prebuilt rule whose version is older than the package's. */
export function outdated(ctx: EmulatorContext, space: string): Array<{ rule: StoredRule; target: Record<string, any> }> {
  const state = rulesState(ctx, space);
  const out: Array<{ rule: StoredRule; target: Record<string, any> }> = [];
  for (const target of latestAssets(ctx)) {
    const rule = ruleByRuleId(state, target.rule_id);
    if (rule && isPrebuilt(rule) && rule.version < target.version) out.push({ rule, target });
  }
  return out;
}

export function notInstalled(ctx: EmulatorContext, space: string): Record<string, any>[] {
  const state = rulesState(ctx, space);
  return latestAssets(ctx).filter((asset) => !ruleByRuleId(state, asset.rule_id));
}

export function installAsset(w: Writer, asset: Record<string, any>): StoredRule {
  const rule = buildNewRule(w, asset, { immutable: true, ruleSource: pristineSource() });
  saveRule(rulesState(w.ctx, w.space), rule);
  return rule;
}

export function prepackagedStatus(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const all = allRules(rulesState(ctx, req.space));
  const installed = all.filter(isPrebuilt).length;
  return {
    body: {
      rules_custom_installed: all.length - installed,
      rules_installed: installed,
      rules_not_installed: notInstalled(ctx, req.space).length,
      rules_not_updated: outdated(ctx, req.space).length,
      timelines_installed: 0,
      timelines_not_installed: 0,
      timelines_not_updated: 0,
    },
  };
}

/** Installs the missing prebuilt rules and replaces outdated ones with the package's version. */
export function installPrepackaged(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const w = writer(req, ctx);
  const missing = notInstalled(ctx, req.space);
  for (const asset of missing) installAsset(w, asset);
  const stale = outdated(ctx, req.space);
  for (const { rule, target } of stale) {
    // The target version as it is: the user's enabled state kept, their customisations lost.
    saveRule(rulesState(ctx, req.space), replaceRule(w, rule, { ...target, enabled: rule.enabled, exceptions_list: rule.exceptions_list, actions: rule.actions }));
  }
  return { body: { rules_installed: missing.length, rules_updated: stale.length, timelines_installed: 0, timelines_updated: 0 } };
}
