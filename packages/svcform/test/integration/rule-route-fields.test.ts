import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/**
 * Rule fields where svcform and the rule route disagreed, each against the route's own schema
 * (OpenAPI document b76003905, Security_Detections_API_*) or its request check:
 * - `query` of threshold, threat_match and new_terms rules: the server's schemas require it
 *   (ThresholdRuleRequiredFields, ThreatMatchRuleRequiredFields, NewTermsRuleRequiredFields),
 *   service-api.md does not; svcform sends "" when a manifest has none, which both take;
 * - `timeline_id` and `timeline_title` go together (the create and update request checks);
 * - `actions[].uuid` (RuleAction) and `required_fields[].ecs` (the read shape, RequiredField),
 *   copied from a rule read back, are accepted.
 */

const HEAD = (name: string) => ['apiVersion: svcform/v1', 'kind: Rule', `metadata: {name: ${name}}`, 'spec:', `  name: ${name}`, '  description: d', '  severity: low', '  risk_score: 5'];

const WITHOUT_QUERY = [
  [...HEAD('thr-no-query'), '  type: threshold', '  index: [logs-*]', '  threshold: {field: [source.ip], value: 5}'],
  [...HEAD('im-no-query'), '  type: threat_match', '  index: [logs-*]', "  threat_index: [logs-ti_*]", "  threat_query: '@timestamp >= \"now-30d\"'",
    '  threat_mapping:', '    - entries: [{field: source.ip, type: mapping, value: threat.indicator.ip}]'],
  [...HEAD('nt-no-query'), '  type: new_terms', '  index: [logs-*]', '  new_terms_fields: [host.name]', '  history_window_start: now-7d'],
].map((lines) => lines.join('\n') + '\n').join('---\n');

const RULES = '/api/detection_engine/rules';

for (const [label, realRoutes] of [['the real route (query required)', ['rules.query-required' as const]], ['the document\'s route', []]] as const) {
  describe(`threshold, threat_match and new_terms rules without a query, against ${label}`, () => {
    let emu: RunningEmulator;
    before(async () => {
      emu = await emulator({ realRoutes: [...realRoutes] });
    });
    after(() => emu.stop());

    it('are written with query "" and plan nothing afterwards', async () => {
      const dir = repo({ 'rules.yaml': WITHOUT_QUERY });
      const applied = await cli(['apply', dir, '--url', emu.url]);
      assert.equal(applied.code, 0, shown(applied));
      assert.match(applied.out, /Apply: 3 done, 0 failed/);
      for (const id of ['thr-no-query', 'im-no-query', 'nt-no-query']) {
        const stored = await call(emu, 'GET', `${RULES}?rule_id=${id}`);
        assert.equal(stored.body.query, '', id);
      }
      const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
      assert.equal(planned.code, 0, shown(planned));
    });
  });
}

describe('Rule fields the route pairs or computes', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('a rule the document\'s server stored without a query plans no change from a manifest without one', async () => {
    const body = { rule_id: 'stored-no-query', type: 'threshold', name: 'stored-no-query', description: 'd', severity: 'low', risk_score: 5, index: ['logs-*'], threshold: { field: ['source.ip'], value: 5 } };
    assert.equal((await call(emu, 'POST', RULES, body)).status, 200);
    const text = [...HEAD('stored-no-query'), '  type: threshold', '  index: [logs-*]', '  threshold: {field: [source.ip], value: 5}'].join('\n') + '\n';
    const planned = await cli(['plan', repo({ 'rule.yaml': text }), '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });

  it('timeline_id without timeline_title, and the reverse, are errors: the route refuses either alone', async () => {
    const rule = (extra: string) => [...HEAD('timeline-half'), '  type: query', "  query: 'a:b'", extra].join('\n') + '\n';
    const idOnly = await cli(['validate', repo({ 'rule.yaml': rule('  timeline_id: t-1') })]);
    assert.equal(idOnly.code, 1, shown(idOnly));
    assert.match(idOnly.err, /rule\.yaml:\d+:\d+: .*spec\.timeline_id requires spec\.timeline_title/);
    const titleOnly = await cli(['validate', repo({ 'rule.yaml': rule('  timeline_title: Triage') })]);
    assert.equal(titleOnly.code, 1, shown(titleOnly));
    assert.match(titleOnly.err, /spec\.timeline_title requires spec\.timeline_id/);
  });

  it('actions[].uuid and required_fields[].ecs copied from a rule read back are accepted, and compare as the server holds them', async () => {
    await call(emu, 'POST', '/api/actions/connector/chat', { name: 'Chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
    const text = [...HEAD('copied-back'), '  type: query', "  query: 'process.name:a'",
      '  required_fields: [{name: process.name, type: keyword, ecs: true}]',
      '  actions:', '    - {id: chat, group: default, action_type_id: .chat, uuid: 6f1e0c2a-1d2b-4c3d-9e8f-0a1b2c3d4e5f, params: {message: hi}}'].join('\n') + '\n';
    const dir = repo({ 'rule.yaml': text });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    // The only finding is that the connector is not declared here.
    assert.doesNotMatch(applied.out + applied.err, /uuid|ecs/);
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });

  it('concurrent_searches without items_per_search is a warning: the route refuses it on create only', async () => {
    const text = [...HEAD('im-half'), '  type: threat_match', "  query: '*:*'", '  index: [logs-*]', '  threat_index: [logs-ti_*]', "  threat_query: '*:*'",
      '  threat_mapping:', '    - entries: [{field: source.ip, type: mapping, value: threat.indicator.ip}]', '  concurrent_searches: 2'].join('\n') + '\n';
    const validated = await cli(['validate', repo({ 'rule.yaml': text })]);
    assert.equal(validated.code, 0, shown(validated));
    assert.match(validated.out + validated.err, /warning: .*concurrent_searches without items_per_search: the server refuses to create a rule/);
  });

  it('response action params are checked as the route reads them; a kill-process action without overwrite plans nothing after apply (the server fills overwrite: true)', async () => {
    const rule = (name: string, action: string) => [...HEAD(name), '  type: query', "  query: 'a:b'", '  response_actions:', `    - ${action}`].join('\n') + '\n';
    const bad = await cli(['validate', repo({
      'bad.yaml': [rule('ra-typo', '{action_type_id: .endpoint, params: {command: isolat}}'), rule('ra-kill', '{action_type_id: .endpoint, params: {command: kill-process}}'),
        rule('ra-hq', '{action_type_id: .hostquery, params: {timeout: soon}}')].join('---\n'),
    })]);
    assert.equal(bad.code, 1, shown(bad));
    assert.match(bad.err, /bad\.yaml:\d+:\d+: .*spec\.response_actions\[0\]\.params\.command must be one of/);
    // The condition the field belongs to is the action's command, not the rule's type.
    assert.match(bad.err, /spec\.response_actions\[0\]\.params\.config is required for command kill-process\n/);
    assert.match(bad.err, /spec\.response_actions\[0\]\.params\.timeout must be a number/);
    const dir = repo({ 'rule.yaml': rule('ra-ok', '{action_type_id: .endpoint, params: {command: kill-process, config: {field: process.entity_id}}}') });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });
});
