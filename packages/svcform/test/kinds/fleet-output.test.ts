import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { adapterTestBed } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { repo, writeFiles } from '../helpers/repo.js';
import { fleetOutputAdapter as adapter } from '../../src/kinds/fleet/output.js';
import type { AdapterContext } from '../../src/kinds/types.js';
import { RunScope } from '../../src/kinds/run-scope.js';

const RUN = new RunScope();
const OUT = '/api/fleet/outputs';
const MANAGE = 'manage:\n  - kind: FleetOutput\n    selector: {namePrefix: "soc-"}\n  - kind: AgentPolicy\n    selector: {namePrefix: "soc-"}\n';

const output = (extra = '') => `apiVersion: svcform/v1
kind: FleetOutput
metadata:
  name: soc-logstash
spec:
  name: SOC Logstash
  type: logstash
  hosts: ['logstash.soc.example:5044']
${extra}`;

const policy = (field = 'data_output_id') => `apiVersion: svcform/v1
kind: AgentPolicy
metadata:
  name: soc-servers
spec:
  name: SOC servers
  namespace: soc
  ${field}: soc-logstash
`;

describe('FleetOutput kind', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  adapterTestBed((e, c) => {
    emu = e;
    ctx = c;
  });

  it('compares what the server fills in as equal: ports, preset from config_yaml, kafka defaults', async () => {
    const specs: Array<[string, Record<string, any>]> = [
      ['es', { name: 'ES', type: 'elasticsearch', hosts: ['https://es.example', 'http://es2.example:9200/'], config_yaml: 'worker: 4' }],
      ['kafka', { name: 'Kafka', type: 'kafka', hosts: ['kafka:9092'], auth_type: 'user_pass', username: 'u', password: 'p', partition: 'random', proxy_id: 'px' }],
      ['ls', { name: 'LS', type: 'logstash', hosts: ['ls:5044'], shipper: { disk_queue_enabled: true } }],
    ];
    for (const [name, spec] of specs) {
      const res = resource('FleetOutput', name, spec);
      await adapter.create(ctx, res);
      const live = (await adapter.spaceless!.list(ctx, 'default')).find((o) => o.name === name)!;
      assert.deepEqual(adapter.normalizeLive(live, RUN), adapter.normalizeDesired(res, RUN), name);
    }
    const es = (await call(emu, 'GET', `${OUT}/es`)).body.item;
    assert.equal(es.preset, 'custom');
    assert.deepEqual(es.hosts, ['https://es.example:443', 'http://es2.example:9200']);
  });

  it('an update clears a field the manifest dropped (the PUT merges) and never sends is_default: false', async () => {
    await adapter.create(ctx, resource('FleetOutput', 'soc-es', { name: 'ES', type: 'elasticsearch', hosts: ['https://es.example:9200'], ca_trusted_fingerprint: 'ab12', is_default: true }));
    const [live] = (await adapter.spaceless!.list(ctx, 'default')).filter((o) => o.name === 'soc-es');
    const desired = resource('FleetOutput', 'soc-es', { name: 'ES', type: 'elasticsearch', hosts: ['https://es.example:9200'], is_default: true });
    emu.log.clear();
    await adapter.update(ctx, desired, live, { rotateSecrets: false });
    const after = (await adapter.spaceless!.list(ctx, 'default')).find((o) => o.name === 'soc-es')!;
    assert.deepEqual(adapter.normalizeLive(after, RUN), adapter.normalizeDesired(desired, RUN));
    assert.equal(after.body.ca_trusted_fingerprint, null);

    // The old default is now an ordinary output; its manifest may say is_default: false without a refused PUT.
    const old = (await adapter.spaceless!.list(ctx, 'default')).find((o) => o.name === 'fleet-default-output')!;
    const renamed = resource('FleetOutput', 'fleet-default-output', { name: 'renamed', type: 'elasticsearch', hosts: ['http://localhost:9200'], is_default: false, is_default_monitoring: true });
    await adapter.update(ctx, renamed, old, { rotateSecrets: false });
    const puts = emu.log.all().filter((r) => r.method === 'PUT');
    assert.equal(puts.length, 2);
    assert.equal((await call(emu, 'GET', `${OUT}/fleet-default-output`)).body.item.name, 'renamed');
  });

  it('a change of type is one update: the server clears the old type\'s fields, svcform clears the dropped common ones', async () => {
    const kafka = resource('FleetOutput', 'soc-out', { name: 'Out', type: 'kafka', hosts: ['kafka:9092'], auth_type: 'none', topic: 'logs', config_yaml: 'a: 1' });
    await adapter.create(ctx, kafka);
    const live = (await adapter.spaceless!.list(ctx, 'default')).find((o) => o.name === 'soc-out')!;
    const logstash = resource('FleetOutput', 'soc-out', { name: 'Out', type: 'logstash', hosts: ['ls:5044'] });
    await adapter.update(ctx, logstash, live, { rotateSecrets: false });
    const after = (await adapter.spaceless!.list(ctx, 'default')).find((o) => o.name === 'soc-out')!;
    assert.deepEqual(adapter.normalizeLive(after, RUN), adapter.normalizeDesired(logstash, RUN));
  });

  it('secrets are write-only: never compared, sent on create and with every update, exported as ${env:} placeholders', async () => {
    const res = resource('FleetOutput', 'soc-es', { name: 'ES', type: 'elasticsearch', hosts: ['https://es.example:9200'], secrets: { ssl: { key: 'KEY-ONE' } } });
    await adapter.create(ctx, res);
    const live = (await adapter.spaceless!.list(ctx, 'default')).find((o) => o.name === 'soc-es')!;
    assert.deepEqual(adapter.normalizeLive(live, RUN), adapter.normalizeDesired(res, RUN));
    assert.equal(adapter.hasWriteOnly!(res, RUN), true);
    emu.log.clear();
    await adapter.update(ctx, resource('FleetOutput', 'soc-es', { ...res.spec, secrets: { ssl: { key: 'KEY-TWO' } } }), live, { rotateSecrets: true });
    const state = (await call(emu, 'GET', '/__emulator/state')).text;
    assert.ok(state.includes('KEY-TWO'), 'the update sent the secret');
    const { spec, variables } = adapter.toSpec(live, RUN);
    assert.deepEqual(spec.secrets, { ssl: { key: '${env:SVCFORM_FLEET_OUTPUT_SOC_ES_SSL_KEY}' } });
    assert.deepEqual(variables!.map((v) => v.name), ['SVCFORM_FLEET_OUTPUT_SOC_ES_SSL_KEY']);
    assert.equal(spec.preset, undefined, 'the preset the server chose is left out');
  });

  it('a server without output secret storage answers ssl.key, password and service_token in clear: never compared, exported as placeholders under secrets, never in clear (the output service stores plain values when secret storage is off)', () => {
    const body = {
      id: 'soc-kafka', name: 'Kafka', type: 'kafka', hosts: ['kafka.soc.example:9092'], auth_type: 'user_pass', username: 'svc', password: 'CLEAR-PASSWORD', sasl: { mechanism: 'PLAIN' },
      topic: 'soc', ssl: { certificate: 'CERT', key: '-----BEGIN PRIVATE KEY-----CLEAR' },
    };
    const live = { kind: 'FleetOutput', space: 'default', name: 'soc-kafka', body };
    const declared = resource('FleetOutput', 'soc-kafka', { name: 'Kafka', type: 'kafka', hosts: ['kafka.soc.example:9092'], auth_type: 'user_pass', username: 'svc', sasl: { mechanism: 'PLAIN' }, topic: 'soc', ssl: { certificate: 'CERT' }, secrets: { password: 'x', ssl: { key: 'y' } } });
    assert.deepEqual(adapter.normalizeLive(live, RUN), adapter.normalizeDesired(declared, RUN));
    const { spec, variables } = adapter.toSpec(live, RUN);
    assert.doesNotMatch(JSON.stringify(spec), /CLEAR/);
    assert.deepEqual(spec.secrets, { ssl: { key: '${env:SVCFORM_FLEET_OUTPUT_SOC_KAFKA_SSL_KEY}' }, password: '${env:SVCFORM_FLEET_OUTPUT_SOC_KAFKA_PASSWORD}' });
    assert.deepEqual(spec.ssl, { certificate: 'CERT' });
    assert.deepEqual(variables!.map((v) => v.name).sort(), ['SVCFORM_FLEET_OUTPUT_SOC_KAFKA_PASSWORD', 'SVCFORM_FLEET_OUTPUT_SOC_KAFKA_SSL_KEY']);
  });

  it('an agent policy naming an output is written after it, and plans empty', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'a-policy.yaml': policy(), 'z-output.yaml': output() });
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const order = emu.log.all().filter((r) => r.method === 'POST' && (r.path === OUT || r.path === '/api/fleet/agent_policies')).map((r) => r.path);
    assert.deepEqual(order, [OUT, '/api/fleet/agent_policies']);
    assert.equal((await call(emu, 'GET', '/api/fleet/agent_policies/soc-servers')).body.item.data_output_id, 'soc-logstash');
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('refuses to delete an output a remaining policy names; deleting both deletes the policy first', async () => {
    const dir = repo({ 'svcform.yaml': MANAGE, 'policy.yaml': policy('monitoring_output_id'), 'output.yaml': output() });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    rmSync(join(dir, 'output.yaml'));
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 1, plan.out + plan.err);
    assert.match(plan.out + plan.err, /FleetOutput\/soc-logstash is used by AgentPolicy\/soc-servers \(space default\): its manifest names it at spec\.monitoring_output_id/);

    rmSync(join(dir, 'policy.yaml'));
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const deletes = emu.log.all().filter((r) => r.method === 'DELETE' || r.path === '/api/fleet/agent_policies/delete').map((r) => r.path);
    assert.deepEqual(deletes, ['/api/fleet/agent_policies/delete', `${OUT}/soc-logstash`]);
  });

  it('a policy naming an output neither the manifests nor the server hold is a plan warning (the server stores the id unchecked)', async () => {
    const dir = repo({ 'policy.yaml': policy() });
    const plan = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plan.code, 0, plan.out + plan.err);
    assert.match(plan.out + plan.err, /soc-logstash/);
    assert.match(plan.out + plan.err, /no output to send to until it exists/);
  });

  it('a scope over every output never plans to delete the default one, which the server refuses (400); once another output is the default, it does', async () => {
    const dir = repo({ 'svcform.yaml': 'manage:\n  - kind: FleetOutput\n', 'empty.yaml': '' });
    const first = JSON.parse((await cli(['plan', dir, '--url', emu.url, '--json'])).out);
    assert.deepEqual(first.changes.filter((c: any) => c.name === 'fleet-default-output'), [], 'the default output is not deleted');
    assert.match(first.unmanaged.find((o: any) => o.name === 'fleet-default-output')?.kept ?? '', /the server refuses to delete it/);
    writeFiles(dir, { 'output.yaml': output('  is_default: true\n  is_default_monitoring: true\n') });
    const applied = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const next = JSON.parse((await cli(['plan', dir, '--url', emu.url, '--json'])).out);
    assert.deepEqual(next.changes.map((c: any) => `${c.action} ${c.name}`), ['delete fleet-default-output']);
    assert.equal((await cli(['apply', dir, '--url', emu.url, '--auto-approve'])).code, 0);
  });

  it('outputs belong to no space: a manifest in another space plans the same object', async () => {
    await call(emu, 'POST', '/__emulator/spaces', { id: 'ops' });
    const dir = repo({ 'output.yaml': output() });
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFiles(dir, { 'output.yaml': output().replace('  name: soc-logstash\n', '  name: soc-logstash\n  space: ops\n') });
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('validate refuses what the route refuses: fields of another type, a kafka output without auth_type, hosts not http(s) for elasticsearch', async () => {
    const dir = repo({
      'a.yaml': output('  topic: logs\n'),
      'b.yaml': `apiVersion: svcform/v1\nkind: FleetOutput\nmetadata:\n  name: soc-kafka\nspec:\n  name: K\n  type: kafka\n  hosts: ['k:9092']\n`,
      'c.yaml': `apiVersion: svcform/v1\nkind: FleetOutput\nmetadata:\n  name: soc-es\nspec:\n  name: E\n  type: elasticsearch\n  hosts: ['es.example:9200']\n`,
    });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 1, validated.out + validated.err);
    const text = validated.out + validated.err;
    assert.match(text, /a\.yaml:\d+:\d+: .*spec\.topic/);
    assert.match(text, /b\.yaml:\d+:\d+: .*auth_type/);
    assert.match(text, /c\.yaml:\d+:\d+: .*spec\.hosts\[0\]/);
  });
});
