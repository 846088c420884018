import type { Resource } from '../manifest/types.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from './types.js';
import { listAllPages } from './paging.js';
import { AREAS } from '../client/areas.js';

const KIND = 'ProtectionUpdatesNote';
const NOTE_PATH = '/api/endpoint/protection_updates_note';
const POLICIES_PATH = '/api/fleet/package_policies';

/**
 * The protection-updates note of a package policy: one free-text note per policy, read and written
 * at /api/endpoint/protection_updates_note/{package_policy_id} (the OAS: GetProtectionUpdatesNote,
 * CreateUpdateProtectionUpdatesNote). metadata.name is the package policy id, and so is
 * spec.package_policy_id, which states the reference (a policy created in the same apply is
 * written first).
 *
 * The API lists no notes and deletes none: a space's notes are read one GET per package policy of
 * the space (404 where a policy has none), and a delete writes an empty note, which the listing
 * reads as no note, as the real server's UI does.
 */
async function readNote(ctx: AdapterContext, space: string, policyId: string): Promise<string | undefined> {
  const res = await ctx.api.request<{ note?: unknown }>({ method: 'GET', path: `${NOTE_PATH}/${encodeURIComponent(policyId)}`, space, accept: [404] });
  return res.status === 200 && typeof res.body?.note === 'string' && res.body.note !== '' ? res.body.note : undefined;
}

async function writeNote(ctx: AdapterContext, space: string, policyId: string, note: string): Promise<void> {
  await ctx.api.request({ method: 'POST', path: `${NOTE_PATH}/${encodeURIComponent(policyId)}`, space, body: { note } });
}

/** The ids of the space's package policies: the run's own listing of them when it reads one. */
async function packagePolicyIds(ctx: AdapterContext, space: string): Promise<string[]> {
  const listed = (await ctx.run.awaitListing('PackagePolicy', space)) as readonly LiveObject[] | undefined;
  if (listed) return listed.map((o) => o.name);
  const items = await listAllPages<{ id: string }>(ctx.api, {
    path: POLICIES_PATH,
    space,
    query: { sortField: 'name', sortOrder: 'asc' },
    sizeParam: 'perPage',
    pageSize: 1000,
    items: (body) => body.items ?? [],
    total: (body) => body.total ?? 0,
  });
  return items.map((p) => p.id);
}

export const protectionUpdatesNoteAdapter: KindAdapter = {
  kind: KIND,
  schema: 'ProtectionUpdatesNote.schema.json',
  area: AREAS.endpoint,
  referenceKinds: ['PackagePolicy'],

  /** Refused when missing: the route first finds the package policy in the caller's space and answers 404 without it. */
  references(spec): Reference[] {
    return typeof spec.package_policy_id === 'string' ? [{ kind: 'PackagePolicy', name: spec.package_policy_id, path: ['spec', 'package_policy_id'], whenMissing: 'refused' }] : [];
  },

  check(res: Resource): CheckIssue[] {
    if (res.spec.package_policy_id === res.name) return [];
    return [{ path: ['spec', 'package_policy_id'], message: `spec.package_policy_id must be the manifest's metadata.name (${JSON.stringify(res.name)}): a note is named by the package policy it belongs to, which has one note` }];
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const ids = await packagePolicyIds(ctx, space);
    const notes = await Promise.all(ids.map(async (id) => ({ id, note: await readNote(ctx, space, id) })));
    return notes.flatMap(({ id, note }) => (note === undefined ? [] : [{ kind: KIND, space, name: id, body: { package_policy_id: id, note } }]));
  },

  normalizeDesired(res: Resource) {
    return { package_policy_id: res.spec.package_policy_id, note: res.spec.note };
  },

  normalizeLive(live: LiveObject) {
    return { package_policy_id: live.name, note: live.body.note };
  },

  async create(ctx: AdapterContext, res: Resource) {
    await writeNote(ctx, res.space, res.name, res.spec.note);
  },

  async update(ctx: AdapterContext, res: Resource) {
    await writeNote(ctx, res.space, res.name, res.spec.note);
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    await writeNote(ctx, live.space, live.name, '');
  },

  toSpec(live: LiveObject) {
    return { spec: { package_policy_id: live.name, note: live.body.note } };
  },
};
