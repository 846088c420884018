import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectWarnings, svcform } from './harness.js';
import { repo } from '../helpers/repo.js';
import { packageRoot } from '../../src/manifest/schema.js';
import { KNOWN_ADVANCED_SETTINGS } from '../../src/kinds/fleet/advanced-settings.js';

function policy(settings: string[]): string {
  return ['apiVersion: svcform/v1', 'kind: AgentPolicy', 'metadata: {name: gateways}', 'spec:', '  name: Gateways', '  namespace: default', '  advanced_settings:', ...settings.map((s) => `    ${s}`), ''].join('\n');
}

/**
 * The server checks each advanced setting's value with the setting's zod schema (fleet
 * server/services/form_settings/form_settings.ts `_getSettingsAPISchema`, the settings of
 * common/settings/agent_policy_settings.tsx) and takes null for any of them; the values it refuses
 * are in test/validate/kinds.test.ts (fixture agent-policy/advanced-settings-values.yaml). The key
 * set grows between releases (`agent_internal` on Kibana main, not in the OAS at b76003905), so a
 * key svcform does not know is a warning.
 */
describe('svcform validate: AgentPolicy advanced_settings', () => {
  it('takes every value the server takes: null for each, the empty duration, the "|" the duration class holds, 0 for the counts, "" for the runtime', async () => {
    const file = join(
      repo({
        'policy.yaml': policy([
          'agent_download_target_directory: /opt/agent',
          'agent_download_timeout: ""',
          'agent_limits_go_max_procs: 0',
          'agent_logging_files_interval: 5|',
          'agent_logging_files_keepfiles: 7',
          'agent_logging_files_rotateeverybytes: 10485760',
          'agent_logging_level: null',
          'agent_logging_metrics_period: 30s',
          'agent_logging_to_files: false',
          'agent_monitoring_runtime_experimental: ""',
        ]),
      }),
      'policy.yaml',
    );
    const run = await svcform(['validate', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.length, 0, run.stderr);
  });

  it('takes a setting it does not know with a warning at its key: agent_internal, which newer servers list and older ones refuse', async () => {
    const file = join(repo({ 'policy.yaml': policy(['agent_logging_level: debug', "agent_internal: 'agent: {internal: {runtime: {default: otel}}}'"]) }), 'policy.yaml');
    const run = await svcform(['validate', file]);
    assert.equal(run.code, 0, run.stderr);
    expectWarnings(run, file, [
      '9:5 AgentPolicy/gateways: spec.advanced_settings.agent_internal is not an agent setting svcform knows: only servers whose release has it take it, the others refuse the policy; check that your server lists it, or remove it',
    ]);
  });

  it('names the setting a misspelt key is close to', async () => {
    const file = join(repo({ 'policy.yaml': policy(['agent_logging_colour: red']) }), 'policy.yaml');
    const run = await svcform(['validate', file]);
    assert.equal(run.code, 0, run.stderr);
    expectWarnings(run, file, ['8:5 AgentPolicy/gateways: spec.advanced_settings.agent_logging_colour is not an agent setting svcform knows (did you mean agent_logging_level?)']);
  });

  it('knows exactly the settings the schema checks (the OAS set)', () => {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'AgentPolicy.schema.json'), 'utf8'));
    const properties = Object.keys(schema.properties.spec.properties.advanced_settings.properties);
    assert.deepEqual([...properties].sort(), [...KNOWN_ADVANCED_SETTINGS].sort());
  });
});
