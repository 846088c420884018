import type { EmulatorArea } from '../../area.js';
import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest } from '../../router.js';
import { array, enumOf, int, object, optional, parseRequest, string, type Schema } from '../../zod.js';
import { ENTITY_TYPES, LOG_EXTRACTION_DEFAULTS, MIN_FREQUENCY_MS } from '../../facts/entity-store.js';
import { kueryPredicate, kueryTree, type DocFields } from '../asset-criticality/kuery.js';
import { OBSERVED_ENTITIES } from './observed.js';

/**
 * The entity store (9.4, public routes under /api/security/entity_store; service-api.md Entity
 * analytics "Entity store install | entity_types, log_extraction" and line 473 "install, status
 * with include_components, start, stop, uninstall, list entities"). The paths, bodies and answers
 * follow the server's entity_store plugin (common ENTITY_STORE_ROUTES.public; routes/apis/
 * install, update, uninstall, status, start, stop, crud/get): the OAS document's
 * /api/entity_store/* routes are the 9.x-before-9.4 ones, removed in 9.4 (the 9.4 breaking
 * changes, "Entity store management and CRUD APIs removed").
 *
 * Installing an engine extracts the entities of its type from the logs: the emulator's logs are
 * a fixed sample (observed.ts), so an installed store holds those entities, and they are what
 * watchlists can be assigned (areas/watchlists).
 */

export const BASE = '/api/security/entity_store';

export interface Entity {
  id: string;
  type: string;
  name: string;
  watchlists: string[];
}

interface LogExtraction {
  frequency: string;
  delay: string;
  lookbackPeriod: string;
  [k: string]: unknown;
}

interface State {
  engines: Record<string, { status: 'started' | 'stopped' }>;
  logExtraction?: LogExtraction;
  entities: Record<string, Entity>;
}

const state = (ctx: EmulatorContext, space: string) => ctx.store.area<State>(space, 'entity_store', () => ({ engines: {}, entities: {} }));

/**
 * A store's entities in id order, the order its searches page through: sorted once and kept until
 * an entity is added or removed (`entitiesChanged`), so that a walk of 100,000 entities, ten
 * requests, does not sort them ten times.
 */
const sortedCache = new WeakMap<Record<string, Entity>, Entity[]>();
function sortedEntities(entities: Record<string, Entity>): Entity[] {
  let sorted = sortedCache.get(entities);
  if (!sorted) {
    sorted = Object.values(entities).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    sortedCache.set(entities, sorted);
  }
  return sorted;
}

/** To be called after adding or removing entities of a store. */
export function entitiesChanged(entities: Record<string, Entity>): void {
  sortedCache.delete(entities);
}

/** The entities of a space's store (watchlists assign and unassign them). */
export function storeEntities(ctx: EmulatorContext, space: string): Record<string, Entity> {
  return state(ctx, space).entities;
}

/** A duration as parseDurationToMs reads it (`30s`, `1m`, `3h`, `1d`), in ms; undefined when it is none. */
export function durationMs(v: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(v);
  if (!m) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}

/** Refinements of log_extraction_validator.ts: frequency >= 30s, delay < lookbackPeriod (defaults filling in). */
function refine(issues: string[], le: Record<string, any> | undefined): void {
  if (!le) return;
  if (le.frequency !== undefined) {
    const ms = durationMs(le.frequency);
    if (ms === undefined || ms < MIN_FREQUENCY_MS) issues.push('logExtraction.frequency: must be a valid duration of at least 30 seconds (e.g. 1m, 30s)');
  }
  if (le.delay !== undefined || le.lookbackPeriod !== undefined) {
    const delay = durationMs(le.delay ?? LOG_EXTRACTION_DEFAULTS.delay);
    const lookback = durationMs(le.lookbackPeriod ?? LOG_EXTRACTION_DEFAULTS.lookbackPeriod);
    if (delay !== undefined && lookback !== undefined && delay >= lookback) issues.push('logExtraction.delay: must be less than lookbackPeriod');
  }
}

function refined<T>(value: T, le: Record<string, any> | undefined): T {
  const issues: string[] = [];
  refine(issues, le);
  if (issues.length) throw new EmuError(400, `[request body]: ${issues.join(', ')}`, 'platform');
  return value;
}

