import { ResponseError } from '../client/errors.js';
import type { AdapterContext, KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';
import { ENTITY_STORE_NAME, ENTITY_STORE_PATH, ENTITY_TYPES, LOG_EXTRACTION_DEFAULTS } from '../common/entity-store.js';

const KIND = 'EntityStore';
const CADENCE = ['frequency', 'delay', 'lookbackPeriod'] as const;

type LogExtraction = Record<(typeof CADENCE)[number], string>;

/** The settings as the server holds them: what the manifest leaves out is the default. */
function logExtraction(src: unknown): LogExtraction {
  const le = src && typeof src === 'object' ? (src as Record<string, unknown>) : {};
  const out = { ...LOG_EXTRACTION_DEFAULTS } as LogExtraction;
  for (const k of CADENCE) if (typeof le[k] === 'string') out[k] = le[k] as string;
  return out;
}

const typesOf = (v: unknown): string[] => (Array.isArray(v) ? [...new Set(v.filter((t): t is string => typeof t === 'string'))] : []);

async function install(ctx: AdapterContext, space: string, entityTypes: string[]): Promise<void> {
  await ctx.api.request({ method: 'POST', path: `${ENTITY_STORE_PATH}/install`, space, idempotent: true, body: { entityTypes } });
}

async function setLogExtraction(ctx: AdapterContext, space: string, le: LogExtraction): Promise<void> {
  // PUT /api/security/entity_store: the shared settings of every engine (a re-install keeps the old ones).
  await ctx.api.request({ method: 'PUT', path: ENTITY_STORE_PATH, space, idempotent: true, body: { logExtraction: le } });
}

/**
 * The entity store of a space, one object per space (metadata.name `entity-store`): which entity
 * types have an engine, and the log extraction cadence they share (`frequency`, `delay`,
 * `lookbackPeriod`). The 9.4 routes under /api/security/entity_store (service-api.md line 473;
 * the OAS document's /api/entity_store/* are the routes before 9.4, removed in it): install adds
 * engines, uninstall removes them (and the entities they extracted), PUT sets the settings, and
 * the status route reads them. Deleting the object uninstalls every engine.
 */
export const entityStoreAdapter: KindAdapter = {
  kind: KIND,
  schema: 'EntityStore.schema.json',
  area: AREAS.entityAnalytics,
  setFields: ['/entity_types'],

  references() {
    return [];
  },

  async list(ctx, space) {
    const res = await ctx.api.request({ method: 'GET', path: `${ENTITY_STORE_PATH}/status`, space });
    const engines = res.body?.engines;
    if (!Array.isArray(engines)) throw new ResponseError(`GET ${ENTITY_STORE_PATH}/status: the answer holds no engines`);
    if (res.body.status === 'not_installed' || engines.length === 0) return [];
    const body = { status: res.body.status, entity_types: typesOf(engines.map((e: any) => e?.type)), log_extraction: logExtraction(engines[0]) };
    return [{ kind: KIND, space, name: ENTITY_STORE_NAME, body } satisfies LiveObject];
  },

  normalizeDesired(res) {
    return { entity_types: typesOf(res.spec.entity_types), log_extraction: logExtraction(res.spec.log_extraction) };
  },

  normalizeLive(live) {
    return { entity_types: typesOf(live.body.entity_types), log_extraction: logExtraction(live.body.log_extraction) };
  },

  async create(ctx, res) {
    await install(ctx, res.space, typesOf(res.spec.entity_types));
    await setLogExtraction(ctx, res.space, logExtraction(res.spec.log_extraction));
  },

  async update(ctx, res, live) {
    const want = typesOf(res.spec.entity_types);
    const have = new Set(typesOf(live.body.entity_types));
    const added = want.filter((t) => !have.has(t));
    const removed = [...have].filter((t) => !want.includes(t));
    if (added.length) await install(ctx, live.space, added);
    if (removed.length) await ctx.api.request({ method: 'POST', path: `${ENTITY_STORE_PATH}/uninstall`, space: live.space, idempotent: true, body: { entityTypes: removed } });
    const le = logExtraction(res.spec.log_extraction);
    const current = logExtraction(live.body.log_extraction);
    if (CADENCE.some((k) => le[k] !== current[k])) await setLogExtraction(ctx, live.space, le);
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'POST', path: `${ENTITY_STORE_PATH}/uninstall`, space: live.space, idempotent: true, body: { entityTypes: [...ENTITY_TYPES] } });
  },

  toSpec(live) {
    const le = logExtraction(live.body.log_extraction);
    const changed = Object.fromEntries(CADENCE.filter((k) => le[k] !== LOG_EXTRACTION_DEFAULTS[k]).map((k) => [k, le[k]]));
    const order = (t: string) => ENTITY_TYPES.indexOf(t as (typeof ENTITY_TYPES)[number]);
    return { spec: { entity_types: typesOf(live.body.entity_types).sort((a, b) => order(a) - order(b)), ...(Object.keys(changed).length ? { log_extraction: changed } : {}) } };
  },
};
