import type { Plan, PlannedChange } from '../engine/plan.js';
import { fieldLabel } from '../common/pointer.js';
import { redactor } from '../manifest/redact.js';

/** Version of the JSON plan format (docs/plan-format.md). Bump on incompatible changes. */
export const PLAN_FORMAT_VERSION = '1';

export interface PlanTarget {
  url: string;
  embedded: boolean;
}

export function changeToJson(c: PlannedChange) {
  return {
    action: c.action,
    kind: c.kind,
    space: c.space,
    name: c.name,
    wave: c.wave,
    ...(c.reason ? { reason: c.reason } : {}),
    depends_on: c.dependsOn,
    ...(c.source ? { source: `${c.source.file}:${c.source.line}:${c.source.col}` } : {}),
    fields: c.fields.map((f) => ({ path: fieldLabel(f.pointer), pointer: f.pointer, ...('before' in f ? { before: f.before } : {}), ...('after' in f ? { after: f.after } : {}), ...(f.added ? { added: f.added, removed: f.removed } : {}), ...(f.sensitive ? { sensitive: true } : {}) })),
    patch: c.patch,
  };
}

/** The machine-readable plan; every value that came from a secret is replaced by (sensitive). */
export function planToJson(plan: Plan, target: PlanTarget) {
  return redactor.redactValue({
    format_version: PLAN_FORMAT_VERSION,
    target,
    summary: plan.summary,
    changes: plan.changes.map(changeToJson),
    errors: plan.errors.map((e) => ({ subject: e.subject, message: e.message, ...(e.source ? { source: `${e.source.file}:${e.source.line}:${e.source.col}` } : {}) })),
    fingerprint: { live: plan.liveFingerprint, desired: plan.desiredFingerprint },
  });
}
