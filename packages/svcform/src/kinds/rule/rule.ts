import type { CheckContext, Resource } from '../../manifest/types.js';
import { asSet, clone, deepEqual, isPlainObject, withoutDefaults } from '../normalize.js';
import type { AdapterContext, BatchWrite, CheckIssue, KindAdapter, ListOptions, LiveObject, Reference } from '../types.js';
import { listRules } from './list.js';
import { importRules, writtenAlone } from './import.js';
import { deleteRules } from './bulk-delete.js';
import { AREAS } from '../../client/areas.js';
import { comparableAction, withActionTypes } from './actions.js';
import { itemIdClashes } from '../exception/item-ids.js';
import {
  checkDefaultExceptions, comparableExceptions, desiredDefaultItems, exceptionListReferences, exceptionsToSpec, liveDefaultItems, resolvedLinks,
  withDefaultExceptions, writeDefaultExceptions,
} from './exceptions.js';
import { checkRuleQueries } from './query.js';
import { timelineReferences } from './timeline.js';
import { compareText } from '../../common/compare-text.js';
import { SHARED_TEXTS } from '../shared-texts.js';

/**
 * Detection rules (/api/detection_engine). Identity: metadata.name is the rule_id. Writes are
 * full replaces (PUT), the way to toggle `enabled` on 9.4.3; many creates or updates at once go
 * through `_import` (rule-import.ts). Defaults mirror the server's
 * applyRuleDefaults (wire-facts 2.3) so that an omitted field never shows as a difference.
 */

const RULES_PATH = '/api/detection_engine/rules';

/**
 * How many rules a listing must be expected to hold before it shares the manifests' texts. Sharing
 * costs a lookup and a comparison per long text, about 5% of a repeated plan's CPU, and saves
 * only where pages arrive after the manifests are loaded, which is where there are many: at the
 * 2,068 real rules the peak was 196-211 MB with or without it, at 20,003 generated rules 0.92
 * against 1.17-1.20 GB.
 */
export const SHARE_TEXTS_FROM = 5000;

/** Server defaults of every rule (output_index is compared only when non-empty, see dropEmptyNoEffect). */
const RULE_DEFAULTS: Record<string, unknown> = {
  enabled: false,
  max_signals: 100,
  interval: '5m',
  from: 'now-6m',
  to: 'now',
  version: 1,
  risk_score_mapping: [],
  severity_mapping: [],
  exceptions_list: [],
  false_positives: [],
  actions: [],
  related_integrations: [],
  required_fields: [],
  setup: '',
  references: [],
  threat: [],
  tags: [],
  author: [],
};

const KUERY_DEFAULT_TYPES = ['query', 'saved_query', 'threshold', 'threat_match', 'new_terms'];

/**
 * Types whose `query` the server's rule schemas require (ThresholdRuleRequiredFields,
 * ThreatMatchRuleRequiredFields, NewTermsRuleRequiredFields: a plain string, empty allowed), while
 * service-api.md's type-specific required fields leave it out. A manifest without one is sent
 * `query: ""`, every event, as the query type's own default: both servers take that, and it is
 * compared as a default, so a rule stored without a query shows no difference.
 */
const QUERY_REQUIRED_TYPES = ['threshold', 'threat_match', 'new_terms'];
const DEFAULT_INDICATOR_PATH = 'threat.indicator';

/** Fields the server owns: dropped from live objects before comparing. */
const SERVER_FIELDS = ['id', 'rule_id', 'created_at', 'created_by', 'updated_at', 'updated_by', 'revision', 'immutable', 'rule_source', 'execution_summary', 'outcome', 'alias_target_id', 'alias_purpose'];

/**
 * Fields service-api.md lists among the create fields that no rule schema of the server has
 * (K-DE/model/rule_schema/rule_schemas.gen.ts), so the server strips them: never sent, never
 * compared, and a manifest that sets one gets a warning.
 */
const DISCARDED_FIELDS = ['fields'];

/** Arrays whose order the server does not care about. */
const SET_FIELDS = ['tags', 'author', 'references', 'false_positives', 'index'];

/** What the server fills in for an action without a frequency: derived from the rule-level throttle. */
function defaultFrequency(throttle: unknown) {
  if (typeof throttle === 'string' && /^[1-9][0-9]*[smhd]$/.test(throttle)) return { summary: true, notifyWhen: 'onThrottleInterval', throttle };
  return { summary: true, notifyWhen: 'onActiveAlert', throttle: null };
}

function typeDefaults(type: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (KUERY_DEFAULT_TYPES.includes(type)) out.language = 'kuery';
  if (type === 'query' || QUERY_REQUIRED_TYPES.includes(type)) out.query = '';
  if (type === 'threat_match') out.threat_indicator_path = DEFAULT_INDICATOR_PATH;
  return out;
}

