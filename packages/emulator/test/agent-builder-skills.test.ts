import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const SKILLS = '/api/agent_builder/skills';
const AGENTS = '/api/agent_builder/agents';
const TOOLS = '/api/agent_builder/tools';

const skill = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  description: 'Summarise an incident from its alerts.',
  content: '1. Gather the alerts.\n2. Name the hosts.\n',
  ...extra,
});

const agent = (id: string, skillIds: string[]) => ({ id, name: `Agent ${id}`, description: '', configuration: { tools: [], skill_ids: skillIds } });

// Sources: K-AB/skills.ts (routes, 9.4.0 experimental), agent-builder-common skill schemas (zod),
// server/services/skills/skill_registry.ts and agents/persisted/client/utils/skills.ts.
describe('emulator: agent builder skills (K-AB/skills.ts; service-api.md line 670: technical preview 9.4)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
  });
  after(() => emu.stop());

  it('lists built-in skills read-only in every space, as summaries without content (internalToPublicSummary)', async () => {
    for (const prefix of ['', '/s/ops']) {
      const results = (await call(emu, 'GET', `${prefix}${SKILLS}`)).body.results;
      assert.ok(results.length > 0 && results.every((s: any) => s.readonly === true && s.content === undefined && s.referenced_content_count === 0));
    }
  });

  it('creates a skill with tool_ids [] by default and answers the whole skill; the list answers a summary, the get the content', async () => {
    const created = await call(emu, 'POST', SKILLS, skill('incident-summary', { referenced_content: [{ name: 'runbook', relativePath: './runbooks', content: 'Page on-call.' }] }));
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(created.body.tool_ids, []);
    assert.equal(created.body.readonly, false);
    const listed = (await call(emu, 'GET', SKILLS)).body.results.find((s: any) => s.id === 'incident-summary');
    assert.equal(listed.content, undefined);
    assert.equal(listed.referenced_content_count, 1);
    const got = (await call(emu, 'GET', `${SKILLS}/incident-summary`)).body;
    assert.equal(got.content, skill('x').content);
    assert.deepEqual(got.referenced_content, [{ name: 'runbook', relativePath: './runbooks', content: 'Page on-call.' }]);
  });

  it('refuses unknown keys (config-schema), then every body issue joined with "; " (skillCreateRequestSchema, as the provider acceptance tests bound it)', async () => {
    const extra = await call(emu, 'POST', SKILLS, { ...skill('s-extra'), owner: 'me' });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.message, '[request body.owner]: definition for this key is missing');
    const bad = await call(emu, 'POST', SKILLS, skill('Bad_Id-', { description: '', content: '' }));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, 'ID must start and end with a letter or number, and contain only lowercase letters, numbers, hyphens, and underscores; Description must be non-empty; Content must be non-empty');
    const path = await call(emu, 'POST', SKILLS, skill('s-path', { referenced_content: [{ name: 'a', relativePath: 'docs/a', content: 'x' }] }));
    assert.equal(path.status, 400);
    assert.equal(path.body.message, 'Relative path must start with ./');
    // Names with spaces and capitals and nested paths, as the provider's acceptance tests create them.
    const human = await call(emu, 'POST', SKILLS, skill('s-human', { name: 'Test Skill', referenced_content: [{ name: 'Runbook', relativePath: './runbooks/standard.md', content: 'x' }] }));
    assert.equal(human.status, 200, human.text);
  });

  it('refuses a duplicate id and tools the tool registry does not hold (skill_registry.ts create)', async () => {
    assert.equal((await call(emu, 'POST', SKILLS, skill('dup'))).status, 200);
    const again = await call(emu, 'POST', SKILLS, skill('dup'));
    assert.equal(again.status, 400);
    assert.equal(again.body.message, "Skill with id 'dup' already exists");
    const tools = await call(emu, 'POST', SKILLS, skill('with-tools', { tool_ids: ['platform.core.search', 'soc.missing'] }));
    assert.equal(tools.status, 400);
    assert.equal(tools.body.message, 'Invalid tool IDs: soc.missing. These tools do not exist in the tool registry.');
    assert.equal((await call(emu, 'POST', TOOLS, { id: 'soc.present', type: 'index_search', configuration: { pattern: 'x-*' } })).status, 200);
    assert.equal((await call(emu, 'POST', SKILLS, skill('with-tools', { tool_ids: ['platform.core.search', 'soc.present'] }))).status, 200);
  });

  it('updates partially; refuses a built-in (400) and answers a missing skill 400 on update, 404 on get and delete', async () => {
    assert.equal((await call(emu, 'POST', SKILLS, skill('partial'))).status, 200);
    const updated = await call(emu, 'PUT', `${SKILLS}/partial`, { description: 'Changed.' });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.description, 'Changed.');
    assert.equal(updated.body.content, skill('x').content);
    const builtin = (await call(emu, 'GET', SKILLS)).body.results.find((s: any) => s.readonly).id;
    const ro = await call(emu, 'PUT', `${SKILLS}/${builtin}`, { description: 'Mine now.' });
    assert.equal(ro.status, 400);
    assert.match(ro.body.message, /is read-only and can't be updated/);
    assert.equal((await call(emu, 'DELETE', `${SKILLS}/${builtin}`)).status, 400);
    assert.equal((await call(emu, 'PUT', `${SKILLS}/nope`, { description: 'x' })).status, 400);
    const missing = await call(emu, 'GET', `${SKILLS}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, "Skill with id 'nope' not found");
    assert.equal((await call(emu, 'DELETE', `${SKILLS}/nope`)).status, 404);
  });

  it('refuses an agent naming a skill the space does not hold, on create and update (agents/persisted/client/utils/skills.ts)', async () => {
    const refused = await call(emu, 'POST', AGENTS, agent('needs-skill', ['no-such-skill']));
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /Skill id 'no-such-skill' does not exist\./);
    assert.equal((await call(emu, 'POST', SKILLS, skill('triage-steps'))).status, 200);
    const builtin = (await call(emu, 'GET', SKILLS)).body.results.find((s: any) => s.readonly).id;
    assert.equal((await call(emu, 'POST', AGENTS, agent('needs-skill', ['triage-steps', builtin]))).status, 200);
    const update = await call(emu, 'PUT', `${AGENTS}/needs-skill`, { configuration: { skill_ids: ['gone'] } });
    assert.equal(update.status, 400);
    // Skills live per space: the ops space does not hold triage-steps.
    assert.equal((await call(emu, 'POST', `/s/ops${AGENTS}`, agent('needs-skill', ['triage-steps']))).status, 400);
  });

  it('refuses to delete a skill agents name unless force=true, which takes it out of them (K-AB/skills.ts: 409 SKILL_USED_BY_AGENTS)', async () => {
    assert.equal((await call(emu, 'POST', SKILLS, skill('in-use'))).status, 200);
    assert.equal((await call(emu, 'POST', AGENTS, agent('user-of-skill', ['in-use']))).status, 200);
    const refused = await call(emu, 'DELETE', `${SKILLS}/in-use?force=false`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.attributes.code, 'SKILL_USED_BY_AGENTS');
    assert.deepEqual(refused.body.attributes.agents, [{ id: 'user-of-skill', name: 'Agent user-of-skill' }]);
    const forced = await call(emu, 'DELETE', `${SKILLS}/in-use?force=true`);
    assert.equal(forced.status, 200);
    assert.deepEqual(forced.body, { success: true });
    assert.deepEqual((await call(emu, 'GET', `${AGENTS}/user-of-skill`)).body.configuration.skill_ids, []);
  });
});
