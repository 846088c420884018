import type { EmulatorArea } from '../area.js';
import type { EmulatorContext } from '../context.js';
import { EmuError } from '../errors.js';
import { DEFAULT_ANONYMIZATION_FIELDS } from '../facts/anonymization-fields.js';
import type { EmuRequest } from '../router.js';
import * as z from '../zod.js';

/**
 * Anonymization fields of the AI assistant and attack discovery (service-api.md line 114, the
 * object: id, field, allowed, anonymized; line 437: generation needs `_id` allowed). Routes and
 * bodies from the OpenAPI document (generated/kbapi/oas-filtered.yaml at b76003905):
 * FindAnonymizationFields (GET .../_find: page ≥ 1 default 1, per_page ≥ 0 default 20,
 * sort_field, sort_order, filter, fields, all_data) and PerformAnonymizationFieldsBulkAction
 * (POST .../_bulk_action: create [AnonymizationFieldCreateProps: field R, allowed, anonymized],
 * update [AnonymizationFieldUpdateProps: id R, allowed, anonymized], delete {ids (min 1), query}).
 * Behaviour from the server's bulk route (elastic_assistant routes/anonymization_fields/
 * bulk_actions_route.ts): more than 100 updates is a 400; a create of a field the space has is a
 * 409; objects a bulk call cannot find are reported as errors with status 500. Bodies are
 * generated zod schemas: unknown keys are stripped. Fields are per space; a space gets its
 * defaults the first time it is read (facts/anonymization-fields.ts).
 */

const BASE = '/api/security_ai_assistant/anonymization_fields';
const MAX_UPDATES = 100;
const SORT_FIELDS = ['created_at', 'anonymized', 'allowed', 'field', 'updated_at'];

const CreateProps = z.object({ field: z.string(), allowed: z.optional(z.boolean()), anonymized: z.optional(z.boolean()) });
const UpdateProps = z.object({ id: z.string(), allowed: z.optional(z.boolean()), anonymized: z.optional(z.boolean()) });
const BulkBody = z.object({
  create: z.optional(z.array(CreateProps)),
  update: z.optional(z.array(UpdateProps)),
  delete: z.optional(z.object({ ids: z.optional(z.array(z.string(), { min: 1 })), query: z.optional(z.string()) })),
});

interface StoredField {
  id: string;
  field: string;
  allowed: boolean;
  anonymized: boolean;
  timestamp: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  namespace: string;
}

function fieldsOf(ctx: EmulatorContext, space: string): Record<string, StoredField> {
  return ctx.store.area<{ fields: Record<string, StoredField> }>(space, 'anonymization_fields', () => {
    const now = ctx.now().toISOString();
    const fields: Record<string, StoredField> = {};
    for (const d of DEFAULT_ANONYMIZATION_FIELDS) {
      const id = ctx.uuid();
      fields[id] = { id, field: d.field, allowed: d.allowed, anonymized: d.anonymized, timestamp: now, createdAt: now, createdBy: 'elastic', updatedAt: now, updatedBy: 'elastic', namespace: space };
    }
    return { fields };
  }).fields;
}

const securityError = (status: number, message: string) => new EmuError(status, message, 'security');

function queryInt(q: URLSearchParams, name: string, fallback: number, min: number): number {
  const raw = q.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n)) throw new EmuError(400, `[request query]: ${name}: Expected number, received nan`, 'platform');
  if (n < min) throw new EmuError(400, `[request query]: ${name}: Number must be greater than or equal to ${min}`, 'platform');
  return n;
}

/** `field:x OR id:y` style filters (what clients send); other filters select nothing they do not name. */
function filterOf(raw: string | null): (f: StoredField) => boolean {
  if (!raw || !raw.trim()) return () => true;
  const terms = raw.split(/\s+OR\s+/i).map((t) => t.trim().replace(/^\(|\)$/g, ''));
  const parsed = terms.map((t) => /^(field|id|allowed|anonymized)\s*:\s*"?([^"]*)"?$/.exec(t));
  if (parsed.some((p) => !p)) throw securityError(400, `Invalid filter: ${raw}`);
  return (f) => parsed.some((p) => String((f as any)[p![1]]) === p![2]);
}

