/** A space's uptime settings as the API answers them (service-api.md Uptime settings). * The emulator's own copy; svcform keeps another (packages/svcform/src/common/), so a wrong value
 * on either side fails the conformance tests instead of agreeing by construction.
 */
export interface UptimeSettings {
  heartbeatIndices: string;
  certExpirationThreshold: number;
  certAgeThreshold: number;
  defaultConnectors: string[];
  defaultEmail: { to: string[]; cc: string[]; bcc: string[] };
}

/**
 * The defaults service-api.md documents (its table and "Uptime thresholds | defaults | 30 and 730
 * days"), as the emulator answers them and the UptimeSettings kind reads them. The index pattern is the document's
 * `<monitor-agent>-*`, which wins over the value wire-facts §12 gives (the kind reads both as the default).
 */
export function uptimeDefaults(): UptimeSettings {
  return {
    heartbeatIndices: '<monitor-agent>-*',
    certExpirationThreshold: 30,
    certAgeThreshold: 730,
    defaultConnectors: [],
    defaultEmail: { to: [], cc: [], bcc: [] },
  };
}
