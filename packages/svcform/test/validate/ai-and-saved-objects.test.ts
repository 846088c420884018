import { describe, it } from 'node:test';
import { checkFixture, type FixtureCase } from './harness.js';

/** Mistakes in AgentTool, Agent, AttackDiscoverySchedule and SavedObject manifests. */
const CASES: FixtureCase[] = [
  {
    fixture: 'agent-tool/builtin-id.yaml',
    mistake: 'a platform.* tool declared (built-in, read-only: service-api.md "built-in tools start with platform.")',
    errors: ["4:3 AgentTool/platform.core.search: platform.core.search is a built-in tool (the platform.* namespace is the server's own and read-only); svcform never writes it: remove this manifest"],
  },
  {
    // tool_types/esql/validate_configuration.ts refuses both on the server.
    fixture: 'agent-tool/qlang-params.yaml',
    mistake: 'a placeholder without a parameter and a parameter the query never uses',
    errors: [
      '8:5 AgentTool/soc.alerts.by_host: the query uses parameters that params does not define: user',
      '13:7 AgentTool/soc.alerts.by_host: parameter since is not used in the query (write ?since in it, or remove it)',
    ],
  },
  {
    // tool_types/esql/schemas.ts paramValueTypeSchema (9.4): keyword is a 9.2-9.3 type.
    fixture: 'agent-tool/qlang-param-type.yaml',
    mistake: 'a parameter type of an older release',
    errors: ['11:9 AgentTool/soc.alerts.by_user: spec.configuration.params.user.type must be one of: string, integer, float, boolean, date, array, not "keyword"'],
  },
  {
    fixture: 'agent-tool/mcp-missing-tool-name.yaml',
    mistake: '`toolName` for `tool_name` in an mcp configuration',
    errors: [
      '7:3 AgentTool/soc.ticketing.create: spec.configuration.tool_name is required for type mcp',
      '9:5 AgentTool/soc.ticketing.create: spec.configuration.toolName is not a known field for type mcp (did you mean tool_name?)',
    ],
  },
  {
    fixture: 'agent/builtin-agent.yaml',
    mistake: 'the built-in default agent declared',
    errors: ['4:3 Agent/elastic-ai-agent: elastic-ai-agent is the built-in default agent (read-only); svcform never writes it: remove this manifest and declare an agent of your own'],
  },
  {
    fixture: 'agent/tools-as-strings.yaml',
    mistake: 'a colour name for avatar_color and tool ids where tool selections belong',
    errors: [
      '8:3 Agent/soc-triage: spec.avatar_color must be a hex colour such as #0077cc, or "" (no avatar), not "blue"',
      '10:13 Agent/soc-triage: spec.configuration.tools[0] must be a mapping, not "soc.alerts.by_host"',
    ],
  },
  {
    fixture: 'attack-discovery-schedule/interval-and-size.yaml',
    // A size of 0 is a warning: the route takes any number (AttackDiscoveryApiScheduleParams size).
    mistake: 'no api_config name and an interval in words',
    errors: [
      '8:5 AttackDiscoverySchedule/Daily attack discovery: spec.params.api_config.name is required',
      '12:5 AttackDiscoverySchedule/Daily attack discovery: spec.schedule.interval must be a duration such as 30s, 5m, 1h or 1d, not "daily"',
    ],
  },
  {
    fixture: 'saved-object/unknown-type.yaml',
    mistake: 'the advanced-settings `config` object, which svcform does not manage',
    errors: ['6:3 SavedObject/soc-settings: spec.type must be one of: index-pattern, tag, dashboard, visualization, search, lens, map, canvas-workpad, not "config"'],
  },
];

describe('svcform validate: AgentTool, Agent, AttackDiscoverySchedule and SavedObject manifests', () => {
  for (const c of CASES) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }
});
