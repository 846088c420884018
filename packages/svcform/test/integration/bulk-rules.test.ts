import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { connectorManifests, ruleManifest } from '../../bench/generate.js';
import { ruleYaml } from '../helpers/repo.js';

/**
 * Bulk writes of rules (design.md "Layout": a wave's rule creates and updates through `_import`,
 * each rule's result still reported on its own). Request counts come from the emulator's log.
 */

const RULES = '/api/detection_engine/rules';
const IMPORT = `${RULES}/_import`;
const COUNT = 40;
const BAD = 20;

/** Writes the rules file; returns the 1-based line where each rule's document starts. */
function writeRules(dir: string, edit: (doc: string, i: number) => string = (d) => d): number[] {
  const docs = Array.from({ length: COUNT }, (_, i) => edit(ruleManifest(i, 3), i));
  const starts: number[] = [];
  let line = 1;
  for (const doc of docs) {
    starts.push(line);
    line += doc.split('\n').length; // the document's lines, then the --- separator
  }
  writeFileSync(join(dir, 'rules.yaml'), docs.join('---\n'));
  writeFileSync(join(dir, 'connectors.yaml'), connectorManifests());
  return starts;
}

const ruleIdOf = (i: number) => /name: (\S+)/.exec(ruleManifest(i, 3))![1];

describe('rules are created and updated in bulk through _import', () => {
  let emu: RunningEmulator;
  let dir: string;
  const count = (method: string, path: string) => emu.log.all().filter((r) => r.method === method && r.path === path).length;
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-bulk-'));
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a rule the server rejects in the middle of a chunk at its file:line, and applies the rest', async () => {
    // The server refuses date math it cannot parse (isValidDateMath, the import and the create
    // alike); svcform leaves date math to the server, so only the import refuses the rule, and as
    // it cannot name the line it refused, the rest are read back.
    const starts = writeRules(dir, (doc, i) => (i === BAD ? doc.replace(/^  from: .*$/m, '  from: last-tuesday') : doc));
    const run = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(run.code, 1, run.out + run.err);
    assert.match(run.out, /Apply: 42 done, 1 failed, 0 skipped\./);
    const failed = run.out.split('\n').find((l) => l.startsWith('✗'))!;
    assert.ok(failed.includes(`create Rule/${ruleIdOf(BAD)} (space default)`), failed);
    assert.ok(failed.includes('Failed to parse date-math expression'), failed);
    assert.ok(failed.endsWith(`(${join(dir, 'rules.yaml')}:${starts[BAD]}:1)`), failed);
    assert.equal(count('POST', IMPORT), 1, 'one import for the 40 creates');
    assert.equal(count('POST', RULES), 1, 'the rejected rule alone, once');
    const held = (await call(emu, 'GET', `${RULES}/_find?per_page=100`)).body;
    assert.equal(held.total, COUNT - 1);
    assert.ok(held.data.every((r: any) => r.rule_id !== ruleIdOf(BAD)));
  });

  it('a later apply creates the fixed rule alone; an update of every rule is one overwrite import, then plan is empty', async () => {
    writeRules(dir);
    emu.log.clear();
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    assert.deepEqual([count('POST', IMPORT), count('POST', RULES)], [0, 1], 'one create: below the bulk threshold');

    writeRules(dir, (doc) => doc.replace('  severity:', '  setup: revised\n  severity:'));
    emu.log.clear();
    const updated = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(updated.code, 0, updated.out + updated.err);
    assert.match(updated.out, new RegExp(`Apply: ${COUNT} done, 0 failed`));
    const imports = emu.log.all().filter((r) => r.method === 'POST' && r.path === IMPORT);
    assert.deepEqual(imports.map((r) => r.query), ['?overwrite=true']);
    assert.equal(count('PUT', RULES), 0, 'no update one by one');
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });
});

