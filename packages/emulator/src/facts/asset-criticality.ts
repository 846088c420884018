/**
 * Asset criticality facts (service-api.md Entity analytics, "id_field values" and
 * "criticality_level values"; OAS schemas Security_Entity_Analytics_API_IdField,
 * _AssetCriticalityLevel and _AssetCriticalityLevelsForBulkUpload). The emulator's own copy;
 * svcform keeps another (packages/svcform/src/common/asset-criticality.ts), so a wrong value on
 * either side fails the conformance tests instead of agreeing by construction.
 */
export const ID_FIELDS = ['host.name', 'user.name', 'service.name', 'entity.id'] as const;
export type IdField = (typeof ID_FIELDS)[number];

/** The levels a record holds. */
export const CRITICALITY_LEVELS = ['low_impact', 'medium_impact', 'high_impact', 'extreme_impact'] as const;

/** The bulk route also takes `unassigned`, which removes the record (only there). */
export const BULK_CRITICALITY_LEVELS = [...CRITICALITY_LEVELS, 'unassigned'] as const;

/** Records per bulk call (service-api.md line "POST /api/asset_criticality/bulk | records R (max 1000)"; OAS maxItems 1000). */
export const MAX_BULK_RECORDS = 1000;

/** per_page of the list route: 1 to 1000 (service-api.md Limits; OAS FindAssetCriticalityRecords). */
export const MAX_LIST_PER_PAGE = 1000;
