/**
 * Entity store facts as svcform states them (service-api.md Entity analytics "Entity store install
 * | entity_types, log_extraction (frequency, lookbackPeriod)"; the server's entity_store plugin:
 * EntityType user, host, service, generic; the status example's defaults). The emulator keeps its
 * own copy (packages/emulator/src/facts/entity-store.ts).
 */
export const ENTITY_TYPES = ['user', 'host', 'service', 'generic'] as const;

/** Log extraction settings of an install that names none. */
export const LOG_EXTRACTION_DEFAULTS = { frequency: '30s', delay: '1m', lookbackPeriod: '3h' } as const;

/** The public routes' prefix in 9.4 (service-api.md line 473: /api/security/entity_store). */
export const ENTITY_STORE_PATH = '/api/security/entity_store';

/** The one name a space's entity store has (the schema allows no other). */
export const ENTITY_STORE_NAME = 'entity-store';
