import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * Fleet outputs. Sources: the OpenAPI document (generated/kbapi/oas-filtered.yaml at b76003905,
 * "OAS" below: paths /api/fleet/outputs and /api/fleet/outputs/{outputId}, schemas
 * new_output_union, update_output_union, output_union) and the server's output service
 * (x-pack/platform/plugins/shared/fleet/server/services/output.ts, "output service" below);
 * agent policies: agent_policies/outputs_helpers.ts.
 */

const OUT = '/api/fleet/outputs';
const es = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: `Output ${id}`, type: 'elasticsearch', hosts: ['https://es.example:9200'], ...extra });

async function ok(p: Promise<{ status: number; text: string; body: any }>): Promise<any> {
  const r = await p;
  assert.equal(r.status, 200, r.text);
  return r.body;
}

describe('emulator Fleet outputs', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));

  it('a deployment starts with the default output, default for data and monitoring, listed in every space (output service ensureDefaultOutput; outputs are saved objects of no space)', async () => {
    const list = await ok(call(emu, 'GET', OUT));
    assert.equal(list.total, 1);
    assert.deepEqual(list.items[0], { id: 'fleet-default-output', name: 'default', type: 'elasticsearch', hosts: ['http://localhost:9200'], is_default: true, is_default_monitoring: true, preset: 'balanced' });
    await call(emu, 'POST', '/__emulator/spaces', { id: 'other' });
    await ok(call(emu, 'POST', OUT, es('soc')));
    const other = await ok(call(emu, 'GET', `/s/other${OUT}`));
    assert.deepEqual(other.items.map((o: any) => o.id), ['fleet-default-output', 'soc']);
  });

  it('create fills is_default false, preset and an explicit port, and answers {item} (OAS post-fleet-outputs; output service create: normalizeHostsForAgents, getDefaultPresetForEsOutput)', async () => {
    const { item } = await ok(call(emu, 'POST', OUT, es('soc', { hosts: ['https://es.example', 'http://es2.example/'] })));
    assert.deepEqual(item, { id: 'soc', name: 'Output soc', type: 'elasticsearch', hosts: ['https://es.example:443', 'http://es2.example:80'], is_default: false, is_default_monitoring: false, preset: 'balanced' });
    const custom = await ok(call(emu, 'POST', OUT, es('tuned', { config_yaml: 'bulk_max_size: 100\n' })));
    assert.equal(custom.item.preset, 'custom');
    const read = await ok(call(emu, 'GET', `${OUT}/soc`));
    assert.deepEqual(read.item, item);
  });

  it('bodies are checked per type: required fields, unknown keys, hosts as http(s) URIs for elasticsearch (OAS new_output_elasticsearch / new_output_kafka: required name, type, hosts; kafka also auth_type; additionalProperties false)', async () => {
    const noHosts = await call(emu, 'POST', OUT, { name: 'x', type: 'elasticsearch' });
    assert.equal(noHosts.status, 400);
    assert.match(noHosts.body.message, /types that failed validation/);
    assert.match(noHosts.body.message, /hosts/);
    const kafkaNoAuth = await call(emu, 'POST', OUT, { name: 'k', type: 'kafka', hosts: ['kafka:9092'] });
    assert.equal(kafkaNoAuth.status, 400);
    assert.match(kafkaNoAuth.body.message, /auth_type/);
    const unknown = await call(emu, 'POST', OUT, es('u', { topic: 'logs' }));
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /definition for this key is missing/);
    const notUri = await call(emu, 'POST', OUT, es('n', { hosts: ['es.example:9200'] }));
    assert.equal(notUri.status, 400);
    assert.match(notUri.body.message, /expected URI with scheme \[http\|https\]/);
    const empty = await call(emu, 'POST', OUT, es('e', { hosts: [] }));
    assert.equal(empty.status, 400);
  });

  it('an id already taken is a 409 (saved-object create without overwrite)', async () => {
    await ok(call(emu, 'POST', OUT, es('soc')));
    const again = await call(emu, 'POST', OUT, es('soc'));
    assert.equal(again.status, 409);
  });

  it('preset balanced with a reserved performance key in config_yaml is refused (output service create/update: RESERVED_CONFIG_YML_KEYS)', async () => {
    const r = await call(emu, 'POST', OUT, es('b', { preset: 'balanced', config_yaml: 'queue:\n  mem:\n    events: 4096\n' }));
    assert.equal(r.status, 400);
    assert.match(r.body.message, /preset cannot be balanced when config_yaml contains one of bulk_max_size/);
  });

  it('kafka outputs get the server defaults and lose what their auth_type does not use, and no proxy (output service create, kafka branch)', async () => {
    const { item } = await ok(call(emu, 'POST', OUT, { id: 'k', name: 'Kafka', type: 'kafka', hosts: ['kafka:9092'], auth_type: 'ssl', username: 'u', password: 'p', proxy_id: 'px', topic: 'logs' }));
    assert.equal(item.version, '1.0.0');
    assert.equal(item.compression, 'gzip');
    assert.equal(item.compression_level, 4);
    assert.equal(item.client_id, 'Elastic');
    assert.equal(item.partition, 'hash');
    assert.equal(item.timeout, 30);
    assert.equal(item.broker_timeout, 10);
    assert.equal(item.required_acks, 1);
    assert.equal(item.username, undefined);
    assert.equal(item.password, undefined);
    assert.equal(item.proxy_id, null);
  });

  it('exactly one default: a new default takes the flag from the old one, which cannot give it up by itself (output service create/update "ensure only default output exists"; "cannot be set to is_default=false ... manually")', async () => {
    await ok(call(emu, 'POST', OUT, es('soc', { is_default: true })));
    const list = await ok(call(emu, 'GET', OUT));
    const byId = Object.fromEntries(list.items.map((o: any) => [o.id, o]));
    assert.equal(byId.soc.is_default, true);
    assert.equal(byId['fleet-default-output'].is_default, false);
    assert.equal(byId['fleet-default-output'].is_default_monitoring, true);
    const giveUp = await call(emu, 'PUT', `${OUT}/soc`, { is_default: false });
    assert.equal(giveUp.status, 400);
    assert.match(giveUp.body.message, /Default output soc cannot be set to is_default=false or is_default_monitoring=false manually/);
    const monitoring = await call(emu, 'PUT', `${OUT}/fleet-default-output`, { is_default_monitoring: false });
    assert.equal(monitoring.status, 400);
  });

  it('the default output, and the default monitoring output, cannot be deleted; another can, and policies naming it fall back to the default (output service delete; removeOutputFromAll)', async () => {
    const refused = await call(emu, 'DELETE', `${OUT}/fleet-default-output`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, 'Default output fleet-default-output cannot be deleted.');
    await ok(call(emu, 'POST', OUT, es('mon', { is_default_monitoring: true })));
    const monitoring = await call(emu, 'DELETE', `${OUT}/mon`);
    assert.equal(monitoring.status, 400);
    assert.equal(monitoring.body.message, 'Default monitoring output mon cannot be deleted.');

    await ok(call(emu, 'POST', OUT, es('soc')));
    await ok(call(emu, 'POST', '/api/fleet/agent_policies', { id: 'p1', name: 'P1', namespace: 'default', data_output_id: 'soc', monitoring_output_id: 'soc' }));
    assert.deepEqual((await ok(call(emu, 'DELETE', `${OUT}/soc`))), { id: 'soc' });
    const policy = (await ok(call(emu, 'GET', '/api/fleet/agent_policies/p1'))).item;
    assert.equal(policy.data_output_id, null);
    assert.equal(policy.monitoring_output_id, null);
    const gone = await call(emu, 'GET', `${OUT}/soc`);
    assert.equal(gone.status, 404);
    assert.equal((await call(emu, 'DELETE', `${OUT}/soc`)).status, 404);
  });

  it('the PUT merges: fields not sent keep their value, null clears one (saved-object update; OAS put-fleet-outputs-outputid, every field optional)', async () => {
    await ok(call(emu, 'POST', OUT, es('soc', { ca_trusted_fingerprint: 'ab12', config_yaml: 'a: 1' })));
    const { item } = await ok(call(emu, 'PUT', `${OUT}/soc`, { name: 'Renamed', config_yaml: null }));
    assert.equal(item.name, 'Renamed');
    assert.equal(item.ca_trusted_fingerprint, 'ab12');
    assert.equal(item.config_yaml, null);
    assert.deepEqual(item.hosts, ['https://es.example:9200']);
  });

  it('secrets are stored apart and answered by id only, never by value (output service extractAndWriteOutputSecrets; OAS output_elasticsearch secrets.ssl.key: {id, hash} | string)', async () => {
    const { item } = await ok(call(emu, 'POST', OUT, es('soc', { secrets: { ssl: { key: 'PRIVATE-KEY-VALUE' } } })));
    assert.equal(typeof item.secrets.ssl.key.id, 'string');
    assert.ok(!JSON.stringify(item).includes('PRIVATE-KEY-VALUE'));
    const listed = await call(emu, 'GET', OUT);
    assert.ok(!listed.text.includes('PRIVATE-KEY-VALUE'));
    const updated = await ok(call(emu, 'PUT', `${OUT}/soc`, { secrets: { ssl: { key: 'ROTATED' } } }));
    assert.notEqual(updated.item.secrets.ssl.key.id, item.secrets.ssl.key.id);
  });

  it('a change of type clears the old type\'s fields and fills the new one\'s defaults (output service update, isTypeChanged)', async () => {
    await ok(call(emu, 'POST', OUT, { id: 'k', name: 'K', type: 'kafka', hosts: ['kafka:9092'], auth_type: 'none', topic: 'logs' }));
    const { item } = await ok(call(emu, 'PUT', `${OUT}/k`, { type: 'logstash', hosts: ['ls:5044'] }));
    assert.equal(item.type, 'logstash');
    assert.equal(item.topic, null);
    assert.equal(item.auth_type, null);
  });

  it('remote sync of integrations needs an Enterprise licence (output service remoteSyncIntegrationsCheck)', async () => {
    const body = { id: 'r', name: 'Remote', type: 'remote_elasticsearch', hosts: ['https://remote.example:9200'], sync_integrations: true };
    const refused = await call(emu, 'POST', OUT, body);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, 'Remote sync integrations require at least an Enterprise license.');
    await call(emu, 'PUT', '/__emulator/license', { type: 'enterprise' });
    try {
      await ok(call(emu, 'POST', OUT, body));
    } finally {
      await call(emu, 'PUT', '/__emulator/license', { type: 'platinum' });
    }
  });

  it('an agent policy may name its own outputs on Platinum or higher only, and the server never checks that they exist (agent_policies/outputs_helpers.ts validateOutputForPolicy)', async () => {
    const stored = await ok(call(emu, 'POST', '/api/fleet/agent_policies', { id: 'p1', name: 'P1', namespace: 'default', data_output_id: 'no-such-output' }));
    assert.equal(stored.item.data_output_id, 'no-such-output');
    await call(emu, 'PUT', '/__emulator/license', { type: 'gold' });
    try {
      const refused = await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'p2', name: 'P2', namespace: 'default', monitoring_output_id: 'x' });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.message, 'Invalid licence to set per policy output, you need platinum licence');
      // Unchanged output ids are not checked again on update.
      await ok(call(emu, 'PUT', '/api/fleet/agent_policies/p1', { name: 'P1 renamed', namespace: 'default', data_output_id: 'no-such-output' }));
      await ok(call(emu, 'POST', '/api/fleet/agent_policies', { id: 'p3', name: 'P3', namespace: 'default' }));
    } finally {
      await call(emu, 'PUT', '/__emulator/license', { type: 'platinum' });
    }
  });
});
