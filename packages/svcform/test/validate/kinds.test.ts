import { describe, it } from 'node:test';
import { checkFixture, type FixtureCase } from './harness.js';

/** Mistakes in the other seven kinds: each fixture and every error it must produce. */
const CASES: FixtureCase[] = [
  // Connector
  {
    // Any type id is taken (the target's list decides, wire-facts §16 #12); the server's rule that
    // no config or secrets value is "" holds for every type (wire-facts 1.2, validateEmptyStrings).
    fixture: 'connector/other-type-empty-value.yaml',
    mistake: 'an empty secret value, on a type svcform does not model',
    errors: ['11:5 Connector/soc-pagerduty: spec.secrets.routingKey must not be empty'],
  },
  {
    fixture: 'connector/webhook-missing-config.yaml',
    mistake: 'a webhook without config (named by connector type)',
    errors: ['5:1 Connector/soc-pagerduty: spec.config is required for connector_type_id .webhook'],
  },
  {
    fixture: 'connector/webhook-url-and-method.yaml',
    mistake: 'a URL without a scheme and an unsupported method',
    errors: ['10:5 Connector/soc-pagerduty: spec.config.url must be a full URL such as https://example.com/path, not "events.paging.example.com/enqueue"', '11:5 Connector/soc-pagerduty: spec.config.method must be one of: post, put, patch, get, delete, not "head"'],
  },
  {
    fixture: 'connector/chat-missing-secrets.yaml',
    mistake: 'a chat connector without secrets',
    errors: ['5:1 Connector/soc-chat: spec.secrets is required for connector_type_id .chat'],
  },
  {
    fixture: 'connector/server-log-with-config.yaml',
    mistake: 'config on a connector type that takes none',
    errors: ['10:5 Connector/soc-server-log: spec.config.level is not allowed: spec.config takes no fields for connector_type_id .server-log'],
  },
  {
    fixture: 'connector/id-too-long.yaml',
    mistake: 'a connector id over 36 characters',
    errors: ['5:3 Connector/soc-server-log-for-the-detection-engineering-team: metadata.name must be at most 36 characters'],
  },
  {
    fixture: 'connector/gen-ai-mistakes.yaml',
    mistake: 'a misspelt provider, a temperature given as a list and a misspelt secret: all reported (an absent apiKey is not: the route requires no secret of its own)',
    errors: [
      '10:5 Connector/soc-assistant: spec.config.apiProvider must be OpenAI, Azure OpenAI or Other, not "OpenAl" (did you mean OpenAI?)',
      '12:5 Connector/soc-assistant: spec.config.temperature must be a number or a string, not a list',
      '14:5 Connector/soc-assistant: spec.secrets.apikey is not a known field for connector_type_id .gen-ai (did you mean apiKey?)',
    ],
  },
  {
    fixture: 'connector/email-missing-server.yaml',
    mistake: 'an SMTP connector without a port or credentials',
    errors: ['7:1 Connector/soc-mail: spec.secrets is required for connector_type_id .email', '10:3 Connector/soc-mail: spec.config.port is required'],
  },
  {
    fixture: 'connector/email-port-type.yaml',
    // A numeric string is a port (kbn-connector-schemas email portSchema coerces); a name is not.
    mistake: 'a port name instead of a number',
    errors: ['11:5 Connector/soc-mail: port "smtp" is not a number from 1 to 65535 (the server reads a string port as a number)'],
  },
  {
    fixture: 'connector/unknown-spec-field.yaml',
    mistake: '`secret` instead of `secrets`',
    errors: ['5:1 Connector/soc-chat: spec.secrets is required for connector_type_id .chat', '8:3 Connector/soc-chat: spec.secret is not a known field (did you mean secrets?)'],
  },
  // ValueList
  {
    fixture: 'value-list/items-and-items-file.yaml',
    mistake: 'items and items_file together',
    errors: ['10:3 ValueList/bad-domains: spec.items and spec.items_file cannot be used together'],
  },
  {
    fixture: 'value-list/type-typo.yaml',
    mistake: 'a misspelt value type',
    errors: [
      '8:3 ValueList/bad-domains: spec.type must be one of: binary, boolean, byte, date, date_nanos, date_range, double, double_range, float, float_range, geo_point, geo_shape, half_float, integer, integer_range, ip, ip_range, keyword, long, long_range, shape, short, text, not "keywrod" (did you mean keyword?)',
    ],
  },
  {
    fixture: 'value-list/duplicate-items.yaml',
    mistake: 'a repeated item, pointed at the repetition',
    errors: ['13:7 ValueList/blocked-ips: spec.items[3] repeats spec.items[1]: the items of spec.items must be unique'],
  },
  {
    fixture: 'value-list/items-file-missing.yaml',
    mistake: 'an items_file that does not exist (kind check, relative to the manifest)',
    errors: ['10:3 ValueList/bad-domains: items_file cannot be read: lists/missing-domains.txt (relative to this manifest): no such file'],
  },
  {
    // wire-facts 3.2: the value is validated against the list type in the search backend ("a bad IP gives 400").
    fixture: 'value-list/bad-ip.yaml',
    mistake: 'an IPv4 address with an octet over 255 in an ip list, at its item',
    errors: ['12:7 ValueList/blocked-ips: "192.0.2.300" is not an IP address: the server refuses it in a list of type ip'],
  },
  {
    fixture: 'value-list/empty-item-missing-name.yaml',
    mistake: 'no name and an empty item',
    errors: ['5:1 ValueList/blocked-ips: spec.name is required', '10:7 ValueList/blocked-ips: spec.items[1] must not be empty'],
  },
  // ExceptionList
  {
    fixture: 'exception-list/duplicate-item-id.yaml',
    mistake: 'an item_id used twice, pointed at the repetition',
    errors: ['15:7 ExceptionList/soc-allowlist: spec.items[1].item_id repeats spec.items[0].item_id ("scanner"): item_ids must be unique'],
  },
  {
    fixture: 'exception-list/trusted-app-wrong-field.yaml',
    mistake: 'a trusted application on two systems and on a field the endpoint does not trust by (trusted_app_validator.ts)',
    errors: [
      '14:7 ExceptionList/endpoint_trusted_apps: spec.items[0].os_types: exactly one operating system is required (one of windows, linux, macos)',
      '16:12 ExceptionList/endpoint_trusted_apps: spec.items[0].entries[0].field: trusted applications match on process.hash.md5, process.hash.sha1, process.hash.sha256, process.executable.caseless, not "process.name"',
    ],
  },
  // AgentPolicy
  {
    fixture: 'agent-policy/namespace-uppercase.yaml',
    mistake: 'an upper-case namespace',
    errors: ['7:3 AgentPolicy/soc-linux-servers: spec.namespace must be lower-case, without spaces or any of - * \\ / ? " < > | , #, not "Production"'],
  },
  {
    fixture: 'agent-policy/monitoring-enabled-value.yaml',
    mistake: 'an unknown monitoring_enabled entry, pointed at the item',
    errors: ['8:30 AgentPolicy/soc-linux-servers: spec.monitoring_enabled[1] must be logs, metrics or traces, not "apm"'],
  },
  {
    fixture: 'agent-policy/timeouts.yaml',
    mistake: 'a negative timeout and a duration string where seconds are expected',
    errors: ['9:3 AgentPolicy/soc-linux-servers: spec.inactivity_timeout must be >= 0', '10:3 AgentPolicy/soc-linux-servers: spec.unenroll_timeout must be an integer, not "1h"'],
  },
  {
    fixture: 'agent-policy/missing-namespace.yaml',
    mistake: 'no namespace',
    errors: ['5:1 AgentPolicy/soc-linux-servers: spec.namespace is required'],
  },
  {
    fixture: 'agent-policy/global-data-tags.yaml',
    mistake: 'a tag name with a space and a tag without a value',
    errors: ['9:8 AgentPolicy/soc-linux-servers: spec.global_data_tags[0].name must be without spaces, not "cost center"', '10:7 AgentPolicy/soc-linux-servers: spec.global_data_tags[1].value is required'],
  },
  {
    // The server checks each value with the setting's zod schema (fleet form_settings.ts
    // _getSettingsAPISchema over common/settings/agent_policy_settings.tsx): a log level of
    // AGENT_LOG_LEVELS, durations of digits and s, m or h, counts z.number().int().min(0), never a
    // numeric string, a boolean, an enum of "", process and otel, a string path.
    fixture: 'agent-policy/advanced-settings-values.yaml',
    mistake: 'advanced setting values the server refuses, each at its line',
    errors: [
      '9:5 AgentPolicy/soc-linux-servers: spec.advanced_settings.agent_logging_level must be one of: error, warning, info, debug, null, not "verbose"',
      '10:5 AgentPolicy/soc-linux-servers: spec.advanced_settings.agent_download_timeout must be a whole number and s, m or h, such as 30s, 5m or 2h, or "" (none), not "10 minutes"',
      '11:5 AgentPolicy/soc-linux-servers: spec.advanced_settings.agent_limits_go_max_procs must be >= 0',
      '12:5 AgentPolicy/soc-linux-servers: spec.advanced_settings.agent_logging_files_keepfiles must be an integer or null, not 1.5',
      '13:5 AgentPolicy/soc-linux-servers: spec.advanced_settings.agent_logging_files_rotateeverybytes must be an integer or null, not "1048576"',
      '14:5 AgentPolicy/soc-linux-servers: spec.advanced_settings.agent_logging_to_files must be a boolean (true or false) or null, not "true"',
      '15:5 AgentPolicy/soc-linux-servers: spec.advanced_settings.agent_monitoring_runtime_experimental must be one of: "", process, otel, null, not "thread"',
      '16:5 AgentPolicy/soc-linux-servers: spec.advanced_settings.agent_download_target_directory must be a string or null, not 5',
    ],
  },
  // PackagePolicy
  {
    fixture: 'package-policy/package-version.yaml',
    mistake: '`latest` as a package version',
    errors: ['8:27 PackagePolicy/soc-linux-servers-system: spec.package.version must be a version such as 1.60.0, not "latest"'],
  },
  {
    fixture: 'package-policy/missing-policy-ids-and-package.yaml',
    mistake: 'no policy_ids and no package',
    errors: ['5:1 PackagePolicy/soc-linux-servers-system: spec.policy_ids is required', '5:1 PackagePolicy/soc-linux-servers-system: spec.package is required'],
  },
  {
    fixture: 'package-policy/stream-field-typo.yaml',
    mistake: 'a misspelt stream field deep in inputs',
    errors: ['14:11 PackagePolicy/soc-linux-servers-system: spec.inputs.system-logfile.streams.system.auth.enabeld is not a known field (did you mean enabled?)'],
  },
  {
    fixture: 'package-policy/duplicate-policy-ids.yaml',
    mistake: 'an agent policy listed twice',
    errors: ['7:55 PackagePolicy/soc-linux-hostquery: spec.policy_ids[2] repeats spec.policy_ids[0]'],
  },
  // HostQueryPack
  {
    // A query without interval is valid (wire-facts §16 #4); one without SQL is not.
    fixture: 'host-query-pack/query-missing-query.yaml',
    mistake: 'a scheduled query without its SQL',
    errors: ['10:5 HostQueryPack/linux-incident-response: spec.queries.crontab.query is required'],
  },
  {
    fixture: 'host-query-pack/platform-and-shards.yaml',
    mistake: 'a shard over 100 percent; an unknown platform is no error (the route takes any text: Security_Osquery_API_Platform)',
    errors: ['9:5 HostQueryPack/linux-incident-response: spec.shards.soc-linux-servers must be <= 100'],
  },
  // HostQuerySavedQuery
  {
    fixture: 'host-query-saved-query/interval-zero.yaml',
    mistake: 'interval 0 (an anyOf of integer and digit string: only the integer rule speaks)',
    errors: ['7:3 HostQuerySavedQuery/logged-in-users: spec.interval must be >= 1'],
  },
  {
    fixture: 'host-query-saved-query/interval-text.yaml',
    mistake: 'an interval in words (the string alternative speaks)',
    errors: ['7:3 HostQuerySavedQuery/logged-in-users: spec.interval must be a positive whole number, not "hourly"'],
  },
  {
    fixture: 'host-query-saved-query/missing-query.yaml',
    mistake: 'no query',
    errors: ['5:1 HostQuerySavedQuery/logged-in-users: spec.query is required'],
  },
  {
    fixture: 'host-query-saved-query/platform-and-timeout.yaml',
    mistake: 'a zero timeout; a capitalised platform is no error (the route takes any text)',
    errors: ['9:3 HostQuerySavedQuery/logged-in-users: spec.timeout must be >= 60'],
  },
  {
    fixture: 'host-query-saved-query/unknown-field.yaml',
    mistake: '`intervall`',
    errors: ['5:1 HostQuerySavedQuery/logged-in-users: spec.interval is required', '7:3 HostQuerySavedQuery/logged-in-users: spec.intervall is not a known field (did you mean interval?)'],
  },
  // MaintenanceWindow
  {
    fixture: 'maintenance-window/start-not-date-time.yaml',
    mistake: 'a start without T and time zone',
    errors: ['8:7 MaintenanceWindow/Weekly Linux patching: spec.schedule.custom.start must be a date and time with a T and a time zone, such as 2026-11-29T01:00:00Z or 2026-11-29T01:00+01:00, not "2026-11-29 01:00"'],
  },
  {
    fixture: 'maintenance-window/duration-format.yaml',
    mistake: 'a duration in words',
    errors: ['9:7 MaintenanceWindow/Weekly Linux patching: spec.schedule.custom.duration must be a duration such as 30s, 5m, 4h or 1d, not "4 hours"'],
  },
  {
    fixture: 'maintenance-window/recurring-mistakes.yaml',
    mistake: 'three recurrence mistakes, each pointed at its value',
    errors: [
      '11:9 MaintenanceWindow/Monthly patching: spec.schedule.custom.recurring.every must be an interval such as 1d, 2w, 1M or 1y, not "1week"',
      '12:21 MaintenanceWindow/Monthly patching: spec.schedule.custom.recurring.onWeekDay[0] must be a weekday MO, TU, WE, TH, FR, SA or SU',
      '13:25 MaintenanceWindow/Monthly patching: spec.schedule.custom.recurring.onMonthDay[1] must be <= 31',
    ],
  },
  {
    fixture: 'maintenance-window/missing-schedule.yaml',
    mistake: 'no schedule',
    errors: ['5:1 MaintenanceWindow/Weekly Linux patching: spec.schedule is required'],
  },
  {
    fixture: 'maintenance-window/scope-missing-kql.yaml',
    mistake: '`kuery` instead of `kql` in the scope',
    errors: ['10:7 MaintenanceWindow/Weekly Linux patching: spec.scope.alerting.query.kql is required', '11:9 MaintenanceWindow/Weekly Linux patching: spec.scope.alerting.query.kuery is not a known field (known fields: kql)'],
  },
  {
    // The server: `moment.tz.zone(tz)` in the maintenance window schedule schema's validateTimezone.
    fixture: 'maintenance-window/unknown-time-zone.yaml',
    mistake: 'a time zone the IANA database does not know, and an offset instead of a zone name',
    errors: [
      '11:7 MaintenanceWindow/Weekly Linux patching: spec.schedule.custom.timezone must be an IANA time zone such as Europe/Berlin, America/New_York or UTC, not "Mars/Base"',
      '22:7 MaintenanceWindow/Weekly Windows patching: spec.schedule.custom.timezone must be an IANA time zone such as Europe/Berlin, America/New_York or UTC, not "+02:00"',
    ],
  },
  // IntegrationPackage, UptimeSettings, CaseConfiguration
  {
    fixture: 'integration-package/unpinned.yaml',
    mistake: '`latest` instead of a version, and a field the kind does not have',
    errors: [
      '6:3 IntegrationPackage/system: spec.version must be a version such as 1.60.0, not "latest"',
      '7:3 IntegrationPackage/system: spec.pinned is not a known field (known fields: version, keep_policies_up_to_date)',
    ],
  },
  {
    // The uptime plugin's DynamicSettingsSchema: thresholds of at least 1, address lists.
    fixture: 'uptime-settings/second-object.yaml',
    mistake: 'a second settings object of a space, a zero threshold, one address instead of a list',
    errors: [
      '4:3 UptimeSettings/production: metadata.name must be "settings", not "production"',
      '6:3 UptimeSettings/production: spec.certAgeThreshold must be >= 1',
      '8:5 UptimeSettings/production: spec.defaultEmail.to must be a list, not "soc@example.com"',
    ],
  },
  {
    // OAS Cases_owner, Cases_closure_types, Cases_set_case_configuration_request customFields.
    fixture: 'case-configuration/owner-and-fields.yaml',
    mistake: 'an owner that does not exist, a closure type, an upper-case custom field key, a custom field type',
    errors: [
      '4:3 CaseConfiguration/security: metadata.name must be cases, observability or securitySolution, not "security"',
      '6:3 CaseConfiguration/security: spec.closure_type must be close-by-user or close-by-pushing, not "close-on-push"',
      '8:8 CaseConfiguration/security: spec.customFields[0].key must be lower-case letters, digits, _ and - only, not "Tier"',
      '9:36 CaseConfiguration/security: spec.customFields[1].type must be text or toggle, not "number"',
    ],
  },
  {
    // x-pack/platform/plugins/shared/actions/common/validate_connector_id.ts
    fixture: 'connector/id-characters.yaml',
    mistake: 'connector ids `.` and SOC_Server_Log: the server takes lower-case letters, digits and hyphens only',
    errors: [
      '6:3 Connector/.: metadata.name must be lower-case letters, digits and - only, starting and ending with a letter or digit, not "."',
      '14:3 Connector/SOC_Server_Log: metadata.name must be lower-case letters, digits and - only, starting and ending with a letter or digit, not "SOC_Server_Log"',
    ],
  },
  {
    // OAS post-spaces-space: id characters, initials maxLength 2, solution enum; the spaces plugin's color and imageUrl checks
    fixture: 'space/id-and-avatar.yaml',
    mistake: 'a space id with capitals and a space, three initials, a colour name, an unknown solution, an image by URL',
    errors: [
      '4:3 Space/SOC Team: metadata.name must be lower-case letters, digits, _ and - only, not "SOC Team"',
      '7:3 Space/SOC Team: spec.initials must be at most 2 characters',
      '8:3 Space/SOC Team: spec.color must be # and 6 letters or digits, a colour such as #BD271E, not "red"',
      '9:3 Space/SOC Team: spec.solution must be one of: security, oblt, es, classic, not "siem"',
      `10:3 Space/SOC Team: spec.imageUrl must be a data URL starting with data:image, or '' (no image), not "https://example.com/soc.png"`,
    ],
  },
  {
    // OAS Data_views_create_data_view_request_object_inner (title required), Data_views_runtimefieldmap
    fixture: 'data-view/runtime-field.yaml',
    mistake: '`titel`, and a runtime field of a type runtime fields do not have',
    errors: [
      '5:1 DataView/endpoint-events: spec.title is required',
      '6:3 DataView/endpoint-events: spec.titel is not a known field (did you mean title?)',
      '9:7 DataView/endpoint-events: spec.runtimeFieldMap.parent_child.type must be one of: keyword, long, double, date, ip, boolean, geo_point, composite, not "text"',
    ],
  },
  {
    fixture: 'value-list/items-file-outside-root.yaml',
    mistake: 'an items_file outside the repository root (an absolute path, a device): refused without reading it',
    errors: [
      '10:3 ValueList/bad-domains: items_file cannot be read: /etc/passwd: it is outside the repository root',
      '20:3 ValueList/zeros: items_file cannot be read: /dev/zero: it is outside the repository root',
    ],
  },
];

describe('svcform validate: Connector, ValueList, AgentPolicy, PackagePolicy, HostQueryPack, HostQuerySavedQuery and MaintenanceWindow manifests', () => {
  for (const c of CASES) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }
});