describe('bulk creates whose answer is lost are read back, never imported twice', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-bulk-lost-'));
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an import that commits and then loses its connection is confirmed by one listing', async () => {
    writeRules(dir);
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: `^${IMPORT}$`, dropAfterServe: true, times: 1 }] });
    const run = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, /confirmed on the server after an unclear bulk answer/);
    const log = emu.log.all();
    assert.equal(log.filter((r) => r.method === 'POST' && r.path === IMPORT).length, 1, 'not imported again');
    assert.equal(log.filter((r) => r.method === 'POST' && r.path === RULES).length, 0, 'nor created one by one');
    assert.equal((await call(emu, 'GET', `${RULES}/_find?per_page=100`)).body.total, COUNT);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('an update import whose every retry loses its answer, though each landed, is read back and reported done (found by the fault campaign)', async () => {
    writeRules(dir, (doc) => doc.replace('  severity:', '  setup: revised again\n  severity:'));
    // Overwrite imports are repeated by the client; each attempt commits and loses its answer.
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: `^${IMPORT}$`, dropAfterServe: true }] });
    const run = await cli(['apply', dir, '--url', emu.url]);
    const fired = (await call(emu, 'GET', '/__emulator/faults')).body.faults[0].fired;
    await call(emu, 'DELETE', '/__emulator/faults');
    assert.ok(fired >= 2, `the import was repeated (${fired} answers lost)`);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, new RegExp(`Apply: ${COUNT} done, 0 failed`));
    assert.match(run.out, /confirmed on the server after an unclear bulk answer/);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});

describe('a rule that names exception lists is written on its own, keeping its links', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-bulk-exc-'));
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates and updates go around _import, which would unlink a list it cannot resolve (check_rule_exception_references.ts)', async () => {
    // The list exists on the server; the manifest links it by list_id and svcform resolves its id.
    const list = await call(emu, 'POST', '/api/exception_lists', { list_id: 'shared-exceptions', name: 'Shared', description: 'd', type: 'detection' });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const link = '  exceptions_list:\n    - {list_id: shared-exceptions, type: detection, namespace_type: single}\n';
    const withLink = (doc: string, i: number) => (i === 5 ? doc.replace('  severity:', `${link}  severity:`) : doc);
    writeRules(dir, withLink);
    const created = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(created.code, 0, created.out + created.err);
    writeRules(dir, (doc, i) => withLink(doc.replace('  severity:', '  setup: revised\n  severity:'), i));
    const updated = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(updated.code, 0, updated.out + updated.err);
    const log = emu.log.all();
    assert.equal(log.filter((r) => r.method === 'POST' && r.path === RULES).length, 1);
    assert.equal(log.filter((r) => r.method === 'PUT' && r.path === RULES).length, 1);
    assert.equal(log.filter((r) => r.method === 'POST' && r.path === IMPORT).length, 2);
    // Each apply lists the lists once (both namespaces), for its plan; the link's id is looked up in that listing.
    assert.equal(log.filter((r) => r.method === 'GET' && r.path === '/api/exception_lists/_find').length, 4);
    const rule = (await call(emu, 'GET', `${RULES}?rule_id=${ruleIdOf(5)}`)).body;
    assert.deepEqual(rule.exceptions_list, [{ id: list.body.id, list_id: 'shared-exceptions', type: 'detection', namespace_type: 'single' }]);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});

