import type { EmulatorArea } from '../../area.js';
import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { parseRequest } from '../../zod.js';
import { createSchema, deleteSchema, DOC_NAMES, patchSchema, REAL_NAMES, type ParamNames } from './schema.js';

/**
 * Timelines and timeline templates (service-api.md Timelines; OAS CreateTimelines, GetTimeline,
 * GetTimelines, PatchTimeline, DeleteTimelines). A template is a timeline with
 * `timelineType: template`, identified across spaces and exports by its `templateTimelineId`
 * (generated when the create gives none) and versioned by `templateTimelineVersion`.
 */

type Timeline = Record<string, any>;

interface TimelinesState {
  byId: Record<string, Timeline>;
}

const state = (ctx: EmulatorContext, space: string) => ctx.store.area<TimelinesState>(space, 'timelines', () => ({ byId: {} }));
const securityError = (status: number, message: string) => new EmuError(status, message, 'security');
const names = (ctx: EmulatorContext): ParamNames => (ctx.settings.realRoutes.has('timelines.camel-case') ? REAL_NAMES : DOC_NAMES);

/** The saved-object version string of the n-th write (the server's is an opaque base64 token). */
const versionToken = (n: number) => Buffer.from(JSON.stringify([n, 1])).toString('base64');

const EMPTY_RELATIONS = { favorite: [], noteIds: [], notes: [], eventIdToNoteIds: [], pinnedEventIds: [], pinnedEventsSaveObject: [] };
const SERVER_KEYS = ['created', 'createdBy', 'updated', 'updatedBy', 'favorite'];

function timelineFields(timeline: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(timeline)) if (v !== undefined && !SERVER_KEYS.includes(k)) out[k] = structuredClone(v);
  return out;
}

function byTemplateId(s: TimelinesState, id: string): Timeline | undefined {
  return Object.values(s.byId).find((t) => t.timelineType === 'template' && t.templateTimelineId === id);
}

function createTimeline(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const p = names(ctx);
  const body = parseRequest(createSchema(p), req.body);
  const s = state(ctx, req.space);
  const fields = timelineFields(body.timeline);
  const type = fields.timelineType ?? body[p.timelineType] ?? 'default';
  if (body[p.timelineId]) throw securityError(405, 'You cannot create a timeline that already has a timeline id: use PATCH');
  const now = ctx.now().getTime();
  const timeline: Timeline = { ...fields, timelineType: type, status: fields.status ?? body.status ?? 'active' };
  if (type === 'template') {
    timeline.templateTimelineId = fields.templateTimelineId ?? body[p.templateTimelineId] ?? ctx.uuid();
    timeline.templateTimelineVersion = fields.templateTimelineVersion ?? body[p.templateTimelineVersion] ?? 1;
    if (byTemplateId(s, timeline.templateTimelineId)) throw securityError(409, `Template timeline with templateTimelineId "${timeline.templateTimelineId}" already exists`);
  } else {
    timeline.templateTimelineId = null;
    timeline.templateTimelineVersion = null;
  }
  const id = ctx.uuid();
  const stored: Timeline = { ...timeline, savedObjectId: id, version: versionToken(1), writes: 1, created: now, createdBy: req.user, updated: now, updatedBy: req.user };
  s.byId[id] = stored;
  return { body: response(stored) };
}

function response(t: Timeline): Timeline {
  const { writes: _w, ...rest } = t;
  return { ...rest, ...structuredClone(EMPTY_RELATIONS) };
}

function readTimeline(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const s = state(ctx, req.space);
  const id = req.query.get('id');
  const templateId = req.query.get('template_timeline_id');
  // service-api.md Errors: "Timeline get with neither id nor template_timeline_id: 500".
  if (!id && !templateId) throw new EmuError(500, 'An internal server error occurred', 'security');
  const found = id ? s.byId[id] : byTemplateId(s, templateId!);
  if (!found) throw securityError(404, `Timeline ${id ?? templateId} not found`);
  return { body: response(found) };
}

const SORT_FIELDS = ['title', 'description', 'updated', 'created'];

