import type { Resource } from '../manifest/types.js';
import { ApiError } from '../client/errors.js';
import { listAllPages } from './paging.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, ListOptions } from './types.js';
import { AREAS } from '../client/areas.js';

/**
 * Anonymization fields of the AI assistant and attack discovery: which alert fields the model may
 * see (`allowed`) and which it sees replaced by stand-ins (`anonymized`). service-api.md line 114
 * (the object) and line 437; routes from the OpenAPI document (FindAnonymizationFields,
 * PerformAnonymizationFieldsBulkAction). metadata.name is the field, unique in its space; the
 * server's id is generated. Every write goes through the bulk route, one object per call.
 *
 * `_id` must stay allowed: the server stores `allowed: false` for it, but every attack-discovery
 * generation then fails (service-api.md line 437, "the `_id` field must be present and allowed").
 * That is a validate error, not a warning: such a manifest has no working use, and the server
 * does refuse it, at the generate call instead of the write (see README, AI settings).
 */

const BASE = '/api/security_ai_assistant/anonymization_fields';
const PAGE_SIZE = 1000;
/** The field attack discovery cannot work without (service-api.md line 437). */
export const REQUIRED_ALLOWED_FIELD = '_id';
const KEPT_ID = 'the server seeds it, and every attack discovery generation fails without it; a manage scope never deletes it (declare it to manage it)';

function canonical(fields: { allowed?: unknown; anonymized?: unknown }): Record<string, boolean> {
  // A create without a flag stores false (the bulk route's create).
  return { allowed: fields.allowed === true, anonymized: fields.anonymized === true };
}

async function bulk(ctx: AdapterContext, space: string, body: Record<string, unknown>, idempotent: boolean): Promise<void> {
  await ctx.api.request({ method: 'POST', path: `${BASE}/_bulk_action`, space, body, idempotent });
}

export const anonymizationFieldAdapter: KindAdapter = {
  kind: 'AnonymizationField',
  schema: 'AnonymizationField.schema.json',
  area: AREAS.attackDiscovery,

  references() {
    return [];
  },

  check(res: Resource): CheckIssue[] {
    if (res.name !== REQUIRED_ALLOWED_FIELD || res.spec.allowed === true) return [];
    const set = res.spec.allowed !== undefined;
    const why = 'every attack discovery generation fails without it (the server stores the field, then refuses each run)';
    return [
      set
        ? { path: ['spec', 'allowed'], message: `spec.allowed must stay true for ${REQUIRED_ALLOWED_FIELD}: ${why}; set allowed: true, or leave ${REQUIRED_ALLOWED_FIELD} out of the manifests` }
        : { path: ['spec'], message: `spec.allowed is required for ${REQUIRED_ALLOWED_FIELD}, and must be true (left out, it is false): ${why}` },
    ];
  },

  async list(ctx: AdapterContext, space: string, options?: ListOptions): Promise<LiveObject[]> {
    const items = await listAllPages<Record<string, any>>(ctx.api, {
      path: `${BASE}/_find`,
      space,
      // A stable order so that pages read together neither overlap nor skip.
      query: { sort_field: 'field', sort_order: 'asc' },
      sizeParam: 'per_page',
      pageSize: PAGE_SIZE,
      items: (body) => body.data ?? [],
      total: (body) => body.total ?? 0,
      expected: options?.expected,
    });
    // `_id` is one of the defaults the server seeds each space with, and attack discovery cannot
    // run without it: a manage scope that owns the space's fields never deletes it undeclared.
    return items.map((body) => ({ kind: 'AnonymizationField', space, name: body.field, serverId: body.id, body, ...(body.field === REQUIRED_ALLOWED_FIELD ? { serverOwned: KEPT_ID } : {}) }));
  },

  normalizeDesired(res: Resource) {
    return canonical(res.spec);
  },

  normalizeLive(live: LiveObject) {
    return canonical(live.body);
  },

  async create(ctx: AdapterContext, res: Resource) {
    await bulk(ctx, res.space, { create: [{ field: res.name, ...canonical(res.spec) }] }, false);
  },

  async update(ctx: AdapterContext, res: Resource, live: LiveObject) {
    // Both flags every time: the same call repeated leaves the same object.
    await bulk(ctx, live.space, { update: [{ id: live.serverId, ...canonical(res.spec) }] }, true);
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    try {
      await bulk(ctx, live.space, { delete: { ids: [live.serverId] } }, false);
    } catch (err) {
      // The bulk route answers a field it cannot find with 500 (its error list): gone is what a delete wants.
      if (!(err instanceof ApiError) || err.status !== 500) throw err;
      const still = await anonymizationFieldAdapter.list(ctx, live.space);
      if (still.some((o) => o.serverId === live.serverId)) throw err;
    }
  },

  toSpec(live: LiveObject) {
    return { spec: canonical(live.body) };
  },
};
