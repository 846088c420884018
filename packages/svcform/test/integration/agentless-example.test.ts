import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/**
 * examples-cloud/: agentless policies, which only hosted deployments have (service-api.md Fleet
 * policies: "Agentless calls are rejected with HTTP 400 on self-managed deployments"; Errors:
 * "Agentless policy on self-managed deployment | 400"), so they are not part of `npm run demo`.
 */
const EXAMPLES = 'examples-cloud';
const NAME = 'soc-okta-system-log';

function copyOfExamples(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-agentless-'));
  cpSync(EXAMPLES, dir, { recursive: true });
  return dir;
}

describe('examples-cloud/ (AgentlessPolicy) against a cloud deployment', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ deployment: 'cloud' });
  });
  after(() => emu.stop());

  it('applies, then plans empty; the policy is a managed agentless package policy with its own agent policy', async () => {
    const applied = await cli(['apply', EXAMPLES, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const planned = await cli(['plan', EXAMPLES, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    const item = (await call(emu, 'GET', `/api/fleet/package_policies/${NAME}?format=simplified`)).body.item;
    assert.deepEqual([item.supports_agentless, item.namespace, item.package.name], [true, 'identity', 'okta']);
    // The PackagePolicy and AgentPolicy kinds see them as managed and never write them.
    const pp = await cli(['plan', EXAMPLES, '--url', emu.url, '--json', '--select', 'AgentlessPolicy/*']);
    assert.deepEqual(JSON.parse(pp.out).changes, []);
  });

  it('a change is planned as a replace (there is no update route) and applied as a delete and a create', async () => {
    const dir = copyOfExamples();
    const file = join(dir, 'agentless', 'okta.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('for the identity rules.', 'for the identity and audit rules.'));
    const planned = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(planned.code, 0, planned.out + planned.err);
    assert.ok(planned.out.includes(`~ update AgentlessPolicy/${NAME} (space default) [replace: deleted and created again: agentless policies have no update route]`), planned.out);
    emu.log.clear();
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    const writes = emu.log.all().filter((r) => r.method !== 'GET' && r.path.includes('agentless')).map((r) => `${r.method} ${r.route}`);
    assert.deepEqual(writes, ['DELETE /api/fleet/agentless_policies/:policyId', 'POST /api/fleet/agentless_policies']);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});

describe('examples-cloud/ against a self-managed deployment', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('apply fails with the server\'s 400, naming the manifest, and plan says nothing is wrong offline (the server decides)', async () => {
    const applied = await cli(['apply', EXAMPLES, '--url', emu.url]);
    assert.equal(applied.code, 1, applied.out + applied.err);
    const text = applied.out + applied.err;
    assert.match(text, new RegExp(`AgentlessPolicy/${NAME}`));
    assert.match(text, /400/);
    assert.match(text, /only supported on hosted cloud and serverless deployments/);
    assert.match(text, /agentless[\\/]okta\.yaml/);
    assert.equal((await call(emu, 'GET', `/api/fleet/package_policies/${NAME}`)).status, 404);
  });
});
