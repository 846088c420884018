import { handleDocumentsControl } from './documents.js';
import { previewAlertsControl } from './areas/rules/preview-alerts.js';
import { isRealRoute, REAL_ROUTES, type EmulatorContext, type EmulatorRuntime, type License } from './context.js';
import type { Faults, FaultRule } from './faults.js';
import type { RequestLog } from './requestlog.js';
import type { EmuResponse } from './router.js';
import type { Store } from './store.js';
import { LATEST_RELEASE, packageState } from './areas/rules/prebuilt-catalog.js';
import { entitiesChanged, storeEntities } from './areas/entity-store/index.js';

interface ControlDeps {
  store: Store;
  log: RequestLog;
  faults: Faults;
  runtime: EmulatorRuntime;
  context: EmulatorContext;
}

const LICENSES: License[] = ['basic', 'gold', 'platinum', 'enterprise', 'trial'];

/**
 * Routes under /__emulator/ are not part of the API: they let tests and benchmarks read the
 * request log, reset state, add spaces, change the licence, switch routes to the real server's
 * behaviour and make the server slow or flaky, and tell whether it is up (`GET /__emulator/health`).
 * They need no credentials and no kbn-xsrf header.
 */
const ENTITY_TYPES = ['user', 'host', 'service', 'generic'];

export function handleControl(method: string, url: URL, raw: Buffer, deps: ControlDeps): EmuResponse {
  const route = url.pathname.slice('/__emulator'.length);
  let body: any = undefined;
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return { status: 400, body: { error: 'control body must be JSON' } };
    }
  }
  const key = `${method} ${route}`;
  switch (key) {
    case 'GET /health':
      // For container health checks and scripts waiting for the server to start: answers as soon
      // as the server accepts connections, with no credentials, and is not logged as API traffic.
      return { body: { status: 'ok', spaces: deps.store.data.spaces.length } };
    case 'GET /requests': {
      const since = Number(url.searchParams.get('since') ?? 0);
      return { body: { requests: deps.log.all().filter((r) => r.seq > since) } };
    }
    case 'DELETE /requests':
      deps.log.clear();
      return { body: { cleared: true } };
    case 'GET /counts':
      return { body: { counts: deps.log.countsObject() } };
    case 'POST /reset':
      deps.store.reset();
      deps.log.clear();
      deps.faults.clear();
      deps.runtime.latencyMs = 0;
      deps.context.settings.realRoutes = new Set(deps.runtime.initialRealRoutes);
      return { body: { reset: true } };
    case 'GET /spaces':
      return { body: { spaces: deps.store.data.spaces } };
    case 'POST /spaces': {
      const id = body?.id;
      if (typeof id !== 'string' || !/^[a-z0-9_-]+$/.test(id)) return { status: 400, body: { error: 'id must match [a-z0-9_-]+' } };
      deps.store.addSpace(id);
      return { body: { spaces: deps.store.data.spaces } };
    }
    case 'POST /entities': {
      // Entities the store would extract from logs the emulator does not have (a benchmark's
      // 100,000 watchlist members): added as an installed engine would find them.
      const space = body?.space ?? 'default';
      const entities = body?.entities;
      if (typeof space !== 'string' || !deps.store.data.spaces.includes(space)) return { status: 400, body: { error: `no space ${JSON.stringify(space)}` } };
      if (!Array.isArray(entities) || !entities.every((e) => ENTITY_TYPES.includes(e?.type) && typeof e?.name === 'string' && e.name !== '')) {
        return { status: 400, body: { error: `entities must be [{type: ${ENTITY_TYPES.join('|')}, name}]` } };
      }
      const held = storeEntities(deps.context, space);
      for (const e of entities) {
        const id = `${e.type}:${e.name}`;
        held[id] ??= { id, type: e.type, name: e.name, watchlists: [] };
      }
      entitiesChanged(held);
      return { body: { entities: Object.keys(held).length } };
    }
    case 'GET /license':
      return { body: { license: deps.context.settings.license } };
    case 'PUT /license': {
      if (!LICENSES.includes(body?.type)) return { status: 400, body: { error: `type must be one of ${LICENSES.join(', ')}` } };
      deps.context.settings.license = body.type;
      return { body: { license: body.type } };
    }
    case 'GET /real-routes':
      return { body: realRoutesBody(deps.context) };
    case 'PUT /real-routes': {
      const routes = body?.routes;
      if (!Array.isArray(routes) || !routes.every(isRealRoute)) {
        return { status: 400, body: { error: `routes must be an array of ${Object.keys(REAL_ROUTES).join(', ')}` } };
      }
      deps.context.settings.realRoutes = new Set(routes);
      return { body: realRoutesBody(deps.context) };
    }
    case 'GET /latency':
      return { body: { ms: deps.runtime.latencyMs } };
    case 'PUT /latency': {
      const ms = Number(body?.ms);
      if (!Number.isFinite(ms) || ms < 0) return { status: 400, body: { error: 'ms must be a number >= 0' } };
      deps.runtime.latencyMs = ms;
      return { body: { ms } };
    }
    case 'GET /faults':
      return { body: { faults: deps.faults.list() } };
    case 'PUT /faults': {
      const rules = (Array.isArray(body) ? body : body?.faults) as FaultRule[] | undefined;
      if (!Array.isArray(rules)) return { status: 400, body: { error: 'body must be {faults: [...]}' } };
      const seed = Array.isArray(body) ? undefined : body?.seed;
      if (seed !== undefined && !Number.isSafeInteger(seed)) return { status: 400, body: { error: 'seed must be an integer' } };
      // The seed belongs to the rules it came with: a PUT without one draws at random again.
      deps.faults.seed = seed;
      deps.faults.set(rules);
      return { body: { faults: deps.faults.list(), ...(deps.faults.seed !== undefined ? { seed: deps.faults.seed } : {}) } };
    }
    case 'DELETE /faults':
      deps.faults.clear();
      return { body: { faults: [] } };
    case 'GET /prebuilt-package':
      return { body: { ...packageState(deps.context), latest: LATEST_RELEASE } };
    case 'PUT /prebuilt-package': {
      // Ships another release of the prebuilt rule package, as a package update does on a real server.
      const state = packageState(deps.context);
      const release = body?.release ?? state.release;
      const ms = body?.operation_ms ?? state.operationMs ?? 0;
      if (!Number.isInteger(release) || release < 1 || release > LATEST_RELEASE) return { status: 400, body: { error: `release must be an integer from 1 to ${LATEST_RELEASE}` } };
      if (!Number.isFinite(ms) || ms < 0) return { status: 400, body: { error: 'operation_ms must be a number >= 0' } };
      Object.assign(state, { release, operationMs: ms });
      return { body: { ...state, latest: LATEST_RELEASE } };
    }
    case 'GET /state':
      return { body: deps.store.data };
    case 'GET /documents':
    case 'POST /documents':
    case 'DELETE /documents':
      return handleDocumentsControl(method, url, body, deps.store);
    case 'GET /preview-alerts':
      return previewAlertsControl(url, deps.context);
    default:
      return { status: 404, body: { error: `no control route ${key}` } };
  }
}

/** The routes switched to the real server's behaviour, and every route that can be. */
function realRoutesBody(context: EmulatorContext): { routes: string[]; available: Record<string, string> } {
  return { routes: [...context.settings.realRoutes].sort(), available: { ...REAL_ROUTES } };
}