describe('deletes of managed rules go through the bulk action, each rule reported on its own', () => {
  let emu: RunningEmulator;
  let dir: string;
  const MANY = 120;
  const writeMany = (count: number) => {
    writeFileSync(join(dir, 'rules.yaml'), Array.from({ length: count }, (_, i) => ruleManifest(i, 5)).join('---\n'));
    writeFileSync(join(dir, 'connectors.yaml'), connectorManifests());
    writeFileSync(join(dir, 'svcform.yaml'), 'manage:\n  - kind: Rule\n');
  };
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-bulk-delete-'));
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('120 deletes are two _bulk_action requests of at most 100 ids (the route refuses more), not 120 DELETEs', async () => {
    writeMany(MANY);
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeMany(0);
    emu.log.clear();
    const run = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, new RegExp(`Apply: ${MANY} done, 0 failed, 0 skipped\\.`));
    assert.equal(run.out.split('\n').filter((l) => l.startsWith('✓ delete Rule/')).length, MANY);
    const log = emu.log.all();
    const bulk = log.filter((r) => r.method === 'POST' && r.path === `${RULES}/_bulk_action`);
    assert.equal(bulk.length, 2);
    assert.equal(log.filter((r) => r.method === 'DELETE').length, 0);
    // Everything the apply sent: the listings of its plan, the lease, the two bulk deletes.
    assert.ok(log.length < 12, log.map((r) => `${r.method} ${r.path}`).join('\n'));
    assert.equal((await call(emu, 'GET', `${RULES}/_find?per_page=100`)).body.total, 0);
  });

  it('deleting 100 managed rules sends fewer than 10 requests in all (issue 29)', async () => {
    // Rules alone: the listings a plan of connectors needs are not part of deleting rules.
    const only = mkdtempSync(join(tmpdir(), 'svcform-bulk-delete-100-'));
    try {
      writeFileSync(join(only, 'svcform.yaml'), 'manage:\n  - kind: Rule\n');
      writeFileSync(join(only, 'rules.yaml'), Array.from({ length: 100 }, (_, i) => ruleYaml(`hundred-${i}`)).join('---\n'));
      assert.equal((await cli(['apply', only, '--url', emu.url, '--auto-approve'])).code, 0);
      writeFileSync(join(only, 'rules.yaml'), '');
      emu.log.clear();
      const run = await cli(['apply', only, '--url', emu.url, '--auto-approve']);
      assert.equal(run.code, 0, run.out + run.err);
      assert.match(run.out, /Apply: 100 done, 0 failed, 0 skipped\./);
      const log = emu.log.all();
      assert.ok(log.length < 10, `${log.length} requests:\n${log.map((r) => `${r.method} ${r.path}`).join('\n')}`);
      assert.equal((await call(emu, 'GET', `${RULES}/_find?per_page=100`)).body.total, 0);
    } finally {
      rmSync(only, { recursive: true, force: true });
    }
  });

  it('a bulk delete that lands and loses its answer is confirmed gone by one listing, never sent rule by rule', async () => {
    writeMany(30);
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeMany(0);
    emu.log.clear();
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: `^${RULES}/_bulk_action$`, dropAfterServe: true, times: 1 }] });
    const run = await cli(['apply', dir, '--url', emu.url, '--auto-approve']);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, /confirmed gone from the server after an unclear bulk answer/);
    assert.equal(emu.log.all().filter((r) => r.method === 'DELETE').length, 0);
    assert.equal((await call(emu, 'GET', `${RULES}/_find?per_page=100`)).body.total, 0);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});

describe('a rule the import would treat differently is written beside the import, not after its answer', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-bulk-beside-'));
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the linked rule is POSTed while the slow import is still being answered, and every rule is reported once', async () => {
    const list = await call(emu, 'POST', '/api/exception_lists', { list_id: 'beside-exceptions', name: 'Beside', description: 'd', type: 'detection' });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const link = '  exceptions_list:\n    - {list_id: beside-exceptions, type: detection, namespace_type: single}\n';
    writeRules(dir, (doc, i) => (i === 5 ? doc.replace('  severity:', `${link}  severity:`) : doc));
    // The import's answer takes 2 s; before, the linked rule waited for it (apply-batch.ts, writesAlone).
    const DELAY = 2000;
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/detection_engine/rules/_import$', delayMs: DELAY, times: 1 }] });
    const run = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(run.code, 0, run.out + run.err);
    const log = emu.log.all();
    const imports = log.filter((r) => r.method === 'POST' && r.path === IMPORT);
    const alone = log.filter((r) => r.method === 'POST' && r.path === RULES);
    assert.equal(imports.length, 1);
    assert.equal(alone.length, 1, 'the linked rule alone, once');
    const gap = Date.parse(alone[0].time) - Date.parse(imports[0].time);
    assert.ok(gap < DELAY / 2, `the linked rule's POST came ${gap} ms after the import arrived`);
    assert.equal(run.out.split('\n').filter((l) => l.startsWith('✓ create Rule/')).length, COUNT);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});
