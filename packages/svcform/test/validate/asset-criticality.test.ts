import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkFixture, shown, svcform, type FixtureCase } from './harness.js';

/** Mistakes in AssetCriticality manifests: each fixture and every error it must produce. */
const CASES: FixtureCase[] = [
  {
    // OAS Security_Entity_Analytics_API_AssetCriticalityLevelsForBulkUpload: the levels the bulk route takes.
    fixture: 'asset-criticality/level-typo.yaml',
    mistake: 'a level the server does not know, at its record',
    errors: ['9:5 AssetCriticality/host.name: spec.records.dc02.corp.example must be one of: low_impact, medium_impact, high_impact, extreme_impact, unassigned, not "critical"'],
  },
  {
    // OAS Security_Entity_Analytics_API_IdField.
    fixture: 'asset-criticality/id-field-typo.yaml',
    mistake: 'a name that is not an id_field',
    errors: ['5:3 AssetCriticality/hostname: metadata.name must be one of: host.name, user.name, service.name, entity.id, not "hostname" (did you mean host.name?)'],
  },
  {
    fixture: 'asset-criticality/records-and-file.yaml',
    mistake: 'records inline and from a file at once',
    errors: ['7:3 AssetCriticality/user.name: spec.records and spec.records_file cannot be used together'],
  },
];

describe('svcform validate: AssetCriticality manifests', () => {
  for (const c of CASES) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }

  it('records-files/asset-criticality-mistakes.yaml: each bad line of the records file is an error at that line', async () => {
    const run = await svcform(['validate', shown('test/fixtures/records-files/asset-criticality-mistakes.yaml')]);
    assert.equal(run.code, 1, run.stderr);
    const csv = shown('test/fixtures/records-files/servers.csv');
    assert.deepEqual(
      run.lines.filter((d) => !d.warning).map((d) => [d.file, `${d.line}:${d.col}`, d.text]),
      [
        [csv, '2:1', 'AssetCriticality/host.name: "dc02.corp.example extreme_impact" is not "<id_value>,<criticality_level>"'],
        [csv, '3:1', 'AssetCriticality/host.name: "high" is not a criticality level (low_impact, medium_impact, high_impact, extreme_impact, unassigned)'],
        [csv, '4:1', 'AssetCriticality/host.name: "dc01.corp.example" is given as low_impact here and as extreme_impact at line 1: a record has one level'],
      ],
    );
  });
});
