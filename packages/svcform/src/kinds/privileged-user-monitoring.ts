import type { Requester } from '../client/types.js';
import { ResponseError } from '../client/errors.js';
import { shortText } from '../manifest/short-text.js';
import type { Resource } from '../manifest/types.js';
import { stringSetDifference } from '../common/string-set-difference.js';
import { CSV_MAX_BYTES, LIST_SIZE, PRIVMON_NAME, PRIVMON_PATH } from '../common/privilege-monitoring.js';
import { desiredValues, readFileValues } from './value-list.js';
import type { KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';

const KIND = 'PrivilegedUserMonitoring';
/** Above this many users, export writes them to a file beside the manifest (as Watchlist does). */
export const INLINE_USERS_MAX = 1000;
const USERS_FILE = 'privileged-users.txt';

interface LiveUser {
  id: string;
  name: string;
  sources: string[];
}

/** A CSV field, always quoted: a name may hold commas, quotes or line breaks. */
const csvField = (v: string) => `"${v.replace(/"/g, '""')}"`;

export function usersCsv(names: string[]): string {
  return names.map((n) => csvField(n) + '\n').join('');
}

const namesOf = (res: Resource): string[] => [...new Set(desiredValues(res))];

/**
 * The monitored users of a space: the list route filtered on `user.is_privileged` (users the CSV
 * upload soft-deleted keep their document, not privileged). The route answers one search of
 * 10,000 with no cursor; health counts every privileged user, so a larger set is refused rather
 * than read in part.
 */
async function monitoredUsers(api: Requester, space: string, count: number | undefined): Promise<LiveUser[]> {
  const res = await api.request({ method: 'GET', path: `${PRIVMON_PATH}/users/list`, space, accept: [404], query: { kql: 'user.is_privileged: true' } });
  // No users index yet (an engine initialised before any user, then its index deleted): no users.
  if (res.status === 404) return [];
  if (!Array.isArray(res.body)) throw new ResponseError(`GET ${PRIVMON_PATH}/users/list: the answer is not a list of users`);
  if (res.body.length >= LIST_SIZE && (count ?? 0) > res.body.length) {
    throw new ResponseError(`GET ${PRIVMON_PATH}/users/list answers at most ${LIST_SIZE} users and the space monitors ${count}: the set cannot be read whole`);
  }
  return res.body
    .filter((d: any) => d?.user?.name !== undefined && d?.user?.name !== null)
    .map((d: any): LiveUser => ({ id: String(d.id), name: String(d.user.name), sources: Array.isArray(d.labels?.sources) ? d.labels.sources : [] }));
}

/**
 * Writes the whole set in one CSV upload: the server takes the file as the complete set of CSV
 * users (users it omits lose the csv source and stop being monitored when no other source holds
 * them), so the set cannot be split over calls. A row the server refuses is an error.
 */
async function uploadUsers(api: Requester, space: string, names: string[]): Promise<void> {
  const content = usersCsv(names);
  const res = await api.request({ method: 'POST', path: `${PRIVMON_PATH}/users/_csv`, space, idempotent: true, multipart: { field: 'file', filename: 'users.csv', content, contentType: 'text/csv' } });
  const errors = Array.isArray(res.body?.errors) ? res.body.errors : [];
  if (errors.length) {
    const shown = errors.slice(0, 5).map((e: any) => {
      const row = typeof e?.index === 'number' ? names[e.index - 1] : e?.username;
      return `${row === undefined || row === null ? `row ${e?.index}` : JSON.stringify(shortText(String(row)))}: ${shortText(String(e?.message))}`;
    });
    throw new Error(`${errors.length} users could not be monitored: ${shown.join('; ')}${errors.length > 5 ? '; ...' : ''}`);
  }
}

async function setEnabled(api: Requester, space: string, enabled: boolean): Promise<void> {
  await api.request({ method: 'POST', path: `${PRIVMON_PATH}/engine/${enabled ? 'init' : 'disable'}`, space, idempotent: true });
}

/**
 * Privileged user monitoring of a space, one object per space (metadata.name
 * `privileged-user-monitoring`; routes from the OAS document, service-api.md line 473 names the
 * prefix): whether the engine runs, and the monitored users (`user.name`) as a complete set. The
 * object owns every monitored user of its space, whatever source added it: the set is written in
 * one CSV upload, and a user the manifest does not list that another source keeps monitored is
 * deleted by id. Deleting the object deletes the engine with its data (engine/delete?data=true),
 * which removes exactly the users index the object owns.
 */
export const privilegedUserMonitoringAdapter: KindAdapter = {
  kind: KIND,
  schema: 'PrivilegedUserMonitoring.schema.json',
  area: AREAS.entityAnalytics,
  setFields: ['/items'],

  references() {
    return [];
  },

  check(res) {
    const issues: Array<{ path: string[]; message: string }> = [];
    if (typeof res.spec.items_file === 'string') {
      const values = readFileValues(res);
      if (values instanceof Error) return [{ path: ['spec', 'items_file'], message: values.message }];
    }
    const names = namesOf(res);
    const field = ['spec', Array.isArray(res.spec.items) ? 'items' : 'items_file'];
    // The list route answers one search of 10,000 (also the server's default maxPrivilegedUsersAllowed):
    // a larger set could be written but never read back whole, so it is refused before anything is written.
    if (names.length > LIST_SIZE) issues.push({ path: field, message: `${names.length} users: the server's list route reads at most ${LIST_SIZE} monitored users, so a larger set cannot be planned` });
    // The upload's body limit is the server's own (413); said here so nothing is written first.
    const bytes = Buffer.byteLength(usersCsv(names));
    if (bytes > CSV_MAX_BYTES - 1024) {
      issues.push({ path: field, message: `the users make a CSV of ${bytes} bytes; the server's upload takes at most ${CSV_MAX_BYTES} bytes in one call, and the set cannot be split over calls` });
    }
    return issues;
  },

  async list(ctx, space) {
    const health = await ctx.api.request({ method: 'GET', path: `${PRIVMON_PATH}/privileges/health`, space });
    const status = health.body?.status;
    if (typeof status !== 'string') throw new ResponseError(`GET ${PRIVMON_PATH}/privileges/health: the answer holds no status`);
    if (status === 'not_installed') return [];
    const users = await monitoredUsers(ctx.api, space, health.body?.users?.current_count);
    return [{ kind: KIND, space, name: PRIVMON_NAME, body: { status, users: users.map((u) => u.name) }, extra: { users } } satisfies LiveObject];
  },

  normalizeDesired(res) {
    return { enabled: res.spec.enabled !== false, items: namesOf(res) };
  },

  normalizeLive(live) {
    return { enabled: live.body.status !== 'disabled', items: live.body.users ?? [] };
  },

  notices(_res, live) {
    return live.body.status === 'error' ? ['the monitoring engine reports an error (privileges/health)'] : [];
  },

  async create(ctx, res) {
    await setEnabled(ctx.api, res.space, true);
    const names = namesOf(res);
    if (names.length) await uploadUsers(ctx.api, res.space, names);
    if (res.spec.enabled === false) await setEnabled(ctx.api, res.space, false);
  },

  async update(ctx, res, live) {
    const enabled = res.spec.enabled !== false;
    const wasEnabled = live.body.status !== 'disabled';
    if (enabled && !wasEnabled) await setEnabled(ctx.api, live.space, true);
    const have: LiveUser[] = live.extra?.users ?? [];
    const want = namesOf(res);
    const { added, removed } = stringSetDifference(have.map((u) => u.name), want);
    if (added.length || removed.length) {
      const gone = new Set(removed);
      // Users the upload cannot unmonitor: another source than the CSV keeps them privileged.
      const others = have.filter((u) => gone.has(u.name) && u.sources.some((s) => s !== 'csv'));
      const csvUsers = have.some((u) => u.sources.includes('csv'));
      if (added.length || csvUsers) await uploadUsers(ctx.api, live.space, want);
      await Promise.all(others.map((u) => ctx.api.request({ method: 'DELETE', path: `${PRIVMON_PATH}/users/${encodeURIComponent(u.id)}`, space: live.space, accept: [404] })));
    }
    if (!enabled && wasEnabled) await setEnabled(ctx.api, live.space, false);
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: `${PRIVMON_PATH}/engine/delete`, space: live.space, query: { data: 'true' } });
  },

  toSpec(live) {
    const spec: Record<string, any> = live.body.status === 'disabled' ? { enabled: false } : {};
    const names: string[] = [...new Set<string>(live.body.users ?? [])].sort();
    // A name holding a line break cannot be a line of the file: such a set is exported inline.
    if (names.length <= INLINE_USERS_MAX || names.some((n) => n.includes('\n') || n.trim() === '')) {
      spec.items = names;
      return { spec };
    }
    spec.items_file = USERS_FILE;
    return { spec, files: { [USERS_FILE]: names.join('\n') + '\n' } };
  },
};
