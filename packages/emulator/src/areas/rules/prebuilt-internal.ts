import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { array, discriminated, enumOf, int, literal, nullable, object, optional, parseRequest, string } from '../../zod.js';
import { ruleParameters, type Writer } from './build.js';
import { replaceRule } from './rule-updates.js';
import { writer } from './crud.js';
import { assetAt, latestAsset, latestAssets, packageState } from './prebuilt-catalog.js';
import { assetAsRule, changedContentFields } from './prebuilt-customization.js';
import { installAsset, isPrebuilt, notInstalled, outdated } from './prebuilt.js';
import { allRules, ruleByRuleId, rulesState, saveRule, type StoredRule } from './state.js';

/**
 * The newer prebuilt rule routes under /internal/detection_engine/prebuilt_rules
 * (K-DE/prebuilt_rules/api/*: status, installation/_review|_perform, upgrade/_review|_perform).
 * They are versioned internal routes: without `elastic-api-version` the versioned router answers
 * 400 (internal routes have no default version). The two `_perform` routes carry
 * routeLimitedConcurrencyTag(PREBUILT_RULES_OPERATION_CONCURRENCY = 1): a second call while one
 * runs is refused before any work with 429 `Too Many Requests` (routes/limited_concurrency.ts).
 */

export const PREBUILT_INTERNAL = '/internal/detection_engine/prebuilt_rules';

function requireVersion(req: EmuRequest): void {
  const version = req.headers['elastic-api-version'];
  if (version === undefined) throw new EmuError(400, 'Please specify a version via elastic-api-version header. Available versions: 1', 'platform');
  if (version !== '1') throw new EmuError(400, `Invalid version. Available versions are: 1`, 'platform');
}

/** In-flight `_perform` calls per emulator, by route path (the real limiter is per process and route). */
const inFlight = new WeakMap<EmulatorContext, Map<string, number>>();

async function limitedToOne(ctx: EmulatorContext, route: string, work: () => EmuResponse): Promise<EmuResponse> {
  const counts = inFlight.get(ctx) ?? new Map<string, number>();
  inFlight.set(ctx, counts);
  if ((counts.get(route) ?? 0) >= 1) throw new EmuError(429, 'Too Many Requests', 'platform');
  counts.set(route, (counts.get(route) ?? 0) + 1);
  try {
    // The package work takes time on a real server; the emulator's is set by the control route.
    const ms = packageState(ctx).operationMs ?? 0;
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    return work();
  } finally {
    counts.set(route, counts.get(route)! - 1);
  }
}

export function prebuiltStatus(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  requireVersion(req);
  const installed = allRules(rulesState(ctx, req.space)).filter(isPrebuilt);
  const upgrades = outdated(ctx, req.space);
  return {
    body: {
      stats: {
        num_prebuilt_rules_installed: installed.length,
        num_prebuilt_rules_to_install: notInstalled(ctx, req.space).length,
        num_prebuilt_rules_to_upgrade: upgrades.length,
        num_prebuilt_rules_total_in_package: latestAssets(ctx).length,
        num_prebuilt_rules_deprecated: 0,
      },
      aggregated_fields: { upgradeable_rules: { tags: [...new Set(upgrades.flatMap((u) => u.rule.tags ?? []))].sort() } },
    },
  };
}

const pageFields = { page: optional(int(1)), per_page: optional(int(0)) };

/** The rules available for installation, as the rules they would become. */
export function reviewInstallation(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  requireVersion(req);
  const body = parseRequest(optional(object({ ...pageFields, filter: optional(object({}, 'open')), sort: optional(array(object({}, 'open'))) })), req.body) ?? {};
  const page = body.page ?? 1;
  const perPage = body.per_page ?? 20;
  const w = writer(req, ctx);
  const rules: Record<string, any>[] = notInstalled(ctx, req.space).map((asset) => ({ ...assetAsRule(w, asset), rule_id: asset.rule_id }));
  return {
    body: {
      page,
      per_page: perPage,
      total: rules.length,
      stats: { num_rules_to_install: rules.length, tags: [...new Set(rules.flatMap((r) => r.tags ?? []))].sort() },
      rules: rules.slice((page - 1) * perPage, page * perPage),
    },
  };
}

const installBody = discriminated('mode', {
  ALL_RULES: object({ mode: literal('ALL_RULES') }),
  SPECIFIC_RULES: object({ mode: literal('SPECIFIC_RULES'), rules: array(object({ rule_id: string(), version: int(0) })) }),
});

