import type { EmulatorContext } from '../../context.js';
import { licenseAtLeast } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmuRequest, Router } from '../../router.js';
import { validateRequest } from '../../config-schema.js';
import { clone } from '../../json-copy.js';
import { DEFAULT_ES_HOSTS, DEFAULT_OUTPUT_ID, KAFKA_DEFAULTS, PRESET_TYPES, RESERVED_CONFIG_YML_KEYS, defaultPreset, includesReservedKey, normalizeHost } from '../../facts/fleet-outputs.js';
import { yaml } from '../../yaml.js';
import { NewOutputBody, UpdateOutputBody } from './output-schema.js';
import { FLEET_AREA, type FleetSpaceState } from './state.js';

/**
 * Fleet outputs (/api/fleet/outputs; routes and bodies from the OpenAPI document,
 * generated/kbapi/oas-filtered.yaml at b76003905: get-fleet-outputs, post-fleet-outputs,
 * get/put/delete-fleet-outputs-outputid; behaviour from the server's output service,
 * x-pack/platform/plugins/shared/fleet/server/services/output.ts). Outputs are saved objects of
 * no space: every space lists the same ones. The deployment starts with the default output
 * (`fleet-default-output`, Elasticsearch at localhost:9200, default for data and monitoring).
 * The server's output errors (OutputUnauthorizedError, OutputInvalidError, OutputLicenceError)
 * answer 400. Secrets are kept as the secret storage keeps them: the answer names a secret by id,
 * never by value.
 */

export const OUTPUTS_GLOBAL = 'fleet-outputs';

export interface OutputRecord {
  id: string;
  name: string;
  type: string;
  seq: number;
  [field: string]: unknown;
}

interface OutputsState {
  outputs: Record<string, OutputRecord>;
  /** Secret values by secret id (the server's secrets index), never answered. */
  secretValues: Record<string, string>;
}

function outputsState(ctx: EmulatorContext): OutputsState {
  return ctx.store.global<OutputsState>(OUTPUTS_GLOBAL, () => ({
    outputs: {
      [DEFAULT_OUTPUT_ID]: {
        id: DEFAULT_OUTPUT_ID,
        name: 'default',
        type: 'elasticsearch',
        hosts: DEFAULT_ES_HOSTS.map(normalizeHost),
        is_default: true,
        is_default_monitoring: true,
        preset: 'balanced',
        seq: 0,
      },
    },
    secretValues: {},
  }));
}

const invalid = (message: string) => badRequest(message);

function outputOrThrow(ctx: EmulatorContext, id: string): OutputRecord {
  const all = outputsState(ctx).outputs;
  const found = Object.prototype.hasOwnProperty.call(all, id) ? all[id] : undefined;
  if (!found) throw notFound(`Saved object [ingest-outputs/${id}] not found`);
  return found;
}

/** The answer: the record without emulator bookkeeping; fields set to null by an update stay null, as the saved object keeps them. */
export function formatOutput(record: OutputRecord): Record<string, unknown> {
  const { seq: _seq, ...fields } = record;
  return clone(fields);
}

/** Secret values moved to the secret store; the record keeps `{id}` references (extractAndWriteOutputSecrets). */
function storeSecrets(ctx: EmulatorContext, secrets: Record<string, any> | undefined, previous: Record<string, any> | undefined): Record<string, any> | undefined {
  if (!secrets) return previous;
  const state = outputsState(ctx);
  const walk = (value: any, old: any): any => {
    if (typeof value === 'string') {
      const id = ctx.uuid();
      state.secretValues[id] = value;
      return { id };
    }
    if (value && typeof value === 'object' && typeof value.id === 'string') return { id: value.id };
    if (value && typeof value === 'object') {
      const out: Record<string, any> = { ...(old && typeof old === 'object' ? old : {}) };
      for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = walk(v, old?.[k]);
      return out;
    }
    return value;
  };
  return walk(secrets, previous);
}

function refusePresetConflict(body: Record<string, any>, type: string): void {
  if (PRESET_TYPES.includes(type) && body.preset === 'balanced' && includesReservedKey(body.config_yaml)) {
    throw invalid(`preset cannot be balanced when config_yaml contains one of ${RESERVED_CONFIG_YML_KEYS.join(', ')}`);
  }
}

/** Remote sync of integrations needs an Enterprise licence (remoteSyncIntegrationsCheck). */
function refuseSyncWithoutLicence(ctx: EmulatorContext, body: Record<string, any>): void {
  if (body.type === 'remote_elasticsearch' && body.sync_integrations === true && !licenseAtLeast(ctx.settings.license, 'enterprise')) {
    throw invalid('Remote sync integrations require at least an Enterprise license.');
  }
}

/** The shipper is kept only when config_yaml enables it. */
function dropDisabledShipper(out: Record<string, any>): void {
  if (!out.shipper) return;
  if (!out.config_yaml) {
    out.shipper = null;
    return;
  }
  let config: any;
  try {
    config = yaml().parse(out.config_yaml);
  } catch {
    config = undefined;
  }
  if (!config?.shipper || config.shipper.enabled === false) out.shipper = null;
}

