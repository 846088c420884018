import type { EmulatorArea } from '../area.js';
import type { EmulatorContext } from '../context.js';
import { EmuError } from '../errors.js';
import type { EmuRequest } from '../router.js';
import * as z from '../zod.js';
import { findConnector } from './connectors/index.js';
import { checkedAlertsFilters, withGeneratedDsl } from './rules/alerts-filter.js';

/**
 * Attack-discovery schedules (/api/attack_discovery/schedules). service-api.md (Attack discovery,
 * Schedule object; "schedules: create, get, update (full replace; all properties required),
 * delete, enable, disable, find (per_page; reply includes total)"). Paths, bodies and replies from
 * the real OpenAPI document (generated/kbapi/oas-filtered.yaml at b76003905):
 * AttackDiscoveryApiScheduleCreateProps (name, params, schedule required; enabled and actions
 * optional), AttackDiscoveryApiScheduleUpdateProps (name, params, schedule, actions required; no
 * `enabled`: enabled state changes only through `_enable` / `_disable`), AttackDiscoveryApiSchedule
 * (the reply), FindAttackDiscoverySchedules (page default 1, per_page default 10, sort_direction
 * default asc). Bodies are generated zod schemas (security routes): unknown keys are stripped.
 */

const BASE = '/api/attack_discovery/schedules';
/** Alerting's duration format for a rule interval (a schedule is an alerting rule underneath). */
const DURATION = /^[1-9]\d*[smhd]$/;

const nonEmpty = z.nonEmptyString;
const apiConfig = z.object({
  connectorId: z.string(),
  actionTypeId: z.string(),
  defaultSystemPromptId: z.optional(z.string()),
  model: z.optional(z.string()),
  provider: z.optional(z.enumOf(['OpenAI', 'Azure OpenAI', 'Other'])),
  name: z.string(),
});
const params = z.object({
  alerts_index_pattern: z.string(),
  api_config: apiConfig,
  size: z.number(),
  start: z.optional(z.string()),
  end: z.optional(z.string()),
  filters: z.optional(z.array(z.unknown())),
  query: z.optional(z.object({ query: z.union([z.string(), z.object({}, 'open')]), language: z.string() })),
  combined_filter: z.optional(z.object({}, 'open')),
});
const frequency = z.object({
  summary: z.boolean(),
  notify_when: z.enumOf(['onActiveAlert', 'onThrottleInterval', 'onActionGroupChange']),
  throttle: z.nullable(z.string({ regex: DURATION })),
});
const generalAction = z.object({
  action_type_id: z.string(),
  group: z.string(),
  id: z.string(),
  params: z.object({}, 'open'),
  uuid: z.optional(nonEmpty()),
  alerts_filter: z.optional(z.object({}, 'open')),
  frequency: z.optional(frequency),
});
const systemAction = z.object({ action_type_id: z.string(), id: z.string(), params: z.object({}, 'open'), uuid: z.optional(nonEmpty()) });
const action = z.union([generalAction, systemAction]);
const interval = z.object({ interval: z.string() });

const CreateProps = z.object({ name: z.string(), enabled: z.optional(z.boolean()), params, schedule: interval, actions: z.optional(z.array(action)) });
const UpdateProps = z.object({ name: z.string(), params, schedule: interval, actions: z.array(action) });

