import { array, boolean, enumOf, nullable, number, object, optional, string, union, type Schema, type Shape } from '../../zod.js';

/**
 * Request schemas of the timeline routes (OAS Security_Timeline_API_SavedTimeline and the
 * CreateTimelines, PatchTimeline and DeleteTimelines bodies). Every SavedTimeline field is
 * optional and nullable; unknown keys are stripped, as generated zod objects do.
 *
 * Top-level parameter names: service-api.md spells them in snake case (template_timeline_id,
 * timeline_id, saved_object_ids); the real routes in camel case (templateTimelineId, timelineId,
 * savedObjectIds). The emulator takes the document's unless the `timelines.camel-case` real
 * behaviour is on.
 */

const n = <T>(s: Schema<T>) => optional(nullable(s));
const strings = () => array(string());
const openObject = () => object({}, 'open');
const stringOrNumber = () => union([string(), number()]);
const b = () => n(boolean());
const str = () => n(string());

/** OAS Security_Timeline_API_ColumnHeaderResult. */
const column = () => object({ aggregatable: b(), category: str(), columnHeaderType: str(), description: str(), id: str(), indexes: n(strings()), name: str(), placeholder: str(), searchable: b(), type: str() });
/** OAS Security_Timeline_API_QueryMatchResult: `value` a string or a list of strings. */
const queryMatch = () => object({ displayField: str(), displayValue: str(), field: str(), operator: str(), value: n(union([string(), strings()])) });
/** OAS Security_Timeline_API_DataProviderQueryMatch; a DataProviderResult adds `and`, a list of these. */
const providerFields = (): Shape => ({ enabled: b(), excluded: b(), id: str(), kqlQuery: str(), name: str(), queryMatch: n(queryMatch()), type: n(enumOf(['default', 'template'])) });
const dataProvider = () => object({ ...providerFields(), and: n(array(object(providerFields()))) });
/** OAS Security_Timeline_API_FilterTimelineResult: every part a serialized string. */
const filterMeta = () => object({ alias: str(), controlledBy: str(), disabled: b(), field: str(), formattedValue: str(), index: str(), key: str(), negate: b(), params: str(), type: str(), value: str() });
const filter = () => object({ exists: str(), match_all: str(), meta: n(filterMeta()), missing: str(), query: str(), range: str(), script: str() });
/** OAS Security_Timeline_API_SerializedFilterQueryResult. */
const kqlQuery = () => object({ filterQuery: n(object({ kuery: n(object({ expression: str(), kind: str() })), serializedQuery: str() })) });
/** OAS Security_Timeline_API_Sort: one SortObject or a list of them. */
const sortObject = () => object({ columnId: str(), columnType: str(), sortDirection: str() });

export const TIMELINE_TYPES = ['default', 'template'] as const;
export const TIMELINE_STATUSES = ['active', 'draft', 'immutable'] as const;

export const savedTimelineShape: Shape = {
  columns: n(array(column())),
  created: n(number()),
  createdBy: n(string()),
  dataProviders: n(array(dataProvider())),
  dataViewId: n(string()),
  dateRange: n(object({ start: n(stringOrNumber()), end: n(stringOrNumber()) })),
  description: n(string()),
  eqlOptions: n(object({ eventCategoryField: n(string()), query: n(string()), size: n(stringOrNumber()), tiebreakerField: n(string()), timestampField: n(string()) })),
  eventType: n(string()),
  excludedRowRendererIds: n(strings()),
  favorite: n(array(openObject())),
  filters: n(array(filter())),
  indexNames: n(strings()),
  kqlMode: n(string()),
  kqlQuery: n(kqlQuery()),
  savedQueryId: n(string()),
  savedSearchId: n(string()),
  sort: n(union([sortObject(), array(sortObject())])),
  status: n(enumOf(TIMELINE_STATUSES)),
  templateTimelineId: n(string()),
  templateTimelineVersion: n(number()),
  timelineType: n(enumOf(TIMELINE_TYPES)),
  title: n(string()),
  updated: n(number()),
  updatedBy: n(string()),
};

export const savedTimeline = () => object(savedTimelineShape);

export interface ParamNames {
  templateTimelineId: string;
  templateTimelineVersion: string;
  timelineId: string;
  timelineType: string;
  savedObjectIds: string;
  searchIds: string;
}

export const DOC_NAMES: ParamNames = {
  templateTimelineId: 'template_timeline_id',
  templateTimelineVersion: 'template_timeline_version',
  timelineId: 'timeline_id',
  timelineType: 'timeline_type',
  savedObjectIds: 'saved_object_ids',
  searchIds: 'search_ids',
};

export const REAL_NAMES: ParamNames = {
  templateTimelineId: 'templateTimelineId',
  templateTimelineVersion: 'templateTimelineVersion',
  timelineId: 'timelineId',
  timelineType: 'timelineType',
  savedObjectIds: 'savedObjectIds',
  searchIds: 'searchIds',
};

export function createSchema(p: ParamNames) {
  return object({
    timeline: savedTimeline(),
    status: n(enumOf(TIMELINE_STATUSES)),
    [p.templateTimelineId]: n(string()),
    [p.templateTimelineVersion]: n(number()),
    [p.timelineId]: n(string()),
    [p.timelineType]: n(enumOf(TIMELINE_TYPES)),
    version: n(string()),
  });
}

export function patchSchema(p: ParamNames) {
  return object({ timeline: savedTimeline(), [p.timelineId]: nullable(string()), version: nullable(string()) });
}

export function deleteSchema(p: ParamNames) {
  return object({ [p.savedObjectIds]: array(string(), { max: 100 }), [p.searchIds]: optional(strings()) });
}

