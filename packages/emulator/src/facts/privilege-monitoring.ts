/**
 * Privileged user monitoring facts as the emulator states them (svcform keeps its own copy in
 * packages/svcform/src/common/privilege-monitoring.ts). Sources: the server's security_solution
 * common/entity_analytics/privileged_user_monitoring/constants.ts (PRIVMON_USERS_CSV_MAX_SIZE_BYTES
 * 1 MiB plus PRIVMON_USERS_CSV_SIZE_TOLERANCE_BYTES 50 KiB), server/config.ts
 * (entityAnalytics.monitoring.privileges.users.maxPrivilegedUsersAllowed, 10,000 by default) and
 * users/privileged_users_crud.ts list (one search of size 10,000).
 */
export const PRIVMON_PATH = '/api/entity_analytics/monitoring';

/** The multipart body the CSV upload route accepts (options.body.maxBytes). */
export const CSV_MAX_BYTES = 1024 * 1024 + 1024 * 50;

/** maxPrivilegedUsersAllowed: the create route refuses a user beyond it. */
export const MAX_PRIVILEGED_USERS = 10_000;

/** The list route answers at most this many users (its search's size). */
export const LIST_SIZE = 10_000;