function find(req: EmuRequest, ctx: EmulatorContext) {
  const page = queryInt(req.query, 'page', 1, 1);
  const perPage = queryInt(req.query, 'per_page', 20, 0);
  const sortField = req.query.get('sort_field');
  if (sortField !== null && !SORT_FIELDS.includes(sortField)) {
    throw new EmuError(400, `[request query]: sort_field: Invalid enum value. Expected ${SORT_FIELDS.map((s) => `'${s}'`).join(' | ')}, received '${sortField}'`, 'platform');
  }
  const order = req.query.get('sort_order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw new EmuError(400, `[request query]: sort_order: Invalid enum value. Expected 'asc' | 'desc', received '${order}'`, 'platform');
  const key = ({ created_at: 'createdAt', updated_at: 'updatedAt' } as Record<string, string>)[sortField ?? 'created_at'] ?? sortField!;
  const sign = order === 'asc' ? 1 : -1;
  const matching = Object.values(fieldsOf(ctx, req.space)).filter(filterOf(req.query.get('filter')));
  matching.sort((a, b) => {
    const x = String((a as any)[key]), y = String((b as any)[key]);
    return (x < y ? -1 : x > y ? 1 : a.field < b.field ? -1 : a.field > b.field ? 1 : 0) * sign;
  });
  const data = matching.slice((page - 1) * perPage, page * perPage).map((f) => ({ ...f }));
  const all = req.query.get('all_data') === 'true' ? { all: matching.map((f) => ({ ...f })) } : {};
  return { body: { page, perPage, total: matching.length, data, ...all } };
}

function bulk(req: EmuRequest, ctx: EmulatorContext) {
  const body = z.parseRequest(BulkBody, req.body ?? {});
  if ((body.update?.length ?? 0) > MAX_UPDATES) throw securityError(400, `More than ${MAX_UPDATES} ids sent for bulk edit action.`);
  const fields = fieldsOf(ctx, req.space);
  const creates: Array<{ field: string; allowed?: boolean; anonymized?: boolean }> = body.create ?? [];
  const taken = creates.filter((c) => Object.values(fields).some((f) => f.field === c.field)).map((c) => c.field);
  if (taken.length) throw securityError(409, `anonymization for field: "${taken.join(',')}" already exists`);
  const now = ctx.now().toISOString();
  const errors: Array<Record<string, unknown>> = [];
  const notFound = (id: string) => errors.push({ message: 'Anonymization field not found', status_code: 404, anonymization_fields: [{ id }] });
  const created: StoredField[] = [];
  for (const c of creates) {
    const id = ctx.uuid();
    const f: StoredField = { id, field: c.field, allowed: c.allowed ?? false, anonymized: c.anonymized ?? false, timestamp: now, createdAt: now, createdBy: req.user, updatedAt: now, updatedBy: req.user, namespace: req.space };
    fields[id] = f;
    created.push(f);
  }
  const updated: StoredField[] = [];
  for (const u of body.update ?? []) {
    const f = Object.prototype.hasOwnProperty.call(fields, u.id) ? fields[u.id] : undefined;
    if (!f) {
      notFound(u.id);
      continue;
    }
    if (u.allowed !== undefined) f.allowed = u.allowed;
    if (u.anonymized !== undefined) f.anonymized = u.anonymized;
    f.updatedAt = now;
    f.updatedBy = req.user;
    updated.push(f);
  }
  const deleted: string[] = [];
  for (const id of body.delete?.ids ?? []) {
    if (!Object.prototype.hasOwnProperty.call(fields, id)) {
      notFound(id);
      continue;
    }
    delete fields[id];
    deleted.push(id);
  }
  const results = { updated: updated.map((f) => ({ ...f })), created: created.map((f) => ({ ...f })), deleted, skipped: [] };
  const succeeded = updated.length + created.length + deleted.length;
  const summary = { failed: errors.length, succeeded, skipped: 0, total: succeeded + errors.length };
  if (errors.length) {
    return { status: 500, body: { message: succeeded > 0 ? 'Bulk edit partially failed' : 'Bulk edit failed', status_code: 500, attributes: { errors, results, summary } } };
  }
  return { body: { success: true, anonymization_fields_count: summary.total, attributes: { results, summary } } };
}

export const anonymizationFieldsArea: EmulatorArea = {
  name: 'anonymization_fields',
  register(router) {
    const opts = { errors: 'security' as const };
    router.get(`${BASE}/_find`, find, { ...opts, access: 'read' });
    router.post(`${BASE}/_bulk_action`, bulk, opts);
  },
};
