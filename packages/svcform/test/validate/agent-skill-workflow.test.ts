import { describe, it } from 'node:test';
import { checkFixture, type FixtureCase } from './harness.js';

/** Mistakes in AgentSkill and AgentWorkflow manifests, each refused before any request. */
const CASES: FixtureCase[] = [
  {
    // validateSkillId (agent-builder-common, the skill registry) and the provider's `./` rule for referenced-content paths.
    fixture: 'agent-skill/reference-path-and-id.yaml',
    mistake: 'a skill id with capitals and a trailing "-", and a referenced-content path that is a file path',
    errors: [
      '4:3 AgentSkill/Escalation_Steps-: metadata.name must be lower-case letters, digits, _ and -, starting and ending with a letter or digit, not "Escalation_Steps-"',
      '11:7 AgentSkill/Escalation_Steps-: spec.referenced_content[0].relativePath must be a path starting with ./ (e.g. ./runbooks/paging.md), not "runbooks/paging.md"',
    ],
  },
  {
    fixture: 'agent-skill/content-missing.yaml',
    mistake: '`instructions` (an agent field) for a skill\'s `content`',
    errors: [
      '5:1 AgentSkill/escalation-steps: spec.content is required',
      '8:3 AgentSkill/escalation-steps: spec.instructions is not a known field (known fields: name, description, content, referenced_content, tool_ids)',
    ],
  },
  {
    fixture: 'agent-workflow/yaml-text.yaml',
    mistake: 'the definition given as YAML text beside a definition without its name',
    errors: [
      '6:3 AgentWorkflow/soc-open-host-case: spec.definition.name is required',
      '11:3 AgentWorkflow/soc-open-host-case: spec.yaml is not a known field (known fields: definition)',
    ],
  },
];

describe('svcform validate: AgentSkill and AgentWorkflow manifests', () => {
  for (const c of CASES) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }
});
