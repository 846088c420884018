import type { CheckIssue, Resource } from '../../manifest/types.js';
import { closest } from '@svcform/query/suggest.js';
import { isPlainObject } from '../normalize.js';

/**
 * An agent policy's `advanced_settings`. The server takes one key per agent setting of its release
 * (fleet common/settings/agent_policy_settings.tsx, read by server/services/form_settings/
 * form_settings.ts) and refuses any other (`definition for this key is missing`). The values of
 * the settings below are checked by the schema (schemas/AgentPolicy.schema.json), as the server's
 * zod schemas check them. The set grows between releases (`agent_internal` on newer servers), so
 * a key svcform does not know may be one the target takes: svcform cannot tell offline, and says
 * so with a warning instead of refusing it.
 */

/** The settings of the OpenAPI document (oas-filtered.yaml at b76003905, post-fleet-agent-policies); the schema's properties. */
export const KNOWN_ADVANCED_SETTINGS = [
  'agent_download_target_directory',
  'agent_download_timeout',
  'agent_limits_go_max_procs',
  'agent_logging_files_interval',
  'agent_logging_files_keepfiles',
  'agent_logging_files_rotateeverybytes',
  'agent_logging_level',
  'agent_logging_metrics_period',
  'agent_logging_to_files',
  'agent_monitoring_runtime_experimental',
];

/** One warning per setting svcform does not know, at its key, with a near miss when there is one. */
export function unknownSettingWarnings(res: Resource): CheckIssue[] {
  const settings = res.spec.advanced_settings;
  if (!isPlainObject(settings)) return [];
  return Object.keys(settings)
    .filter((key) => !KNOWN_ADVANCED_SETTINGS.includes(key))
    .map((key) => {
      const near = closest(key, KNOWN_ADVANCED_SETTINGS);
      return {
        path: ['spec', 'advanced_settings', key],
        severity: 'warning' as const,
        message:
          `spec.advanced_settings.${key} is not an agent setting svcform knows${near ? ` (did you mean ${near}?)` : ''}: ` +
          'only servers whose release has it take it, the others refuse the policy; check that your server lists it, or remove it',
      };
    });
}
