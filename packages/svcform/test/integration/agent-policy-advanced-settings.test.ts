import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { writeFiles } from '../helpers/repo.js';

function policy(settings: Record<string, unknown>): string {
  const lines = Object.entries(settings).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`);
  return ['apiVersion: svcform/v1', 'kind: AgentPolicy', 'metadata: {name: gateways}', 'spec:', '  name: Gateways', '  namespace: default', '  advanced_settings:', ...lines, ''].join('\n');
}

/**
 * svcform's schema and the emulator each keep their own copy of the server's checks of advanced
 * setting values (fleet form_settings.ts `_getSettingsAPISchema` over agent_policy_settings.tsx),
 * so that a wrong rule on either side shows here: what validate refuses the emulator refuses, what
 * validate takes the emulator stores, and a policy of such values settles after one apply.
 */
describe('AgentPolicy advanced_settings: validate and the emulator agree, and a policy converges', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-advanced-settings-'));
    emu = await emulator();
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const refused: Array<Record<string, unknown>> = [
    { agent_logging_level: 'verbose' },
    { agent_download_timeout: '10 minutes' },
    { agent_logging_metrics_period: '1d' },
    { agent_limits_go_max_procs: -1 },
    { agent_logging_files_keepfiles: 2.5 },
    { agent_logging_files_rotateeverybytes: '1024' },
    { agent_logging_to_files: 'yes' },
    { agent_monitoring_runtime_experimental: 'thread' },
    { agent_download_target_directory: 7 },
  ];
  for (const settings of refused) {
    it(`both refuse ${JSON.stringify(settings)}`, async () => {
      const repo = join(dir, `refused-${Object.keys(settings)[0]}`);
      writeFiles(repo, { 'policy.yaml': policy(settings) });
      const validated = await cli(['validate', repo]);
      assert.equal(validated.code, 1, shown(validated));
      const res = await call(emu, 'POST', '/api/fleet/agent_policies', { name: 'Refused', namespace: 'default', advanced_settings: settings });
      assert.equal(res.status, 400, JSON.stringify(res.body));
    });
  }

  it('both take the values the server takes; apply, then plan --detailed-exitcode exits 0', async () => {
    const settings = {
      agent_download_target_directory: '/opt/agent',
      agent_download_timeout: '',
      agent_limits_go_max_procs: 0,
      agent_logging_files_interval: '24h',
      agent_logging_files_keepfiles: 7,
      agent_logging_files_rotateeverybytes: 10485760,
      agent_logging_level: null,
      agent_logging_metrics_period: '30s',
      agent_logging_to_files: false,
      agent_monitoring_runtime_experimental: 'otel',
    };
    const repo = join(dir, 'taken');
    writeFiles(repo, { 'policy.yaml': policy(settings) });
    const applied = await cli(['apply', repo, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    assert.deepEqual((await call(emu, 'GET', '/api/fleet/agent_policies/gateways')).body.item.advanced_settings, settings);
    const planned = await cli(['plan', repo, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });
});
