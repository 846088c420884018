import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * Exception items and the other security bodies of the rules area, read as the server's zod
 * schemas read them: POST /api/detection_engine/rules/{id}/exceptions (OpenAPI document at
 * b76003905: `Security_Exceptions_API_CreateRuleExceptionListItemProps` and the
 * `Security_Exceptions_API_ExceptionListItemEntry*` entry schemas), the _export body
 * (K-DE/rule_management/export_rules/export_rules_route.gen.ts ExportRulesRequestBody), and the
 * exception lists and items of a rules _import file, imported and counted by the exception-list
 * client's rules (lists plugin import utils sortExceptionListsToUpdateOrCreate and
 * sortExceptionItemsToUpdateOrCreate; wire-facts §15, last paragraph).
 */

const RULES = '/api/detection_engine/rules';
const rule = (ruleId: string) => ({ rule_id: ruleId, type: 'query', name: `Rule ${ruleId}`, description: 'd', severity: 'low', risk_score: 21 });
const item = (extra: Record<string, unknown> = {}) => ({ type: 'simple', name: 'Build hosts', description: 'd', entries: [{ field: 'host.name', operator: 'included', type: 'match', value: 'ci-1' }], ...extra });
const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('emulator: exception items and rule transfer bodies as the real schemas read them', () => {
  let emu: RunningEmulator;
  let ruleId: string;
  before(async () => {
    emu = await emulator();
    ruleId = (await call(emu, 'POST', RULES, rule('exc-target'))).body.id;
  });
  after(() => emu.stop());
  const addItems = (items: unknown[]) => call(emu, 'POST', `${RULES}/${ruleId}/exceptions`, { items });
  const refused = async (items: unknown[], message: string) => {
    const res = await addItems(items);
    assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: `[request body]: ${message}` }, JSON.stringify(items));
  };

  it('rule exception items strip unknown keys, at the top and in entries (CreateRuleExceptionListItemProps: a z.object)', async () => {
    const res = await addItems([item({ colour: 'red', entries: [{ field: 'host.name', operator: 'included', type: 'match', value: 'ci-2', weight: 3 }] })]);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body[0].colour, undefined);
    assert.deepEqual(res.body[0].entries, [{ type: 'match', field: 'host.name', value: 'ci-2', operator: 'included' }]);
  });

  it('rule exception items need type, name, description and entries, each entry of a known type with its own fields (ExceptionListItemEntry: match, match_any, list, exists, nested, wildcard)', async () => {
    await refused([{ name: 'n', description: 'd', entries: [] }], 'items.0.type: Invalid input: expected "simple"');
    await refused([item({ description: undefined })], 'items.0.description: Invalid input: expected string, received undefined');
    await refused([item({ entries: [{ field: 'f', operator: 'included', type: 'regex', value: 'x' }] })], 'items.0.entries.0.type: Invalid input');
    await refused([item({ entries: [{ field: 'f', operator: 'included', type: 'match_any', value: [] }] })], 'items.0.entries.0.value: Too small: expected array to have >=1 items');
    await refused([item({ entries: [{ field: 'f', operator: 'included', type: 'list', list: { id: 'ips', type: 'uuid' } }] })], `items.0.entries.0.list.type: Invalid option: expected one of "binary"|"boolean"|"byte"|"date"|"date_nanos"|"date_range"|"double"|"double_range"|"float"|"float_range"|"geo_point"|"geo_shape"|"half_float"|"integer"|"integer_range"|"ip"|"ip_range"|"keyword"|"long"|"long_range"|"shape"|"short"|"text"`);
    await refused([item({ os_types: ['solaris'] })], 'items.0.os_types.0: Invalid option: expected one of "linux"|"macos"|"windows"');
    await refused([item({ expire_time: 'tomorrow' })], 'items.0.expire_time: Invalid ISO datetime');
    const nested = await addItems([item({ item_id: 'nested-1', entries: [{ field: 'process.parent', type: 'nested', entries: [{ field: 'name', operator: 'included', type: 'match', value: 'sh' }] }] })]);
    assert.equal(nested.status, 200, nested.text);
  });

  it('_export takes {objects: [{rule_id}]} or no body at all (ExportRulesRequestBody: z.object({objects}).nullable())', async () => {
    const none = await call(emu, 'POST', `${RULES}/_export`);
    assert.equal(none.status, 200);
    const empty = await call(emu, 'POST', `${RULES}/_export`, {});
    assert.deepEqual(empty.body, { statusCode: 400, error: 'Bad Request', message: '[request body]: objects: Invalid input: expected array, received undefined' });
    const typed = await call(emu, 'POST', `${RULES}/_export`, { objects: [{ rule_id: 7 }] });
    assert.equal(typed.body.message, '[request body]: objects.0.rule_id: Invalid input: expected string, received number');
  });

  describe('exception lists and items in a rules _import file', () => {
    const list = { list_id: 'imported-exceptions', type: 'detection', namespace_type: 'single', name: 'Imported', description: 'd' };
    const listItem = { ...item(), item_id: 'imported-item', list_id: 'imported-exceptions', namespace_type: 'single' };
    const importFile = (rows: unknown[], query = '') => postFile(emu, `${RULES}/_import${query}`, ndjson(rows), 'rules.ndjson');

    it('imports the list and its item and counts both (import_rule_exceptions.ts: success_count of the exception-list client)', async () => {
      const res = await importFile([list, listItem, rule('imp-1')]);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.success_count, 1);
      assert.deepEqual([res.body.exceptions_success, res.body.exceptions_success_count, res.body.exceptions_errors], [true, 2, []]);
    });

    it('again without overwrite_exceptions: both refused with 409 and counted as nothing (sortExceptionListsToUpdateOrCreate, sortExceptionItemsToUpdateOrCreate)', async () => {
      const res = await importFile([list, listItem, rule('imp-2')]);
      assert.equal(res.body.exceptions_success, false);
      assert.equal(res.body.exceptions_success_count, 0);
      assert.deepEqual(res.body.exceptions_errors, [
        { list_id: 'imported-exceptions', error: { status_code: 409, message: 'Found that list_id: "imported-exceptions" already exists. Import of list_id: "imported-exceptions" skipped.' } },
        { item_id: 'imported-item', list_id: 'imported-exceptions', error: { status_code: 409, message: 'Found that item_id: "imported-item" already exists. Import of item_id: "imported-item" skipped.' } },
      ]);
      assert.equal(res.body.success_count, 1, 'the rule is imported all the same');
    });

    it('with overwrite_exceptions=true both are replaced and counted; an item of an unknown list is a 409', async () => {
      const res = await importFile([list, listItem], '?overwrite_exceptions=true');
      assert.deepEqual([res.body.exceptions_success, res.body.exceptions_success_count], [true, 2]);
      const orphan = await importFile([{ ...listItem, item_id: 'orphan', list_id: 'no-such-list' }]);
      assert.equal(orphan.body.exceptions_success_count, 0);
      assert.deepEqual(orphan.body.exceptions_errors, [
        { item_id: 'orphan', list_id: 'no-such-list', error: { status_code: 409, message: 'Exception list with list_id: "no-such-list", not found for exception list item with item_id: "orphan"' } },
      ]);
    });
  });
});
