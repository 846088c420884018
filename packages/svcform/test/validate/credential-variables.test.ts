import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectErrors, invalid, svcform } from './harness.js';
import { loadConfig } from '../../src/cli/config.js';

const CREDENTIALS = { SVC_API_KEY: 'a2V5LWlkOmtleQ==', SVC_TOKEN: 'tok-123456', SVC_USERNAME: 'ci-user', SVC_PASSWORD: 'ci-password-1', HOOK_TEAM: 'soc' };

describe("svcform's own credential variables in a manifest (issue 31: export never writes a secret)", () => {
  const file = invalid('credential-variables.yaml');
  const expected = [
    "7:3 Connector/soc-hook: ${env:SVC_API_KEY} in spec.name: SVC_API_KEY is svcform's own credential and may not be interpolated into a manifest",
    '12:7 Connector/soc-hook: ${env:SVC_TOKEN} in spec.config.headers.Authorization: SVC_TOKEN is',
    '15:5 Connector/soc-hook: ${env:SVC_USERNAME} in spec.secrets.user: SVC_USERNAME is',
    '16:5 Connector/soc-hook: ${env:SVC_PASSWORD} in spec.secrets.password: SVC_PASSWORD is',
  ];

  it('are errors at their file, line and field when set, and the values are not printed', async () => {
    const run = await svcform(['validate', file], CREDENTIALS);
    expectErrors(run, file, expected);
    for (const value of Object.values(CREDENTIALS).slice(0, 4)) assert.ok(!run.stderr.includes(value), value);
  });

  it('are errors when not set, and with --offline-secrets too (not warnings of a missing variable)', async () => {
    expectErrors(await svcform(['validate', file], { HOOK_TEAM: 'soc' }), file, expected);
    expectErrors(await svcform(['validate', file, '--offline-secrets']), file, expected);
  });

  it('svcform.yaml may still read them (that is where they belong)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-cred-'));
    writeFileSync(join(dir, 'svcform.yaml'), 'auth:\n  apiKey: "${env:SVC_API_KEY}"\n  token: "${env:SVC_TOKEN}"\n');
    const config = loadConfig(join(dir, 'svcform.yaml'), ['Connector'], CREDENTIALS);
    assert.deepEqual(config.auth, { apiKey: CREDENTIALS.SVC_API_KEY, token: CREDENTIALS.SVC_TOKEN });
  });
});
