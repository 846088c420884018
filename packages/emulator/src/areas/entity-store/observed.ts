/**
 * The entities the emulator's logs show, one line per entity: what an install of each type's
 * engine extracts (a real store extracts them from the space's logs). Identifiers are EUIDs,
 * `<type>:<name>` (the watchlist routes' examples: "user:john.doe", "host:web-01").
 */
export const OBSERVED_ENTITIES: ReadonlyArray<{ id: string; type: string; name: string }> = [
  { id: 'host:dc01.corp.example', type: 'host', name: 'dc01.corp.example' },
  { id: 'host:build-01', type: 'host', name: 'build-01' },
  { id: 'host:kiosk-7', type: 'host', name: 'kiosk-7' },
  { id: 'user:alice', type: 'user', name: 'alice' },
  { id: 'user:bob', type: 'user', name: 'bob' },
  { id: 'user:svc-backup', type: 'user', name: 'svc-backup' },
  { id: 'user:vendor-acme', type: 'user', name: 'vendor-acme' },
  { id: 'service:payments-api', type: 'service', name: 'payments-api' },
  { id: 'generic:s3://audit-logs', type: 'generic', name: 's3://audit-logs' },
];
