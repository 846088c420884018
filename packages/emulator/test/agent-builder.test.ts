import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOOLS = '/api/agent_builder/tools';
const AGENTS = '/api/agent_builder/agents';

const qlangTool = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'qlang',
  configuration: { query: 'FROM logs-* | WHERE host.name == ?host | LIMIT 10', params: { host: { type: 'string', description: 'Host name' } } },
  ...extra,
});

describe('emulator: agent builder (service-api.md Agent builder; wire-facts §11; K-AB/tools.ts, agents.ts)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
  });
  after(() => emu.stop());

  it('lists built-in platform.* tools and the built-in agent, read-only, in every space ("results ... includes built-in")', async () => {
    for (const prefix of ['', '/s/ops']) {
      const tools = (await call(emu, 'GET', `${prefix}${TOOLS}`)).body.results;
      assert.ok(tools.length > 0 && tools.every((t: any) => t.id.startsWith('platform.') && t.readonly === true && t.type === 'builtin'));
      const agents = (await call(emu, 'GET', `${prefix}${AGENTS}`)).body.results;
      assert.deepEqual(agents.map((a: any) => [a.id, a.readonly, a.type]), [['elastic-ai-agent', true, 'chat']]);
    }
  });

  it('creates a tool with description "" and tags [] filled and a derived parameter schema (OAS post-agent-builder-tools defaults)', async () => {
    const res = await call(emu, 'POST', TOOLS, qlangTool('soc.by_host'));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.description, '');
    assert.deepEqual(res.body.tags, []);
    assert.equal(res.body.readonly, false);
    assert.deepEqual(res.body.schema.required, ['host']);
  });

  it('refuses unknown body keys, unknown configuration keys and a type outside the editable ones (config-schema, additionalProperties: false)', async () => {
    const extra = await call(emu, 'POST', TOOLS, { ...qlangTool('soc.extra'), owner: 'me' });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.message, '[request body.owner]: definition for this key is missing');
    const config = await call(emu, 'POST', TOOLS, { id: 'soc.idx', type: 'index_search', configuration: { pattern: 'x-*', index: 'x' } });
    assert.equal(config.status, 400);
    assert.equal(config.body.message, '[request body.configuration.index]: definition for this key is missing');
    const builtin = await call(emu, 'POST', TOOLS, { id: 'soc.b', type: 'builtin', configuration: {} });
    assert.equal(builtin.status, 400);
  });

  it('refuses a protected namespace and a malformed id (agent-builder-common/tools/tool_ids.ts)', async () => {
    const platform = await call(emu, 'POST', TOOLS, qlangTool('platform.mine'));
    assert.equal(platform.status, 400);
    assert.match(platform.body.message, /protected namespace/);
    const upper = await call(emu, 'POST', TOOLS, qlangTool('Soc.Tool'));
    assert.equal(upper.status, 400);
    assert.match(upper.body.message, /Invalid tool id/);
  });

  it('refuses qlang parameters the query does not use and placeholders without a parameter (esql/validate_configuration.ts)', async () => {
    const unused = await call(emu, 'POST', TOOLS, qlangTool('soc.unused', { configuration: { query: 'FROM logs-* | LIMIT 1', params: { host: { type: 'string', description: 'h' } } } }));
    assert.equal(unused.status, 400);
    assert.equal(unused.body.message, 'Defined parameters not used in query: host');
    const undefinedParam = await call(emu, 'POST', TOOLS, qlangTool('soc.undef', { configuration: { query: 'FROM logs-* | WHERE a == ?a', params: {} } }));
    assert.equal(undefinedParam.status, 400);
    assert.equal(undefinedParam.body.message, 'Query uses undefined parameters: a');
  });

  it('updates a tool partially: omitted fields stay, configuration keys merge (service-api.md "update tool (configuration, description, tags)"; wire-facts §11 "partial")', async () => {
    await call(emu, 'POST', TOOLS, { id: 'soc.search', type: 'index_search', description: 'd', tags: ['a'], configuration: { pattern: 'a-*', row_limit: 5 } });
    const res = await call(emu, 'PUT', `${TOOLS}/soc.search`, { configuration: { pattern: 'b-*' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.configuration, { pattern: 'b-*', row_limit: 5 });
    assert.equal(res.body.description, 'd');
    assert.deepEqual(res.body.tags, ['a']);
    const typeChange = await call(emu, 'PUT', `${TOOLS}/soc.search`, { type: 'qlang' });
    assert.equal(typeChange.status, 400, 'type cannot change');
    const builtin = await call(emu, 'PUT', `${TOOLS}/platform.core.search`, { description: 'x' });
    assert.equal(builtin.status, 400);
  });

  it('creates an agent only with tools that exist, and answers type chat, private visibility by default', async () => {
    const missing = await call(emu, 'POST', AGENTS, { id: 'a1', name: 'A', description: '', configuration: { tools: [{ tool_ids: ['soc.nope'] }] } });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /unknown tools: soc.nope/);
    const made = await call(emu, 'POST', AGENTS, { id: 'a1', name: 'A', description: '', configuration: { tools: [{ tool_ids: ['soc.by_host', 'platform.core.search'] }] } });
    assert.equal(made.status, 200, made.text);
    assert.equal(made.body.type, 'chat');
    assert.equal(made.body.visibility, 'private');
    const extra = await call(emu, 'POST', AGENTS, { id: 'a2', name: 'A', description: '', configuration: { tools: [], extra: 1 } });
    assert.equal(extra.body.message, '[request body.configuration.extra]: definition for this key is missing');
  });

  it('takes an agent naming platform.core.index_explorer, a built-in tool of 9.4 (wire-facts §16 #11; agent-builder-common/tools/constants.ts platformCoreTools)', async () => {
    const tools = (await call(emu, 'GET', TOOLS)).body.results.map((t: any) => t.id);
    for (const id of ['platform.core.index_explorer', 'platform.core.get_index_mapping', 'platform.core.search', 'platform.core.execute_qlang']) assert.ok(tools.includes(id), id);
    const made = await call(emu, 'POST', AGENTS, { id: 'explorer', name: 'E', description: '', configuration: { tools: [{ tool_ids: ['platform.core.index_explorer'] }] } });
    assert.equal(made.status, 200, made.text);
    assert.deepEqual(made.body.configuration.tools, [{ tool_ids: ['platform.core.index_explorer'] }]);
    assert.equal((await call(emu, 'DELETE', `${AGENTS}/explorer`)).status, 200);
  });

  it('lists the built-in tools of this build even when a saved state holds an older list (the built-ins are the server\'s, not saved data)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-ab-'));
    const stateFile = join(dir, 'state.json');
    const first = await emulator({ stateFile });
    await call(first, 'GET', TOOLS);
    await call(first, 'POST', TOOLS, qlangTool('soc.saved'));
    await first.stop();
    // Drop a built-in from the saved state, as a state written before it existed would lack it.
    writeFileSync(stateFile, readFileSync(stateFile, 'utf8').replace('"platform.core.index_explorer"', '"platform.core.gone_explorer"'));
    const second = await emulator({ stateFile });
    try {
      const ids = (await call(second, 'GET', TOOLS)).body.results.map((t: any) => t.id);
      assert.ok(ids.includes('platform.core.index_explorer') && ids.includes('soc.saved'), ids.join(', '));
    } finally {
      await second.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes avatar_color and avatar_symbol "" on create and update, stores and answers them as "" (wire-facts §16 #6: TF agentbuilderagent update_no_avatar)', async () => {
    const body = { id: 'avatar-clear', name: 'A', description: '', configuration: { tools: [] } };
    const created = await call(emu, 'POST', AGENTS, { ...body, avatar_color: '#BFDBFF', avatar_symbol: 'TA' });
    assert.equal(created.status, 200, created.text);
    const cleared = await call(emu, 'PUT', `${AGENTS}/avatar-clear`, { avatar_color: '', avatar_symbol: '' });
    assert.equal(cleared.status, 200, cleared.text);
    const read = (await call(emu, 'GET', `${AGENTS}/avatar-clear`)).body;
    assert.deepEqual([read.avatar_color, read.avatar_symbol], ['', '']);
    assert.equal((await call(emu, 'POST', AGENTS, { ...body, id: 'avatar-empty', avatar_color: '', avatar_symbol: '' })).status, 200);
    assert.equal((await call(emu, 'POST', AGENTS, { ...body, id: 'avatar-bad', avatar_color: 'blue' })).status, 400);
  });

  it('refuses to delete a tool agents use unless force=true, which takes it out of them (wire-facts §11: 409 with attributes {code, agents})', async () => {
    const refused = await call(emu, 'DELETE', `${TOOLS}/soc.by_host`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.statusCode, 409);
    assert.deepEqual(refused.body.attributes.agents, ['a1']);
    const forced = await call(emu, 'DELETE', `${TOOLS}/soc.by_host?force=true`);
    assert.deepEqual(forced.body, { success: true });
    const agent = (await call(emu, 'GET', `${AGENTS}/a1`)).body;
    assert.deepEqual(agent.configuration.tools, [{ tool_ids: ['platform.core.search'] }]);
  });

  it('never deletes or updates the built-in agent (service-api.md: "built-in read-only agents cannot be deleted")', async () => {
    assert.equal((await call(emu, 'DELETE', `${AGENTS}/elastic-ai-agent`)).status, 400);
    assert.equal((await call(emu, 'PUT', `${AGENTS}/elastic-ai-agent`, { name: 'x' })).status, 400);
    assert.equal((await call(emu, 'DELETE', `${TOOLS}/platform.core.search`)).status, 400);
    assert.equal((await call(emu, 'GET', `${AGENTS}/none`)).status, 404);
  });
});
