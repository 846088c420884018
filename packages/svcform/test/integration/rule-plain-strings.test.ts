import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * The rule route takes most of a rule's strings as plain strings: the server's OpenAPI document
 * (Security_Detections_API_ThreatTactic, ThreatTechnique, ThreatSubtechnique, RuleReferenceArray,
 * RuleTagArray, RuleAuthorArray, RuleFalsePositiveArray, RuleNameOverride, TimestampOverride, ...)
 * gives them no minLength and no format, and so does the emulator's rules area (fields.ts). svcform
 * refused a MITRE reference that was not a full URL and empty entries, which a rule exported from a
 * deployment can carry. Where the route does refuse an empty string, svcform still does: an empty
 * timeline_id or timeline_title (the create route's request check, emulator rules/schema.ts).
 */
const FIXTURE = 'test/fixtures/valid/rule-plain-strings.yaml';

describe('Rule strings the route takes as plain strings', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('validate finds nothing, apply writes the rules without a warning, and plan is empty afterwards', async () => {
    const dir = repo({ 'rule.yaml': readFileSync(FIXTURE, 'utf8') });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 0, validated.out + validated.err);
    assert.match(validated.out, /3 resources in 1 files: valid \(0 errors, 0 warnings\)/);
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /Apply: 3 done, 0 failed, 0 skipped\./);
    // An empty data_view_id names no data view: no warning of a missing one.
    assert.doesNotMatch(applied.out + applied.err, /warning/);
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
  });

  it('an empty timeline_id or timeline_title is still an error, as the route refuses it', async () => {
    const text = readFileSync(FIXTURE, 'utf8').replace("  tags: ['', team-blue]\n", "  tags: ['', team-blue]\n  timeline_id: ''\n  timeline_title: ''\n");
    const dir = repo({ 'rule.yaml': text });
    const validated = await cli(['validate', dir]);
    assert.equal(validated.code, 1, validated.out + validated.err);
    assert.match(validated.err, /spec\.timeline_id must not be empty/);
    assert.match(validated.err, /spec\.timeline_title must not be empty/);
  });
});
