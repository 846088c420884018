import { fieldValues } from '@svcform/query/event-fields.js';
import { isQueryLanguage, loadLanguage } from '@svcform/query/languages.js';
import { timeOf } from '@svcform/query/text-match.js';
import type { CompiledQuery, EventDoc, QueryLanguage, QueryLanguageName, QueryMatch, RunOptions } from '@svcform/query/types.js';
import type { StoredDocument } from '../../documents.js';
import { alertId, previewIndexName, type PreviewAlert } from './preview-alerts.js';
import type { Invocation } from './preview-window.js';
import { thresholdMatches, type Raised, type ThresholdHistory } from './preview-threshold.js';

/**
 * Runs a rule over loaded documents, one run per invocation, as the preview route's loop does:
 * each run searches the documents of the rule's index patterns whose timestamp falls in the run's
 * window and raises alerts; an event already alerted on by an earlier run is not alerted again (the
 * server's alert ids derive from the event and the rule); at most `max_signals` alerts per run,
 * with the server's warning when more were found; a run that fails ends the preview.
 *
 * Languages come from src/query through `loadLanguage`. Rule types the emulator cannot run
 * (threat_match, machine_learning, new_terms), data views and saved queries it does not hold give
 * an error log rather than a made-up result.
 */

export interface PreviewLog {
  errors: string[];
  warnings: string[];
  startedAt: string;
  duration: number;
}

export interface PreviewInput {
  rule: Record<string, any>;
  previewId: string;
  space: string;
  runs: Invocation[];
  /** The documents of these index patterns (undefined: the rule's own). */
  documents(indexPatterns?: string[]): StoredDocument[];
  /** How a language is loaded (tests replace it); default `loadLanguage`. */
  load?: (name: QueryLanguageName) => Promise<QueryLanguage>;
  /** How long the runs may take in all before the preview stops (default PREVIEW_BUDGET_MS). */
  budgetMs?: number;
}

/**
 * The real route stops running invocations once the preview has taken longer than its timeout
 * (60 s, PREVIEW_TIMEOUT_SECONDS in the preview route) and answers what it has with
 * `isAborted: true` (OAS RulePreview response). The emulator does the same, and gives the event
 * loop back between runs, so a heavy preview never keeps the emulator from answering others.
 */
export const PREVIEW_BUDGET_MS = 60_000;

const MAX_SIGNALS_WARNING = 'This rule reached the maximum alert limit for the rule execution. Some alerts were not created.';
const RUNNABLE = new Set(['query', 'saved_query', 'eql', 'qlang', 'threshold']);

/** The language a rule's query is written in. */
function ruleLanguage(rule: Record<string, any>): string {
  if (rule.type === 'eql' || rule.type === 'qlang') return rule.type;
  return rule.language ?? 'kuery';
}

/**
 * A query that matches every document in kuery and lucene alike (empty, `*`, `*:*`): threshold
 * rules often use one, and it needs no parser.
 */
const MATCH_ALL = /^\s*(\*(:\*)?)?\s*$/;

type Compiled = { ok: true; query: CompiledQuery | 'all' } | { ok: false; error: string };