function findTimelines(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const q = req.query;
  const type = q.get('timeline_type');
  const status = q.get('status');
  const sortField = q.get('sort_field');
  const sortOrder = q.get('sort_order') ?? 'desc';
  if (type !== null && type !== 'default' && type !== 'template') throw new EmuError(400, `[request query]: timeline_type: Invalid enum value. Expected 'default' | 'template', received '${type}'`, 'platform');
  if (sortField !== null && !SORT_FIELDS.includes(sortField)) throw new EmuError(400, `[request query]: sort_field: Invalid enum value. Expected ${SORT_FIELDS.map((f) => `'${f}'`).join(' | ')}, received '${sortField}'`, 'platform');
  const pageSize = Number(q.get('page_size') ?? 10);
  const pageIndex = Number(q.get('page_index') ?? 1);
  if (!Number.isInteger(pageSize) || pageSize < 1 || !Number.isInteger(pageIndex) || pageIndex < 1) throw new EmuError(400, '[request query]: page_size and page_index must be positive integers', 'platform');
  const search = (q.get('search') ?? '').toLowerCase();
  const all = Object.values(state(ctx, req.space).byId).filter((t) => t.status !== 'draft' || status === 'draft');
  let matching = all.filter((t) => (type === null || t.timelineType === type) && (status === null || t.status === status) && (!search || String(t.title ?? '').toLowerCase().includes(search)));
  if (sortField) {
    const dir = sortOrder === 'asc' ? 1 : -1;
    matching = [...matching].sort((a, b) => (a[sortField] < b[sortField] ? -dir : a[sortField] > b[sortField] ? dir : 0));
  }
  const templates = all.filter((t) => t.timelineType === 'template');
  return {
    body: {
      timeline: matching.slice((pageIndex - 1) * pageSize, pageIndex * pageSize).map(response),
      totalCount: matching.length,
      defaultTimelineCount: all.filter((t) => t.timelineType !== 'template').length,
      templateTimelineCount: templates.length,
      favoriteCount: 0,
      elasticTemplateTimelineCount: templates.filter((t) => t.status === 'immutable').length,
      customTemplateTimelineCount: templates.filter((t) => t.status !== 'immutable').length,
    },
  };
}

/** PATCH: a partial update of the timeline saved object, guarded by its version token. */
function patchTimeline(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const p = names(ctx);
  const body = parseRequest(patchSchema(p), req.body);
  const s = state(ctx, req.space);
  const id = body[p.timelineId];
  const existing = id ? s.byId[id] : undefined;
  if (!existing) throw securityError(404, `Timeline ${id} not found`);
  if (existing.status === 'immutable') throw securityError(405, 'Immutable timelines and templates cannot be updated');
  if (body.version !== null && body.version !== existing.version) throw securityError(409, 'You cannot update a timeline with an outdated version: read it again');
  const fields = timelineFields(body.timeline);
  if (fields.timelineType !== undefined && fields.timelineType !== existing.timelineType) throw securityError(405, 'The type of a timeline cannot change');
  if (existing.timelineType === 'template') {
    if (fields.templateTimelineId !== undefined && fields.templateTimelineId !== existing.templateTimelineId) throw securityError(405, 'templateTimelineId cannot change');
    const next = fields.templateTimelineVersion;
    if (next !== undefined && next !== null && next <= existing.templateTimelineVersion) {
      throw securityError(409, `Template timelineVersion conflict: the given version ${next} is not newer than ${existing.templateTimelineVersion}`);
    }
  }
  const writes = existing.writes + 1;
  const updated: Timeline = { ...existing, ...fields, version: versionToken(writes), writes, updated: ctx.now().getTime(), updatedBy: req.user };
  s.byId[existing.savedObjectId] = updated;
  return { body: response(updated) };
}

function deleteTimelines(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const p = names(ctx);
  const body = parseRequest(deleteSchema(p), req.body);
  const s = state(ctx, req.space);
  for (const id of body[p.savedObjectIds]) {
    if (!s.byId[id]) throw securityError(404, `Timeline ${id} not found`);
  }
  for (const id of body[p.savedObjectIds]) delete s.byId[id];
  return { body: {} };
}

export const timelinesArea: EmulatorArea = {
  name: 'timelines',
  register(router) {
    const security = { errors: 'security' as const };
    router.post('/api/timeline', createTimeline, security);
    router.get('/api/timeline', readTimeline, security);
    router.patch('/api/timeline', patchTimeline, security);
    router.delete('/api/timeline', deleteTimelines, security);
    router.get('/api/timelines', findTimelines, security);
  },
};
