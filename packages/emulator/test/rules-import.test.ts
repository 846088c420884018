import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { MAX_IMPORT_BYTES } from '../src/areas/rules/transfer.js';

/**
 * `POST /api/detection_engine/rules/_import` as the real route behaves where svcform's bulk writes
 * depend on it (sources in each test's name: the real server's files under
 * x-pack/solutions/security/plugins/security_solution, K-DE below).
 */

const RULES = '/api/detection_engine/rules';
const base = (ruleId: string, extra: Record<string, unknown> = {}) => ({ rule_id: ruleId, type: 'query', name: `Rule ${ruleId}`, description: 'd', severity: 'low', risk_score: 21, ...extra });
const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('emulator: rules _import, as svcform\'s bulk writes meet it', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('cannot name a line that fails the import schema or validateRuleToImport: "(unknown id)" (K-DE import_rules_utils.ts: createBulkErrorObject without ruleId; rule_to_import_validation.ts)', async () => {
    const res = await postFile(emu, `${RULES}/_import`, ndjson([base('ok-1'), base('no-title', { timeline_id: 't-1' }), base('bad-sev', { severity: 'urgent' }), base('ok-2')]));
    assert.equal(res.status, 200);
    assert.equal(res.body.success_count, 2);
    assert.equal(res.body.rules_count, 4);
    assert.deepEqual(
      res.body.errors.map((e: any) => e.rule_id),
      ['(unknown id)', '(unknown id)'],
    );
    assert.equal(res.body.errors[0].error.message, 'when "timeline_id" exists, "timeline_title" must also exist');
    assert.equal((await call(emu, 'GET', `${RULES}?rule_id=no-title`)).status, 404);
  });

  it(`answers 413 to a body over ${MAX_IMPORT_BYTES} bytes (K-DE import_rules_route.ts options.body.maxBytes = config maxRuleImportPayloadBytes, default 10485760)`, async () => {
    const big = base('big', { note: 'x'.repeat(MAX_IMPORT_BYTES) });
    const res = await postFile(emu, `${RULES}/_import`, ndjson([big]));
    assert.equal(res.status, 413);
    assert.deepEqual(res.body, { statusCode: 413, error: 'Payload Too Large', message: `Payload content length greater than maximum allowed: ${MAX_IMPORT_BYTES}` });
  });

  it('unlinks an exception list it cannot find and still imports the rule; keeps a list it has, with that list\'s id (K-DE import_rules/check_rule_exception_references.ts)', async () => {
    const created = (await call(emu, 'POST', RULES, base('with-list'))).body;
    await call(emu, 'POST', `${RULES}/${created.id}/exceptions`, { items: [{ name: 'i', description: 'd', type: 'simple', entries: [{ field: 'host.name', operator: 'included', type: 'match', value: 'a' }] }] });
    const list = (await call(emu, 'GET', `${RULES}?rule_id=with-list`)).body.exceptions_list[0];
    const missing = { id: 'nope', list_id: 'no-such-list', type: 'detection', namespace_type: 'single' };
    const res = await postFile(emu, `${RULES}/_import?overwrite=true`, ndjson([base('with-list', { exceptions_list: [{ ...list, id: 'stale-id' }, missing] })]));
    assert.equal(res.body.success_count, 1);
    assert.deepEqual(res.body.errors, [
      { rule_id: 'with-list', error: { status_code: 400, message: 'Rule with rule_id: "with-list" references a non existent exception list of list_id: "no-such-list". Reference has been removed.' } },
    ]);
    assert.deepEqual((await call(emu, 'GET', `${RULES}?rule_id=with-list`)).body.exceptions_list, [list]);
  });
});

describe('emulator: rules _find filters by rule_id prefix, as svcform reads past the search window', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    await postFile(emu, `${RULES}/_import`, ndjson(['ab-1', 'ab-2', 'Ab-3', 'b-1', '9-x'].map((id) => base(id))));
  });
  after(() => emu.stop());

  const ids = async (filter: string) => (await call(emu, 'GET', `${RULES}/_find?per_page=100&filter=${encodeURIComponent(filter)}`)).body.data.map((r: any) => r.rule_id).sort();

  it('matches a keyword wildcard case-sensitively (params.ruleId is a keyword: an ES wildcard query has case_insensitive false by default)', async () => {
    assert.deepEqual(await ids('alert.attributes.params.ruleId: a*'), ['ab-1', 'ab-2']);
    assert.deepEqual(await ids('alert.attributes.params.ruleId: A*'), ['Ab-3']);
  });

  it('takes the remainder query of a partition (NOT over ORed prefixes; wire-facts 2.1 filter syntax)', async () => {
    assert.deepEqual(await ids('NOT (alert.attributes.params.ruleId: a* OR alert.attributes.params.ruleId: b*)'), ['9-x', 'Ab-3']);
    assert.deepEqual(await ids('alert.attributes.params.ruleId: a* AND NOT (alert.attributes.params.ruleId: ab*)'), []);
  });
});

