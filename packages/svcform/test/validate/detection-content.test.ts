import { describe, it } from 'node:test';
import { checkFixture, type FixtureCase } from './harness.js';

/** Mistakes in PrebuiltRules and TimelineTemplate manifests: each fixture and every error it must produce. */
const CASES: FixtureCase[] = [
  {
    fixture: 'prebuilt-rules/customize-mistakes.yaml',
    mistake: 'a misspelt customised field and an interval in words',
    errors: [
      '12:7 PrebuiltRules/endpoint: spec.customize.5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01.severty is not a known field (did you mean severity?)',
      '13:7 PrebuiltRules/endpoint: spec.customize.5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01.interval must be a duration such as 30s, 5m, 1h or 1d, not "5 minutes"',
    ],
  },
  {
    fixture: 'prebuilt-rules/empty-install.yaml',
    mistake: 'install as a word other than all',
    errors: ['6:3 PrebuiltRules/nothing: spec.install must be "all", not "every"'],
  },
  {
    fixture: 'prebuilt-rules/outside-install.yaml',
    mistake: 'enable and customize naming rules the set does not install',
    errors: [
      '9:16 PrebuiltRules/endpoint: enable names 5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b02, which install does not select',
      '11:5 PrebuiltRules/endpoint: customize names 5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b03, which install does not select',
    ],
  },
  {
    fixture: 'timeline-template/wrong-types.yaml',
    mistake: 'query-builder rows and sort of the wrong types (OAS Security_Timeline_API_DataProviderResult, _Sort)',
    errors: [
      '9:7 TimelineTemplate/soc-wrong-types: spec.dataProviders[0].enabled must be a boolean (true or false) or null, not "yes"',
      '12:9 TimelineTemplate/soc-wrong-types: spec.dataProviders[0].queryMatch.value must be a string or a list or null, not 42',
      '14:3 TimelineTemplate/soc-wrong-types: spec.sort must be a mapping or a list of mappings, not "descending"',
    ],
  },
];

describe('validate: PrebuiltRules and TimelineTemplate mistakes', () => {
  for (const c of CASES) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }
});
