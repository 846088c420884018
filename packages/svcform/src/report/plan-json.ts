import type { DeleteChange, Plan, PlannedChange } from '../engine/plan.js';
import { fieldLabel } from '../common/pointer.js';
import { adapterFor } from '../kinds/registry.js';
import { redactor } from '../manifest/redact.js';
import { createdSpec } from './review.js';
import { VERSION } from '../common/version.js';
import type { RunScope } from '../kinds/run-scope.js';

/**
 * Version of the JSON plan format (docs/plan-format.md, schemas/plan.schema.json). Bump on
 * incompatible changes; fields may be added within a version.
 */
export const PLAN_FORMAT_VERSION = 2;

export interface PlanTarget {
  url: string;
  embedded: boolean;
  /** The svcform.yaml environment (`--env`, promote's `--to`) the target is. */
  environment?: string;
}

/**
 * What a delete removes: the live object in spec shape. Normalizing drops what the server only
 * returns as references (connector secrets, Fleet password vars); the redactor catches the rest.
 */
function deletedSpec(c: DeleteChange, run: RunScope): Record<string, unknown> {
  const adapter = adapterFor(c.kind);
  return adapter ? adapter.normalizeLive(c.live, run) : c.live.body;
}

export function changeToJson(c: PlannedChange, run: RunScope) {
  return {
    action: c.action,
    kind: c.kind,
    space: c.space,
    name: c.name,
    wave: c.wave,
    ...(c.reason ? { reason: c.reason } : {}),
    depends_on: c.dependsOn,
    ...(c.source ? { source: `${c.source.file}:${c.source.line}:${c.source.col}` } : {}),
    ...(c.fanOut && c.source ? { fan_out: { manifest: `${c.source.file}:${c.source.line}:${c.source.col}`, spaces: c.fanOut.spaces } } : {}),
    fields: c.fields.map((f) => ({ path: fieldLabel(f.pointer), pointer: f.pointer, ...('before' in f ? { before: f.before } : {}), ...('after' in f ? { after: f.after } : {}), ...(f.added ? { added: f.added, removed: f.removed } : {}), ...(f.sensitive ? { sensitive: true } : {}) })),
    patch: c.patch,
    ...(c.action === 'create' ? { after: createdSpec(c) } : {}),
    ...(c.action === 'delete' ? { before: deletedSpec(c, run) } : {}),
  };
}

/**
 * The plan's changes as its JSON form holds them, secrets replaced: what `apply --if-matches`
 * compares with a reviewed plan. Unlike planToJson it leaves the fingerprints unread, which cost
 * about 0.2 s of an apply of the 2,068 real rules that nothing needed.
 */
export function changesToJson(plan: Plan, run: RunScope) {
  return redactor.redactValue(plan.changes.map((c) => changeToJson(c, run)));
}

/** The machine-readable plan; every value that came from a secret is replaced by (sensitive). */
export function planToJson(plan: Plan, target: PlanTarget, run: RunScope) {
  return redactor.redactValue({
    format_version: PLAN_FORMAT_VERSION,
    svcform_version: VERSION,
    target,
    summary: plan.summary,
    changes: plan.changes.map((c) => changeToJson(c, run)),
    unmanaged: (plan.unmanaged ?? []).map((o) => ({ kind: o.kind, space: o.space, name: o.name, ...(o.id !== undefined ? { id: o.id } : {}), ...(o.kept !== undefined ? { kept: o.kept } : {}) })),
    notices: plan.notices ?? [],
    coverage: plan.coverage ?? { added: [], removed: [] },
    warnings: (plan.warnings ?? []).map((w) => ({ subject: w.subject, message: w.message, ...(w.source ? { source: `${w.source.file}:${w.source.line}:${w.source.col}` } : {}) })),
    errors: plan.errors.map((e) => ({ subject: e.subject, message: e.message, ...(e.source ? { source: `${e.source.file}:${e.source.line}:${e.source.col}` } : {}) })),
    fingerprint: { live: plan.liveFingerprint, desired: plan.desiredFingerprint },
  });
}