async function compile(rule: Record<string, any>, load: (name: QueryLanguageName) => Promise<QueryLanguage>): Promise<Compiled> {
  const name = ruleLanguage(rule);
  const text = typeof rule.query === 'string' ? rule.query : '';
  if (rule.type !== 'eql' && rule.type !== 'qlang' && MATCH_ALL.test(text)) return { ok: true, query: 'all' };
  if (!isQueryLanguage(name)) return { ok: false, error: `unknown query language "${name}"` };
  let language;
  try {
    language = await load(name as QueryLanguageName);
  } catch (err) {
    // Only a language module missing from this build is a preview error; anything else is a bug.
    if ((err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return { ok: false, error: `the emulator cannot run ${name} queries: this build has no ${name} evaluator (src/query/${name}/)` };
  }
  const parsed = language.parse(text);
  if (!parsed.ok) return { ok: false, error: `An error occurred during rule execution: the ${name} query is malformed at offset ${parsed.problem.offset}: ${parsed.problem.message}` };
  return { ok: true, query: parsed.query };
}

/** A rule's own event category and tiebreaker fields (eql `event_category_override`, `tiebreaker_field`). */
function runOptions(rule: Record<string, any>, timestampField: string): RunOptions {
  const options: RunOptions = { timestampField };
  if (typeof rule.event_category_override === 'string' && rule.event_category_override !== '') options.eventCategoryField = rule.event_category_override;
  if (typeof rule.tiebreaker_field === 'string' && rule.tiebreaker_field !== '') options.tiebreakerField = rule.tiebreaker_field;
  return options;
}

function timestampField(rule: Record<string, any>): string {
  if (typeof rule.timestamp_override === 'string' && rule.timestamp_override !== '') return rule.timestamp_override;
  if (rule.type === 'eql' && typeof rule.timestamp_field === 'string' && rule.timestamp_field !== '') return rule.timestamp_field;
  return '@timestamp';
}

export async function runPreview(input: PreviewInput): Promise<{ logs: PreviewLog[]; alerts: PreviewAlert[]; isAborted?: boolean }> {
  const { rule, runs } = input;
  const logs: PreviewLog[] = [];
  const alerts: PreviewAlert[] = [];
  const fail = (error: string) => ({ logs: [{ errors: [error], warnings: [], startedAt: new Date(runs[0]!.startedAt).toISOString(), duration: 0 }], alerts });
  if (!RUNNABLE.has(rule.type)) return fail(`the emulator does not run ${rule.type} rules in previews`);
  if (rule.data_view_id !== undefined && rule.index === undefined) return fail(`the emulator holds no data views: data view "${rule.data_view_id}" cannot be searched; give the rule index patterns`);
  if (rule.type === 'saved_query' && typeof rule.query !== 'string') return fail(`the emulator holds no saved queries: "${rule.saved_id}" cannot be read`);
  const compiled = await compile(rule, input.load ?? loadLanguage);
  if (!compiled.ok) return fail(compiled.error);

  const tsField = timestampField(rule);
  const indices = compiled.query !== 'all' ? compiled.query.indices : undefined;
  // The documents as events: the source with its `_id` and `_index` (qlang reads them through METADATA).
  const documents = input.documents(indices).map((d) => ({ doc: d, event: { ...d._source, _id: d._id, _index: d._index } as EventDoc, time: timeOf(fieldValues(d._source, tsField)[0]) }));
  const byEvent = new Map(documents.map((d) => [d.event, d.doc]));
  const alerted = new Set<string>();
  const history: ThresholdHistory = new Map();
  const maxSignals = typeof rule.max_signals === 'number' ? rule.max_signals : 100;

  const began = Date.now();
  const budget = input.budgetMs ?? PREVIEW_BUDGET_MS;
  for (const [runIndex, run] of runs.entries()) {
    if (runIndex > 0) {
      await new Promise((resume) => setImmediate(resume));
      if (Date.now() - began > budget) return { logs, alerts, isAborted: true };
    }
    const started = Date.now();
    const inWindow = documents.filter((d) => d.time !== undefined && d.time >= run.from && d.time <= run.to).map((d) => d.event);
    const log: PreviewLog = { errors: [], warnings: [], startedAt: new Date(run.startedAt).toISOString(), duration: 0 };
    try {
      const matches = compiled.query === 'all' ? inWindow.map((event) => ({ events: [event] })) : compiled.query.run(inWindow, runOptions(rule, tsField));
      const raised = rule.type === 'threshold' ? thresholdMatches(rule, matches, tsField, history) : keyed(matches, rule, byEvent, runIndex);
      const fresh = raised.filter((r) => !alerted.has(r.key));
      if (fresh.length > maxSignals) log.warnings.push(MAX_SIGNALS_WARNING);
      for (const r of fresh.slice(0, maxSignals)) {
        alerted.add(r.key);
        alerts.push(buildAlert(input, run, r, byEvent, tsField));
      }
    } catch (err) {
      log.errors.push(`An error occurred during rule execution: ${(err as Error).message}`);
    }
    log.duration = Date.now() - started;
    logs.push(log);
    if (log.errors.length) break;
  }
  return { logs, alerts };
}


/** A qlang query that aggregates (has a STATS command): its rows are groups, not events. */
const AGGREGATES = /\|\s*stats\b/i;

function keyed(matches: QueryMatch[], rule: Record<string, any>, byEvent: Map<EventDoc, StoredDocument>, runIndex: number): Raised[] {
  return matches.map((match, i) => {
    const ids = match.events.map((e) => byEvent.get(e)?._id ?? '?');
    if (rule.type !== 'qlang') return { key: ids.join('|'), match };
    // qlang rows are the same alert in a later run only through the source event's `_id`: 9.4
    // injects METADATA _id into non-aggregating queries, so their rows dedupe unless the query
    // removed `_id` (DROP, RENAME, KEEP without it); aggregating rows are new alerts at each run
    // (the security docs, "ES|QL rules": alert deduplication).
    const explicitMetadata = /\bmetadata\b[^|]*\b_id\b/i.test(rule.query);
    const eventId = explicitMetadata ? (typeof match.row?._id === 'string' ? match.row._id : undefined) : ids[0];
    const dedupes = !AGGREGATES.test(rule.query) && match.events.length === 1 && eventId !== undefined;
    return { key: dedupes ? `id:${eventId}` : `row:${runIndex}:${i}`, match };
  });
}

function buildAlert(input: PreviewInput, run: Invocation, raised: Raised, byEvent: Map<EventDoc, StoredDocument>, tsField: string): PreviewAlert {
  const { rule, previewId, space } = input;
  const sources = raised.match.events.map((e) => byEvent.get(e)).filter((d): d is StoredDocument => d !== undefined);
  const single = sources.length === 1 && rule.type !== 'threshold' ? sources[0]!._source : {};
  const originalTime = sources.length ? fieldValues(sources[0]!._source, tsField)[0] : undefined;
  const source: Record<string, unknown> = {
    ...single,
    ...(rule.type === 'qlang' && raised.match.row && sources.length !== 1 ? raised.match.row : {}),
    '@timestamp': new Date(run.startedAt).toISOString(),
    'kibana.alert.rule.uuid': previewId,
    'kibana.alert.rule.name': rule.name,
    'kibana.alert.rule.rule_id': rule.rule_id ?? previewId,
    'kibana.alert.rule.type': rule.type,
    'kibana.alert.severity': rule.severity,
    'kibana.alert.risk_score': rule.risk_score,
    'kibana.alert.status': 'active',
    'kibana.alert.workflow_status': 'open',
    'kibana.alert.depth': 1,
    'kibana.alert.ancestors': sources.map((d) => ({ id: d._id, index: d._index, type: 'event', depth: 0 })),
    'kibana.space_ids': [space],
  };
  if (originalTime !== undefined && rule.type !== 'threshold') source['kibana.alert.original_time'] = originalTime;
  if (rule.type === 'eql' && sources.length > 1) source['kibana.alert.group.id'] = alertId(previewId, `group:${raised.key}`);
  if (raised.threshold) source['kibana.alert.threshold_result'] = raised.threshold;
  return { _index: previewIndexName(space), _id: alertId(previewId, raised.key), _source: source };
}
