import type { Resource } from '../manifest/types.js';
import { clone, dropNulls, isPlainObject, sortKeys } from './normalize.js';
import { listAllPages } from './paging.js';
import { withoutGeneratedDsl } from './alerts-filter.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from './types.js';
import { AREAS } from '../client/areas.js';

/**
 * Attack-discovery schedules (/api/attack_discovery/schedules; service-api.md Attack discovery;
 * the real OpenAPI document's AttackDiscoveryApiSchedule* schemas). metadata.name is the schedule
 * name: the server id is generated. The update body is a full replace with no `enabled`, so the
 * enabled state moves only through `_enable` / `_disable`.
 */

const KIND = 'AttackDiscoverySchedule';
const BASE = '/api/attack_discovery/schedules';
const PAGE_SIZE = 100;
/** The only LLM connector type the API document lists. */
const LLM_CONNECTOR_TYPE = '.gen-ai';
/** Created disabled unless the body says otherwise: the manifest default matches the server's. */
const DEFAULT_ENABLED = false;

const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

function params(source: Record<string, any>): Record<string, any> {
  const p = clone(isPlainObject(source) ? source : {});
  if (isPlainObject(p.api_config)) p.api_config = { actionTypeId: LLM_CONNECTOR_TYPE, ...p.api_config };
  return p;
}

/**
 * Actions as the manifest says them: the uuid the server assigns is not part of the manifest, nor
 * the dsl it adds to an alerts filter (alerts-filter.ts). A
 * frequency's `throttle` is required and nullable (OAS AttackDiscoveryApiScheduleActionFrequency),
 * so its null stays: without it the manifest would not validate.
 */
function actions(list: unknown): Array<Record<string, any>> {
  return (Array.isArray(list) ? list : []).map((a) => {
    const { uuid: _uuid, ...rest } = withoutGeneratedDsl(a ?? {});
    const out = dropNulls(rest);
    if (isPlainObject(out.frequency) && isPlainObject(rest.frequency) && rest.frequency.throttle === null) out.frequency = { ...out.frequency, throttle: null };
    return out;
  });
}

function comparable(source: Record<string, any>): Record<string, any> {
  return sortKeys({
    enabled: typeof source.enabled === 'boolean' ? source.enabled : DEFAULT_ENABLED,
    params: params(source.params),
    schedule: { interval: source.schedule?.interval },
    actions: actions(source.actions),
  });
}

function writeBody(res: Resource): Record<string, any> {
  return { name: res.name, params: params(res.spec.params), schedule: res.spec.schedule, actions: res.spec.actions ?? [] };
}

async function setEnabled(ctx: AdapterContext, space: string, id: string, enabled: boolean): Promise<void> {
  await ctx.api.request({ method: 'POST', path: `${pathOf(id)}/${enabled ? '_enable' : '_disable'}`, space, idempotent: true });
}

export const attackDiscoveryScheduleAdapter: KindAdapter = {
  kind: KIND,
  schema: 'AttackDiscoverySchedule.schema.json',
  area: AREAS.attackDiscovery,
  referenceKinds: ['Connector'],

  /**
   * The schedule is an alerting rule: its actions' connectors must exist (refused otherwise,
   * alerting rules_client validate_actions "Invalid connectors"), while the LLM connector sits in
   * the rule's params, which alerting checks for shape only (accepted; the schedule's runs fail
   * until it exists).
   */
  references(spec): Reference[] {
    const refs: Reference[] = [];
    const llm = spec.params?.api_config?.connectorId;
    if (typeof llm === 'string') {
      refs.push({ kind: 'Connector', name: llm, path: ['spec', 'params', 'api_config', 'connectorId'], whenMissing: 'accepted', missingEffect: 'every scheduled run fails until it exists' });
    }
    (spec.actions ?? []).forEach((a: any, i: number) => {
      if (typeof a?.id === 'string') refs.push({ kind: 'Connector', name: a.id, path: ['spec', 'actions', i, 'id'], whenMissing: 'refused' });
    });
    return refs;
  },

  /**
   * The route takes any number of alerts per run (AttackDiscoveryApiScheduleParams size: a number)
   * and any text for the index pattern, and so does the rule type's params check; a run of no
   * alerts, a part of one, or of no index analyses nothing, so each is a warning.
   */
  check(res): CheckIssue[] {
    const params = res.spec.params ?? {};
    const issues: CheckIssue[] = [];
    if (typeof params.size === 'number' && !(Number.isInteger(params.size) && params.size >= 1)) {
      issues.push({ path: ['spec', 'params', 'size'], severity: 'warning', message: `size ${params.size} is not a whole number of alerts of at least 1: the server takes it, and a run may send the model no alert` });
    }
    if (params.alerts_index_pattern === '') {
      issues.push({ path: ['spec', 'params', 'alerts_index_pattern'], severity: 'warning', message: 'alerts_index_pattern is empty: the server takes it, and a run reads no alerts' });
    }
    return issues;
  },

  async list(ctx, space) {
    const schedules = await listAllPages<Record<string, any>>(ctx.api, {
      path: `${BASE}/_find`,
      space,
      // A fixed order keeps pages consistent while they are fetched in parallel.
      query: { sort_field: 'created_at', sort_direction: 'asc' },
      sizeParam: 'per_page',
      pageSize: PAGE_SIZE,
      items: (body) => body?.data ?? [],
      total: (body) => body?.total ?? 0,
    });
    return schedules.map((s): LiveObject => ({ kind: KIND, space, name: s.name, serverId: s.id, body: s }));
  },

  normalizeDesired(res) {
    return comparable(res.spec);
  },

  normalizeLive(live) {
    return comparable(live.body);
  },

  async create(ctx, res) {
    await ctx.api.request({ method: 'POST', path: BASE, space: res.space, body: { ...writeBody(res), enabled: res.spec.enabled ?? DEFAULT_ENABLED } });
  },

  async update(ctx, res, live) {
    const id = live.serverId ?? '';
    const desired = comparable(res.spec);
    const current = comparable(live.body);
    const { enabled: _a, ...desiredRest } = desired;
    const { enabled: _b, ...currentRest } = current;
    if (JSON.stringify(desiredRest) !== JSON.stringify(currentRest)) {
      await ctx.api.request({ method: 'PUT', path: pathOf(id), space: live.space, body: writeBody(res) });
    }
    if (desired.enabled !== current.enabled) await setEnabled(ctx, live.space, id, desired.enabled);
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.serverId ?? ''), space: live.space });
  },

  toSpec(live) {
    const b = live.body;
    const spec: Record<string, any> = {};
    if (b.enabled !== DEFAULT_ENABLED) spec.enabled = b.enabled;
    const p = clone(b.params ?? {});
    if (isPlainObject(p.api_config) && p.api_config.actionTypeId === LLM_CONNECTOR_TYPE) delete p.api_config.actionTypeId;
    spec.params = p;
    spec.schedule = { interval: b.schedule?.interval };
    const acts = actions(b.actions);
    if (acts.length > 0) spec.actions = acts;
    return { spec };
  },
};
