import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/**
 * The examples against an emulator that reads rule bodies as the real server's schemas do: every
 * action must carry action_type_id (wire-facts §15 fact 1), and `query` is required of threshold,
 * threat_match and new_terms rules too (the real behaviour `rules.query-required`). Every rule
 * write is accepted, and plan is empty afterwards.
 */

const EXAMPLES = 'examples';
const RULES = '/api/detection_engine/rules';

function exampleRuleCount(): { rules: number; untypedActions: number } {
  let rules = 0;
  let untypedActions = 0;
  // Manifests only: rules/tests/ holds rule tests, not rules.
  for (const file of readdirSync(join(EXAMPLES, 'rules')).filter((f) => f.endsWith('.yaml'))) {
    const text = readFileSync(join(EXAMPLES, 'rules', file), 'utf8');
    rules += (text.match(/^kind: Rule$/gm) ?? []).length;
    untypedActions += (text.match(/^\s+- id: /gm) ?? []).length - (text.match(/^\s+action_type_id: /gm) ?? []).length;
  }
  return { rules, untypedActions };
}

describe('examples/ against the real server\'s rule schemas', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ realRoutes: ['rules.query-required'] });
  });
  after(() => emu.stop());

  it('apply writes every rule with 200, then plan shows nothing to change', async () => {
    const { rules, untypedActions } = exampleRuleCount();
    assert.ok(untypedActions > 0, 'some example actions leave action_type_id to svcform');
    const applied = await cli(['apply', EXAMPLES, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    // PATCHes are the PrebuiltRules set customising the vendor's rules, not writes of example rules.
    const ruleWrites = emu.log.all().filter((r) => r.path === RULES && r.method !== 'GET' && r.method !== 'PATCH');
    assert.equal(ruleWrites.length, rules);
    assert.deepEqual(ruleWrites.filter((r) => r.status !== 200), []);
    const planned = await cli(['plan', EXAMPLES, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete, \d+ unchanged/);
  });
});
