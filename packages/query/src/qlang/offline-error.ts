/** What a query uses that svcform cannot evaluate offline (`svcform test`, the emulator's preview). */
export class OfflineError extends Error {}