interface StoredSchedule {
  id: string;
  name: string;
  enabled: boolean;
  params: Record<string, any>;
  schedule: { interval: string };
  actions: Array<Record<string, any>>;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

function schedulesOf(ctx: EmulatorContext, space: string): Record<string, StoredSchedule> {
  return ctx.store.area<{ schedules: Record<string, StoredSchedule> }>(space, 'attack_discovery', () => ({ schedules: {} })).schedules;
}

const securityError = (status: number, message: string) => new EmuError(status, message, 'security');

function existing(ctx: EmulatorContext, req: EmuRequest): StoredSchedule {
  const all = schedulesOf(ctx, req.space);
  const s = Object.prototype.hasOwnProperty.call(all, req.params.id) ? all[req.params.id] : undefined;
  if (!s) throw securityError(404, `Saved object [alert/${req.params.id}] not found`);
  return s;
}

/**
 * What alerting checks beyond the body schema: a valid interval, and actions that name connectors
 * of the space (rules_client validate_actions: "Invalid connectors"). Actions get a uuid when they
 * come without one, as alerting assigns them.
 */
function checked(ctx: EmulatorContext, req: EmuRequest, body: Record<string, any>, write: 'create' | 'update'): Record<string, any> {
  if (!DURATION.test(body.schedule.interval)) throw securityError(400, `Error validating ${write} data - [schedule.interval]: string is not a valid duration: ${body.schedule.interval}`);
  // An action's alerts_filter as the rules client checks it, and the dsl it stores (rules/alerts-filter.ts).
  if (body.actions) body.actions = checkedAlertsFilters(body.actions, write);
  const missing = (body.actions ?? []).filter((a: any) => !findConnector(ctx, req.space, a.id)).map((a: any) => a.id);
  if (missing.length) throw securityError(400, `Failed to validate actions due to the following error: Invalid connectors: ${missing.join(', ')}`);
  for (const a of body.actions ?? []) {
    a.uuid ??= ctx.uuid();
    if (a.alerts_filter !== undefined) a.alerts_filter = withGeneratedDsl(a.alerts_filter);
  }
  return body;
}

const render = (s: StoredSchedule) => structuredClone(s);

function positive(q: URLSearchParams, name: string, fallback: number): number {
  const raw = q.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) throw new EmuError(400, `[request query]: ${name}: Invalid input: expected number, received NaN`, 'platform');
  return n;
}

export const attackDiscoveryArea: EmulatorArea = {
  name: 'attack_discovery',
  register(router) {
    const opts = { errors: 'security' as const };

    router.post(BASE, (req, ctx) => {
      const body = checked(ctx, req, z.parseRequest(CreateProps, req.body), 'create');
      const now = ctx.now().toISOString();
      const s: StoredSchedule = {
        id: ctx.uuid(),
        name: body.name,
        // Created disabled unless the body says otherwise (the create route's `enabled ?? false`).
        enabled: body.enabled ?? false,
        params: body.params,
        schedule: body.schedule,
        actions: body.actions ?? [],
        created_by: req.user,
        updated_by: req.user,
        created_at: now,
        updated_at: now,
      };
      schedulesOf(ctx, req.space)[s.id] = s;
      return { body: render(s) };
    }, opts);

    router.get(`${BASE}/_find`, (req, ctx) => {
      const page = positive(req.query, 'page', 1);
      const perPage = positive(req.query, 'per_page', 10);
      const direction = req.query.get('sort_direction') ?? 'asc';
      if (direction !== 'asc' && direction !== 'desc') throw new EmuError(400, `[request query]: sort_direction: Invalid option: expected one of "asc"|"desc"`, 'platform');
      const field = req.query.get('sort_field') ?? 'created_at';
      const sign = direction === 'asc' ? 1 : -1;
      const all = Object.values(schedulesOf(ctx, req.space)).sort((a, b) => {
        const x = String((a as any)[field] ?? ''), y = String((b as any)[field] ?? '');
        return (x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1) * sign;
      });
      return { body: { page, per_page: perPage, total: all.length, data: all.slice((page - 1) * perPage, page * perPage).map(render) } };
    }, { ...opts, access: 'read' });

    router.get(`${BASE}/:id`, (req, ctx) => ({ body: render(existing(ctx, req)) }), { ...opts, access: 'read' });

    router.put(`${BASE}/:id`, (req, ctx) => {
      const s = existing(ctx, req);
      const body = checked(ctx, req, z.parseRequest(UpdateProps, req.body), 'update');
      Object.assign(s, { name: body.name, params: body.params, schedule: body.schedule, actions: body.actions, updated_by: req.user, updated_at: ctx.now().toISOString() });
      return { body: render(s) };
    }, opts);

    router.delete(`${BASE}/:id`, (req, ctx) => {
      const s = existing(ctx, req);
      delete schedulesOf(ctx, req.space)[s.id];
      return { body: { id: s.id } };
    }, opts);

    for (const [verb, enabled] of [['_enable', true], ['_disable', false]] as const) {
      router.post(`${BASE}/:id/${verb}`, (req, ctx) => {
        const s = existing(ctx, req);
        s.enabled = enabled;
        s.updated_by = req.user;
        s.updated_at = ctx.now().toISOString();
        return { body: { id: s.id } };
      }, opts);
    }
  },
};
