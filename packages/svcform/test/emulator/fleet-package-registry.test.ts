import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, emulator } from '@svcform/emulator/testing.js';
import { writeTestPackage } from '../helpers/package-dir.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';

const EPM = '/api/fleet/epm';
const AP = '/api/fleet/agent_policies';
const PP = '/api/fleet/package_policies';

/**
 * The package registry: packages from a folder in the package-spec layout (`--packages`) and the
 * bundled set. The real server installs any package and version its registry has, and package
 * policies exist for all of them (wire-facts §16 #9; TF fleet integration and integration_policy
 * testdata: tcp, kafka, aws_logs, sql, gcp_pubsub, system 1.18.0).
 */
describe('Fleet package registry: --packages folders and the bundled packages (wire-facts §16 #9)', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-packages-'));
    writeTestPackage(dir, 'doors', '0.3.0');
    emu = await emulator({ packageDirs: [dir] });
    assert.equal((await call(emu, 'POST', AP, { id: 'gateways', name: 'Gateways', namespace: 'default' })).status, 200);
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a package of the --packages folder: info with its data stream, install, and a package policy that reads back as written', async () => {
    const info = await call(emu, 'GET', `${EPM}/packages/doors/0.3.0`);
    assert.equal(info.status, 200, info.text);
    assert.equal(info.body.item.title, 'Door sensors');
    assert.deepEqual(info.body.item.data_streams.map((d: any) => [d.dataset, d.path]), [['doors.events', 'events']]);
    const body = { name: 'lobby doors', namespace: 'default', policy_ids: ['gateways'], package: { name: 'doors', version: '0.3.0' }, inputs: { 'doors-udp': { vars: { listen_port: 9600 }, streams: { 'doors.events': { vars: { building: 'HQ' } } } } } };
    const made = await call(emu, 'POST', `${PP}?format=simplified`, body);
    assert.equal(made.status, 200, made.text);
    const read = await call(emu, 'GET', `${PP}/${made.body.item.id}?format=simplified`);
    const input = read.body.item.inputs['doors-udp'];
    assert.deepEqual(input.vars, { listen_port: 9600 });
    assert.deepEqual(input.streams['doors.events'], { enabled: true, vars: { building: 'HQ', tags: ['doors'] } });
    assert.equal((await call(emu, 'GET', `${EPM}/packages/doors`)).body.item.status, 'installed');
  });

  it('validates a package policy against the folder package\'s variables (a required stream variable left empty is a 400)', async () => {
    const res = await call(emu, 'POST', PP, { name: 'no building', policy_ids: ['gateways'], package: { name: 'doors', version: '0.3.0' } });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /streams\.doors\.events\.vars\.building: Building is required/);
  });

  it('serves a data stream\'s fields file through the package file route {filePath*} (OAS get-fleet-epm-packages-pkgname-pkgversion-filepath)', async () => {
    const fields = await call(emu, 'GET', `${EPM}/packages/doors/0.3.0/data_stream/events/fields/fields.yml`);
    assert.equal(fields.status, 200, fields.text);
    assert.match(fields.text, /- name: doors\n {2}type: group/);
    assert.match(fields.text, /name: holder/);
    const bundled = await call(emu, 'GET', `${EPM}/packages/okta/3.1.0/data_stream/system/fields/fields.yml`);
    assert.equal(bundled.status, 200);
    assert.match(bundled.text, /name: event_type/);
    assert.equal((await call(emu, 'GET', `${EPM}/packages/doors/0.3.0/data_stream/events/fields/nope.yml`)).status, 404);
    assert.equal((await call(emu, 'GET', `${EPM}/packages/doors/0.3.0/data_stream/..%2F..%2Fdoors-0.3.0/manifest.yml`)).status, 404);
  });

  it('answers the package\'s assets grouped by service and type, from its files (common/types/models/epm.ts AssetsGroupedByServiceByType)', async () => {
    const assets = (await call(emu, 'GET', `${EPM}/packages/kafka/1.17.2`)).body.item.assets;
    const pipelines = assets.elasticsearch.ingest_pipeline.map((a: any) => a.path);
    assert.deepEqual(pipelines, ['kafka-1.17.2/data_stream/log/elasticsearch/ingest_pipeline/default.yml']);
    assert.equal(assets.kibana, undefined, 'no Kibana assets in this package');
  });

  for (const [name, version, policy] of [
    ['tcp', '1.21.1', { 'tcp-tcp': { streams: { 'tcp.tcp': { vars: { listen_port: 9000 } } } } }],
    ['kafka', '1.17.2', { 'kafka-kafka/metrics': { vars: { hosts: ['kafka-1:9092'] } } }],
    ['system', '1.18.0', { 'system-logfile': { streams: { 'system.auth': { vars: { paths: ['/var/log/auth.log'] } } } } }],
    ['aws_logs', '1.6.2', {}],
    ['sql', '1.0.0', { 'sql_query-sql/metrics': { streams: { 'sql.sql_query': { vars: { hosts: ['root:secret@tcp(db:3306)/'] } } } } }],
    ['gcp_pubsub', '1.3.1', { 'gcp_pubsub-gcp-pubsub': { streams: { 'gcp_pubsub.gcp_pubsub': { vars: { project_id: 'p', topic: 't', subscription_name: 's' } } } } }],
  ] as const) {
    it(`installs the bundled ${name} ${version} and takes a package policy for it (wire-facts §16 #9)`, async () => {
      // 1.18.0 is older than the newest system: an out-of-date install needs force (service-api.md).
      const installed = await call(emu, 'POST', `${EPM}/packages/${name}/${version}`, name === 'system' ? { force: true } : undefined);
      assert.equal(installed.status, 200, installed.text);
      const made = await call(emu, 'POST', PP, { name: `${name} ${version}`, namespace: 'default', policy_ids: ['gateways'], package: { name, version }, inputs: policy });
      assert.equal(made.status, 200, made.text);
      assert.equal(made.body.item.package.version, version);
    });
  }

  it('refuses an unknown version and an unknown package with the server\'s 404s (fleet services/epm/registry PackageNotFoundError)', async () => {
    const version = await call(emu, 'POST', `${EPM}/packages/tcp/9.9.9`);
    assert.equal(version.status, 404);
    assert.deepEqual(version.body, { statusCode: 404, error: 'Not Found', message: 'tcp@9.9.9 not found' });
    const policy = await call(emu, 'POST', PP, { name: 'tcp nine', policy_ids: ['gateways'], package: { name: 'tcp', version: '9.9.9' } });
    assert.equal(policy.status, 404);
    assert.equal(policy.body.message, 'tcp@9.9.9 not found');
    const pkg = await call(emu, 'GET', `${EPM}/packages/no_such_package`);
    assert.equal(pkg.status, 404);
    assert.equal(pkg.body.message, '[no_such_package] package not found in registry');
  });
});