/** `output_index` and `namespace` have no effect; the server reports them as "" when unset. */
function dropEmptyNoEffect(rule: Record<string, any>): void {
  for (const key of ['output_index', 'namespace']) if (rule[key] === '') delete rule[key];
}

/** Required fields without `ecs`, which the server works out from name and type (RequiredField): never sent, never compared. */
function withoutEcs(fields: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return fields.map(({ ecs: _ecs, ...f }) => f);
}

/** `meta.kibana_siem_app_url` is set by the UI, not by people; an otherwise empty meta goes with it. */
function dropUiMeta(rule: Record<string, any>): void {
  if (!isPlainObject(rule.meta) || !('kibana_siem_app_url' in rule.meta)) return;
  const { kibana_siem_app_url: _url, ...rest } = rule.meta;
  if (Object.keys(rest).length) rule.meta = rest;
  else delete rule.meta;
}

/**
 * A live rule in spec shape, unsorted: server-managed fields and server-added parts of actions
 * removed. The copy is shallow: every change below replaces a top-level value, never edits one
 * in place, so the body is left as it was (and copying 2,000 rules deeply costs more than the
 * comparison).
 */
function liveSpec(body: Record<string, any>): Record<string, any> {
  const rule = { ...body };
  for (const key of SERVER_FIELDS) delete rule[key];
  if (Array.isArray(rule.actions)) rule.actions = rule.actions.map(comparableAction);
  if (Array.isArray(rule.required_fields)) rule.required_fields = withoutEcs(rule.required_fields);
  dropUiMeta(rule);
  dropEmptyNoEffect(rule);
  return rule;
}

function canonical(rule: Record<string, any>): Record<string, any> {
  for (const key of SET_FIELDS) if (Array.isArray(rule[key])) rule[key] = asSet(rule[key]);
  return rule;
}

/**
 * Fills the server defaults where a rule has no value. On the live side too: the API returns []
 * or omits a field interchangeably (wire-facts 2.4), and an omitted field holds its default.
 */
function withRuleDefaults(rule: Record<string, any>): Record<string, any> {
  for (const [k, v] of defaultsOf(rule.type)) if (rule[k] === undefined) rule[k] = clone(v);
  return rule;
}

/** The defaults of each rule type, worked out once: every rule of a plan is filled twice (desired and live). */
const DEFAULTS_BY_TYPE = new Map<unknown, Array<[string, unknown]>>();

function defaultsOf(type: unknown): Array<[string, unknown]> {
  let entries = DEFAULTS_BY_TYPE.get(type);
  if (!entries) DEFAULTS_BY_TYPE.set(type, (entries = Object.entries({ ...RULE_DEFAULTS, ...typeDefaults(type as string) })));
  return entries;
}

/** The manifest's rule as the server holds it; a shallow copy, as in liveSpec. */
function desiredSpec(spec: Record<string, any>): Record<string, any> {
  const rule = withRuleDefaults({ ...spec });
  delete rule.rule_id;
  for (const key of DISCARDED_FIELDS) delete rule[key];
  if (isPlainObject(rule.threshold) && typeof rule.threshold.field === 'string') rule.threshold = { ...rule.threshold, field: [rule.threshold.field] };
  if (typeof rule.machine_learning_job_id === 'string') rule.machine_learning_job_id = [rule.machine_learning_job_id];
  rule.actions = rule.actions.map((action: Record<string, any>) => {
    const a = comparableAction(action);
    return { ...a, frequency: a.frequency ?? defaultFrequency(rule.throttle) };
  });
  rule.required_fields = withoutEcs(rule.required_fields);
  if (Array.isArray(rule.response_actions)) rule.response_actions = rule.response_actions.map(withResponseDefaults);
  dropUiMeta(rule);
  dropEmptyNoEffect(rule);
  return rule;
}

const PROCESS_COMMANDS = ['kill-process', 'suspend-process'];

/** The server fills a kill-process or suspend-process action's config.overwrite with true (ProcessesParams). */
function withResponseDefaults(action: Record<string, any>): Record<string, any> {
  const params = action?.params;
  if (action?.action_type_id !== '.endpoint' || !PROCESS_COMMANDS.includes(params?.command) || !isPlainObject(params.config) || params.config.overwrite !== undefined) return action;
  return { ...action, params: { ...params, config: { ...params.config, overwrite: true } } };
}

/**
 * The create route refuses an indicator match rule with one of concurrent_searches and
 * items_per_search but not the other (the request check of rule creation; emulator
 * rules/schema.ts); an update takes it. Whether a write creates is known only at plan, so a warning.
 */
