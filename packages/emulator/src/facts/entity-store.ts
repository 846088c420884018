/**
 * Entity store facts as the emulator states them (svcform keeps its own copy in
 * packages/svcform/src/common/entity-store.ts). Sources: the entity_store plugin of the server,
 * common/domain/definitions/entity_schema (`EntityType`: user, host, service, generic) and the
 * status example routes/apis/examples/entity_store_status.yaml (the cadence defaults).
 */
export const ENTITY_TYPES = ['user', 'host', 'service', 'generic'] as const;

/** The log extraction settings a fresh install holds (status example: frequency 30s, delay 1m, lookbackPeriod 3h). */
export const LOG_EXTRACTION_DEFAULTS = { frequency: '30s', delay: '1m', lookbackPeriod: '3h' } as const;

/** install/update: `frequency` must be a duration of at least 30 seconds (log_extraction_validator.ts MIN_FREQUENCY_MS). */
export const MIN_FREQUENCY_MS = 30_000;
