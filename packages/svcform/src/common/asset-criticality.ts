/**
 * Asset criticality facts as svcform states them (service-api.md Entity analytics, "id_field
 * values" and "criticality_level values"; OAS schemas Security_Entity_Analytics_API_IdField,
 * _AssetCriticalityLevel and _AssetCriticalityLevelsForBulkUpload). The emulator keeps its own
 * copy (packages/emulator/src/facts/asset-criticality.ts), so the two never agree by construction.
 */
export const ID_FIELDS = ['host.name', 'user.name', 'service.name', 'entity.id'] as const;

/** The levels a record holds. */
export const CRITICALITY_LEVELS = ['low_impact', 'medium_impact', 'high_impact', 'extreme_impact'] as const;

/** Written through the bulk route, this level removes the record; in a manifest it means "no record". */
export const UNASSIGNED = 'unassigned';

/** Records per bulk call (service-api.md "POST /api/asset_criticality/bulk | records R (max 1000)"). */
export const MAX_BULK_RECORDS = 1000;

/** per_page of the list route: 1 to 1000 (service-api.md Limits). */
export const MAX_LIST_PER_PAGE = 1000;
