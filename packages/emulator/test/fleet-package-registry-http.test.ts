import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const EPM = '/api/fleet/epm';
const PP = '/api/fleet/package_policies';

/** Package info as a package registry answers `/package/<name>/<version>/` (EPR: manifest fields, data_streams with their folder as `path`, files as `assets`). */
function beacons(version: string) {
  const base = `/package/beacons/${version}`;
  return {
    name: 'beacons', title: 'Beacons', version, description: 'Collect beacon pings.', type: 'integration', format_version: '3.3.0',
    categories: ['network'], conditions: { kibana: { version: '^9.0.0' } }, owner: { github: 'example/beacons', type: 'community' },
    policy_templates: [{ name: 'beacons', title: 'Beacons', description: 'Beacon pings', inputs: [{ type: 'http_endpoint', title: 'Receive pings', description: 'Pings arrive over HTTP' }] }],
    data_streams: [{
      type: 'logs', dataset: 'beacons.ping', title: 'Beacon pings', path: 'ping', release: 'ga', package: 'beacons',
      streams: [{ input: 'http_endpoint', title: 'Pings', description: 'One document per ping', template_path: 'http_endpoint.yml.hbs', vars: [{ name: 'listen_port', type: 'integer', title: 'Listen port', required: true, show_user: true, default: 8383 }] }],
    }],
    assets: [`${base}/manifest.yml`, `${base}/data_stream/ping/manifest.yml`, `${base}/data_stream/ping/fields/fields.yml`, `${base}/data_stream/ping/elasticsearch/ingest_pipeline/default.yml`],
  };
}

/**
 * A tiny package registry on 127.0.0.1 answering the routes the real server reads its registry
 * through (`xpack.fleet.registryUrl`): `/search`, `/package/<name>/<version>/` and the files.
 */
function startRegistry(): Promise<{ server: Server; url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://registry');
    paths.push(url.pathname);
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/search') return json(['1.0.0', '1.1.0'].map((v) => ({ name: 'beacons', version: v, title: 'Beacons', type: 'integration' })));
    const info = /^\/package\/beacons\/(1\.0\.0|1\.1\.0)\/$/.exec(url.pathname);
    if (info) return json(beacons(info[1]));
    if (url.pathname === '/package/beacons/1.1.0/data_stream/ping/fields/fields.yml') return res.writeHead(200, { 'content-type': 'text/yaml' }).end('- name: beacon\n  type: group\n  fields:\n    - name: id\n      type: keyword\n');
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"errors":"404 Not Found"}');
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths })));
}

describe('Fleet package registry over HTTP (--registry; the server\'s xpack.fleet.registryUrl, wire-facts §16 #9)', () => {
  let emu: RunningEmulator;
  let registry: Awaited<ReturnType<typeof startRegistry>>;
  before(async () => {
    registry = await startRegistry();
    emu = await emulator({ registryUrl: registry.url });
    await call(emu, 'POST', '/api/fleet/agent_policies', { id: 'edge', name: 'Edge', namespace: 'default' });
  });
  after(async () => {
    await emu.stop();
    await new Promise((done) => registry.server.close(done));
  });

  it('lists and installs what the registry has, newest first, and takes a package policy for it', async () => {
    const info = await call(emu, 'GET', `${EPM}/packages/beacons`);
    assert.equal(info.status, 200, info.text);
    assert.equal(info.body.item.version, '1.1.0');
    assert.deepEqual(info.body.item.assets.elasticsearch.ingest_pipeline.map((a: any) => a.path), ['beacons-1.1.0/data_stream/ping/elasticsearch/ingest_pipeline/default.yml']);
    assert.equal((await call(emu, 'POST', `${EPM}/packages/beacons/1.1.0`)).status, 200);
    const made = await call(emu, 'POST', `${PP}?format=simplified`, { name: 'pings', policy_ids: ['edge'], package: { name: 'beacons', version: '1.1.0' }, inputs: { 'beacons-http_endpoint': { streams: { 'beacons.ping': { vars: { listen_port: 9000 } } } } } });
    assert.equal(made.status, 200, made.text);
    assert.deepEqual(made.body.item.inputs['beacons-http_endpoint'].streams['beacons.ping'].vars, { listen_port: 9000 });
    assert.ok(registry.paths.includes('/search') && registry.paths.includes('/package/beacons/1.1.0/'), registry.paths.join(', '));
  });

  it('serves a package file read from the registry, and 404 for one it lacks', async () => {
    const fields = await call(emu, 'GET', `${EPM}/packages/beacons/1.1.0/data_stream/ping/fields/fields.yml`);
    assert.equal(fields.status, 200, fields.text);
    assert.match(fields.text, /name: beacon/);
    assert.equal((await call(emu, 'GET', `${EPM}/packages/beacons/1.1.0/docs/README.md`)).status, 404);
  });

  it('reads the registry instead of the bundled packages, and answers unknown versions and packages with the server\'s 404s', async () => {
    const version = await call(emu, 'GET', `${EPM}/packages/beacons/2.0.0`);
    assert.equal(version.status, 404);
    assert.equal(version.body.message, 'beacons@2.0.0 not found');
    const bundled = await call(emu, 'GET', `${EPM}/packages/system`);
    assert.equal(bundled.status, 404);
    assert.equal(bundled.body.message, '[system] package not found in registry');
  });
});

describe('Fleet package registry over HTTP: a registry that cannot be reached', () => {
  it('answers 502 with the connection error, as the server does for a registry connection error (fleet errors/handlers.ts getHTTPResponseCode)', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = await startRegistry();
    await new Promise((done) => closed.server.close(done));
    const emu = await emulator({ registryUrl: closed.url });
    try {
      const res = await call(emu, 'GET', `${EPM}/packages/beacons`);
      assert.equal(res.status, 502, res.text);
      assert.match(res.body.message, /^Error connecting to package registry at http:\/\/127\.0\.0\.1:\d+: /);
    } finally {
      await emu.stop();
    }
  });
});