function unpairedSearchSettings(res: Resource): CheckIssue[] {
  const [set, missing] = res.spec.concurrent_searches !== undefined ? ['concurrent_searches', 'items_per_search'] : ['items_per_search', 'concurrent_searches'];
  if (res.spec.type !== 'threat_match' || res.spec[set] === undefined || res.spec[missing] !== undefined) return [];
  return [{ path: ['spec', set], severity: 'warning', message: `${set} without ${missing}: the server refuses to create a rule with one and not the other (set both)` }];
}

/**
 * The write body: the manifest's fields, rule_id, an explicit `enabled` (so enabling goes through
 * the update, as the document says for 9.4.3) and every action's `action_type_id`. Ignored fields
 * arrive already carried over from the live rule by the engine, so a full replace keeps them.
 */
async function writeBody(ctx: AdapterContext, res: Resource, live?: LiveObject): Promise<Record<string, any>> {
  // A shallow copy: only top-level values are set or removed below.
  const body: Record<string, any> = { ...res.spec, rule_id: res.name };
  for (const key of DISCARDED_FIELDS) delete body[key];
  delete body.default_exceptions;
  body.exceptions_list = await resolvedLinks(ctx, res, live);
  body.enabled ??= false;
  if (QUERY_REQUIRED_TYPES.includes(body.type) && body.query === undefined) body.query = '';
  // The create body has no `ecs` (RequiredFieldInput): the server works it out from name and type.
  if (Array.isArray(body.required_fields)) body.required_fields = withoutEcs(body.required_fields);
  if (body.actions !== undefined) body.actions = await withActionTypes(ctx, res.space, res.name, body.actions);
  return body;
}

// ---- export ----

const KEY_ORDER = [
  'type', 'name', 'description', 'severity', 'risk_score', 'enabled', 'language', 'query', 'index', 'data_view_id', 'filters', 'saved_id',
  'event_category_override', 'tiebreaker_field', 'timestamp_field', 'threshold', 'threat_index', 'threat_query', 'threat_mapping',
  'threat_filters', 'threat_indicator_path', 'threat_language', 'concurrent_searches', 'items_per_search', 'machine_learning_job_id',
  'anomaly_threshold', 'new_terms_fields', 'history_window_start', 'alert_suppression', 'interval', 'from', 'to', 'max_signals',
  'version', 'tags', 'author', 'license', 'references', 'false_positives', 'related_integrations', 'required_fields',
  'investigation_fields', 'note', 'setup', 'threat', 'risk_score_mapping', 'severity_mapping', 'rule_name_override',
  'timestamp_override', 'timestamp_override_fallback_disabled', 'building_block_type', 'exceptions_list', 'timeline_id',
  'timeline_title', 'meta', 'throttle', 'actions', 'response_actions', 'default_exceptions',
];

function ordered(spec: Record<string, any>): Record<string, any> {
  const rank = (k: string) => (KEY_ORDER.includes(k) ? KEY_ORDER.indexOf(k) : KEY_ORDER.length);
  const keys = Object.keys(spec).sort((a, b) => rank(a) - rank(b) || compareText(a, b));
  return Object.fromEntries(keys.map((k) => [k, spec[k]]));
}

