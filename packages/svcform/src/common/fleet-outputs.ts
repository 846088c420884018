import { yaml } from './yaml.js';

/**
 * What the server fills in on a Fleet output (its fleet plugin: common/constants/output.ts,
 * common/services/output_helpers.ts and hosts_utils.ts; services/output.ts). svcform's own copy:
 * the emulator keeps another (packages/emulator/src/facts/fleet-outputs.ts), so the two never
 * agree by construction.
 */

/** config_yaml keys that make the server pick the `custom` preset (and refuse `balanced`). */
export const RESERVED_CONFIG_YML_KEYS = ['bulk_max_size', 'compression_level', 'connection_idle_timeout', 'queue.mem.events', 'queue.mem.flush.min_events', 'queue.mem.flush.timeout', 'worker'];

/** Output types that carry a performance preset. */
export const PRESET_OUTPUT_TYPES: readonly string[] = ['elasticsearch', 'remote_elasticsearch'];

function flatKeys(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return prefix ? [prefix] : [];
  return Object.entries(value).flatMap(([k, v]) => flatKeys(v, prefix ? `${prefix}.${k}` : k));
}

/** Whether config_yaml sets a reserved performance key (nested or dotted). */
export function setsReservedKey(configYaml: unknown): boolean {
  if (typeof configYaml !== 'string' || configYaml === '') return false;
  let parsed: unknown;
  try {
    parsed = yaml().parse(configYaml);
  } catch {
    return false;
  }
  const keys = flatKeys(parsed);
  return RESERVED_CONFIG_YML_KEYS.some((k) => keys.includes(k));
}

/** The preset the server gives an output whose body names none. */
export function presetFor(configYaml: unknown): 'balanced' | 'custom' {
  return setsReservedKey(configYaml) ? 'custom' : 'balanced';
}

/** An Elasticsearch host as the server stores it: port explicit (80/443), a bare `/` path dropped. */
export function storedHost(host: string): string {
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    return host;
  }
  const port = url.port !== '' ? url.port : url.protocol === 'http:' ? '80' : url.protocol === 'https:' ? '443' : '';
  return `${url.protocol}//${url.hostname}:${port}${url.pathname === '/' ? '' : url.pathname}`;
}

/** What a kafka output gets for a field its body leaves out. */
export const KAFKA_OUTPUT_DEFAULTS: Record<string, unknown> = { version: '1.0.0', compression: 'gzip', client_id: 'Elastic', partition: 'hash', timeout: 30, broker_timeout: 10, required_acks: 1 };
