import { preloadLanguages } from '@svcform/query/preload.js';
import { runThreshold, type Threshold } from '@svcform/query/threshold.js';
import type { EventDoc, QueryMatch } from '@svcform/query/types.js';
import { parseCached, ruleQueries } from './query.js';

/**
 * A rule run offline over sample events (`svcform test`): its query in its language, and for
 * threshold rules the grouping on top (src/query/threshold.ts). Rules whose alerts depend on what
 * only the server has (machine learning jobs, indicator indices, term history, saved queries) are
 * not evaluated: the reason says so.
 */

export type RuleEvaluation = { ok: true; alerts: QueryMatch[] } | { ok: false; reason: string };

const OFFLINE_TYPES = ['query', 'saved_query', 'threshold', 'eql', 'qlang'];

export async function evaluateRule(spec: Record<string, any>, events: EventDoc[]): Promise<RuleEvaluation> {
  if (!OFFLINE_TYPES.includes(spec.type)) {
    return { ok: false, reason: `rules of type ${spec.type} cannot be evaluated offline (svcform evaluates ${OFFLINE_TYPES.join(', ')} rules)` };
  }
  const query = ruleQueries(spec).find((q) => q.label === 'query');
  if (!query) return { ok: false, reason: 'the rule has no query to evaluate (a saved_query rule whose query lives on the server)' };
  await preloadLanguages([query.language]);
  const outcome = parseCached(query.language, query.text);
  if (!outcome) return { ok: false, reason: `the ${query.language} language is not part of this svcform build` };
  if (!outcome.ok) return { ok: false, reason: `the query does not parse: ${outcome.problem.message} at offset ${outcome.problem.offset} (${query.language})` };
  const options = { timestampField: typeof spec.timestamp_field === 'string' ? spec.timestamp_field : '@timestamp' };
  if (spec.type === 'threshold') return { ok: true, alerts: runThreshold(outcome.query, events, spec.threshold as Threshold, options) };
  return { ok: true, alerts: outcome.query.run(events, options) };
}
