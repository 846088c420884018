import type { Requester } from '../client/types.js';
import { ResponseError } from '../client/errors.js';
import { shortText } from '../manifest/short-text.js';
import type { Resource } from '../manifest/types.js';
import { stringSetDifference } from '../common/string-set-difference.js';
import { ENTITY_STORE_NAME, ENTITY_STORE_PATH } from '../common/entity-store.js';
import { desiredValues, readFileValues } from './value-list.js';
import type { KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';

const KIND = 'Watchlist';
const BASE = '/api/entity_analytics/watchlists';
/** Members read per request: the entity list's search-after size, within the search window (10,000). */
const MEMBERS_PAGE = 10_000;
/** EUIDs per assign or unassign call: the route looks them up with one search of that many. */
const EUIDS_PER_CALL = 1000;
/** Above this many members, export writes them to a file beside the manifest. */
export const INLINE_MEMBERS_MAX = 1000;

interface ApiWatchlist {
  id: string;
  name: string;
  description?: string;
  riskModifier: number;
  managed?: boolean;
  /** Members of any source (watchlist_config.ts list). */
  entityCount?: number;
}

/** What a write sends and the plan compares: the spec's names, the route's camelCase on the wire. */
function fields(source: { description?: unknown; risk_modifier?: unknown }): { description: string; risk_modifier: number } {
  return { description: typeof source.description === 'string' ? source.description : '', risk_modifier: Number(source.risk_modifier) };
}

/**
 * The members of every watchlist of the space, by watchlist id: the store's entities that carry a
 * watchlist (`entity.attributes.watchlists`), in pages of 10,000 after a cursor, whatever the
 * number of watchlists. A store not installed has no entity index (404): no members.
 */
async function membersById(api: Requester, space: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  let searchAfter: string | undefined;
  for (;;) {
    const res = await api.request({
      method: 'GET',
      path: `${ENTITY_STORE_PATH}/entities`,
      space,
      accept: [404],
      query: { filter: 'entity.attributes.watchlists: *', size: MEMBERS_PAGE, ...(searchAfter ? { searchAfter } : {}) },
    });
    if (res.status === 404) return out;
    const entities = res.body?.entities;
    if (!Array.isArray(entities)) throw new ResponseError(`GET ${ENTITY_STORE_PATH}/entities: the answer holds no entities`);
    for (const doc of entities) {
      const id = doc?.entity?.id;
      const lists = doc?.entity?.attributes?.watchlists;
      if (typeof id !== 'string') continue;
      for (const w of Array.isArray(lists) ? lists : typeof lists === 'string' ? [lists] : []) {
        let members = out.get(w);
        if (!members) out.set(w, (members = []));
        members.push(id);
      }
    }
    const next = res.body?.nextSearchAfter;
    if (entities.length < MEMBERS_PAGE || !Array.isArray(next)) return out;
    searchAfter = JSON.stringify(next);
  }
}

/** Assigns or unassigns euids, 1,000 a call (the client bounds how many are in flight); a member the server did not take is an error. */
async function members(api: Requester, space: string, id: string, verb: 'assign' | 'unassign', euids: string[]): Promise<void> {
  const batches: string[][] = [];
  for (let i = 0; i < euids.length; i += EUIDS_PER_CALL) batches.push(euids.slice(i, i + EUIDS_PER_CALL));
  const answers = await Promise.all(batches.map((batch) => api.request({ method: 'POST', path: `${BASE}/${encodeURIComponent(id)}/entities/${verb}`, space, idempotent: true, body: { euids: batch } })));
  const failed: string[] = [];
  for (const res of answers) {
    for (const item of res.body?.items ?? []) {
      // unassign of an entity no longer a member is what was wanted.
      if (item?.status === 'success' || (verb === 'unassign' && item?.status === 'not_found')) continue;
      failed.push(`${JSON.stringify(shortText(String(item?.euid)))}: ${shortText(String(item?.error ?? item?.status))}`);
    }
  }
  if (failed.length) throw new Error(`${failed.length} entities could not be ${verb}ed: ${failed.slice(0, 5).join('; ')}${failed.length > 5 ? '; ...' : ''}`);
}

function euidsOf(res: Resource): string[] {
  return desiredValues(res);
}

/** A file name for exported members, from the watchlist name. */
const membersFileName = (name: string) => `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.euids.txt`;

/**
 * Watchlists of a space (technical preview 9.4; routes from the server's source, recorded in
 * packages/emulator/docs/emulator.md). metadata.name is the watchlist's name (the server gives
 * each an id of its own); the spec's `items` (or `items_file`, one EUID a line) is the complete
 * set of members assigned by hand: added ones are assigned, others unassigned, 1,000 a call.
 * Members are read from the entity store (`entity.attributes.watchlists`), so they must be
 * entities the store holds: the manifest names the space's EntityStore. The server's managed
 * watchlist (Privileged Users) is read-only.
 */
export const watchlistAdapter: KindAdapter = {
  kind: KIND,
  schema: 'Watchlist.schema.json',
  area: AREAS.entityAnalytics,
  setFields: ['/items'],
  referenceKinds: ['EntityStore'],

  references(spec) {
    const hasMembers = (Array.isArray(spec.items) && spec.items.length > 0) || typeof spec.items_file === 'string';
    return hasMembers ? [{ kind: 'EntityStore', name: ENTITY_STORE_NAME, path: ['spec', Array.isArray(spec.items) ? 'items' : 'items_file'], whenMissing: 'refused' }] : [];
  },

  check(res) {
    if (typeof res.spec.items_file !== 'string') return [];
    const values = readFileValues(res);
    return values instanceof Error ? [{ path: ['spec', 'items_file'], message: values.message }] : [];
  },

  async list(ctx, space) {
    const res = await ctx.api.request({ method: 'GET', path: `${BASE}/list`, space });
    if (!Array.isArray(res.body)) throw new ResponseError(`GET ${BASE}/list: the answer is not a list of watchlists`);
    const lists = res.body as ApiWatchlist[];
    // The list counts each watchlist's members: when none has any, the store need not be read
    // (in a space without an entity store there is nothing to read).
    const anyMembers = lists.some((w) => w.entityCount !== 0);
    const byId = anyMembers ? await membersById(ctx.api, space) : new Map<string, string[]>();
    const seen = new Set<string>();
    return lists.map((w): LiveObject => {
      // Names are not unique on the server: a second watchlist of a name is left alone.
      const duplicate = seen.has(w.name);
      seen.add(w.name);
      return {
        kind: KIND,
        space,
        name: w.name,
        serverId: w.id,
        body: w,
        readOnly: w.managed ? 'managed by the server' : duplicate ? 'another watchlist has the same name' : undefined,
        extra: { euids: byId.get(w.id) ?? [] },
      };
    });
  },

  normalizeDesired(res) {
    return { ...fields(res.spec), items: euidsOf(res) };
  },

  normalizeLive(live) {
    return { ...fields({ description: live.body.description, risk_modifier: live.body.riskModifier }), items: live.extra?.euids ?? [] };
  },

  async create(ctx, res) {
    const f = fields(res.spec);
    const made = await ctx.api.request({ method: 'POST', path: BASE, space: res.space, body: { name: res.name, description: f.description, riskModifier: f.risk_modifier } });
    const id = made.body?.id;
    if (typeof id !== 'string') throw new ResponseError(`POST ${BASE}: the answer holds no watchlist id`);
    const euids = [...new Set(euidsOf(res))];
    if (euids.length) await members(ctx.api, res.space, id, 'assign', euids);
  },

  async update(ctx, res, live) {
    const id = live.serverId ?? live.body.id;
    const want = fields(res.spec);
    const have = fields({ description: live.body.description, risk_modifier: live.body.riskModifier });
    if (want.description !== have.description || want.risk_modifier !== have.risk_modifier) {
      await ctx.api.request({ method: 'PUT', path: `${BASE}/${encodeURIComponent(id)}`, space: live.space, idempotent: true, body: { name: res.name, description: want.description, riskModifier: want.risk_modifier } });
    }
    const { added, removed } = stringSetDifference(live.extra?.euids ?? [], euidsOf(res));
    if (removed.length) await members(ctx.api, live.space, id, 'unassign', removed);
    if (added.length) await members(ctx.api, live.space, id, 'assign', added);
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: `${BASE}/${encodeURIComponent(live.serverId ?? live.body.id)}`, space: live.space, accept: [404] });
  },

  toSpec(live) {
    const spec: Record<string, any> = { ...fields({ description: live.body.description, risk_modifier: live.body.riskModifier }) };
    const euids: string[] = [...new Set<string>(live.extra?.euids ?? [])].sort();
    // An EUID holding a line break cannot be a line of the file: such a set is exported inline.
    if (euids.length <= INLINE_MEMBERS_MAX || euids.some((e) => e.includes('\n') || e.trim() === '')) {
      spec.items = euids;
      return { spec };
    }
    const file = membersFileName(live.name);
    spec.items_file = file;
    return { spec, files: { [file]: euids.join('\n') + '\n' } };
  },
};