// constants LogExtractionBodyParams: every field optional; the emulator names the cadence ones.
const LogExtractionShape = {
  frequency: optional(string()),
  delay: optional(string()),
  lookbackPeriod: optional(string()),
  filter: optional(string()),
  additionalIndexPatterns: optional(array(string())),
};
const EntityTypes = array(enumOf(ENTITY_TYPES));
// install: buildRouteValidationWithZod (unknown keys stripped); update, uninstall: the strict variant.
const InstallBody = object({ entityTypes: optional(EntityTypes), logExtraction: optional(object(LogExtractionShape)) });
const UpdateBody = object({ logExtraction: object(LogExtractionShape, 'strict') }, 'strict');
const TypesBody = object({ entityTypes: optional(EntityTypes) }, 'strict');

function queryObject(req: EmuRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of req.query) out[k] = v;
  return out;
}

function coercedInt(min: number, max?: number): Schema<number> {
  const inner = int(min, max);
  return { optional: true, parse: (v, path, issues) => (v === undefined ? undefined : inner.parse(Number(v), path, issues)) } as Schema<number>;
}

// crud/get.ts querySchema (search-after mode: filter, size, searchAfter, source).
const ListQuery = object({
  filter: optional(string()),
  size: coercedInt(1),
  searchAfter: optional(string()),
  source: optional(string()),
  page: coercedInt(1),
  per_page: coercedInt(1, 10_000),
});

const ENTITY_FIELDS: DocFields<Record<string, unknown>> = {
  value: (doc, field) => doc[field],
  names: (doc) => Object.keys(doc),
};

/** One flat document per watchlist of the entity (a multi-valued keyword matches when any value does). */
function flatDocs(e: Entity): Array<Record<string, unknown>> {
  const base = { 'entity.id': e.id, 'entity.type': e.type, 'entity.name': e.name };
  return e.watchlists.length ? e.watchlists.map((w) => ({ ...base, 'entity.attributes.watchlists': w })) : [base];
}

function render(e: Entity): Record<string, unknown> {
  return { entity: { id: e.id, type: e.type, name: e.name, ...(e.watchlists.length ? { attributes: { watchlists: [...e.watchlists] } } : {}) } };
}

function engineView(type: string, status: string, le: LogExtraction): Record<string, unknown> {
  // status.ts toPublicEngine: the shared log extraction settings on every engine.
  return { type, status, filter: '', delay: le.delay, timeout: '25s', frequency: le.frequency, lookbackPeriod: le.lookbackPeriod, fieldHistoryLength: 10, docsPerSecond: -1, indexPattern: '', timestampField: '@timestamp', maxPageSearchSize: 10000 };
}

