import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

const compiled = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync('schemas/plan.schema.json', 'utf8')));
/** Not a type guard: the plans stay `any` for the assertions after validation. */
const validatePlan = Object.assign((plan: unknown): boolean => compiled(plan), { get errors() { return compiled.errors; } });

const MANAGE = 'manage:\n  - kind: Rule\n    selector: {tags: [managed-by:svcform]}\n';
const RULE = 'apiVersion: svcform/v1\nkind: Rule\nmetadata: {name: in-git}\nspec:\n  type: query\n  name: In Git\n  description: Declared.\n  severity: low\n  risk_score: 10\n  index: [logs-*]\n  query: "host.name:a"\n  tags: [managed-by:svcform]\n';

describe('plan --show-unmanaged names the live objects outside every manage scope', () => {
  let emu: RunningEmulator;
  let dir: string;
  let madeId: string;
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-unmanaged-'));
    writeFileSync(join(dir, 'svcform.yaml'), MANAGE);
    writeFileSync(join(dir, 'rule.yaml'), RULE);
    // Made directly through the API, as with curl: no manifest, and outside the scope (no tag).
    const made = await call(emu, 'POST', '/api/detection_engine/rules', { rule_id: 'made-by-hand', type: 'query', name: 'By hand', description: 'curl', severity: 'low', risk_score: 5, index: ['logs-*'], query: 'host.name:b' });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    madeId = made.body.id;
    // Inside the scope but declared by nothing: deleted, never listed as unmanaged.
    const owned = await call(emu, 'POST', '/api/detection_engine/rules', { rule_id: 'tagged-stray', type: 'query', name: 'Stray', description: 'curl', severity: 'low', risk_score: 5, index: ['logs-*'], query: 'host.name:c', tags: ['managed-by:svcform'] });
    assert.equal(owned.status, 200, JSON.stringify(owned.body));
  });
  after(() => emu.stop());

  it('in text only when asked, by kind, name, space and the server id', async () => {
    const shown = await cli(['plan', dir, '--url', emu.url, '--show-unmanaged']);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, new RegExp(`^Unmanaged, outside every manage scope and left alone \\(1\\):\\n  Rule/made-by-hand \\(space default, id ${madeId}\\)$`, 'm'));
    assert.match(shown.out, /^- delete Rule\/tagged-stray/m);
    assert.doesNotMatch(shown.out, /Rule\/tagged-stray \(space default, id/);
    assert.match(shown.out, /1 unmanaged object left alone\.$/);
    const plain = await cli(['plan', dir, '--url', emu.url]);
    assert.equal(plain.code, 0, plain.err);
    assert.doesNotMatch(plain.out, /made-by-hand/);
  });

  it('in Markdown as a collapsed list', async () => {
    const run = await cli(['plan', dir, '--url', emu.url, '--format', 'markdown', '--show-unmanaged']);
    assert.equal(run.code, 0, run.err);
    assert.ok(
      run.out.includes(`\n<details><summary>1 unmanaged object: outside every manage scope, left alone</summary>\n\n- \`Rule/made-by-hand\` in space \`default\` (id \`${madeId}\`)\n\n</details>\n`),
      run.out,
    );
    const plain = await cli(['plan', dir, '--url', emu.url, '--format', 'markdown']);
    assert.doesNotMatch(plain.out, /made-by-hand/);
  });

  it('in show of a saved plan: text and Markdown with --show-unmanaged, the HTML page always (issue 33 part 6)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svcform-unmanaged-')), 'plan.json');
    const saved = await cli(['plan', dir, '--url', emu.url, '--out', file]);
    assert.equal(saved.code, 0, saved.err);
    const text = await cli(['show', file, '--show-unmanaged']);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, new RegExp(`^Unmanaged, outside every manage scope and left alone \\(1\\):\\n  Rule/made-by-hand \\(space default, id ${madeId}\\)$`, 'm'));
    assert.doesNotMatch((await cli(['show', file])).out, /made-by-hand/);
    const markdown = await cli(['show', file, '--format', 'markdown', '--show-unmanaged']);
    assert.ok(markdown.out.includes(`- \`Rule/made-by-hand\` in space \`default\` (id \`${madeId}\`)`), markdown.out);
    for (const args of [['show', file, '--format', 'html'], ['plan', dir, '--url', emu.url, '--format', 'html'], ['drift', dir, '--url', emu.url, '--format', 'html']]) {
      const page = await cli(args);
      assert.ok(page.out.includes(`<h2>1 unmanaged object</h2> outside every manage scope, left alone`), args.join(' '));
      assert.ok(page.out.includes(`<code>Rule/made-by-hand (space default, id ${madeId})</code>`), args.join(' '));
    }
  });

  it('in the JSON plan always, with or without the flag, valid against the plan schema', async () => {
    const run = await cli(['plan', dir, '--url', emu.url, '--json']);
    assert.equal(run.code, 0, run.err);
    const plan = JSON.parse(run.out);
    assert.ok(validatePlan(plan), JSON.stringify(validatePlan.errors));
    assert.deepEqual(plan.unmanaged, [{ kind: 'Rule', space: 'default', name: 'made-by-hand', id: madeId }]);
    assert.equal(plan.summary.unmanaged, 1);
    // Nothing unmanaged: still the array.
    const scoped = mkdtempSync(join(tmpdir(), 'svcform-unmanaged-'));
    writeFileSync(join(scoped, 'svcform.yaml'), 'manage:\n  - kind: Rule\n');
    writeFileSync(join(scoped, 'rule.yaml'), RULE);
    const none = JSON.parse((await cli(['plan', scoped, '--url', emu.url, '--json'])).out);
    assert.deepEqual(none.unmanaged, []);
    assert.ok(validatePlan(none), JSON.stringify(validatePlan.errors));
  });
});
