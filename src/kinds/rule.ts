import type { Resource } from '../manifest/types.js';
import { asSet, clone, deepEqual, isPlainObject, withoutDefaults } from './normalize.js';
import { listAllPages } from './paging.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from './types.js';
import { AREAS } from '../client/areas.js';
import { withActionTypes } from './rule-actions.js';
import { timelineReferences } from './rule-timeline.js';

/**
 * Detection rules (/api/detection_engine). Identity: metadata.name is the rule_id. Writes are
 * full replaces (PUT), the way to toggle `enabled` on 9.4.3. Defaults mirror the server's
 * applyRuleDefaults (wire-facts 2.3) so that an omitted field never shows as a difference.
 */

const FIND_PATH = '/api/detection_engine/rules/_find';
const RULES_PATH = '/api/detection_engine/rules';
const PAGE_SIZE = 1000;
const SEARCH_WINDOW = 10_000;

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
  if (type === 'query') out.query = '';
  if (type === 'threat_match') out.threat_indicator_path = DEFAULT_INDICATOR_PATH;
  return out;
}

/** `output_index` and `namespace` have no effect; the server reports them as "" when unset. */
function dropEmptyNoEffect(rule: Record<string, any>): void {
  for (const key of ['output_index', 'namespace']) if (rule[key] === '') delete rule[key];
}

/** `meta.kibana_siem_app_url` is set by the UI, not by people; an otherwise empty meta goes with it. */
function dropUiMeta(rule: Record<string, any>): void {
  if (!isPlainObject(rule.meta) || !('kibana_siem_app_url' in rule.meta)) return;
  const { kibana_siem_app_url: _url, ...rest } = rule.meta;
  if (Object.keys(rest).length) rule.meta = rest;
  else delete rule.meta;
}

/** A live rule in spec shape, unsorted: server-managed fields and server-added parts of actions removed. */
function liveSpec(body: Record<string, any>): Record<string, any> {
  const rule = clone(body);
  for (const key of SERVER_FIELDS) delete rule[key];
  if (Array.isArray(rule.actions)) rule.actions = rule.actions.map(({ uuid: _u, action_type_id: _t, ...a }: Record<string, unknown>) => a);
  if (Array.isArray(rule.required_fields)) rule.required_fields = rule.required_fields.map(({ ecs: _ecs, ...f }: Record<string, unknown>) => f);
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
  for (const [k, v] of Object.entries({ ...RULE_DEFAULTS, ...typeDefaults(rule.type) })) if (rule[k] === undefined) rule[k] = clone(v);
  return rule;
}

function desiredSpec(spec: Record<string, any>): Record<string, any> {
  const rule = withRuleDefaults(clone(spec));
  delete rule.rule_id;
  for (const key of DISCARDED_FIELDS) delete rule[key];
  if (isPlainObject(rule.threshold) && typeof rule.threshold.field === 'string') rule.threshold = { ...rule.threshold, field: [rule.threshold.field] };
  if (typeof rule.machine_learning_job_id === 'string') rule.machine_learning_job_id = [rule.machine_learning_job_id];
  rule.actions = rule.actions.map(({ uuid: _u, action_type_id: _t, ...a }: Record<string, any>) => ({ ...a, frequency: a.frequency ?? defaultFrequency(rule.throttle) }));
  rule.required_fields = rule.required_fields.map(({ ecs: _ecs, ...f }: Record<string, unknown>) => f);
  dropUiMeta(rule);
  dropEmptyNoEffect(rule);
  return rule;
}

/**
 * The write body: the manifest's fields, rule_id, an explicit `enabled` (so enabling goes through
 * the update, as the document says for 9.4.3) and every action's `action_type_id`. Ignored fields
 * arrive already carried over from the live rule by the engine, so a full replace keeps them.
 */
async function writeBody(ctx: AdapterContext, res: Resource): Promise<Record<string, any>> {
  const body: Record<string, any> = { ...clone(res.spec), rule_id: res.name };
  for (const key of DISCARDED_FIELDS) delete body[key];
  body.enabled ??= false;
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
  'timeline_title', 'meta', 'throttle', 'actions', 'response_actions',
];

