import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { readTree } from '../helpers/export-files.js';
import { ok } from '../helpers/export-seed.js';

/**
 * Issue 31: "a value that came from ${env:} in an ordinary field (a webhook Authorization: Bearer
 * header in config.headers) is written in clear into the exported manifest". The server returns
 * connector config, headers included, in clear (service-api.md Connectors: only secrets are
 * write-only), so export must not copy such values into files.
 */
describe('export writes a placeholder, never the value, for fields whose key names a credential', () => {
  const BEARER = 'Bearer live-bearer-9f8e7d6c5b4a';
  const API_KEY = 'k-0123456789-live';
  let emu: RunningEmulator;
  let root: string;
  before(async () => {
    emu = await emulator();
    root = mkdtempSync(join(tmpdir(), 'svcform-export-secret-fields-'));
    await ok(
      call(emu, 'POST', '/api/actions/connector/soc-hook', {
        name: 'SOC hook',
        connector_type_id: '.webhook',
        config: { url: 'https://hooks.example.com/in', method: 'post', headers: { Authorization: BEARER, 'X-Api-Key': API_KEY, 'Content-Type': 'application/json' } },
        secrets: { user: 'hook-user', password: 'hook-password-1' },
      }),
      'webhook with a bearer header',
    );
  });
  after(async () => {
    await emu.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('the headers become ${env:} placeholders listed in variables.txt; plan with them set to the live values shows nothing to change', async () => {
    const dir = join(root, 'out');
    const exported = await cli(['export', '--out', dir, '--url', emu.url, '--kind', 'Connector']);
    assert.equal(exported.code, 0, exported.err);
    const tree = readTree(dir);
    for (const [path, text] of tree) assert.ok(!text.includes('live-bearer') && !text.includes(API_KEY), `${path} holds a credential`);
    assert.ok(!(exported.out + exported.err).includes('live-bearer'));
    const hook = parse(tree.get('default/connector.yaml')!.split('\n---\n').find((d) => d.includes('soc-hook'))!.replace(/^#.*\n/gm, ''));
    assert.deepEqual(hook.spec.config.headers, {
      Authorization: '${env:SVCFORM_CONNECTOR_SOC_HOOK_CONFIG_HEADERS_AUTHORIZATION}',
      'Content-Type': 'application/json',
      'X-Api-Key': '${env:SVCFORM_CONNECTOR_SOC_HOOK_CONFIG_HEADERS_X_API_KEY}',
    });
    const variables = tree.get('variables.txt')!;
    assert.match(variables, /^SVCFORM_CONNECTOR_SOC_HOOK_CONFIG_HEADERS_AUTHORIZATION=  # Connector\/soc-hook \(space default\): config\.headers\.Authorization of soc-hook/m);
    assert.match(variables, /^SVCFORM_CONNECTOR_SOC_HOOK_CONFIG_HEADERS_X_API_KEY=/m);

    const env = {
      SVCFORM_CONNECTOR_SOC_HOOK_USER: 'hook-user',
      SVCFORM_CONNECTOR_SOC_HOOK_PASSWORD: 'hook-password-1',
      SVCFORM_CONNECTOR_SOC_HOOK_CONFIG_HEADERS_AUTHORIZATION: BEARER,
      SVCFORM_CONNECTOR_SOC_HOOK_CONFIG_HEADERS_X_API_KEY: API_KEY,
    };
    const planned = await cli(['plan', dir, '--root', dir, '--url', emu.url, '--detailed-exitcode', '--select', 'Connector/soc-hook'], env);
    assert.equal(planned.code, 0, planned.out + planned.err);
    assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete, 1 unchanged/);

    // The placeholder is compared like the value it stands for: another bearer is a change, and it is not printed.
    const rotated = await cli(['plan', dir, '--root', dir, '--url', emu.url, '--detailed-exitcode', '--select', 'Connector/soc-hook'], { ...env, SVCFORM_CONNECTOR_SOC_HOOK_CONFIG_HEADERS_AUTHORIZATION: 'Bearer rotated-0000' });
    assert.equal(rotated.code, 2, rotated.out + rotated.err);
    assert.match(rotated.out, /Plan: 0 to create, 1 to update/);
    assert.ok(!rotated.out.includes('rotated-0000') && !rotated.out.includes('live-bearer'), rotated.out);
  });
});
