import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../kinds/normalize.js';
import { changesToJson, type changeToJson } from '../report/plan-json.js';
import type { Plan } from '../engine/plan.js';
import type { RunScope } from '../kinds/run-scope.js';
import { SAVED_PLAN_KIND } from './saved-plan.js';
import { UsageError } from './context.js';

/**
 * `apply --if-matches FILE`: the merge of a pull request applies the merged commit's own plan,
 * computed afresh, when each of its changes is one a person reviewed (the plan of the pull
 * request, saved with `plan --out` or printed with `--json`). A change is identified by a digest of
 * what a reviewer saw of it: action, kind, space, name, reason, and every field change with its
 * before and after (for a create the whole content, for a delete the object removed), secrets as
 * `(sensitive)`. Where the change sits in the plan (wave, order, source line) is left out: another
 * pull request merged first moves lines and waves without changing what this one does.
 *
 * Unlike `apply --plan`, nothing requires the rest of the server to be as it was: a merge after
 * another one applies, as long as its own changes are still exactly those reviewed. A change that
 * is not (a field someone changed on the server since, a change another merge brought that was
 * never applied) stops the apply before anything is written.
 */

type ChangeJson = ReturnType<typeof changeToJson>;

export interface ReviewedPlan {
  file: string;
  target?: { url: string; embedded: boolean };
  digests: Set<string>;
}

/** The digest of one change of a JSON plan (plan-json.ts), as `--if-matches` compares them. */
export function changeDigest(c: Pick<ChangeJson, 'action' | 'kind' | 'space' | 'name' | 'fields'> & { reason?: string; after?: unknown; before?: unknown }): string {
  const fields = [...c.fields]
    .map((f: any) => ({ pointer: f.pointer, before: f.before, after: f.after, added: f.added, removed: f.removed, sensitive: f.sensitive }))
    .sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
  const seen = { action: c.action, kind: c.kind, space: c.space, name: c.name, reason: c.reason, fields, after: c.after, before: c.before };
  return createHash('sha256').update(canonicalJson(JSON.parse(JSON.stringify(seen)))).digest('hex');
}

/** A plan saved with `plan --out`, or the JSON of `plan --json`. */
export function readReviewedPlan(file: string): ReviewedPlan {
  let json: any;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read the reviewed plan ${file}: ${(err as Error).message}`);
  }
  const plan = json?.kind === SAVED_PLAN_KIND ? json.plan : json;
  if (!plan || typeof plan.format_version !== 'number' || !Array.isArray(plan.changes)) {
    throw new UsageError(`${file} is not a plan of svcform plan --out or plan --json`);
  }
  if (Array.isArray(plan.errors) && plan.errors.length > 0) throw new UsageError(`the reviewed plan in ${file} has errors: it cannot vouch for any change`);
  return { file, target: plan.target, digests: new Set(plan.changes.map(changeDigest)) };
}

/**
 * How a fresh plan differs from one made before (both JSON form): the changes it now makes that the
 * earlier one did not show, and those the earlier one showed that it no longer makes. A stale
 * saved plan is refused naming these, so the person sees what moved.
 */
export function planDifferences(earlier: ChangeJson[], fresh: ChangeJson[]): { now: ChangeJson[]; gone: ChangeJson[] } {
  const before = new Set(earlier.map(changeDigest));
  const after = new Set(fresh.map(changeDigest));
  return { now: fresh.filter((c) => !before.has(changeDigest(c))), gone: earlier.filter((c) => !after.has(changeDigest(c))) };
}

/** The changes of `plan` (in JSON form) that no reviewed plan shows. */
export function unreviewedChanges(plan: Plan, reviewed: ReviewedPlan[], run: RunScope): ChangeJson[] {
  return changesToJson(plan, run).filter((c) => !reviewed.some((r) => r.digests.has(changeDigest(c))));
}
