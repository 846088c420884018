import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const ONE = '/api/workflows/workflow';
const TOOLS = '/api/agent_builder/tools';

const definition = (name: string, extra = '') => `name: ${name}
enabled: true
description: Enrich an alert
${extra}triggers:
  - type: manual
steps:
  - name: hello
    type: console
    with:
      message: "{{ inputs.message }}"
`;

// Sources: workflows_management/server/api/routes/workflows/{get_workflows,create_workflow,
// update_workflow,delete_workflow}.ts and their OAS examples (examples/*.yaml); @kbn/workflows
// CreateWorkflowCommandSchema / UpdateWorkflowCommandSchema; agent_builder tool_types/workflow/validation.ts.
describe('emulator: workflows (/api/workflows; workflows_management routes)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
  });
  after(() => emu.stop());

  it('creates a workflow from YAML with a custom id and reads name, description, enabled and tags from it (examples/create_workflow.yaml)', async () => {
    const created = await call(emu, 'POST', ONE, { id: 'wf-enrich', yaml: definition('Enrich', 'tags: [soc]\n') });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual([created.body.id, created.body.name, created.body.description, created.body.enabled, created.body.tags, created.body.valid], ['wf-enrich', 'Enrich', 'Enrich an alert', true, ['soc'], true]);
    assert.equal(created.body.definition.steps[0].with.message, '{{ inputs.message }}');
    const generated = await call(emu, 'POST', ONE, { yaml: definition('Generated') });
    assert.match(generated.body.id, /^workflow-[0-9a-f-]{36}$/);
  });

  it('lists a page {page, size, total, results} without the YAML text; the get answers it (examples/get_workflows.yaml, get_workflow.yaml)', async () => {
    const page = await call(emu, 'GET', '/api/workflows?size=1&page=1');
    assert.equal(page.status, 200);
    assert.equal(page.body.size, 1);
    assert.ok(page.body.total >= 2);
    assert.equal(page.body.results.length, 1);
    assert.equal(page.body.results[0].yaml, undefined);
    assert.equal((await call(emu, 'GET', `${ONE}/wf-enrich`)).body.yaml, definition('Enrich', 'tags: [soc]\n'));
    assert.equal((await call(emu, 'GET', '/api/workflows?size=0')).status, 400);
    assert.equal((await call(emu, 'GET', '/api/workflows?owner=me')).status, 400);
    // Workflows live per space.
    assert.equal((await call(emu, 'GET', `/s/ops${ONE}/wf-enrich`)).status, 404);
  });

  it('refuses unknown body keys and YAML that does not parse; keeps a definition without steps as valid: false, never enabled', async () => {
    assert.equal((await call(emu, 'POST', ONE, { yaml: definition('X'), owner: 'me' })).status, 400);
    const broken = await call(emu, 'POST', ONE, { yaml: 'name: [unclosed' });
    assert.equal(broken.status, 400);
    const invalid = await call(emu, 'POST', ONE, { id: 'wf-draft', yaml: 'name: Draft\nenabled: true\n' });
    assert.equal(invalid.status, 200, invalid.text);
    assert.deepEqual([invalid.body.valid, invalid.body.enabled], [false, false]);
  });

  it('updates partially: a field set alone is written into the YAML too; answers the short form (examples/update_workflow.yaml)', async () => {
    const res = await call(emu, 'PUT', `${ONE}/wf-enrich`, { enabled: false, description: 'Changed in the UI' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['enabled', 'id', 'lastUpdatedAt', 'lastUpdatedBy', 'valid', 'validationErrors']);
    const got = (await call(emu, 'GET', `${ONE}/wf-enrich`)).body;
    assert.deepEqual([got.enabled, got.description], [false, 'Changed in the UI']);
    assert.match(got.yaml, /description: Changed in the UI/);
    assert.equal((await call(emu, 'PUT', `${ONE}/none`, { enabled: true })).status, 404);
  });

  it('deletes softly by default, keeping the id taken; force=true deletes for good (delete_workflow.ts)', async () => {
    assert.equal((await call(emu, 'POST', ONE, { id: 'wf-gone', yaml: definition('Gone') })).status, 200);
    const soft = await call(emu, 'DELETE', `${ONE}/wf-gone`);
    assert.equal(soft.status, 200);
    assert.equal((await call(emu, 'GET', `${ONE}/wf-gone`)).status, 404);
    assert.equal((await call(emu, 'POST', ONE, { id: 'wf-gone', yaml: definition('Gone') })).status, 409);
    assert.equal((await call(emu, 'POST', ONE, { id: 'wf-hard', yaml: definition('Hard') })).status, 200);
    assert.equal((await call(emu, 'DELETE', `${ONE}/wf-hard?force=true`)).status, 200);
    assert.equal((await call(emu, 'POST', ONE, { id: 'wf-hard', yaml: definition('Hard') })).status, 200);
  });

  it('refuses a workflow tool whose workflow the space does not hold, on create and update (tool_types/workflow/validation.ts)', async () => {
    const missing = await call(emu, 'POST', TOOLS, { id: 'soc.run', type: 'workflow', configuration: { workflow_id: 'wf-missing' } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.message, "Workflow 'wf-missing' not found");
    assert.equal((await call(emu, 'POST', TOOLS, { id: 'soc.run', type: 'workflow', configuration: { workflow_id: 'wf-enrich' } })).status, 200);
    assert.equal((await call(emu, 'PUT', `${TOOLS}/soc.run`, { configuration: { workflow_id: 'wf-gone' } })).status, 400);
  });
});