export const ruleAdapter: KindAdapter = {
  kind: 'Rule',
  schema: 'Rule.schema.json',
  referenceKinds: ['Connector', 'HostQuerySavedQuery', 'DataView', 'SavedObject', 'ExceptionList', 'TimelineTemplate'],
  area: AREAS.detectionEngine,
  setFields: SET_FIELDS.map((k) => `/${k}`),
  // What a reviewer checks in a new rule: what it matches, how loud it is, whether it runs, whom
  // it tells (connector and, when the manifest gives it, the connector type) and its exceptions.
  reviewFields: ['/name', '/type', '/query', '/language', '/severity', '/risk_score', '/enabled', '/actions/*/id', '/actions/*/action_type_id', '/actions/*/group', '/exceptions_list/*/list_id', '/exceptions_list/*/type'],
  keyedFields: { '/default_exceptions/items': 'item_id' },

  // A default list's item_ids share the space's namespace with every single list (exception/item-ids.ts).
  checkAmong: itemIdClashes,

  check(res: Resource, context?: CheckContext): CheckIssue[] {
    const discarded = DISCARDED_FIELDS.filter((key) => res.spec[key] !== undefined).map((key) => ({
      path: ['spec', key],
      message: `the server discards ${key} (no rule schema has it), so it is neither sent nor compared`,
      severity: 'warning' as const,
    }));
    return [...discarded, ...unpairedSearchSettings(res), ...checkDefaultExceptions(res), ...checkRuleQueries(res, context)];
  },

  /**
   * An action's connector is refused when missing (alerting's validate_actions, "Invalid
   * connectors"; the emulator's rules area). The server does not check the rest on write
   * (wire-facts §16 #8): data_view_id, timeline_id, exceptions_list and a response action's
   * saved_query_id are accepted when missing.
   */
  references(spec): Reference[] {
    const refs: Reference[] = [];
    (spec.actions ?? []).forEach((a: any, i: number) => {
      if (typeof a?.id === 'string') refs.push({ kind: 'Connector', name: a.id, path: ['spec', 'actions', i, 'id'], whenMissing: 'refused' });
    });
    (spec.response_actions ?? []).forEach((a: any, i: number) => {
      const id = a?.params?.saved_query_id;
      if (typeof id === 'string') {
        refs.push({ kind: 'HostQuerySavedQuery', name: id, path: ['spec', 'response_actions', i, 'params', 'saved_query_id'], whenMissing: 'accepted', missingEffect: 'the response action finds no query to run until it exists' });
      }
    });
    // A data view is an index-pattern saved object of that id: the rule is written after it. An
    // empty id, which the route accepts (a plain string), names none: the rule reads its index.
    if (typeof spec.data_view_id === 'string' && spec.data_view_id !== '') {
      // A data view is an index-pattern saved object: either kind's manifest declares it.
      refs.push({ kind: 'DataView', alsoKinds: ['SavedObject'], name: spec.data_view_id, path: ['spec', 'data_view_id'], whenMissing: 'accepted', missingEffect: 'the rule fails its runs until it exists' });
    }
    return [...refs, ...exceptionListReferences(spec), ...timelineReferences(spec)];
  },

  async list(ctx: AdapterContext, space: string, options?: ListOptions): Promise<LiveObject[]> {
    // Where many rules are expected, a listed rule holds the manifests' copies of the long texts it
    // shares with them (shared-texts.ts).
    const texts = (options?.expected ?? 0) >= SHARE_TEXTS_FROM ? ctx.run.get(SHARED_TEXTS) : undefined;
    const rules = await listRules(ctx.api, space, options?.expected, texts && ((rule) => texts.share(rule)));
    return withDefaultExceptions(ctx, space, rules.map((body) => ({
      kind: 'Rule',
      space,
      name: body.rule_id,
      serverId: body.id,
      body,
      readOnly: body.immutable || body.rule_source?.type === 'external' ? 'prebuilt rule' : undefined,
      tags: body.tags ?? [],
    })));
  },

  normalizeDesired(res: Resource) {
    return comparableExceptions(canonical(desiredSpec(res.spec)), desiredDefaultItems(res));
  },

  normalizeLive(live: LiveObject) {
    return comparableExceptions(canonical(withRuleDefaults(liveSpec(live.body))), liveDefaultItems(live));
  },

  async create(ctx: AdapterContext, res: Resource) {
    const created = await ctx.api.request({ method: 'POST', path: RULES_PATH, space: res.space, idempotent: true, body: await writeBody(ctx, res) });
    await writeDefaultExceptions(ctx, res, created.body, undefined);
  },

  async update(ctx: AdapterContext, res: Resource, live: LiveObject) {
    const updated = await ctx.api.request({ method: 'PUT', path: RULES_PATH, space: res.space, body: await writeBody(ctx, res, live) });
    await writeDefaultExceptions(ctx, res, updated.body, live);
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    const query = live.serverId ? { id: live.serverId } : { rule_id: live.name };
    await ctx.api.request({ method: 'DELETE', path: RULES_PATH, space: live.space, query });
  },

  writeBatch(ctx: AdapterContext, space: string, writes: BatchWrite[]) {
    return importRules(ctx, space, writes, writeBody);
  },

  writesAlone: writtenAlone,

  deleteBatch(ctx: AdapterContext, space: string, lives: LiveObject[]) {
    return deleteRules(ctx, space, lives);
  },

  toSpec(live: LiveObject) {
    // A deep copy: the exported spec is the caller's to change.
    const rule = liveSpec(clone(live.body));
    let spec = withoutDefaults(rule, { ...RULE_DEFAULTS, ...typeDefaults(rule.type) });
    if (Array.isArray(spec.actions)) {
      spec.actions = spec.actions.map((a: Record<string, any>) => {
        if (!deepEqual(a.frequency, defaultFrequency(rule.throttle))) return a;
        const { frequency: _f, ...rest } = a;
        return rest;
      });
    }
    exceptionsToSpec(spec, live);
    spec = ordered(spec);
    return { spec };
  },
};