export const entityStoreArea: EmulatorArea = {
  name: 'entity_store',
  register(router) {
    router.post(`${BASE}/install`, (req, ctx) => {
      const body = parseRequest(InstallBody, req.body ?? {});
      refined(body, body.logExtraction);
      const s = state(ctx, req.space);
      const types: string[] = body.entityTypes ?? [...ENTITY_TYPES];
      const toInstall = types.filter((t) => !s.engines[t]);
      // install.ts: nothing new to install answers 200; otherwise 201. A re-install keeps the
      // existing settings ("omit it ... to preserve the existing configuration on re-install").
      if (!toInstall.length) return { body: { ok: true } };
      if (!s.logExtraction) s.logExtraction = { ...LOG_EXTRACTION_DEFAULTS, ...(body.logExtraction ?? {}) };
      for (const t of toInstall) {
        s.engines[t] = { status: 'started' };
        for (const e of OBSERVED_ENTITIES) if (e.type === t && !s.entities[e.id]) s.entities[e.id] = { ...e, watchlists: [] };
        entitiesChanged(s.entities);
      }
      ctx.store.touch();
      return { status: 201, body: { ok: true } };
    });

    router.put(BASE, (req, ctx) => {
      const body = parseRequest(UpdateBody, req.body);
      refined(body, body.logExtraction);
      const s = state(ctx, req.space);
      // update.ts: a store never installed has no settings object: 404 "Entity store is not installed".
      if (!s.logExtraction) throw new EmuError(404, 'Entity store is not installed', 'platform');
      s.logExtraction = { ...s.logExtraction, ...body.logExtraction };
      ctx.store.touch();
      return { body: { ok: true } };
    });

    router.post(`${BASE}/uninstall`, (req, ctx) => {
      const body = parseRequest(TypesBody, req.body ?? {});
      const s = state(ctx, req.space);
      for (const t of body.entityTypes ?? ENTITY_TYPES) {
        if (!s.engines[t]) continue;
        delete s.engines[t];
        for (const [id, e] of Object.entries(s.entities)) if (e.type === t) delete s.entities[id];
        entitiesChanged(s.entities);
      }
      if (!Object.keys(s.engines).length) delete s.logExtraction;
      ctx.store.touch();
      return { body: { ok: true } };
    });

    for (const [verb, status] of [['start', 'started'], ['stop', 'stopped']] as const) {
      router.put(`${BASE}/${verb}`, (req, ctx) => {
        const body = parseRequest(TypesBody, req.body ?? {});
        const s = state(ctx, req.space);
        for (const t of body.entityTypes ?? ENTITY_TYPES) if (s.engines[t]) s.engines[t].status = status;
        ctx.store.touch();
        return { body: { ok: true } };
      });
    }

    router.get(`${BASE}/status`, (req, ctx) => {
      parseRequest(object({ include_components: optional(enumOf(['true', 'false'])) }, 'strict'), queryObject(req), 'request query');
      const s = state(ctx, req.space);
      const types = ENTITY_TYPES.filter((t) => s.engines[t]);
      if (!types.length || !s.logExtraction) return { body: { status: 'not_installed', engines: [] } };
      const le = s.logExtraction;
      const engines = types.map((t) => engineView(t, s.engines[t].status, le));
      const status = types.every((t) => s.engines[t].status === 'stopped') ? 'stopped' : 'running';
      return { body: { status, engines } };
    });

    router.get(`${BASE}/entities`, (req, ctx) => {
      const q = parseRequest(ListQuery, queryObject(req), 'request query');
      if ((q.page !== undefined || q.per_page !== undefined) && q.searchAfter !== undefined) throw new EmuError(400, '[request query]: Cannot combine page/per_page with searchAfter', 'platform');
      const s = state(ctx, req.space);
      // The entities live in the store's latest index, which only an install creates.
      if (!Object.keys(s.engines).length) throw new EmuError(404, 'index_not_found_exception: no such index [entities-latest-' + req.space + ']', 'platform');
      const sorted = sortedEntities(s.entities);
      const test = q.filter ? kueryPredicate(kueryTree(q.filter), ENTITY_FIELDS) : undefined;
      const matches = (e: Entity) => !test || flatDocs(e).some(test);
      if (q.page !== undefined || q.per_page !== undefined) {
        const all = sorted.filter(matches);
        const page = q.page ?? 1;
        const perPage = q.per_page ?? 10;
        return { body: { records: all.slice((page - 1) * perPage, page * perPage).map(render), total: all.length, page, per_page: perPage } };
      }
      let after: string | undefined;
      if (q.searchAfter !== undefined) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(q.searchAfter);
        } catch {
          throw new EmuError(400, 'Invalid searchAfter: must be a valid JSON-encoded value', 'platform');
        }
        after = Array.isArray(parsed) ? String(parsed[0]) : undefined;
      }
      const size = q.size ?? 10;
      // From the cursor on, only as many entities are tested as the page needs (a walk of 100,000
      // members is ten pages: testing every entity for each would be the emulator's whole cost).
      let from = 0;
      if (after !== undefined) {
        let hi = sorted.length;
        while (from < hi) {
          const mid = (from + hi) >> 1;
          if (sorted[mid].id > after) hi = mid;
          else from = mid + 1;
        }
      }
      const slice: Entity[] = [];
      for (let i = from; i < sorted.length && slice.length < size; i++) if (matches(sorted[i])) slice.push(sorted[i]);
      // A full page carries the cursor of its last entity; the caller stops at a short page.
      const more = slice.length === size;
      return { body: { entities: slice.map(render), ...(more ? { nextSearchAfter: [slice[slice.length - 1].id] } : {}) } };
    });
  },
};
