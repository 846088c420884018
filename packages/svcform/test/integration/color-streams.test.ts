import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

const ESC = '\x1b[';

function connectors(prefix: string, n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-color-'));
  const docs = Array.from({ length: n }, (_, i) => `apiVersion: svcform/v1\nkind: Connector\nmetadata: {name: ${prefix}-${i}}\nspec: {name: log ${i}, connector_type_id: .server-log}\n`);
  writeFileSync(join(dir, 'connectors.yaml'), docs.join('---\n'));
  return dir;
}

describe('colours follow the stream written, not stderr (issue 12: item 5)', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = connectors('c', 2);
  });
  after(() => emu.stop());

  it('plan > plan.txt in a terminal: stdout is a file, so no escape codes in it', async () => {
    const run = await cli(['plan', dir, '--url', emu.url], {}, { outTty: false, errTty: true });
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /^\+ create Connector\/c-0/m);
    assert.ok(!run.out.includes(ESC), JSON.stringify(run.out));
  });

  it('plan 2> log in a terminal: stdout is the terminal, so the plan is coloured', async () => {
    const run = await cli(['plan', dir, '--url', emu.url], {}, { outTty: true, errTty: false });
    assert.ok(run.out.includes(`${ESC}32m+ create Connector/c-0`), JSON.stringify(run.out));
  });

  it('FORCE_COLOR colours output that is not a terminal (CI logs); NO_COLOR and --no-color win over it', async () => {
    const forced = await cli(['plan', dir, '--url', emu.url], { FORCE_COLOR: '1' });
    assert.ok(forced.out.includes(`${ESC}32m+ create`), JSON.stringify(forced.out));
    for (const [env, args] of [[{ FORCE_COLOR: '1', NO_COLOR: '1' }, []], [{ FORCE_COLOR: '1' }, ['--no-color']], [{ FORCE_COLOR: '0' }, []]] as const) {
      const run = await cli(['plan', dir, '--url', emu.url, ...args], env, { tty: true });
      assert.ok(!run.out.includes(ESC), `${JSON.stringify(env)} ${args.join(' ')}: ${JSON.stringify(run.out)}`);
    }
    const dumb = await cli(['plan', dir, '--url', emu.url], { TERM: 'dumb' }, { tty: true });
    assert.ok(!dumb.out.includes(ESC), 'TERM=dumb');
  });

  it('JSON, Markdown and HTML never carry colours, even on a terminal with FORCE_COLOR', async () => {
    for (const format of ['json', 'markdown', 'html']) {
      const run = await cli(['plan', dir, '--url', emu.url, '--format', format], { FORCE_COLOR: '1' }, { tty: true });
      assert.equal(run.code, 0, run.err);
      assert.ok(!run.out.includes(ESC), format);
    }
  });

  it('apply colours its result lines for stdout and its --quiet failure lines for stderr, each by its own stream', async () => {
    await call(emu, 'PUT', '/__emulator/faults', { faults: [{ method: 'POST', path: '^/api/actions/connector/q[12]-1$', status: 400 }] });
    try {
      const toTerminal = await cli(['apply', connectors('a', 2), '--url', emu.url], {}, { outTty: true, errTty: false });
      assert.equal(toTerminal.code, 0, toTerminal.err);
      assert.ok(toTerminal.out.includes(`${ESC}32m✓`), JSON.stringify(toTerminal.out));

      const errTerminal = await cli(['apply', connectors('q1', 2), '--url', emu.url, '--quiet'], {}, { outTty: false, errTty: true });
      assert.equal(errTerminal.code, 1);
      assert.ok(errTerminal.err.includes(`${ESC}31m✗`), JSON.stringify(errTerminal.err));
      assert.ok(!errTerminal.out.includes(ESC), JSON.stringify(errTerminal.out));

      const errFile = await cli(['apply', connectors('q2', 2), '--url', emu.url, '--quiet'], {}, { outTty: true, errTty: false });
      assert.equal(errFile.code, 1);
      assert.match(errFile.err, /✗ create Connector\/q2-1/);
      assert.ok(!errFile.err.includes(ESC), JSON.stringify(errFile.err));
    } finally {
      await call(emu, 'PUT', '/__emulator/faults', { faults: [] });
    }
  });
});
