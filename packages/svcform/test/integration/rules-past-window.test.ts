import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/**
 * More rules in one space than `_find` pages through (page x per_page <= 10,000, wire-facts 0.4):
 * 20,000 rules are applied (in bulk) and planned, the listing split by rule_id prefix. Their ids
 * share a start as an organisation's own rules do (`acme-sec-`, nine characters), which the split
 * must get past before the counts fit the window (src/kinds/rule/list.ts finds it from the first
 * page's ids and a few counts).
 */

const COUNT = 20_000;

function rule(i: number): string {
  const id = `acme-sec-${String(i).padStart(5, '0')}`;
  return `apiVersion: svcform/v1\nkind: Rule\nmetadata: {name: ${id}}\nspec: {type: query, name: Rule ${i}, description: d, severity: low, risk_score: ${i % 100}, query: 'a:${i}'}\n`;
}

describe(`${COUNT} rules in one space`, () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-20k-'));
    writeFileSync(join(dir, 'rules.yaml'), Array.from({ length: COUNT }, (_, i) => rule(i)).join('---\n'));
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('apply creates them all, and plan reads them all past the search window: nothing to change', async () => {
    const applied = await cli(['apply', dir, '--url', emu.url, '--quiet']);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, new RegExp(`Apply: ${COUNT} done, 0 failed`));
    emu.log.clear();
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    assert.match(planned.out, new RegExp(`Plan: 0 to create, 0 to update, 0 to delete, ${COUNT} unchanged`));
    const finds = emu.log.all().filter((r) => r.path === '/api/detection_engine/rules/_find');
    assert.ok(finds.every((r) => !/[?&]page=(\d+)&/.test(r.query) || Number(/[?&]page=(\d+)/.exec(r.query)![1]) * 1000 <= 10_000), 'every page inside the window');
    assert.ok(finds.some((r) => decodeURIComponent(r.query).includes('alert.attributes.params.ruleId: acme-sec-0*')), 'split by rule_id prefix');
    // The shared start is found by a few counts, not one character at a time with a query per
    // character of the alphabet (9 rounds of 65 queries); then two parts of 10 pages each.
    assert.ok(finds.length <= 30, `${finds.length} listing requests:\n${finds.map((r) => decodeURIComponent(r.query)).join('\n')}`);
  });
});