function kafkaDefaults(out: Record<string, any>, given: Record<string, any>): void {
  if (!given.version) out.version = KAFKA_DEFAULTS.version;
  if (!given.compression) out.compression = KAFKA_DEFAULTS.compression;
  if (!given.compression || (given.compression === 'gzip' && !given.compression_level)) out.compression_level = KAFKA_DEFAULTS.compression_level;
  if (!given.client_id) out.client_id = KAFKA_DEFAULTS.client_id;
  if (given.username && given.password && !given.sasl?.mechanism) out.sasl = { mechanism: 'PLAIN' };
  if (!given.partition) out.partition = KAFKA_DEFAULTS.partition;
  if (out.partition === 'random' && !given.random?.group_events) out.random = { group_events: 1 };
  if (out.partition === 'round_robin' && !given.round_robin?.group_events) out.round_robin = { group_events: 1 };
  if (!given.timeout) out.timeout = KAFKA_DEFAULTS.timeout;
  if (!given.broker_timeout) out.broker_timeout = KAFKA_DEFAULTS.broker_timeout;
  if (given.required_acks === null || given.required_acks === undefined) out.required_acks = KAFKA_DEFAULTS.required_acks;
  if (out.auth_type && out.auth_type !== 'none') delete out.connection_type;
  if (out.auth_type && out.auth_type !== 'user_pass') {
    delete out.username;
    delete out.password;
  }
  // Kafka takes no proxy: the server clears proxy_id silently.
  out.proxy_id = null;
}

/** Makes `id` the only default (for data or monitoring): the server unsets the flag on the others. */
function takeDefault(ctx: EmulatorContext, id: string, flag: 'is_default' | 'is_default_monitoring'): void {
  for (const other of Object.values(outputsState(ctx).outputs)) {
    if (other.id === id || other[flag] !== true) continue;
    if (other.is_preconfigured) throw invalid(`Preconfigured output ${other.id} ${flag} cannot be updated outside of kibana config file.`);
    other[flag] = false;
  }
}

function createOutput(req: EmuRequest, ctx: EmulatorContext) {
  const body = validateRequest(NewOutputBody, req.body ?? null);
  const state = outputsState(ctx);
  const id = body.id ?? ctx.uuid();
  if (Object.prototype.hasOwnProperty.call(state.outputs, id)) throw conflict(`Saved object [ingest-outputs/${id}] conflict`);
  refusePresetConflict(body, body.type);
  refuseSyncWithoutLicence(ctx, body);
  const { id: _id, secrets, ...fields } = body;
  const out: Record<string, any> = { is_default: false, is_default_monitoring: false, ...fields };
  if (out.type === 'elasticsearch' || out.type === 'remote_elasticsearch') out.hosts = (out.hosts as string[]).map(normalizeHost);
  if (out.type !== 'kafka') {
    dropDisabledShipper(out);
    if (PRESET_TYPES.includes(out.type) && !out.preset) out.preset = defaultPreset(out.config_yaml);
  } else {
    kafkaDefaults(out, body);
  }
  if (out.is_default) takeDefault(ctx, id, 'is_default');
  if (out.is_default_monitoring) takeDefault(ctx, id, 'is_default_monitoring');
  const stored = storeSecrets(ctx, secrets, undefined);
  const record: OutputRecord = { ...out, id, name: out.name, type: out.type, ...(stored ? { secrets: stored } : {}), seq: ctx.store.nextSeq() };
  state.outputs[id] = record;
  return { body: { item: formatOutput(record) } };
}

const KAFKA_ONLY = ['version', 'key', 'compression', 'compression_level', 'connection_type', 'client_id', 'auth_type', 'username', 'password', 'sasl', 'partition', 'random', 'round_robin', 'hash', 'topic', 'headers', 'timeout', 'broker_timeout', 'required_acks'];

/** What a change of type clears or fills in (the output service's update). */
function typeChange(update: Record<string, any>, original: OutputRecord): void {
  if (update.type === 'elasticsearch') update.preset = null;
  if (update.type !== 'kafka' && original.type === 'kafka') {
    for (const k of KAFKA_ONLY) update[k] = null;
    update.ssl = null;
  }
  if (original.type === 'remote_elasticsearch') {
    update.service_token = null;
    update.kibana_api_key = null;
  }
  if (original.type === 'elasticsearch' || original.type === 'remote_elasticsearch') update.write_to_logs_streams = null;
  if (update.type === 'logstash' || update.type === 'kafka') {
    update.ca_trusted_fingerprint = null;
    update.ca_sha256 = null;
  }
  if (update.type === 'kafka') kafkaDefaults(update, update);
  if (PRESET_TYPES.includes(update.type) && !update.preset) update.preset = defaultPreset(update.config_yaml);
}

