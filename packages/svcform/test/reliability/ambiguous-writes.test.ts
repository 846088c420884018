import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/** The maintenance windows of examples/ alone: their identity (the title) is not enforced by the server. */
function windowsRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-windows-'));
  cpSync('examples/maintenance', dir, { recursive: true });
  return dir;
}

async function windowTitles(emu: RunningEmulator): Promise<string[]> {
  const found = await call(emu, 'GET', '/api/maintenance_window/_find?per_page=100');
  return found.body.maintenanceWindows.map((w: any) => w.title).sort();
}

describe('creates are never blindly repeated (issue 11: items 1 and 3)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  beforeEach(async () => {
    await call(emu, 'POST', '/__emulator/reset');
    await call(emu, 'DELETE', '/__emulator/faults');
  });

  it('a 504 after the server committed a create does not duplicate a maintenance window; the summary says what the server holds', async () => {
    const dir = windowsRepo();
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/maintenance_window$', statusAfterServe: 504, times: 2 }] });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /Apply: 2 done, 0 failed, 0 skipped\./);
    assert.match(applied.out, /confirmed on the server after a lost answer/);
    assert.deepEqual(await windowTitles(emu), ['Data center migration (January 2027)', 'Weekly Linux patching']);
    const creates = emu.log.all().filter((r) => r.method === 'POST' && r.path === '/api/maintenance_window');
    assert.equal(creates.length, 2, 'each window was posted once');
    const plan = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(plan.code, 0, plan.out + plan.err);
  });

  it('a create whose request was lost before the server acted is tried again, once it has looked', async () => {
    const dir = windowsRepo();
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/maintenance_window$', status: 504, times: 1 }] });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /created on attempt 2, after a lost answer/);
    assert.deepEqual(await windowTitles(emu), ['Data center migration (January 2027)', 'Weekly Linux patching']);
  });

  it('a retried create of a client-chosen id that meets 409 is reported done, not failed', async () => {
    // The connector is created, its answer is lost (reset), the client repeats the POST and gets 409.
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/actions/connector/soc-server-log$', dropAfterServe: true, times: 1 }] });
    const applied = await cli(['apply', 'examples/connectors', '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /Connector\/soc-server-log.*already on the server, as the manifest says \(409 on create\)/);
    assert.match(applied.out, /Apply: 5 done, 0 failed, 0 skipped\./);
  });

  it('an update whose answers were all lost but which landed is reported done (found by the fault campaign)', async () => {
    const dir = windowsRepo();
    assert.equal((await cli(['apply', dir, '--url', emu.url])).code, 0);
    const file = join(dir, 'windows.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('duration: 4h', 'duration: 3h'));
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'PATCH', path: '^/api/maintenance_window/', statusAfterServe: 504 }] });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    await call(emu, 'DELETE', '/__emulator/faults');
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /confirmed on the server after a failed answer/);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });
});
