import { yaml } from '../yaml.js';

/**
 * Fleet output facts the emulator states (the server's fleet plugin: common/constants/output.ts,
 * common/services/output_helpers.ts, common/services/hosts_utils.ts). The emulator's own copy;
 * svcform keeps another (packages/svcform/src/common/fleet-outputs.ts), so a wrong value on either
 * side fails the conformance tests instead of agreeing by construction.
 */

export const OUTPUT_TYPES = ['elasticsearch', 'remote_elasticsearch', 'logstash', 'kafka'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

/** The output every deployment starts with (Fleet setup's ensureDefaultOutput). */
export const DEFAULT_OUTPUT_ID = 'fleet-default-output';
/** Its hosts when neither the cloud nor the configuration names any. */
export const DEFAULT_ES_HOSTS = ['http://localhost:9200'];

/** config_yaml keys that make a preset `custom` (and forbid `balanced`). */
export const RESERVED_CONFIG_YML_KEYS = ['bulk_max_size', 'compression_level', 'connection_idle_timeout', 'queue.mem.events', 'queue.mem.flush.min_events', 'queue.mem.flush.timeout', 'worker'];

/** The types whose outputs carry a performance preset. */
export const PRESET_TYPES: readonly string[] = ['elasticsearch', 'remote_elasticsearch'];

function flatKeys(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return prefix ? [prefix] : [];
  return Object.entries(value).flatMap(([k, v]) => flatKeys(v, prefix ? `${prefix}.${k}` : k));
}

/** Whether config_yaml sets one of the reserved performance keys (nested or dotted). */
export function includesReservedKey(configYaml: string | null | undefined): boolean {
  if (!configYaml) return false;
  let parsed: unknown;
  try {
    parsed = yaml().parse(configYaml);
  } catch {
    return false;
  }
  const keys = flatKeys(parsed);
  return RESERVED_CONFIG_YML_KEYS.some((k) => keys.includes(k));
}

/** The preset the server fills in when the body names none. */
export function defaultPreset(configYaml: string | null | undefined): 'balanced' | 'custom' {
  return includesReservedKey(configYaml) ? 'custom' : 'balanced';
}

/** An Elasticsearch host as the server stores it: the port made explicit, a bare `/` path dropped. */
export function normalizeHost(host: string): string {
  const url = new URL(host);
  const port = url.port !== '' ? url.port : url.protocol === 'http:' ? '80' : url.protocol === 'https:' ? '443' : undefined;
  return `${url.protocol}//${url.hostname}:${port}${url.pathname === '/' ? '' : url.pathname}`;
}

/** What a kafka output gets when the body leaves it out (the output service's create). */
export const KAFKA_DEFAULTS = { version: '1.0.0', compression: 'gzip', compression_level: 4, client_id: 'Elastic', partition: 'hash', timeout: 30, broker_timeout: 10, required_acks: 1 } as const;
