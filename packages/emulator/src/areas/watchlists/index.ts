import type { EmulatorArea } from '../../area.js';
import { licenseAtLeast, type EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import { array, boolean, number, object, optional, parseRequest, string } from '../../zod.js';
import { storeEntities } from '../entity-store/index.js';
import type { EmuRequest, EmuResponse } from '../../router.js';

/**
 * Watchlists (technical preview 9.4; service-api.md line 473 "/api/entity_analytics/watchlists
 * (create, delete, ..., assign and unassign entities by euids)", Entity analytics "Watchlist | id,
 * name, risk_modifier, description" and "Watchlist membership | euids"). Not in the OAS document:
 * the routes, bodies and answers follow the server's source (security_solution
 * server/lib/entity_analytics/watchlists/management/routes/{create,list,get,update,delete}.ts,
 * routes/entities/{assign,unassign}.ts, management/watchlist_config.ts, validation.ts, the
 * request schemas common/api/entity_analytics/watchlists/**.schema.yaml, and
 * utils/with_minimum_license.ts). Every route needs a Platinum licence.
 *
 * Membership: an assigned entity carries the watchlist's id in `entity.attributes.watchlists` of
 * the entity store (read through GET /api/security/entity_store/entities), and the watchlist keeps
 * it as a "manual" member; only entities the store holds can be assigned.
 */

const BASE = '/api/entity_analytics/watchlists';
/** The prebuilt watchlist the list route installs into every space (install_prebuilt_watchlists.ts). */
const PREBUILT = { name: 'Privileged Users', description: 'System-managed watchlist for tracking privileged users', managed: true, riskModifier: 50 };
const prebuiltId = (space: string) => `privileged-user-monitoring-watchlist-id-${space}`;
/** validation.ts MANAGED_WATCHLIST_LOCKED_FIELDS. */
const LOCKED = ['name', 'description'] as const;

interface Watchlist {
  id: string;
  name: string;
  description: string;
  riskModifier: number;
  managed: boolean;
  createdAt: string;
  updatedAt: string;
  /** EUIDs assigned by hand (the "manual" source label), as keys: a watchlist may hold 100,000. */
  manual: Record<string, true>;
}

interface State {
  watchlists: Record<string, Watchlist>;
  prebuilt?: boolean;
}

const state = (ctx: EmulatorContext, space: string) => ctx.store.area<State>(space, 'watchlists', () => ({ watchlists: {} }));

// create.schema.yaml and update.schema.yaml: name, description, riskModifier required; managed optional (zod: unknown keys stripped).
const Body = object({ name: string(), description: string(), riskModifier: number(), managed: optional(boolean()) });
// entities/assign.schema.yaml, unassign.schema.yaml.
const EuidsBody = object({ euids: array(string()) });

/** with_minimum_license.ts: 403 with the message as the body (the platform shape). */
function requireLicense(ctx: EmulatorContext): void {
  if (!licenseAtLeast(ctx.settings.license, 'platinum')) throw new EmuError(403, 'Your license does not support this feature.', 'platform');
}

function render(w: Watchlist, withCount: boolean): Record<string, unknown> {
  const { manual, ...rest } = w;
  const count = Object.keys(manual).length;
  return { ...rest, entitySourceIds: [], ...(withCount ? { entityCount: count, hasManualEntities: count > 0 } : {}) };
}

/** watchlist_config.ts get(): a plain Error, which transformError answers as a 500. */
function find(s: State, id: string): Watchlist {
  const w = Object.prototype.hasOwnProperty.call(s.watchlists, id) ? s.watchlists[id] : undefined;
  if (!w) throw new EmuError(500, `Watchlist config '${id}' not found`, 'security');
  return w;
}

function ensurePrebuilt(ctx: EmulatorContext, space: string, s: State): void {
  if (s.prebuilt) return;
  s.prebuilt = true;
  const id = prebuiltId(space);
  if (!s.watchlists[id]) {
    const now = ctx.now().toISOString();
    s.watchlists[id] = { id, ...PREBUILT, createdAt: now, updatedAt: now, manual: {} };
  }
  ctx.store.touch();
}

type ItemStatus = 'success' | 'failure' | 'not_found';

function summary(total: number, items: Array<{ euid: string; status: ItemStatus; error?: string }>) {
  const count = (st: ItemStatus) => items.filter((i) => i.status === st).length;
  return { successful: count('success'), failed: count('failure'), not_found: count('not_found'), total, items };
}

/** What assign and unassign start from: the licence check, the watchlist, the store's entities, each EUID once. */
function membershipRequest(req: EmuRequest, ctx: EmulatorContext): { w: Watchlist; entities: ReturnType<typeof storeEntities>; unique: string[] } {
  requireLicense(ctx);
  const body = parseRequest(EuidsBody, req.body);
  return { w: find(state(ctx, req.space), req.params.id), entities: storeEntities(ctx, req.space), unique: [...new Set<string>(body.euids as string[])] };
}

/** service.ts buildResponse: not-found items first, then successes. */
function membershipAnswer(ctx: EmulatorContext, unique: string[], items: Array<{ euid: string; status: 'success' | 'not_found'; error?: string }>): EmuResponse {
  ctx.store.touch();
  return { body: summary(unique.length, [...items.filter((i) => i.status === 'not_found'), ...items.filter((i) => i.status === 'success')]) };
}

export const watchlistsArea: EmulatorArea = {
  name: 'watchlists',
  register(router) {
    const security = { errors: 'security' as const };

    router.post(BASE, (req, ctx) => {
      requireLicense(ctx);
      const body = parseRequest(Body, req.body);
      const s = state(ctx, req.space);
      const now = ctx.now().toISOString();
      // watchlist_config.ts create(): a saved object of a fresh id; names are not checked for uniqueness.
      const w: Watchlist = { id: ctx.uuid(), name: body.name, description: body.description, riskModifier: body.riskModifier, managed: body.managed ?? false, createdAt: now, updatedAt: now, manual: {} };
      s.watchlists[w.id] = w;
      ctx.store.touch();
      return { body: render(w, false) };
    }, security);

    router.get(`${BASE}/list`, (req, ctx) => {
      requireLicense(ctx);
      const s = state(ctx, req.space);
      // list.ts: "Lazily install prebuilt watchlists so spaces created after the startup migration ... self-heal on first read".
      ensurePrebuilt(ctx, req.space, s);
      return { body: Object.values(s.watchlists).map((w) => render(w, true)) };
    }, security);

    router.get(`${BASE}/:id`, (req, ctx) => {
      requireLicense(ctx);
      return { body: render(find(state(ctx, req.space), req.params.id), true) };
    }, security);

    router.put(`${BASE}/:id`, (req, ctx) => {
      requireLicense(ctx);
      const body = parseRequest(Body, req.body);
      const s = state(ctx, req.space);
      const w = find(s, req.params.id);
      if (w.managed) {
        const changed = LOCKED.filter((f) => body[f] !== undefined && body[f] !== w[f]);
        if (changed.length) throw new EmuError(400, `Cannot modify ${changed.join(' and ')} of managed watchlist '${w.id}'`, 'security');
      }
      Object.assign(w, { name: body.name, description: body.description, riskModifier: body.riskModifier, ...(body.managed !== undefined ? { managed: body.managed } : {}), updatedAt: ctx.now().toISOString() });
      ctx.store.touch();
      return { body: render(w, true) };
    }, security);

    router.delete(`${BASE}/:id`, (req, ctx) => {
      requireLicense(ctx);
      const s = state(ctx, req.space);
      const id = req.params.id;
      // delete.ts: the saved object's delete answers a 404 for an unknown id (SavedObjectsErrorHelpers).
      if (!Object.prototype.hasOwnProperty.call(s.watchlists, id)) throw new EmuError(404, `Saved object [watchlist-config/${id}] not found`, 'security');
      for (const e of Object.values(storeEntities(ctx, req.space))) e.watchlists = e.watchlists.filter((w) => w !== id);
      delete s.watchlists[id];
      ctx.store.touch();
      return { body: { deleted: true } };
    }, security);

    router.post(`${BASE}/:id/entities/assign`, (req, ctx) => {
      const { w, entities, unique } = membershipRequest(req, ctx);
      const items = unique.map((euid) => {
        const e = Object.prototype.hasOwnProperty.call(entities, euid) ? entities[euid] : undefined;
        // manual/service.ts assign(): "The entities must already exist in the entity store".
        if (!e) return { euid, status: 'not_found' as const, error: 'Entity not found in entity store' };
        if (!e.watchlists.includes(w.id)) e.watchlists.push(w.id);
        w.manual[euid] = true;
        return { euid, status: 'success' as const };
      });
      return membershipAnswer(ctx, unique, items);
    }, security);

    router.post(`${BASE}/:id/entities/unassign`, (req, ctx) => {
      const { w, entities, unique } = membershipRequest(req, ctx);
      const items = unique.map((euid) => {
        if (!Object.prototype.hasOwnProperty.call(w.manual, euid)) return { euid, status: 'not_found' as const, error: 'Entity not manually assigned to this watchlist' };
        delete w.manual[euid];
        const e = Object.prototype.hasOwnProperty.call(entities, euid) ? entities[euid] : undefined;
        if (e) e.watchlists = e.watchlists.filter((x: string) => x !== w.id);
        return { euid, status: 'success' as const };
      });
      return membershipAnswer(ctx, unique, items);
    }, security);
  },
};
