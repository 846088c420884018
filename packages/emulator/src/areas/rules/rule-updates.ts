import { clone } from '../../json-copy.js';
import { executionSummary, finishParameters, parametersFromBody, ruleParameters, sameParameters, SERVER_FIELDS, type Writer } from './build.js';
import { normalizeTypeFields } from './defaults.js';
import { prebuiltRuleSource } from './prebuilt-customization.js';
import type { StoredRule } from './state.js';

/**
 * Writes to an existing rule (PUT, PATCH, bulk edits, import over a rule): the new parameters, then
 * the server's bookkeeping. Apart from build.ts because that bookkeeping recomputes a prebuilt
 * rule's customisation (prebuilt-customization.ts), which builds rules with build.ts itself.
 */

/** Server bookkeeping after any change of an existing rule: revision, customisation, timestamps, summary. */
export function finishUpdate(w: Writer, existing: StoredRule, params: Record<string, any>): StoredRule {
  const next: StoredRule = {
    id: existing.id,
    rule_id: existing.rule_id,
    ...params,
    immutable: existing.immutable,
    rule_source: existing.rule_source,
    created_at: existing.created_at,
    created_by: existing.created_by,
    updated_at: w.ctx.now().toISOString(),
    updated_by: w.user,
    revision: existing.revision,
  };
  if (!sameParameters(next, existing)) {
    next.revision = existing.revision + 1;
  }
  // The real server recomputes a prebuilt rule's customisation against its base version on every write.
  if (existing.rule_source?.type === 'external') next.rule_source = prebuiltRuleSource(w, next);
  if (existing.execution_summary) next.execution_summary = existing.execution_summary;
  if (next.enabled && !existing.enabled) next.execution_summary = executionSummary(w);
  return next;
}

/** PUT: a full replace with defaults re-applied; `enabled` and `version` kept when omitted (wire-facts 2.2). */
export function replaceRule(w: Writer, existing: StoredRule, body: Record<string, any>): StoredRule {
  const params = parametersFromBody(body);
  params.enabled = body.enabled ?? existing.enabled;
  params.version = body.version ?? existing.version;
  return finishUpdate(w, existing, finishParameters(w, params, 'update'));
}

/** PATCH: each field is `patch ?? existing`; the type never changes (wire-facts 2.2). */
export function patchRule(w: Writer, existing: StoredRule, patch: Record<string, any>): StoredRule {
  const params = ruleParameters(existing);
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || v === null || SERVER_FIELDS.includes(k)) continue;
    params[k] = clone(v);
  }
  normalizeTypeFields(params);
  // Stored actions are already resolved (uuid, type, frequency), so resolving them again keeps them as they are.
  const finished = finishParameters(w, params, 'update');
  return finishUpdate(w, existing, finished);
}

/** `enabled` alone (bulk enable/disable): neither a new revision nor a customisation. */
export function withEnabled(w: Writer, existing: StoredRule, enabled: boolean): StoredRule {
  const params = ruleParameters(existing);
  params.enabled = enabled;
  return finishUpdate(w, existing, params);
}
