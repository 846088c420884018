import { describe, it } from 'node:test';
import { checkFixture, type FixtureCase } from './harness.js';

/** Mistakes in AgentPlugin manifests, each refused before any request. */
const CASES: FixtureCase[] = [
  {
    // The install body's fields (`plugin_name`) and the answer's (`source_url`) written for the manifest's: the name is metadata.name, the URL spec.url.
    fixture: 'agent-plugin/name-in-spec.yaml',
    mistake: 'the install body\'s plugin_name and the answer\'s source_url in place of spec.url',
    errors: [
      '5:1 AgentPlugin/soc-threat-hunting: spec.url is required',
      '6:3 AgentPlugin/soc-threat-hunting: spec.plugin_name is not a known field (known fields: url)',
      '7:3 AgentPlugin/soc-threat-hunting: spec.source_url is not a known field (known fields: url)',
    ],
  },
];

describe('svcform validate: AgentPlugin manifests', () => {
  for (const c of CASES) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }
});
