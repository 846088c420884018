import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * An agent policy's `advanced_settings` values are checked as the server checks them. Sources:
 * x-pack/platform/plugins/shared/fleet/server/services/form_settings/form_settings.ts
 * `_getSettingsAPISchema` (each setting `maybe(oneOf([literal(null), any({validate})]))`, the
 * validate answering the zod issues through stringifyZodError), the settings and their zod schemas
 * in common/settings/agent_policy_settings.tsx, `AGENT_LOG_LEVELS` in common/constants/agent_policy.ts,
 * and the union wording of kbn-config-schema (types/union_type.ts, errors/validation_error.ts). The
 * key set is the OpenAPI document's (oas-filtered.yaml at b76003905, post-fleet-agent-policies).
 */

const AP = '/api/fleet/agent_policies';

/** The 400 message of a value the setting's zod schema refuses: both branches of the union. */
function refused(key: string, zodMessage: string): string {
  const at = `request body.advanced_settings.${key}`;
  return `[${at}]: types that failed validation:\n- [${at}.0]: expected value to equal [null]\n- [${at}.1]: ${zodMessage}`;
}

describe('Fleet agent policy advanced_settings: values checked as the server checks them', () => {
  let emu: RunningEmulator;
  let counter = 0;
  const create = (settings: Record<string, unknown>) => call(emu, 'POST', AP, { name: `settings ${++counter}`, namespace: 'default', advanced_settings: settings });

  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['agent_logging_level is z.enum(AGENT_LOG_LEVELS): error, warning, info, debug', { agent_logging_level: 'verbose' }, 'agent_logging_level', 'Invalid option: expected one of "error"|"warning"|"info"|"debug"'],
    ['agent_download_timeout is zodStringWithDurationValidation: its own message', { agent_download_timeout: '10 minutes' }, 'agent_download_timeout', 'Must be a string with a time unit, e.g. 30s, 5m, 2h'],
    ['agent_logging_metrics_period takes no day unit (the regex knows s, m and h)', { agent_logging_metrics_period: '1d' }, 'agent_logging_metrics_period', 'Must be a string with a time unit, e.g. 30s, 5m, 2h'],
    ['agent_logging_files_interval must be a string before the regex runs', { agent_logging_files_interval: 30 }, 'agent_logging_files_interval', 'Invalid input: expected string, received number'],
    ['agent_limits_go_max_procs is z.number().int().min(0): below 0', { agent_limits_go_max_procs: -3 }, 'agent_limits_go_max_procs', 'Too small: expected number to be >=0'],
    ['agent_logging_files_keepfiles is an integer', { agent_logging_files_keepfiles: 1.5 }, 'agent_logging_files_keepfiles', 'Invalid input: expected int, received number'],
    ['agent_logging_files_rotateeverybytes is a number, not a numeric string (the outer any converts nothing)', { agent_logging_files_rotateeverybytes: '1024' }, 'agent_logging_files_rotateeverybytes', 'Invalid input: expected number, received string'],
    ['agent_logging_to_files is z.boolean(): no "true" string', { agent_logging_to_files: 'true' }, 'agent_logging_to_files', 'Invalid input: expected boolean, received string'],
    ['agent_download_target_directory is z.string()', { agent_download_target_directory: 5 }, 'agent_download_target_directory', 'Invalid input: expected string, received number'],
    ['agent_monitoring_runtime_experimental is z.enum(["", "process", "otel"])', { agent_monitoring_runtime_experimental: 'thread' }, 'agent_monitoring_runtime_experimental', 'Invalid option: expected one of ""|"process"|"otel"'],
  ];
  for (const [title, settings, key, message] of cases) {
    it(`refuses a bad value: ${title}`, async () => {
      const res = await create(settings);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.message, refused(key, message));
    });
  }

  it('reports the first bad setting in the order the server declares them (go_max_procs before download_timeout before logging_level)', async () => {
    const res = await create({ agent_logging_level: 'verbose', agent_download_timeout: '10 minutes', agent_limits_go_max_procs: -3 });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, refused('agent_limits_go_max_procs', 'Too small: expected number to be >=0'));
  });

  it('takes good values, null (literal(null) clears a setting), the empty duration and the "|" the regex class allows, and stores them as sent', async () => {
    const settings = {
      agent_limits_go_max_procs: 0,
      agent_download_timeout: '',
      agent_download_target_directory: '/opt/agent',
      agent_logging_metrics_period: '30s',
      agent_logging_level: null,
      agent_logging_to_files: false,
      agent_logging_files_rotateeverybytes: 10485760,
      agent_logging_files_keepfiles: 7,
      agent_logging_files_interval: '5|',
      agent_monitoring_runtime_experimental: '',
    };
    const res = await create(settings);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const read = await call(emu, 'GET', `${AP}/${res.body.item.id}`);
    assert.deepEqual(read.body.item.advanced_settings, settings);
  });

  it('checks an update as it checks a create (the PUT body spreads the same settings schema)', async () => {
    const created = (await create({ agent_logging_level: 'debug' })).body.item;
    const res = await call(emu, 'PUT', `${AP}/${created.id}`, { name: created.name, namespace: 'default', advanced_settings: { agent_logging_level: 'trace' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, refused('agent_logging_level', 'Invalid option: expected one of "error"|"warning"|"info"|"debug"'));
  });

  it('keeps the document\'s key set: agent_internal, which newer servers list, is refused as an unknown key', async () => {
    const res = await create({ agent_internal: 'agent:\n  internal:\n    runtime:\n      default: otel' });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, '[request body.advanced_settings.agent_internal]: definition for this key is missing');
  });
});
