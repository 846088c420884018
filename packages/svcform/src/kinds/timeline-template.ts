import type { CheckIssue, Resource } from '../manifest/types.js';
import { AREAS } from '../client/areas.js';
import { clone, dropNulls } from './normalize.js';
import { listAllPages } from './paging.js';
import type { AdapterContext, KindAdapter, LiveObject } from './types.js';

/**
 * Timeline templates (/api/timeline, /api/timelines; service-api.md Timelines). Identity:
 * metadata.name is the template's `templateTimelineId`, the id rules name in `timeline_id`.
 * Through the CRUD routes: service-api.md gives their methods, paths and shapes, while the
 * NDJSON import/export routes have no documented path and take whole files. Updates are PATCHes
 * (a partial update): fields the manifest leaves out are sent as null so that they are cleared.
 * Prebuilt templates (status `immutable`) are read-only.
 *
 * Top-level parameters are sent in both spellings (service-api.md: snake case; the real routes:
 * camel case); both route schemas strip keys they do not know, so either server reads its own.
 */

const TIMELINE_PATH = '/api/timeline';
const FIND_PATH = '/api/timelines';
const PAGE_SIZE = 100;

/** SavedTimeline fields a manifest may set (the rest is server-managed or per user). */
export const TEMPLATE_FIELDS = [
  'title', 'description', 'columns', 'dataProviders', 'dataViewId', 'dateRange', 'eqlOptions', 'excludedRowRendererIds', 'filters',
  'indexNames', 'kqlMode', 'kqlQuery', 'savedQueryId', 'sort',
];

function specOf(body: Record<string, any>): Record<string, any> {
  const spec: Record<string, any> = {};
  for (const key of TEMPLATE_FIELDS) if (body[key] !== undefined && body[key] !== null) spec[key] = dropNulls(clone(body[key]));
  return spec;
}

function timelineBody(res: Resource, templateVersion: number): Record<string, any> {
  const timeline: Record<string, any> = {};
  for (const key of TEMPLATE_FIELDS) timeline[key] = res.spec[key] === undefined ? null : clone(res.spec[key]);
  return { ...timeline, timelineType: 'template', templateTimelineId: res.name, templateTimelineVersion: templateVersion, status: 'active' };
}

const KQL_MODES = ['filter', 'search'];

export const timelineTemplateAdapter: KindAdapter = {
  kind: 'TimelineTemplate',
  schema: 'TimelineTemplate.schema.json',
  area: AREAS.timeline,
  setFields: ['/indexNames', '/excludedRowRendererIds'],

  references: () => [],

  /**
   * The route takes kqlMode as any text (Security_Timeline_API_SavedTimeline: a nullable string),
   * so another value is not refused; the timeline has only these two modes, so it is pointed out.
   */
  check(res: Resource): CheckIssue[] {
    const mode = res.spec.kqlMode;
    if (typeof mode !== 'string' || KQL_MODES.includes(mode)) return [];
    return [{ path: ['spec', 'kqlMode'], severity: 'warning', message: `kqlMode ${JSON.stringify(mode)} is neither filter nor search, the timeline's two modes; the server stores it as written` }];
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const templates = await listAllPages<Record<string, any>>(ctx.api, {
      path: FIND_PATH,
      space,
      query: { timeline_type: 'template', sort_field: 'created', sort_order: 'asc' },
      pageParam: 'page_index',
      sizeParam: 'page_size',
      pageSize: PAGE_SIZE,
      items: (body) => body.timeline,
      total: (body) => body.totalCount,
    });
    return templates
      .filter((t) => typeof t.templateTimelineId === 'string')
      .map((body) => ({
        kind: 'TimelineTemplate',
        space,
        name: body.templateTimelineId,
        serverId: body.savedObjectId,
        body,
        readOnly: body.status === 'immutable' ? 'prebuilt timeline template (status immutable)' : undefined,
      }));
  },

  normalizeDesired(res: Resource) {
    return dropNulls(clone(res.spec));
  },

  normalizeLive(live: LiveObject) {
    return specOf(live.body);
  },

  async create(ctx, res) {
    const timeline = timelineBody(res, 1);
    await ctx.api.request({
      method: 'POST',
      path: TIMELINE_PATH,
      space: res.space,
      // The template id is ours: a repeat after a lost answer is refused as a duplicate, not doubled.
      idempotent: true,
      body: {
        timeline,
        status: 'active',
        timeline_type: 'template', timelineType: 'template',
        template_timeline_id: res.name, templateTimelineId: res.name,
        template_timeline_version: 1, templateTimelineVersion: 1,
      },
    });
  },

  async update(ctx, res, live) {
    // A template's version must grow with every change (the server refuses an older or equal one).
    const next = (Number(live.body.templateTimelineVersion) || 1) + 1;
    await ctx.api.request({
      method: 'PATCH',
      path: TIMELINE_PATH,
      space: res.space,
      body: { timeline_id: live.serverId, timelineId: live.serverId, version: live.body.version ?? null, timeline: timelineBody(res, next) },
    });
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: TIMELINE_PATH, space: live.space, body: { saved_object_ids: [live.serverId], savedObjectIds: [live.serverId] } });
  },

  toSpec(live: LiveObject) {
    return { spec: specOf(live.body) };
  },
};
