import type { Resource } from '../../manifest/types.js';
import { clone, dropNulls, isPlainObject } from '../normalize.js';
import type { AdapterContext, ExportVariable, KindAdapter, LiveObject } from '../types.js';
import { AREAS } from '../../client/areas.js';
import { yaml } from '../../common/yaml.js';
import { KAFKA_OUTPUT_DEFAULTS, PRESET_OUTPUT_TYPES, presetFor, storedHost } from '../../common/fleet-outputs.js';

/**
 * Fleet outputs (/api/fleet/outputs: the OpenAPI document's get/post-fleet-outputs and
 * get/put/delete-fleet-outputs-outputid; the server's output service). metadata.name is the
 * output id. Outputs belong to no space (every space lists the same ones), so the kind is
 * spaceless: read once per run, planned in the run's home space. Agent policies name them by
 * `data_output_id` and `monitoring_output_id`.
 *
 * - `secrets` are write-only (the server keeps them in its secret store and answers only their
 *   ids): never compared, sent on create and with every update (KindRules.writeOnly).
 * - The PUT merges (a saved-object update): a field the manifest dropped is sent as null where the
 *   API takes null. The other fields (kafka's topic, key, headers, hash...) cannot be cleared
 *   through the API: a manifest that drops one keeps showing the change (README, Fleet outputs).
 * - The default output: exactly one output is the default for data (`is_default`) and one for
 *   monitoring; making another the default unsets the flag on the old one, and the server refuses
 *   `false` on the current default ("make another output the default first"), so svcform never
 *   sends `false` for those flags: the output that becomes the default takes them over. Nor can
 *   the default be deleted (400).
 */

const PATH = '/api/fleet/outputs';
/** Answered, never written back. */
const RESPONSE_ONLY = ['id', 'is_preconfigured', 'allow_edit', 'secrets'];
const FALSE_BY_DEFAULT = ['is_default', 'is_default_monitoring', 'is_internal', 'sync_integrations', 'sync_uninstalled_integrations'];
const DEFAULT_FLAGS = ['is_default', 'is_default_monitoring'];
/**
 * Fields the update body takes as null (OAS update_output_*: `nullable: true`), the only way to
 * clear a field through the merging PUT. The first six are in every type's body.
 */
const CLEARABLE_ANY_TYPE = ['ca_sha256', 'ca_trusted_fingerprint', 'config_yaml', 'proxy_id', 'ssl', 'shipper'];
const CLEARABLE = [...CLEARABLE_ANY_TYPE, 'write_to_logs_streams', 'kibana_api_key', 'kibana_url', 'service_token', 'sasl'];
/**
 * The secret fields of an output. With output secret storage on, the server keeps them in its
 * secret store and answers their ids under `secrets`; with it off (before every Fleet Server is
 * 8.12 or later, or with none enrolled), it stores them in these plain fields and answers them in
 * clear (the output service's create and update: "if not, store plain text values"). Either way
 * they are secrets: never compared, and exported as placeholders under `secrets`.
 */
const PLAIN_SECRET_FIELDS: readonly string[][] = [['ssl', 'key'], ['password'], ['service_token']];

/** Whether config_yaml turns the shipper on (else the server drops `shipper`). */
function shipperEnabled(configYaml: unknown): boolean {
  if (typeof configYaml !== 'string' || configYaml === '') return false;
  try {
    const config = yaml().parse(configYaml);
    return !!config?.shipper && config.shipper.enabled !== false;
  } catch {
    return false;
  }
}

/** What the server's create fills in on a kafka output (and clears for the chosen auth_type). */
function kafkaAsStored(out: Record<string, any>): void {
  const given = { ...out };
  for (const [k, v] of Object.entries(KAFKA_OUTPUT_DEFAULTS)) if (out[k] === undefined || out[k] === '' || out[k] === 0) out[k] = v;
  if (given.required_acks === 0) out.required_acks = 0;
  if (out.compression === 'gzip' && !given.compression_level) out.compression_level = 4;
  if (given.username && given.password && !given.sasl?.mechanism) out.sasl = { ...(given.sasl ?? {}), mechanism: 'PLAIN' };
  if (out.partition === 'random' && !given.random?.group_events) out.random = { group_events: 1 };
  if (out.partition === 'round_robin' && !given.round_robin?.group_events) out.round_robin = { group_events: 1 };
  if (out.auth_type !== 'none') delete out.connection_type;
  if (out.auth_type !== 'user_pass') {
    delete out.username;
    delete out.password;
  }
  // Kafka takes no proxy: the server clears it.
  delete out.proxy_id;
}

/** One canonical form for both sides: what the server would hold for this body. */
function canonical(body: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = dropNulls(clone(body));
  for (const k of RESPONSE_ONLY) delete out[k];
  for (const k of FALSE_BY_DEFAULT) out[k] = out[k] === true;
  for (const k of FALSE_BY_DEFAULT) if (!DEFAULT_FLAGS.includes(k) && !out[k]) delete out[k];
  if (PRESET_OUTPUT_TYPES.includes(out.type)) {
    if (Array.isArray(out.hosts)) out.hosts = out.hosts.map((h: unknown) => (typeof h === 'string' ? storedHost(h) : h));
    out.preset ??= presetFor(out.config_yaml);
  }
  if (out.type === 'kafka') kafkaAsStored(out);
  else if (out.shipper !== undefined && !shipperEnabled(out.config_yaml)) delete out.shipper;
  for (const [first, second] of PLAIN_SECRET_FIELDS) {
    if (second === undefined) delete out[first];
    else if (isPlainObject(out[first])) delete out[first][second];
  }
  if (isPlainObject(out.ssl) && Object.keys(out.ssl).length === 0) delete out.ssl;
  return out;
}

