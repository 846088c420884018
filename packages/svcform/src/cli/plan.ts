import { planToJson } from '../report/plan-json.js';
import { renderPlanMarkdown } from '../report/markdown.js';
import { renderPlanText } from '../report/text.js';
import { colorsFor, safeUrl, writePrivateFile, type CommonOptions, type Io } from './context.js';
import { redactor } from '../manifest/redact.js';
import { planFromArgs } from './planning.js';
import { configurationRoot, portableInputs, SAVED_PLAN_KIND, type SavedPlan } from './saved-plan.js';

export interface PlanCommandOptions extends CommonOptions {
  out?: string;
  json?: boolean;
  format?: string;
  detailedExitcode?: boolean;
  rotateSecrets?: boolean;
  /** Markdown and HTML without the target URL. */
  hideTarget?: boolean;
  showUnmanaged?: boolean;
  /** Spaces the plan may delete with everything in them. */
  allowSpaceDelete?: string[];
}

/** `svcform plan` (and `drift`, which always uses detailed exit codes). */
export async function planCommand(paths: string[], opts: PlanCommandOptions, io: Io, mode: 'plan' | 'drift' = 'plan'): Promise<number> {
  const format = opts.json ? 'json' : (opts.format ?? 'text'); // commander checks the choices
  const { plan, target, config, finishPlan } = await planFromArgs(paths, opts, io);
  try {
    const targetInfo = { url: target.url, embedded: target.embedded, ...(config.environment ? { environment: config.environment.name } : {}) };
    if (opts.out) {
      const saved: SavedPlan = {
        kind: SAVED_PLAN_KIND,
        inputs: {
          ...portableInputs(configurationRoot(config.file), paths, config.file, opts.root),
          // Never a password: credentials given in --url are left out and must be given again.
          url: opts.url !== undefined ? safeUrl(opts.url) : undefined,
          space: opts.space,
          select: opts.select ?? [],
          rotate_secrets: !!opts.rotateSecrets,
          ...(opts.allowSpaceDelete?.length ? { allow_space_delete: opts.allowSpaceDelete } : {}),
          ...(opts.env !== undefined ? { environment: opts.env } : {}),
        },
        plan: planToJson(plan, targetInfo, target.ctx.run),
      };
      writePrivateFile(opts.out, redactor.redact(JSON.stringify(saved, null, 2)) + '\n');
      if (opts.url !== undefined && safeUrl(opts.url) !== opts.url.replace(/\/$/, '') && !opts.quiet) {
        io.err('The credentials in --url were not saved with the plan; give them again (--url or SVC_USERNAME/SVC_PASSWORD) to apply it.');
      }
    }
    if (format === 'json') io.out(JSON.stringify(planToJson(plan, targetInfo, target.ctx.run), null, 2));
    else if (format === 'markdown') io.out(renderPlanMarkdown(plan, opts.hideTarget ? undefined : target.url, { command: mode, showUnmanaged: opts.showUnmanaged }));
    // Loaded only for the page: a text plan never needs it (start-up cost, architecture.md).
    else if (format === 'html') io.out((await import('../report/html.js')).renderPlanHtml(plan, opts.hideTarget ? undefined : target.url, { command: mode }));
    else if (!opts.quiet || plan.errors.length || plan.warnings?.length || plan.changes.length || (opts.showUnmanaged && plan.unmanaged?.length)) {
      const text = renderPlanText(plan, colorsFor(opts, io, 'out'), { showUnmanaged: opts.showUnmanaged });
      io.out(mode === 'drift' ? driftHeader(plan.changes.length) + text : text);
    }
    if (opts.out && !opts.quiet) io.err(`Saved the plan to ${opts.out}; apply it with: svcform apply --plan ${opts.out}`);
    finishPlan();
    if (plan.errors.length) return 1;
    const detailed = mode === 'drift' || opts.detailedExitcode;
    return detailed && plan.changes.length > 0 ? 2 : 0;
  } finally {
    await target.close();
  }
}

function driftHeader(n: number): string {
  return n === 0 ? 'No drift: the server matches the manifests.\n' : `Drift: ${n} change${n === 1 ? '' : 's'} needed to bring the server back to the manifests.\n\n`;
}
