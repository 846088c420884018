import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo, writeFiles } from '../helpers/repo.js';
import { variablesEnv } from '../helpers/export-files.js';
import { connectorAdapter } from '../../src/kinds/connector/connector.js';
import { RunScope } from '../../src/kinds/run-scope.js';

const RUN = new RunScope();

/**
 * Connectors of every type the target offers (wire-facts §16 #12), the webhook's null authType
 * (§16 #5), the target's type list as the plan-time authority, and exports of types whose secret
 * keys svcform knows or does not know.
 */

/** Each test manages only its own connectors, so one apply never deletes another test's. */
const manage = (prefix: string) => `manage:\n  - kind: Connector\n    selector: {namePrefix: "${prefix}"}\n`;

const connector = (name: string, type: string, body: string) => `apiVersion: svcform/v1
kind: Connector
metadata:
  name: ${name}
spec:
  name: ${name} connector
  connector_type_id: ${type}
${body}`;

const PAGING = connector('soc-paging', '.pagerduty', '  config:\n    apiUrl: https://events.paging.example.com/v2/enqueue\n  secrets:\n    routingKey: rk-SECRET-1\n');

describe('Connector kind: every connector type the target offers', () => {
  let emu: RunningEmulator;
  const roots: string[] = [];
  before(async () => {
    emu = await emulator({ spaces: ['ops'] });
  });
  after(async () => {
    await emu.stop();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  async function exportTo(kindArgs: string[] = ['--kind', 'Connector']): Promise<{ dir: string; err: string }> {
    const root = mkdtempSync(join(tmpdir(), 'svcform-connector-types-'));
    roots.push(root);
    const dir = join(root, 'out');
    const run = await cli(['export', '--out', dir, '--url', emu.url, ...kindArgs]);
    assert.equal(run.code, 0, run.err);
    return { dir, err: run.err };
  }

  const exported = (dir: string, name: string) =>
    parseAllDocuments(readFileSync(join(dir, 'default', 'connector.yaml'), 'utf8')).map((d) => d.toJS()).find((d) => d.metadata.name === name);

  it('a .pagerduty connector round-trips: create, plan empty, export with its routingKey as a placeholder, validate, plan empty (wire-facts §16 #12; OAS pagerduty_secrets)', async () => {
    const dir = repo({ 'svcform.yaml': manage('soc-paging'), 'paging.yaml': PAGING });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
    const out = await exportTo();
    const spec = exported(out.dir, 'soc-paging').spec;
    assert.deepEqual(spec.secrets, { routingKey: '${env:SVCFORM_CONNECTOR_SOC_PAGING_ROUTINGKEY}' });
    assert.ok(!readFileSync(join(out.dir, 'default', 'connector.yaml'), 'utf8').includes('rk-SECRET-1'));
    const env = variablesEnv(out.dir);
    assert.equal((await cli(['validate', out.dir], env)).code, 0);
    const plan = await cli(['plan', out.dir, '--url', emu.url, '--detailed-exitcode'], env);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('a .webhook with authType null validates, applies and plans empty, and exports without secrets (wire-facts §16 #5: TF TestAccResourceKibanaConnectorWebhookAuthTypeNull)', async () => {
    const hook = connector('soc-hook', '.webhook', '  config:\n    url: https://hooks.example.com/services\n    hasAuth: false\n    authType: null\n');
    const dir = repo({ 'svcform.yaml': manage('soc-hook'), 'hook.yaml': hook });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
    const spec = exported((await exportTo()).dir, 'soc-hook').spec;
    assert.deepEqual(spec, { name: 'soc-hook connector', connector_type_id: '.webhook', config: { url: 'https://hooks.example.com/services', hasAuth: false } });
  });

  it('a type the target does not offer is a plan error naming it and the offered types; the list is read once per space', async () => {
    const plugin = connector('soc-plugin', '.acme-helpdesk', '  config:\n    project: SOC\n');
    const inOps = connector('soc-ops-log', '.server-log', '').replace('metadata:\n', 'metadata:\n  space: ops\n');
    const dir = repo({ 'svcform.yaml': manage('soc-'), 'a.yaml': plugin, 'b.yaml': PAGING, 'c.yaml': inOps });
    emu.log.clear();
    const plan = await cli(['plan', dir, '--url', emu.url, '--json']);
    assert.equal(plan.code, 1, plan.out + plan.err);
    const errors = JSON.parse(plan.out).errors;
    assert.equal(errors.length, 1, plan.out);
    assert.match(errors[0].message, /^connector type "\.acme-helpdesk" is not offered by the target in space default; it offers: \.webhook, .*\.pagerduty/);
    assert.doesNotMatch(errors[0].message, /\.cases(,|$)/, 'system action types are not offered for creation');
    const typeReads = emu.log.all().filter((r) => r.path.endsWith('/api/actions/connector_types')).map((r) => r.path);
    assert.deepEqual(typeReads.sort(), ['/api/actions/connector_types', '/s/ops/api/actions/connector_types']);
  });

  it('a secret written in the manifest itself that makes a field invalid is printed as (sensitive), as one read from ${env:...} is', async () => {
    const hook = ['apiVersion: svcform/v1', 'kind: Connector', 'metadata: {name: soc-literal}', 'spec:', '  name: Literal', '  connector_type_id: .webhook',
      '  config: {url: "https://hooks.example.com/x"}', '  secrets: {user: svc, password: 84710093}', ''].join('\n');
    const run = await cli(['validate', repo({ 'hook.yaml': hook })]);
    assert.equal(run.code, 1);
    // "or null": webhook secrets take null as the server's nullable secrets schema does.
    assert.match(run.err, /spec\.secrets\.password must be a string or null, not \(sensitive\)/);
    assert.doesNotMatch(run.out + run.err, /84710093/);
  });

  it('exports the incident, ticketing and team-chat types with their secret keys (servicenow_secrets, jira_secrets, teams_secrets of the OpenAPI document; the renamed .servicenow, .jira and .teams)', () => {
    const keysOf = (typeId: string, config: Record<string, unknown> = {}) => connectorAdapter.toSpec({ kind: 'Connector', space: 'default', name: 'c', body: { id: 'c', name: 'C', connector_type_id: typeId, config } }, RUN).spec.secrets;
    assert.deepEqual(Object.keys(keysOf('.incident', { apiUrl: 'https://itsm.example.com' })), ['username', 'password']);
    assert.deepEqual(Object.keys(keysOf('.incident', { apiUrl: 'https://itsm.example.com', isOAuth: true })), ['clientSecret', 'privateKey']);
    assert.deepEqual(Object.keys(keysOf('.ticketing', { apiUrl: 'https://tickets.example.com', projectKey: 'SOC' })), ['email', 'apiToken']);
    assert.deepEqual(Object.keys(keysOf('.team-chat')), ['webhookUrl']);
  });

  it('exports a connector whose secret keys svcform cannot know with a placeholder key and a warning, never an empty secrets; apply refuses to write it until the key is named', async () => {
    const created = await call(emu, 'POST', '/api/actions/connector/soc-tickets', { name: 'Tickets', connector_type_id: '.issue-tracker', config: { apiUrl: 'https://tickets.example.com' }, secrets: { token: 'tk-SECRET-9' } });
    assert.equal(created.status, 200, created.text);
    const out = await exportTo();
    assert.match(out.err, /warning: Connector\/soc-tickets \(space default\): svcform does not know the secret keys of connector type \.issue-tracker/);
    const spec = exported(out.dir, 'soc-tickets').spec;
    assert.deepEqual(spec.secrets, { REPLACE_WITH_SECRET_KEY: '${env:SVCFORM_CONNECTOR_SOC_TICKETS_SECRET}' });
    const env = variablesEnv(out.dir);
    const validated = await cli(['validate', out.dir], env);
    assert.equal(validated.code, 0, validated.err);
    assert.match(validated.err, /REPLACE_WITH_SECRET_KEY is the export's placeholder/);
    assert.equal((await cli(['plan', out.dir, '--url', emu.url, '--detailed-exitcode'], env)).code, 0);
    // A change would write the connector: refused while the placeholder is there, the secrets kept.
    const file = join(out.dir, 'default', 'connector.yaml');
    writeFiles(out.dir, { 'default/connector.yaml': readFileSync(file, 'utf8').replace('name: Tickets', 'name: Tickets v2') });
    const applied = await cli(['apply', out.dir, '--url', emu.url, '--auto-approve', '--select', 'Connector/soc-tickets'], env);
    assert.notEqual(applied.code, 0);
    assert.match(applied.out + applied.err, /still holds the export placeholder REPLACE_WITH_SECRET_KEY/);
    assert.equal((await call(emu, 'GET', '/api/actions/connector/soc-tickets')).body.name, 'Tickets');
  });
});