/** Secret fields a server without secret storage answers in clear (PLAIN_SECRET_FIELDS), as paths. */
function plainSecretPaths(body: Record<string, any>): string[][] {
  return PLAIN_SECRET_FIELDS.filter((path) => typeof path.reduce<any>((v, step) => v?.[step], body) === 'string');
}

function writeBody(res: Resource): Record<string, any> {
  const body: Record<string, any> = clone(res.spec);
  delete body.id;
  return body;
}

/** Every write-only path (`secrets.ssl.key`, ...) of a live output, for export placeholders. */
function secretPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!isPlainObject(value)) return prefix.length ? [prefix] : [];
  if (typeof value.id === 'string') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => secretPaths(v, [...prefix, k]));
}

export function outputEnvName(id: string, path: string[]): string {
  return `SVCFORM_FLEET_OUTPUT_${id}_${path.join('_')}`.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

async function listOutputs(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
  // The route answers every output in one page (the service's list(): its first 10,000).
  const res = await ctx.api.request<{ items: Array<Record<string, any>> }>({ method: 'GET', path: PATH, space });
  return (res.body.items ?? []).map((body) => ({
    kind: 'FleetOutput',
    space,
    name: body.id,
    body,
    ...(body.is_preconfigured ? { readOnly: 'preconfigured output (kibana.yml)' } : {}),
    // The server refuses to delete the default output for data or for monitoring (400), the one
    // Fleet's setup makes included: a scope deletes it only once another output took the flag.
    ...(body.is_default || body.is_default_monitoring ? { serverOwned: 'the default output: the server refuses to delete it; a manage scope deletes it only once another output is the default' } : {}),
  }));
}

export const fleetOutputAdapter: KindAdapter = {
  kind: 'FleetOutput',
  schema: 'FleetOutput.schema.json',
  area: AREAS.fleet,
  // Never returned (the secret store answers ids only): plan and drift need no value.
  writeOnly: [['spec', 'secrets']],
  setFields: ['/ssl/certificate_authorities'],

  references() {
    return [];
  },

  // Every output is of no space: a space's own listing has none.
  async list() {
    return [];
  },

  spaceless: {
    declared: () => true,
    list: listOutputs,
  },

  normalizeDesired(res: Resource) {
    return canonical(res.spec);
  },

  normalizeLive(live: LiveObject) {
    return canonical(live.body);
  },

  async create(ctx: AdapterContext, res: Resource) {
    await ctx.api.request({ method: 'POST', path: PATH, space: res.space, body: { id: res.name, ...writeBody(res) }, idempotent: true });
  },

  async update(ctx: AdapterContext, res: Resource, live: LiveObject) {
    const body = writeBody(res);
    const wanted = canonical(res.spec);
    // The PUT keeps what it is not sent: a field the manifest dropped is cleared with null where
    // the body takes null. A change of type clears the old type's own fields on the server, and
    // the new type's body would refuse them, so then only the fields of every type are sent.
    const clearable = live.body.type === res.spec.type ? CLEARABLE : CLEARABLE_ANY_TYPE;
    for (const field of Object.keys(canonical(live.body))) if (!(field in wanted) && !(field in body) && clearable.includes(field)) body[field] = null;
    // Never `false` for a default flag (the server refuses it on the default; elsewhere it is already false).
    for (const flag of DEFAULT_FLAGS) if (body[flag] !== true) delete body[flag];
    await ctx.api.request({ method: 'PUT', path: `${PATH}/${encodeURIComponent(live.name)}`, space: live.space, body });
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    await ctx.api.request({ method: 'DELETE', path: `${PATH}/${encodeURIComponent(live.name)}`, space: live.space, accept: [404] });
  },

  toSpec(live: LiveObject) {
    const spec = canonical(live.body);
    for (const flag of DEFAULT_FLAGS) if (spec[flag] === false) delete spec[flag];
    if (PRESET_OUTPUT_TYPES.includes(spec.type) && spec.preset === presetFor(spec.config_yaml)) delete spec.preset;
    if (spec.type === 'kafka') {
      for (const [k, v] of Object.entries(KAFKA_OUTPUT_DEFAULTS)) if (spec[k] === v) delete spec[k];
      if (spec.compression === undefined && spec.compression_level === 4) delete spec.compression_level;
    }
    const variables: ExportVariable[] = [];
    for (const path of [...secretPaths(live.body.secrets), ...plainSecretPaths(live.body)]) {
      const name = outputEnvName(live.name, path);
      let at: Record<string, any> = (spec.secrets ??= {});
      for (const step of path.slice(0, -1)) at = at[step] ??= {};
      at[path[path.length - 1]] = `\${env:${name}}`;
      variables.push({ name, description: `secrets.${path.join('.')} of Fleet output ${live.name}; the server never returns it` });
    }
    const ordered: Record<string, any> = { name: spec.name, type: spec.type };
    for (const k of Object.keys(spec).sort()) if (!(k in ordered)) ordered[k] = spec[k];
    return { spec: ordered, variables };
  },

  hasWriteOnly(res: Resource) {
    return isPlainObject(res.spec.secrets) && Object.keys(res.spec.secrets).length > 0;
  },
};
