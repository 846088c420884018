import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/** examples/exceptions in a directory of its own, to be edited. */
function exceptionsRepo(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-exceptions-'));
  cpSync('examples/exceptions', dir, { recursive: true });
  return { dir, file: join(dir, 'ssh-allowlist.yaml') };
}

const AUDIT_ITEM = ['    - item_id: audit-replay', '      name: Audit replay', '      description: The yearly audit replays failed logins.', '      entries:', '        - {field: user.name, type: match, operator: included, value: audit-replay}', ''].join('\n');

/** The list changed in its own fields and in each of its items. */
function editExceptions(file: string): void {
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    text
      .replace('whose failed SSH logins are expected.', 'whose failed SSH logins are expected (reviewed).')
      .replace('(change 4711).', '(change 4712).')
      .replace('with a throw-away user.', 'with a throw-away user every 10 s.'),
  );
}

async function faulted(emu: RunningEmulator, faults: unknown[], args: string[]) {
  await call(emu, 'PUT', '/__emulator/faults', { faults });
  const ran = await cli(args);
  const fired = (await call(emu, 'GET', '/__emulator/faults')).body.faults.map((f: { fired: number }) => f.fired);
  await call(emu, 'DELETE', '/__emulator/faults');
  return { ...ran, fired };
}

/**
 * Writes whose answer is lost after the server acted: the summary must say what the server holds
 * (issue 31, "Mis-reports"; both found by the fault campaign).
 */
describe('lost answers are reported as what the server holds', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((running) => (emu = running));

  it('a prebuilt-rules install whose answer is lost is done, not "not installed"', async () => {
    // The install lands, its answer is dropped; the client repeats it (installing is idempotent)
    // and the repeat is answered with every rule skipped as ALREADY_INSTALLED and none created.
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '/installation/_perform$', dropAfterServe: true, times: 1 }] });
    const applied = await cli(['apply', 'examples/detection-content/prebuilt-rules.yaml', '--url', emu.url]);
    const fired = (await call(emu, 'GET', '/__emulator/faults')).body.faults[0].fired;
    await call(emu, 'DELETE', '/__emulator/faults');
    assert.equal(fired, 1, 'the install answer was lost');
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /Apply: 1 done, 0 failed, 0 skipped\./);
    const plan = await cli(['plan', 'examples/detection-content/prebuilt-rules.yaml', '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  for (const [what, fault] of [
    ['dropped', { dropAfterServe: true }],
    ['answered 504', { statusAfterServe: 504 }],
  ] as const) {
    it(`an exception-list update whose answers are ${what} after landing is done, not a 409 against its own write`, async () => {
      // Each PUT lands and its answer is lost; the client repeats it with the _version it read
      // before, which its own first attempt made stale.
      const { dir, file } = exceptionsRepo();
      assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
      editExceptions(file);
      const faults = [
        { method: 'PUT', path: '^/api/exception_lists$', times: 1, ...fault },
        { method: 'PUT', path: '^/api/exception_lists/items$', times: 2, ...fault },
      ];
      const applied = await faulted(emu, faults, ['apply', dir, '--url', emu.url]);
      assert.deepEqual(applied.fired, [1, 2], 'the answers of the list and of both items were lost');
      assert.equal(applied.code, 0, applied.out + applied.err);
      assert.match(applied.out, /Apply: 1 done, 0 failed, 0 skipped\./);
      const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
      assert.equal(plan.code, 0, plan.out + plan.err);
    });
  }

  it('an exception item whose create landed but whose answer was lost is recognised as ours on the 409 of its repeat', async () => {
    const { dir, file } = exceptionsRepo();
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFileSync(file, readFileSync(file, 'utf8') + AUDIT_ITEM);
    const text = readFileSync(file, 'utf8').replace('(change 4711).', '(change 4712).');
    assert.notEqual(text, readFileSync(file, 'utf8'));
    writeFileSync(file, text);
    // The item update beside it is slow: the apply must not judge the list before it has landed.
    const faults = [
      { method: 'POST', path: '^/api/exception_lists/items$', dropAfterServe: true, times: 1 },
      { method: 'PUT', path: '^/api/exception_lists/items$', delayMs: 400, times: 1 },
    ];
    const applied = await faulted(emu, faults, ['apply', dir, '--url', emu.url]);
    assert.deepEqual(applied.fired, [1, 1], 'the item create answer was lost');
    assert.doesNotMatch(applied.out, /after a failed answer/, 'each item write was settled where it was made');
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /Apply: 1 done, 0 failed, 0 skipped\./);
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('an exception item someone else created meanwhile under the same item_id is still a conflict', async () => {
    const { dir, file } = exceptionsRepo();
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    writeFileSync(file, readFileSync(file, 'utf8') + AUDIT_ITEM);
    // The apply's create is held back; while it waits, another writer creates the item otherwise.
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/exception_lists/items$', delayMs: 1500, times: 1 }] });
    const applying = cli(['apply', dir, '--url', emu.url]);
    while ((await call(emu, 'GET', '/__emulator/faults')).body.faults[0].fired === 0) await new Promise((r) => setTimeout(r, 20));
    const theirs = { list_id: 'soc-ssh-allowlist', item_id: 'audit-replay', type: 'simple', name: 'Audit replay', description: 'Someone else', namespace_type: 'single', entries: [{ field: 'user.name', type: 'match', operator: 'included', value: 'someone' }] };
    assert.equal((await call(emu, 'POST', '/api/exception_lists/items', theirs)).status, 200);
    const applied = await applying;
    await call(emu, 'DELETE', '/__emulator/faults');
    assert.equal(applied.code, 1, applied.out + applied.err);
    assert.match(applied.out, /409 Conflict: exception list item id: "audit-replay" already exists/);
    const held = await call(emu, 'GET', '/api/exception_lists/items?item_id=audit-replay&namespace_type=single');
    assert.equal(held.body.description, 'Someone else', 'their item is left as they wrote it');
  });
});
