/**
 * Privileged user monitoring facts as svcform states them (the emulator keeps its own copy in
 * packages/emulator/src/facts/privilege-monitoring.ts). Sources: service-api.md line 473 (the
 * prefix), the OAS document's /api/entity_analytics/monitoring/* paths, and the server's
 * security_solution common/entity_analytics/privileged_user_monitoring/constants.ts (CSV body limit)
 * and users/privileged_users_crud.ts (the list route answers one search of 10,000).
 */
export const PRIVMON_PATH = '/api/entity_analytics/monitoring';

/** The CSV upload's body limit: 1 MiB plus a 50 KiB tolerance (PRIVMON_USERS_CSV_MAX_SIZE_BYTES_WITH_TOLERANCE). */
export const CSV_MAX_BYTES = 1024 * 1024 + 1024 * 50;

/** The list route's one search: at most this many users per answer, with no cursor. */
export const LIST_SIZE = 10_000;

/** The one name a space's monitoring object has (the schema allows no other). */
export const PRIVMON_NAME = 'privileged-user-monitoring';
