/** A space's uptime settings as the API answers them (service-api.md Uptime settings). */
export interface UptimeSettings {
  heartbeatIndices: string;
  certExpirationThreshold: number;
  certAgeThreshold: number;
  defaultConnectors: string[];
  defaultEmail: { to: string[]; cc: string[]; bcc: string[] };
}

/**
 * The defaults service-api.md documents (its table and "Uptime thresholds | defaults | 30 and 730
 * days"), for the emulator and the UptimeSettings kind alike. The index pattern is the document's
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
