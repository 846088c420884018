import type { FieldChange } from '../engine/diff.js';
import type { Plan, PlannedChange } from '../engine/plan.js';
import type { SourcePos } from '../manifest/types.js';
import { renderPlanMarkdown } from '../report/markdown.js';
import { renderPlanText } from '../report/text.js';
import { colorsFor, type Io } from './context.js';
import { readSavedPlan, type SavedPlan } from './saved-plan.js';

export interface ShowCommandOptions {
  json?: boolean;
  format?: string;
  color?: boolean;
  hideTarget?: boolean;
  /** As plan's: the unmanaged objects the saved plan lists, named in text and Markdown too. */
  showUnmanaged?: boolean;
}

/**
 * `svcform show PLANFILE`: a saved plan rendered as `plan` rendered it, without a server (to
 * review the artifact of a CI plan job before approving its apply).
 */
export async function showCommand(file: string, opts: ShowCommandOptions, io: Io): Promise<number> {
  const saved = readSavedPlan(file);
  const format = opts.json ? 'json' : (opts.format ?? 'text'); // commander checks the choices
  if (format === 'json') io.out(JSON.stringify(saved.plan, null, 2));
  else if (format === 'markdown') io.out(renderPlanMarkdown(planOfSaved(saved), opts.hideTarget ? undefined : saved.plan.target.url, { showUnmanaged: opts.showUnmanaged }));
  else if (format === 'html') io.out((await import('../report/html.js')).renderPlanHtml(planOfSaved(saved), opts.hideTarget ? undefined : saved.plan.target.url));
  else io.out(renderPlanText(planOfSaved(saved), colorsFor(opts, io, 'out'), { showUnmanaged: opts.showUnmanaged }));
  return 0;
}

type PlanJson = SavedPlan['plan'];

/**
 * The Plan the renderers take, rebuilt from the JSON form a saved plan holds: the parts rendering
 * reads (actions, identities, field changes, errors, warnings, summary), so `show` uses the same renderers
 * as `plan`. It has no manifests or live objects: it is for rendering only, never for applying.
 */
export function planOfSaved(saved: SavedPlan): Plan {
  const json: PlanJson = saved.plan;
  const changes = json.changes.map(
    (c: PlanJson['changes'][number]) =>
      ({
        id: `${c.kind}/${c.space}/${c.name}`,
        action: c.action,
        kind: c.kind,
        space: c.space,
        name: c.name,
        ...(c.reason ? { reason: c.reason } : {}),
        fields: c.fields.map(fieldOf),
        patch: c.patch,
        dependsOn: c.depends_on,
        wave: c.wave,
        ...(c.source ? { source: sourceOf(c.source) } : {}),
        // What a create writes: the reviewed fields of the rendering come from it (report/review.ts).
        ...('after' in c && c.after ? { after: c.after } : {}),
      }) as unknown as PlannedChange,
  );
  return {
    changes,
    errors: json.errors.map((e: PlanJson['errors'][number]) => ({ subject: e.subject, message: e.message, ...(e.source ? { source: sourceOf(e.source) } : {}) })),
    // Absent in plans saved before warnings existed.
    warnings: (json.warnings ?? []).map((w: PlanJson['errors'][number]) => ({ subject: w.subject, message: w.message, ...(w.source ? { source: sourceOf(w.source) } : {}) })),
    summary: json.summary,
    // Absent in plans saved before coverage existed.
    ...(json.coverage ? { coverage: json.coverage } : {}),
    // Absent in plans saved before the list existed.
    ...(json.unmanaged ? { unmanaged: json.unmanaged } : {}),
    liveFingerprint: json.fingerprint.live,
    desiredFingerprint: json.fingerprint.desired,
  };
}

function fieldOf(f: PlanJson['changes'][number]['fields'][number]): FieldChange {
  const out: FieldChange = { pointer: f.pointer };
  if ('before' in f) out.before = f.before;
  if ('after' in f) out.after = f.after;
  if ('added' in f) out.added = f.added as unknown[];
  if ('removed' in f) out.removed = f.removed as unknown[];
  if ('sensitive' in f) out.sensitive = f.sensitive;
  return out;
}

/** `file:line:col` back into a position (the file may itself hold colons). */
function sourceOf(text: string): SourcePos | undefined {
  const m = /^(.*):(\d+):(\d+)$/.exec(text);
  return m ? { file: m[1], line: Number(m[2]), col: Number(m[3]) } : undefined;
}