export function performInstallation(req: EmuRequest, ctx: EmulatorContext): Promise<EmuResponse> {
  requireVersion(req);
  const body = parseRequest(installBody, req.body);
  return limitedToOne(ctx, 'installation/_perform', () => {
    const w = writer(req, ctx);
    const state = rulesState(ctx, req.space);
    const wanted: Array<{ rule_id: string; version: number }> = body.mode === 'ALL_RULES' ? latestAssets(ctx).map((a) => ({ rule_id: a.rule_id, version: a.version })) : body.rules;
    const created: StoredRule[] = [];
    const skipped: Array<{ rule_id: string; reason: string }> = [];
    const errors: Array<{ message: string; rules: Array<{ rule_id: string }> }> = [];
    for (const { rule_id, version } of wanted) {
      if (ruleByRuleId(state, rule_id)) {
        skipped.push({ rule_id, reason: 'ALREADY_INSTALLED' });
        continue;
      }
      const asset = assetAt(rule_id, version);
      if (!asset || latestAsset(ctx, rule_id)?.version !== version) {
        errors.push({ message: `Rule with rule_id "${rule_id}" and version "${version}" not found`, rules: [{ rule_id }] });
        continue;
      }
      created.push(installAsset(w, asset));
    }
    return {
      body: {
        summary: { total: wanted.length, succeeded: created.length, skipped: skipped.length, failed: errors.length },
        results: { created, skipped },
        errors,
      },
    };
  });
}

/** Upgradeable rules with their current and target versions (review_rule_upgrade_route.ts). */
export function reviewUpgrade(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  requireVersion(req);
  const body = parseRequest(nullable(optional(object({ rule_ids: optional(array(string())), filter: optional(string()), sort_field: optional(string()), sort_order: optional(enumOf(['asc', 'desc'])), ...pageFields }))), req.body) ?? {};
  const w = writer(req, ctx);
  const page = body.page ?? 1;
  const perPage = body.per_page ?? 20;
  let upgrades = outdated(ctx, req.space);
  if (body.rule_ids) upgrades = upgrades.filter((u) => body.rule_ids.includes(u.rule.rule_id));
  const rules = upgrades.map(({ rule, target }) => {
    const base = assetAt(rule.rule_id, rule.version);
    const targetRule = { ...assetAsRule(w, target), rule_id: rule.rule_id };
    const changedByVendor = base ? changedContentFields(assetAsRule(w, base), targetRule) : [];
    return { id: rule.id, rule_id: rule.rule_id, version: target.version, revision: rule.revision, current_rule: rule, target_rule: targetRule, diff: { num_fields_with_updates: changedByVendor.length, num_fields_with_conflicts: 0, num_fields_with_non_solvable_conflicts: 0, fields: {} } };
  });
  return {
    body: {
      stats: { num_rules_to_upgrade_total: upgrades.length, num_rules_with_conflicts: 0, num_rules_with_non_solvable_conflicts: 0, tags: [...new Set(upgrades.flatMap((u) => u.rule.tags ?? []))].sort() },
      rules: rules.slice((page - 1) * perPage, page * perPage),
      page,
      per_page: perPage,
    },
  };
}

const PICK = ['BASE', 'CURRENT', 'TARGET', 'MERGED'] as const;
const upgradeRule = object({ rule_id: string(), revision: int(0), version: int(0), pick_version: optional(enumOf([...PICK])), fields: optional(object({}, 'open')) });
const upgradeBody = discriminated('mode', {
  ALL_RULES: object({ mode: literal('ALL_RULES'), pick_version: optional(enumOf([...PICK])), dry_run: optional(object({}, 'open')), on_conflict: optional(string()) }),
  SPECIFIC_RULES: object({ mode: literal('SPECIFIC_RULES'), pick_version: optional(enumOf([...PICK])), rules: array(upgradeRule), dry_run: optional(object({}, 'open')), on_conflict: optional(string()) }),
});

/**
 * Fields an upgrade or a revert keeps from the installed rule. `meta` is not among them: the new
 * rule is written from the package asset through applyRuleUpdate (mergers/apply_rule_update.ts),
 * which takes every other field from the update, so a client's marks in meta are lost (I).
 */
const USER_SETTINGS = ['enabled', 'actions', 'exceptions_list', 'response_actions', 'namespace', 'output_index', 'throttle'];

/**
 * The rule after an upgrade with one pick_version for every field. MERGED is the three-way merge:
 * a field the user left as the base takes the target's value, a field only the user changed keeps
 * the user's, and a field both changed differently is a conflict (the rule is skipped).
 */
function upgraded(w: Writer, rule: StoredRule, target: Record<string, any>, pick: (typeof PICK)[number]): Record<string, any> | 'CONFLICT' {
  const current = ruleParameters(rule);
  const targetParams = assetAsRule(w, target);
  const baseAsset = assetAt(rule.rule_id, rule.version);
  const base = baseAsset ? assetAsRule(w, baseAsset) : undefined;
  let content: Record<string, any>;
  if (pick === 'TARGET') content = targetParams;
  else if (pick === 'CURRENT') content = current;
  else if (pick === 'BASE') content = base ?? current;
  else {
    content = { ...targetParams };
    const userChanged = base ? changedContentFields(base, current) : changedContentFields(targetParams, current);
    const vendorChanged = base ? new Set(changedContentFields(base, targetParams)) : new Set<string>();
    for (const field of userChanged) {
      if (vendorChanged.has(field) && changedContentFields({ [field]: current[field] }, { [field]: targetParams[field] }).length) return 'CONFLICT';
      if (current[field] === undefined) delete content[field];
      else content[field] = current[field];
    }
  }
  const out: Record<string, any> = { ...content, rule_id: rule.rule_id, version: target.version };
  for (const key of USER_SETTINGS) {
    if (current[key] === undefined) delete out[key];
    else out[key] = current[key];
  }
  return out;
}