function ordered(spec: Record<string, any>): Record<string, any> {
  const rank = (k: string) => (KEY_ORDER.includes(k) ? KEY_ORDER.indexOf(k) : KEY_ORDER.length);
  const keys = Object.keys(spec).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, spec[k]]));
}

export const ruleAdapter: KindAdapter = {
  kind: 'Rule',
  schema: 'Rule.schema.json',
  referenceKinds: ['Connector', 'HostQuerySavedQuery', 'TimelineTemplate'],
  area: AREAS.detectionEngine,
  setFields: SET_FIELDS.map((k) => `/${k}`),

  check(res: Resource): CheckIssue[] {
    return DISCARDED_FIELDS.filter((key) => res.spec[key] !== undefined).map((key) => ({
      path: ['spec', key],
      message: `the server discards ${key} (no rule schema has it), so it is neither sent nor compared`,
      severity: 'warning' as const,
    }));
  },

  references(spec): Reference[] {
    const refs: Reference[] = [];
    (spec.actions ?? []).forEach((a: any, i: number) => {
      if (typeof a?.id === 'string') refs.push({ kind: 'Connector', name: a.id, path: ['spec', 'actions', i, 'id'] });
    });
    (spec.response_actions ?? []).forEach((a: any, i: number) => {
      const id = a?.params?.saved_query_id;
      if (typeof id === 'string') refs.push({ kind: 'HostQuerySavedQuery', name: id, path: ['spec', 'response_actions', i, 'params', 'saved_query_id'] });
    });
    return [...refs, ...timelineReferences(spec)];
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const rules = await listAllPages<Record<string, any>>(ctx.api, {
      path: FIND_PATH,
      space,
      // A fixed order keeps pages consistent with each other while they are fetched in parallel.
      query: { sort_field: 'created_at', sort_order: 'asc' },
      sizeParam: 'per_page',
      pageSize: PAGE_SIZE,
      items: (body) => body.data,
      total: (body) => {
        if (body.total > SEARCH_WINDOW) {
          throw new Error(`space ${space} holds ${body.total} rules; _find pages only through the first ${SEARCH_WINDOW} (page x per_page <= ${SEARCH_WINDOW})`);
        }
        return body.total;
      },
    });
    return rules.map((body) => ({
      kind: 'Rule',
      space,
      name: body.rule_id,
      serverId: body.id,
      body,
      readOnly: body.immutable || body.rule_source?.type === 'external' ? 'prebuilt rule' : undefined,
      tags: body.tags ?? [],
    }));
  },

  normalizeDesired(res: Resource) {
    return canonical(desiredSpec(res.spec));
  },

  normalizeLive(live: LiveObject) {
    return canonical(withRuleDefaults(liveSpec(live.body)));
  },

  async create(ctx: AdapterContext, res: Resource) {
    await ctx.api.request({ method: 'POST', path: RULES_PATH, space: res.space, idempotent: true, body: await writeBody(ctx, res) });
  },

  async update(ctx: AdapterContext, res: Resource) {
    await ctx.api.request({ method: 'PUT', path: RULES_PATH, space: res.space, body: await writeBody(ctx, res) });
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    const query = live.serverId ? { id: live.serverId } : { rule_id: live.name };
    await ctx.api.request({ method: 'DELETE', path: RULES_PATH, space: live.space, query });
  },

  toSpec(live: LiveObject) {
    const rule = liveSpec(live.body);
    let spec = withoutDefaults(rule, { ...RULE_DEFAULTS, ...typeDefaults(rule.type) });
    if (Array.isArray(spec.actions)) {
      spec.actions = spec.actions.map((a: Record<string, any>) => {
        if (!deepEqual(a.frequency, defaultFrequency(rule.throttle))) return a;
        const { frequency: _f, ...rest } = a;
        return rest;
      });
    }
    spec = ordered(spec);
    return { spec };
  },
};

