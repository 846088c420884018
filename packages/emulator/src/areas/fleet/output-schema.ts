import { schema, type Schema } from '../../config-schema.js';

/**
 * The Fleet output create and update bodies, one branch per type, as the OpenAPI document declares
 * them (generated/kbapi/oas-filtered.yaml at b76003905: new_output_union = new_output_elasticsearch,
 * new_output_remote_elasticsearch, new_output_logstash, new_output_kafka, each
 * `additionalProperties: false`; update_output_union the same fields, none required but a kafka
 * update's `name`). Fleet declares them with the route validation library (a union: a body no
 * branch takes is refused with every branch's problem).
 */

const { string, number, boolean, literal, maybe, oneOf, arrayOf, object, nullable } = schema;

const opt = (s: Schema) => maybe(s);
const optNull = (s: Schema) => maybe(nullable(s));
/** A secret: the value, or a reference to one already stored (`{id, hash?}`). */
const secretValue = oneOf([object({ id: string(), hash: opt(string()) }), string()]);
/** Elasticsearch hosts are URIs of scheme http or https (the fleet output schema's `schema.uri`). */
const uri = string({
  check: (v) => {
    try {
      if (['http:', 'https:'].includes(new URL(v).protocol)) return undefined;
    } catch {
      // not a URI at all: same answer
    }
    return 'expected URI with scheme [http|https].';
  },
});

const ssl = optNull(object({
  certificate: opt(string()),
  certificate_authorities: opt(arrayOf(string())),
  key: opt(string()),
  verification_mode: opt(oneOf(['full', 'none', 'certificate', 'strict'].map(literal))),
}));

const shipper = optNull(object({
  compression_level: optNull(number()),
  disk_queue_compression_enabled: optNull(boolean()),
  disk_queue_enabled: optNull(boolean()),
  disk_queue_encryption_enabled: optNull(boolean()),
  disk_queue_max_size: optNull(number()),
  disk_queue_path: optNull(string()),
  loadbalance: optNull(boolean()),
  max_batch_bytes: optNull(number()),
  mem_queue_events: optNull(number()),
  queue_flush_timeout: optNull(number()),
}));

const preset = opt(oneOf(['balanced', 'custom', 'throughput', 'scale', 'latency'].map(literal)));

/** Fields every type takes. */
function base(hosts: Schema, requireName: boolean): Record<string, Schema> {
  return {
    id: opt(string()),
    name: requireName ? string() : opt(string()),
    hosts,
    is_default: opt(boolean()),
    is_default_monitoring: opt(boolean()),
    is_internal: opt(boolean()),
    is_preconfigured: opt(boolean()),
    allow_edit: opt(arrayOf(string())),
    ca_sha256: optNull(string()),
    ca_trusted_fingerprint: optNull(string()),
    config_yaml: optNull(string()),
    proxy_id: optNull(string()),
    ssl,
    shipper,
  };
}

function branches(creating: boolean): Schema[] {
  const hostsOf = (item: Schema) => (creating ? arrayOf(item, { minSize: 1 }) : opt(arrayOf(item, { minSize: 1 })));
  const type = (t: string) => (creating ? literal(t) : opt(literal(t)));
  const sslSecret = opt(object({ key: opt(secretValue) }));
  const elasticsearch = object({
    ...base(hostsOf(uri), creating),
    type: type('elasticsearch'),
    preset,
    write_to_logs_streams: optNull(boolean()),
    secrets: opt(object({ ssl: sslSecret })),
  });
  const remote = object({
    ...base(hostsOf(uri), creating),
    type: type('remote_elasticsearch'),
    preset,
    write_to_logs_streams: optNull(boolean()),
    kibana_api_key: optNull(string()),
    kibana_url: optNull(string()),
    service_token: optNull(string()),
    sync_integrations: opt(boolean()),
    sync_uninstalled_integrations: opt(boolean()),
    secrets: opt(object({ service_token: opt(secretValue), ssl: sslSecret })),
  });
  const logstash = object({
    ...base(hostsOf(string()), creating),
    type: type('logstash'),
    secrets: opt(object({ ssl: sslSecret })),
  });
  const groupEvents = opt(object({ group_events: opt(number()) }));
  const kafka = object({
    // A kafka update requires its name (update_output_kafka `required: [name]`).
    ...base(hostsOf(string()), true),
    type: type('kafka'),
    auth_type: creating ? oneOf(['none', 'user_pass', 'ssl', 'kerberos'].map(literal)) : opt(oneOf(['none', 'user_pass', 'ssl', 'kerberos'].map(literal))),
    broker_timeout: opt(number()),
    client_id: opt(string()),
    compression: opt(oneOf(['gzip', 'snappy', 'lz4', 'none'].map(literal))),
    compression_level: opt(number({ check: (n) => (Number.isInteger(n) ? undefined : `${n} is not a valid integer`) })),
    connection_type: opt(string()),
    hash: opt(object({ hash: opt(string()), random: opt(boolean()) })),
    headers: opt(arrayOf(object({ key: string(), value: string() }))),
    key: opt(string()),
    partition: opt(oneOf(['random', 'round_robin', 'hash'].map(literal))),
    password: opt(string()),
    random: groupEvents,
    round_robin: groupEvents,
    required_acks: opt(oneOf([literal(1), literal(0), literal(-1)])),
    sasl: optNull(object({ mechanism: opt(oneOf(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'].map(literal))) })),
    timeout: opt(number()),
    topic: opt(string()),
    username: opt(string()),
    version: opt(string()),
    secrets: opt(object({ password: opt(secretValue), ssl: opt(object({ key: secretValue })) })),
  });
  return [elasticsearch, remote, logstash, kafka];
}

/** POST /api/fleet/outputs (new_output_union). */
export const NewOutputBody = oneOf(branches(true));
/** PUT /api/fleet/outputs/{outputId} (update_output_union). */
export const UpdateOutputBody = oneOf(branches(false));