export function performUpgrade(req: EmuRequest, ctx: EmulatorContext): Promise<EmuResponse> {
  requireVersion(req);
  const body = parseRequest(upgradeBody, req.body);
  return limitedToOne(ctx, 'upgrade/_perform', () => {
    const w = writer(req, ctx);
    const state = rulesState(ctx, req.space);
    const candidates = new Map(outdated(ctx, req.space).map((u) => [u.rule.rule_id, u]));
    const requested: Array<{ rule_id: string; revision?: number; version?: number; pick_version?: string }> =
      body.mode === 'ALL_RULES' ? [...candidates.keys()].map((rule_id) => ({ rule_id })) : body.rules;
    const updated: StoredRule[] = [];
    const skipped: Array<{ rule_id: string; reason: string }> = [];
    const errors: Array<{ message: string; rules: Array<{ rule_id: string }> }> = [];
    for (const r of requested) {
      const candidate = candidates.get(r.rule_id);
      if (!candidate) {
        if (ruleByRuleId(state, r.rule_id)) skipped.push({ rule_id: r.rule_id, reason: 'RULE_UP_TO_DATE' });
        else errors.push({ message: `Rule with rule_id "${r.rule_id}" not found`, rules: [{ rule_id: r.rule_id }] });
        continue;
      }
      if (r.revision !== undefined && r.revision !== candidate.rule.revision) {
        errors.push({ message: `Revision mismatch for rule_id ${r.rule_id}: expected ${candidate.rule.revision}, got ${r.revision}`, rules: [{ rule_id: r.rule_id }] });
        continue;
      }
      if (r.version !== undefined && r.version !== candidate.target.version) {
        errors.push({ message: `Version mismatch for rule_id ${r.rule_id}: expected ${candidate.target.version}, got ${r.version}`, rules: [{ rule_id: r.rule_id }] });
        continue;
      }
      const next = upgraded(w, candidate.rule, candidate.target, (r.pick_version ?? body.pick_version ?? 'MERGED') as (typeof PICK)[number]);
      if (next === 'CONFLICT') {
        skipped.push({ rule_id: r.rule_id, reason: 'CONFLICT' });
        continue;
      }
      const rule = replaceRule(w, candidate.rule, next);
      if (!body.dry_run) saveRule(state, rule);
      updated.push(rule);
    }
    return {
      body: {
        summary: { total: requested.length, succeeded: updated.length, skipped: skipped.length, failed: errors.length },
        results: { updated, skipped },
        errors,
      },
    };
  });
}

const revertBody = object({ id: string(), revision: int(), version: int() });

/**
 * Reverts one customised prebuilt rule to its base version (revert_prebuilt_rule_route.ts):
 * `id`, `revision` and `version` guard against a concurrent change; the user's own settings
 * (enabled, actions, exceptions) stay. A rule that is not customised is skipped.
 */
export function revertPrebuilt(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  requireVersion(req);
  const body = parseRequest(revertBody, req.body);
  const state = rulesState(ctx, req.space);
  const rule = allRules(state).find((r) => r.id === body.id);
  const result = (updated: StoredRule[], skipped: Array<{ id: string; skip_reason: string }>, errors: Array<{ message: string; status_code: number; rules: Array<{ id: string }> }>) => ({
    body: {
      success: errors.length === 0,
      rules_count: 1,
      attributes: {
        results: { updated, created: [], deleted: [], skipped },
        summary: { failed: errors.length, skipped: skipped.length, succeeded: updated.length, total: 1 },
        ...(errors.length ? { errors } : {}),
      },
    },
  });
  if (!rule) return result([], [], [{ message: `Rule with id "${body.id}" not found`, status_code: 404, rules: [{ id: body.id }] }]);
  if (!isPrebuilt(rule)) return result([], [{ id: rule.id, skip_reason: 'RULE_NOT_PREBUILT' }], []);
  if (!rule.rule_source.is_customized) return result([], [{ id: rule.id, skip_reason: 'RULE_NOT_CUSTOMIZED' }], []);
  if (rule.revision !== body.revision || rule.version !== body.version) {
    return result([], [], [{ message: `Rule is being edited concurrently: revision or version changed`, status_code: 409, rules: [{ id: rule.id }] }]);
  }
  const base = assetAt(rule.rule_id, rule.version);
  if (!base) return result([], [], [{ message: 'Cannot find base_version for rule id', status_code: 500, rules: [{ id: rule.id }] }]);
  const current = ruleParameters(rule);
  const next: Record<string, any> = { ...base };
  for (const key of USER_SETTINGS) if (current[key] !== undefined) next[key] = current[key];
  const reverted = replaceRule(writer(req, ctx), rule, next);
  saveRule(state, reverted);
  return result([reverted], [], []);
}