function updateOutput(req: EmuRequest, ctx: EmulatorContext) {
  const original = outputOrThrow(ctx, req.params.outputId);
  const body = validateRequest(UpdateOutputBody, req.body ?? null);
  const id = original.id;
  if (original.is_preconfigured) {
    const editable = (original.allow_edit as string[] | undefined) ?? [];
    for (const key of Object.keys(body)) {
      if ((original[key] || body[key]) && !editable.includes(key) && JSON.stringify(original[key]) !== JSON.stringify(body[key])) {
        throw invalid(`Preconfigured output ${id} ${key} cannot be updated outside of kibana config file.`);
      }
    }
  }
  if ((original.is_default && body.is_default === false) || (original.is_default_monitoring && body.is_default_monitoring === false)) {
    throw invalid(`Default output ${id} cannot be set to is_default=false or is_default_monitoring=false manually. Make another output the default first.`);
  }
  const type = body.type ?? original.type;
  const { secrets, ...fields } = body;
  const update: Record<string, any> = { ...fields, type };
  refusePresetConflict({ ...update, config_yaml: update.config_yaml ?? undefined }, type);
  if (type !== original.type) typeChange(update, original);
  if (body.type === 'kafka') {
    for (const k of ['password', 'username', 'sasl', 'ssl']) if (!body[k]) update[k] = null;
  }
  if (body.is_default) takeDefault(ctx, id, 'is_default');
  if (body.is_default_monitoring) takeDefault(ctx, id, 'is_default_monitoring');
  if (PRESET_TYPES.includes(type) && Array.isArray(update.hosts)) update.hosts = update.hosts.map(normalizeHost);
  if (type === 'kafka') update.proxy_id = null;
  if (body.type === 'remote_elasticsearch') {
    if (!body.service_token) update.service_token = null;
    if (!body.kibana_api_key) update.kibana_api_key = null;
  }
  refuseSyncWithoutLicence(ctx, body);
  const merged: Record<string, any> = { ...original, ...update };
  if (type !== 'kafka') dropDisabledShipper(merged);
  const stored = storeSecrets(ctx, secrets, original.secrets as Record<string, any> | undefined);
  if (stored) merged.secrets = stored;
  Object.assign(original, merged);
  return { body: { item: formatOutput(original) } };
}

/** Policies that named a deleted output go back to the default (removeOutputFromAll). */
function forgetOutput(ctx: EmulatorContext, id: string): void {
  for (const slots of Object.values(ctx.store.data.bySpace)) {
    const state = slots[FLEET_AREA] as FleetSpaceState | undefined;
    if (!state) continue;
    for (const policy of Object.values(state.agentPolicies)) {
      if (policy.data_output_id === id) policy.data_output_id = null;
      if (policy.monitoring_output_id === id) policy.monitoring_output_id = null;
    }
    for (const pp of Object.values(state.packagePolicies)) if (pp.output_id === id) pp.output_id = null;
  }
}

function deleteOutput(req: EmuRequest, ctx: EmulatorContext) {
  const output = outputOrThrow(ctx, req.params.outputId);
  if (output.is_preconfigured) throw invalid(`Preconfigured output ${output.id} cannot be deleted outside of kibana config file.`);
  if (output.is_default) throw invalid(`Default output ${output.id} cannot be deleted.`);
  if (output.is_default_monitoring) throw invalid(`Default monitoring output ${output.id} cannot be deleted.`);
  forgetOutput(ctx, output.id);
  const state = outputsState(ctx);
  delete state.outputs[output.id];
  return { body: { id: output.id } };
}

/**
 * An agent policy may name its own outputs only on a Platinum licence or higher; the server does
 * not check that the outputs exist (agent_policies/outputs_helpers.ts validateOutputForPolicy).
 */
export function checkPolicyOutputs(ctx: EmulatorContext, data: Record<string, any>, existing?: Record<string, any>): void {
  if (existing && data.data_output_id === existing.data_output_id && data.monitoring_output_id === existing.monitoring_output_id) return;
  const merged = { ...(existing ?? {}), ...data };
  if (!merged.data_output_id && !merged.monitoring_output_id) return;
  if (merged.is_managed && merged.is_preconfigured) return;
  if (merged.has_fleet_server) return;
  if (!licenseAtLeast(ctx.settings.license, 'platinum')) throw invalid('Invalid licence to set per policy output, you need platinum licence');
}

export function registerOutputs(router: Router): void {
  const base = '/api/fleet/outputs';
  router.get(base, (_req, ctx) => {
    // One page of the first 10,000, defaults first (the service's list()).
    const all = Object.values(outputsState(ctx).outputs).sort((a, b) => Number(!!b.is_default) - Number(!!a.is_default) || a.seq - b.seq);
    return { body: { items: all.map(formatOutput), total: all.length, page: 1, perPage: 10000 } };
  });
  router.post(base, createOutput);
  router.get(`${base}/:outputId`, (req, ctx) => ({ body: { item: formatOutput(outputOrThrow(ctx, req.params.outputId)) } }));
  router.put(`${base}/:outputId`, updateOutput);
  router.delete(`${base}/:outputId`, deleteOutput);
}
