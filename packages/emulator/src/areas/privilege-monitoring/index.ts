import type { EmulatorArea } from '../../area.js';
import { licenseAtLeast, type EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import { object, optional, parseRequest, string } from '../../zod.js';
import { kueryPredicate, kueryTree, type DocFields } from '../asset-criticality/kuery.js';
import { CSV_MAX_BYTES, LIST_SIZE, MAX_PRIVILEGED_USERS, PRIVMON_PATH } from '../../facts/privilege-monitoring.js';
import { csvRows, csvUser } from './csv.js';

/**
 * Privileged user monitoring (service-api.md line 473: "/api/entity_analytics/monitoring (init,
 * disable, delete with data flag to also delete users, schedule now, health, create monitored
 * user, upload users CSV, list users with kql, ...)"). Method and path are not in the API document:
 * they are the OAS document's (InitMonitoringEngine, DisableMonitoringEngine,
 * DeleteMonitoringEngine, PrivMonHealth, CreatePrivMonUser, ListPrivMonUsers, DeletePrivMonUser,
 * PrivmonBulkUploadUsersCSV), and the behaviour follows the server's source
 * (security_solution server/lib/entity_analytics/privilege_monitoring/routes/{init,disable,
 * delete,health}.ts, routes/users/{create,list,delete,upload_csv}.ts, users/csv_upload.ts,
 * users/bulk/soft_delete_omitted_users.ts, users/privileged_users_crud.ts).
 *
 * Users are documents of the space's users index: a user is monitored while `user.is_privileged`
 * is true, and `labels.sources` says who made it so (`api`, `csv`, `index_sync`). A CSV upload is
 * the complete set of CSV users: users it omits lose the `csv` source, and those left with no
 * source stop being privileged (the document stays).
 */

type Source = 'api' | 'csv' | 'index_sync';
type Status = 'started' | 'disabled';

interface User {
  id: string;
  name: string;
  is_privileged: boolean;
  sources: Source[];
  label?: string;
  timestamp: string;
}

interface State {
  /** Absent: never initialised, or deleted. */
  engine?: Status;
  /** Absent: the users index does not exist (before the first init or upload; after delete with data). */
  users?: Record<string, User>;
}

const state = (ctx: EmulatorContext, space: string) => ctx.store.area<State>(space, 'privilege_monitoring', () => ({}));
const usersIndex = (space: string) => `.entity_analytics.monitoring.users-${space}`;

/** with_minimum_license.ts (the users routes): 403 with the message as the body. */
function requireLicense(ctx: EmulatorContext): void {
  if (!licenseAtLeast(ctx.settings.license, 'platinum')) throw new EmuError(403, 'Your license does not support this feature.', 'platform');
}

/** The users index, made as init and the upload's checkAndInitPrivilegeMonitoringResources make it. */
function ensureIndex(s: State): Record<string, User> {
  return (s.users ??= {});
}

/** A search or delete against a missing index: Elasticsearch's 404, which transformError passes on. */
function existingIndex(s: State, space: string): Record<string, User> {
  if (!s.users) throw new EmuError(404, `index_not_found_exception\n\tRoot causes:\n\t\tindex_not_found_exception: no such index [${usersIndex(space)}]`, 'security');
  return s.users;
}

/** MonitoredUserDoc (OAS Security_Entity_Analytics_API_MonitoredUserDoc). */
function render(u: User): Record<string, unknown> {
  return {
    id: u.id,
    '@timestamp': u.timestamp,
    user: { name: u.name, is_privileged: u.is_privileged },
    labels: { sources: u.sources },
    ...(u.label ? { entity_analytics_monitoring: { labels: [{ field: 'label', value: u.label, source: 'csv' }] } } : {}),
  };
}

/** The fields a KQL filter of the list route reads (the index mapping's names). */
const USER_FIELDS: DocFields<User> = {
  value: (u, field) => (field === 'user.name' ? u.name : field === 'user.is_privileged' ? u.is_privileged : field === 'labels.sources' ? u.sources : field === 'id' ? u.id : undefined),
  names: () => ['user.name', 'user.is_privileged', 'labels.sources'],
};

const privilegedCount = (users: Record<string, User>) => Object.values(users).filter((u) => u.is_privileged).length;

// create.gen.ts CreatePrivMonUserRequestBody = UserName: { user?: { name?: string } } (unknown keys stripped).
const CreateBody = object({ user: optional(object({ name: optional(string()) })) });

export const privilegeMonitoringArea: EmulatorArea = {
  name: 'privilege-monitoring',
  register(router) {
    const security = { errors: 'security' as const };

    router.post(`${PRIVMON_PATH}/engine/init`, (req, ctx) => {
      const s = state(ctx, req.space);
      s.engine = 'started';
      ensureIndex(s);
      ctx.store.touch();
      return { body: { status: 'started' } };
    }, security);

    router.post(`${PRIVMON_PATH}/engine/disable`, (req, ctx) => {
      const s = state(ctx, req.space);
      // engine disable: the descriptor is set to disabled (an engine never installed stays so).
      if (s.engine) s.engine = 'disabled';
      ctx.store.touch();
      return { body: { status: s.engine ?? 'not_installed' } };
    }, security);

    router.delete(`${PRIVMON_PATH}/engine/delete`, (req, ctx) => {
      // DeleteEntityEngineRequestQuery: data is a boolean from the query string, false by default.
      const data = req.query.get('data');
      if (data !== null && data !== 'true' && data !== 'false') throw new EmuError(400, `[request query]: data: Invalid enum value. Expected 'true' | 'false', received '${data}'`, 'platform');
      const s = state(ctx, req.space);
      delete s.engine;
      // delete(deleteData): the users index goes only with the data flag.
      if (data === 'true') delete s.users;
      ctx.store.touch();
      return { body: { deleted: true } };
    }, security);

    router.get(`${PRIVMON_PATH}/privileges/health`, (req, ctx) => {
      const s = state(ctx, req.space);
      const status = s.engine ?? 'not_installed';
      // health.ts: the user counts only while the engine is started.
      if (status !== 'started') return { body: { status } };
      return { body: { status, users: { current_count: privilegedCount(s.users ?? {}), max_allowed: MAX_PRIVILEGED_USERS } } };
    }, security);

    router.post(`${PRIVMON_PATH}/users`, (req, ctx) => {
      requireLicense(ctx);
      const body = parseRequest(CreateBody, req.body);
      const s = state(ctx, req.space);
      const users = ensureIndex(s);
      // privileged_users_crud.ts create: the limit counts privileged users; a plain Error is a 500.
      if (privilegedCount(users) >= MAX_PRIVILEGED_USERS) throw new EmuError(500, `Cannot create user: Maximum user limit of ${MAX_PRIVILEGED_USERS} reached`, 'security');
      const u: User = { id: ctx.uuid(), name: body.user?.name ?? '', is_privileged: true, sources: ['api'], timestamp: ctx.now().toISOString() };
      users[u.id] = u;
      ctx.store.touch();
      return { body: render(u) };
    }, security);

    router.get(`${PRIVMON_PATH}/users/list`, (req, ctx) => {
      const s = state(ctx, req.space);
      const users = Object.values(existingIndex(s, req.space));
      const kql = req.query.get('kql');
      const matching = kql ? users.filter(kueryPredicate(kueryTree(kql), USER_FIELDS)) : users;
      // crudService.list: one search of size 10,000, no sort and no cursor.
      return { body: matching.slice(0, LIST_SIZE).map(render) };
    }, security);

    router.delete(`${PRIVMON_PATH}/users/:id`, (req, ctx) => {
      requireLicense(ctx);
      const users = existingIndex(state(ctx, req.space), req.space);
      const id = req.params.id;
      // esClient.delete of an unknown id: Elasticsearch's 404 (result not_found).
      if (!Object.prototype.hasOwnProperty.call(users, id)) throw new EmuError(404, 'Not Found', 'security');
      delete users[id];
      ctx.store.touch();
      return { body: { acknowledged: true } };
    }, security);

    router.post(`${PRIVMON_PATH}/users/_csv`, (req, ctx) => {
      // The platform refuses a larger body before the route sees it (options.body.maxBytes).
      if (req.rawBody.length > CSV_MAX_BYTES) throw new EmuError(413, `Payload content length greater than maximum allowed: ${CSV_MAX_BYTES}`, 'platform');
      requireLicense(ctx);
      if (!req.file) throw new EmuError(400, '[request body.file]: expected value of type [Stream] but got [undefined]', 'platform');
      const s = state(ctx, req.space);
      const users = ensureIndex(s);
      const byName = new Map<string, User>();
      for (const u of Object.values(users)) if (!byName.has(u.name)) byName.set(u.name, u);
      const errors: Array<{ message: string; index: number | null; username: string | null }> = [];
      const uploaded = new Set<string>();
      let successful = 0;
      const now = ctx.now().toISOString();
      csvRows(req.file.content).forEach((row, i) => {
        const parsed = csvUser(row);
        // privilegedUserParserTransform: rows are numbered from 1.
        if (!parsed.ok) return void errors.push({ message: parsed.message, index: i + 1, username: null });
        uploaded.add(parsed.username);
        let u = byName.get(parsed.username);
        if (!u) {
          u = { id: ctx.uuid(), name: parsed.username, is_privileged: true, sources: [], timestamp: now };
          users[u.id] = u;
          byName.set(u.name, u);
        }
        u.is_privileged = true;
        if (!u.sources.includes('csv')) u.sources.push('csv');
        if (parsed.label) u.label = parsed.label;
        successful++;
      });
      // soft_delete_omitted_users.ts: privileged CSV users the file omits lose the csv source.
      let softDeleted = 0;
      for (const u of Object.values(users)) {
        if (!u.is_privileged || !u.sources.includes('csv') || uploaded.has(u.name)) continue;
        u.sources = u.sources.filter((x) => x !== 'csv');
        if (u.sources.length === 0) u.is_privileged = false;
        delete u.label;
        softDeleted++;
      }
      ctx.store.touch();
      const failed = errors.length;
      return { body: { errors, stats: { successful: successful + softDeleted, failed, total: successful + softDeleted + failed } } };
    }, security);
  },
};
