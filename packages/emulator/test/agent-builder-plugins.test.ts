import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const PLUGINS = '/api/agent_builder/plugins';
const SKILLS = '/api/agent_builder/skills';
const AGENTS = '/api/agent_builder/agents';
const HUNT = 'https://github.com/svcform/agent-plugins/tree/main/plugins/threat-hunting';

// Sources (K-AB = x-pack/platform/plugins/shared/agent_builder/server): routes/plugins.ts (routes,
// body schema, delete force and 409), services/plugins/plugin_service.ts (name taken, skills
// `<name>-<folder>`), utils/sourcing/resolve_plugin_url.ts and parse_github_url.ts (URL forms),
// download_plugin.ts (download and folder errors), routes/wrap_handler.ts (plain errors are 500s),
// plugins/client/converters.ts (toPluginDefinition). service-api.md line 670: technical preview 9.4.
describe('emulator: agent builder plugins (K-AB/routes/plugins.ts)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
  });
  after(() => emu.stop());

  it('installs from a GitHub folder URL under the name given (plugin_name), with a random id, the archive version and its skills (plugin_service.ts installPlugin; converters.ts)', async () => {
    const res = await call(emu, 'POST', `${PLUGINS}/install`, { url: HUNT, plugin_name: 'hunting' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.name, 'hunting');
    assert.equal(res.body.version, '1.2.0');
    assert.equal(res.body.source_url, HUNT);
    assert.deepEqual(res.body.skill_ids, ['hunting-lateral-movement', 'hunting-persistence']);
    const got = await call(emu, 'GET', `${PLUGINS}/${res.body.id}`);
    assert.deepEqual(got.body, res.body);
    assert.deepEqual((await call(emu, 'GET', PLUGINS)).body.results.map((p: any) => p.name), ['hunting']);
  });

  it('without plugin_name the name is the archive manifest\'s; a .zip URL is downloaded as it is (resolve_plugin_url.ts looksLikeZipUrl)', async () => {
    const res = await call(emu, 'POST', `/s/ops${PLUGINS}/install`, { url: 'https://plugins.example.com/triage-basics-1.0.0.zip' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'triage-basics');
    // Space-scoped: the default space does not see it.
    assert.ok(!(await call(emu, 'GET', PLUGINS)).body.results.some((p: any) => p.name === 'triage-basics'));
  });

  it('a blob URL to the plugin.json installs its folder (resolve_plugin_url.ts derivePluginPath)', async () => {
    const res = await call(emu, 'POST', `/s/ops${PLUGINS}/install`, { url: 'https://github.com/svcform/agent-plugins/blob/main/plugins/incident-comms/.claude-plugin/plugin.json' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'incident-comms');
  });

  it('refuses a second plugin of the same name with a 400 (plugin_service.ts: "is already installed")', async () => {
    const first = (await call(emu, 'GET', PLUGINS)).body.results.find((p: any) => p.name === 'hunting');
    const res = await call(emu, 'POST', `${PLUGINS}/install`, { url: HUNT, plugin_name: 'hunting' });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, `Plugin "hunting" is already installed (id: ${first.id}, version: 1.2.0)`);
  });

  it('refuses unknown keys and a missing url (the route\'s config-schema body)', async () => {
    const extra = await call(emu, 'POST', `${PLUGINS}/install`, { url: HUNT, version: '1' });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.message, '[request body.version]: definition for this key is missing');
    const missing = await call(emu, 'POST', `${PLUGINS}/install`, { plugin_name: 'x' });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /^\[request body\.url\]: expected value of type \[string\]/);
  });

  it('refuses a URL neither GitHub nor .zip with a 400 (resolve_plugin_url.ts)', async () => {
    const url = 'https://gitlab.com/acme/plugins/-/tree/main/hunt';
    const res = await call(emu, 'POST', `${PLUGINS}/install`, { url });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, `Unsupported plugin URL: "${url}". Provide a GitHub repository URL or a direct link to a .zip file.`);
  });

  it('answers a failed download with a 500 naming the archive URL, and a folder not in the archive likewise (download_plugin.ts; wrap_handler.ts)', async () => {
    const unknown = await call(emu, 'POST', `${PLUGINS}/install`, { url: 'https://github.com/acme/nothing/tree/dev/x' });
    assert.equal(unknown.status, 500);
    assert.equal(unknown.body.message, 'Failed to download plugin archive from https://github.com/acme/nothing/archive/dev.zip: 404 Not Found');
    const folder = await call(emu, 'POST', `${PLUGINS}/install`, { url: 'https://github.com/svcform/agent-plugins/tree/main/plugins/nope' });
    assert.equal(folder.status, 500);
    assert.equal(folder.body.message, 'No files found at path "plugins/nope" in the downloaded archive.');
  });

  it('lists the skills a plugin brought only with include_plugins=true, read-only; they cannot be deleted (skills.ts include_plugins; skill registry read-only)', async () => {
    assert.ok(!(await call(emu, 'GET', SKILLS)).body.results.some((s: any) => s.id === 'hunting-persistence'));
    const listed = (await call(emu, 'GET', `${SKILLS}?include_plugins=true`)).body.results.find((s: any) => s.id === 'hunting-persistence');
    assert.equal(listed.readonly, true);
    const del = await call(emu, 'DELETE', `${SKILLS}/hunting-persistence`);
    assert.equal(del.status, 400);
  });

  it('refuses to delete a plugin agents name (409 PLUGIN_USED_BY_AGENTS); force=true takes it out of them and deletes it with its skills (plugins.ts delete)', async () => {
    const plugin = (await call(emu, 'GET', PLUGINS)).body.results.find((p: any) => p.name === 'hunting');
    const created = await call(emu, 'POST', AGENTS, { id: 'hunter', name: 'Hunter', description: '', configuration: { tools: [], plugin_ids: [plugin.id] } });
    assert.equal(created.status, 200, created.text);
    const refused = await call(emu, 'DELETE', `${PLUGINS}/${plugin.id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.attributes.code, 'PLUGIN_USED_BY_AGENTS');
    assert.deepEqual(refused.body.attributes.agents, [{ id: 'hunter', name: 'Hunter' }]);
    const bad = await call(emu, 'DELETE', `${PLUGINS}/${plugin.id}?force=yes`);
    assert.equal(bad.status, 400);
    const forced = await call(emu, 'DELETE', `${PLUGINS}/${plugin.id}?force=true`);
    assert.equal(forced.status, 200, forced.text);
    assert.deepEqual((await call(emu, 'GET', `${AGENTS}/hunter`)).body.configuration.plugin_ids, []);
    assert.equal((await call(emu, 'GET', `${SKILLS}/hunting-persistence`)).status, 404);
    assert.equal((await call(emu, 'GET', `${PLUGINS}/${plugin.id}`)).status, 404);
    assert.equal((await call(emu, 'DELETE', `${PLUGINS}/${plugin.id}`)).status, 404);
  });
});
