import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { call, emulator } from '../helpers/emulator.js';
import { cli } from '../helpers/cli.js';

/**
 * Writes whose answer is lost after the server acted: the summary must say what the server holds
 * (issue 31, "Mis-reports"; both found by the fault campaign).
 */
describe('lost answers are reported as what the server holds', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  beforeEach(async () => {
    await call(emu, 'POST', '/__emulator/reset');
    await call(emu, 'DELETE', '/__emulator/faults');
  });

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
});
