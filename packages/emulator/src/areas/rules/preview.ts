import type { EmulatorContext } from '../../context.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { int, string, type Schema } from '../../zod.js';
import { documentsMatching } from '../../documents.js';
import { parseRequestBody, requestProblemsError, schemaOptions } from './build.js';
import { RULE_DEFAULTS } from './defaults.js';
import { savePreviewAlerts } from './preview-alerts.js';
import { runPreview, type PreviewLog } from './preview-run.js';
import { invocations } from './preview-window.js';
import { previewSchema, ruleRequestProblems } from './schema.js';

/**
 * POST /api/detection_engine/rules/preview (K-DE rule_preview/api/preview_rules/route.ts; OAS
 * operation RulePreview): a rule create body plus the preview parameters, validated as the create
 * route validates (zod-style 400s, then the same request checks as a security 400). The rule runs
 * `invocationCount` times, the last at `timeframeEnd`, over the documents loaded through
 * `/__emulator/documents`; the answer is `{previewId, logs, isAborted}` with one log per run, and
 * the alerts are readable at `/__emulator/preview-alerts` (see preview-alerts.ts for why).
 *
 * service-api.md names the parameters `invocation_count` and `timeframe_end`; the server's schema
 * (RulePreviewParams) names them `invocationCount` and `timeframeEnd`. The document wins by
 * default; the real route `rules.preview-params` switches to the server's names.
 */

/** zod v4's `z.string().datetime()`: ISO 8601 with `Z`, seconds and fractions optional. */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;
const isoDatetime = () => string({ refine: [(s: string) => (ISO_DATETIME.test(s) ? undefined : 'Invalid ISO datetime')] });

function parameterNames(ctx: EmulatorContext): { count: string; end: string } {
  return ctx.settings.realRoutes.has('rules.preview-params')
    ? { count: 'invocationCount', end: 'timeframeEnd' }
    : { count: 'invocation_count', end: 'timeframe_end' };
}

/** The security app's default index patterns (`securitySolution:defaultIndex`), for rules without `index`. */
export const DEFAULT_INDEX_PATTERNS = ['apm-*-transaction*', 'auditbeat-*', 'endgame-*', 'filebeat-*', 'logs-*', 'packetbeat-*', 'traces-apm*', 'winlogbeat-*', '-*elastic-cloud-logs-*'];

export async function previewRule(req: EmuRequest, ctx: EmulatorContext): Promise<EmuResponse> {
  const names = parameterNames(ctx);
  const params: Record<string, Schema> = { [names.count]: int(), [names.end]: isoDatetime() };
  const body = parseRequestBody(previewSchema(schemaOptions(ctx), params), req.body) as Record<string, any>;
  const problems = ruleRequestProblems(body, 'create');
  if (problems.length) throw requestProblemsError(problems);
  const count = body[names.count] as number;
  // The route answers 200 with an error log, not a 400, for a count below 1.
  if (count < 1) return { body: { logs: [{ errors: ['Invalid invocation count'], warnings: [], duration: 0 }] } };

  const rule = { ...RULE_DEFAULTS, ...body } as Record<string, any>;
  delete rule[names.count];
  delete rule[names.end];
  const previewId = ctx.uuid();
  const runs = invocations(rule as { interval: string; from: string; to: string }, Date.parse(body[names.end]), count);
  let logs: PreviewLog[];
  let isAborted = false;
  if (!runs) {
    logs = [{ errors: [`cannot schedule the rule: interval "${rule.interval}", from "${rule.from}", to "${rule.to}"`], warnings: [], startedAt: body[names.end], duration: 0 }];
  } else {
    const patterns = Array.isArray(rule.index) ? rule.index : DEFAULT_INDEX_PATTERNS;
    const outcome = await runPreview({
      rule,
      previewId,
      space: req.space,
      runs,
      documents: (indexPatterns) => documentsMatching(ctx.store, indexPatterns ?? patterns),
    });
    logs = outcome.logs;
    isAborted = outcome.isAborted === true;
    savePreviewAlerts(ctx, req.space, previewId, outcome.alerts);
  }
  return { body: { previewId, logs, isAborted } };
}
