import { schema, type Schema } from '../../config-schema.js';
import * as z from '../../zod.js';

/**
 * An agent policy's `advanced_settings`, checked as the server checks them. The server builds this
 * part of the body from its list of agent settings (fleet common/settings/agent_policy_settings.tsx
 * `getAgentPolicyAdvancedSettings`, read by server/services/form_settings/form_settings.ts
 * `_getSettingsAPISchema`): one optional key per setting, each `oneOf([literal(null), any({validate})])`,
 * where `validate` runs the setting's zod schema and answers its issues as stringifyZodError joins
 * them. So null always passes (it clears the setting), and a value the zod schema refuses is a 400
 * that lists both branches of the union, the zod message on the second.
 *
 * The keys are those of the OpenAPI document (generated/kbapi/oas-filtered.yaml at b76003905,
 * post-fleet-agent-policies `advanced_settings`); newer servers add some (`agent_internal`), which
 * this one refuses as the document's servers do. They are declared in the server's order, which is
 * the order the route reports problems in. The messages are zod v4's (the current form_settings
 * test expects "Invalid input: expected boolean, received string"); the refinement's message is the
 * server's own.
 */

/** `zodStringWithDurationValidation`: a string of digits and a unit, or empty. The class holds `|` too, as the server's does. */
const DURATION = /^(\d+[s|m|h])?$/;
const duration = z.string({ refine: [(v: string) => (DURATION.test(v) ? undefined : 'Must be a string with a time unit, e.g. 30s, 5m, 2h')] });

/** fleet common/constants/agent_policy.ts `AGENT_LOG_LEVELS`. */
export const AGENT_LOG_LEVELS = ['error', 'warning', 'info', 'debug'];

/** Each setting's api field and its zod schema, in the server's order. */
const SETTINGS: Array<[string, z.Schema]> = [
  ['agent_limits_go_max_procs', z.int(0)],
  ['agent_download_timeout', duration],
  ['agent_download_target_directory', z.string()],
  ['agent_logging_metrics_period', duration],
  ['agent_logging_level', z.enumOf(AGENT_LOG_LEVELS)],
  ['agent_logging_to_files', z.boolean()],
  ['agent_logging_files_rotateeverybytes', z.int(0)],
  ['agent_logging_files_keepfiles', z.int(0)],
  ['agent_logging_files_interval', duration],
  ['agent_monitoring_runtime_experimental', z.enumOf(['', 'process', 'otel'])],
];

/** The `validate` of one setting: its zod issues in the route's words, or nothing. */
function validateWith(setting: z.Schema) {
  return (value: unknown): string | undefined => {
    const { issues } = z.parseBody(setting, value);
    return issues.length ? z.formatIssues(issues) : undefined;
  };
}

const { maybe, oneOf, literal, any, object } = schema;

/** The `advanced_settings` field of the agent policy create and update bodies. */
export const AdvancedSettings: Schema = maybe(
  object(Object.fromEntries(SETTINGS.map(([key, setting]) => [key, maybe(oneOf([literal(null), any({ check: validateWith(setting) })]))]))),
);
