import { knownKinds } from '../../src/kinds/registry.js';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildProgram, runCli } from '../../src/cli/program.js';
import type { Io } from '../../src/cli/context.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

const EXAMPLES = resolve('examples');
const silentIo: Io = { out: () => {}, err: () => {}, env: { XDG_CACHE_HOME: TEST_CACHE_HOME }, outTty: false, errTty: false };

describe('--quiet and --verbose, as the README documents them', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    const applied = await cli(['apply', EXAMPLES, '--url', emu.url, '--quiet']);
    assert.equal(applied.code, 0, applied.out + applied.err);
  });
  after(() => emu.stop());

  it('every command takes both, and refuses both at once', async () => {
    const program = buildProgram(silentIo, () => {});
    const required: Record<string, string[]> = { export: ['--out', 'x'], schemas: ['--out', 'x'], completion: ['bash'], promote: ['--from', 'a', '--to', 'b'] };
    for (const cmd of program.commands) {
      const flags = cmd.options.map((o) => o.long);
      assert.ok(flags.includes('--quiet') && flags.includes('--verbose'), `${cmd.name()} lacks --quiet or --verbose`);
      const both = await cli([cmd.name(), ...(required[cmd.name()] ?? []), '--quiet', '--verbose']);
      assert.equal(both.code, 1, cmd.name());
      assert.match(both.err, /option '--quiet' cannot be used with option '--verbose'/, cmd.name());
    }
  });

  it('validate: the success line is on stdout and stderr is empty; --quiet prints nothing; --verbose names each file read', async () => {
    const plain = await cli(['validate', EXAMPLES]);
    assert.equal(plain.code, 0);
    assert.match(plain.out, /^\d+ resources in \d+ files: valid \(0 errors, 0 warnings\)$/);
    assert.equal(plain.err, '');
    const quiet = await cli(['validate', EXAMPLES, '--quiet']);
    assert.deepEqual([quiet.code, quiet.out, quiet.err], [0, '', '']);
    const verbose = await cli(['validate', EXAMPLES, '--verbose']);
    assert.match(verbose.err, /^read .*examples\/rules\/execution\.yaml$/m);
    assert.match(verbose.err, /^validated \d+ resources in \d+ files in \d+ ms$/m);
    assert.equal(verbose.out, plain.out);
  });

  it('plan on a terminal: a progress line with counts per kind on stderr while live state is read', async () => {
    const run = await cli(['plan', EXAMPLES, '--url', emu.url], {}, { outTty: true, errTty: true });
    assert.equal(run.code, 0, run.err);
    const lines = run.err.split('\n').filter((l) => l.startsWith('Reading live state: '));
    assert.ok(lines.length >= 2, run.err);
    const last = /^Reading live state: (\d+)\/(\d+) lists \((.*)\)$/.exec(lines.at(-1)!);
    assert.ok(last, lines.at(-1));
    assert.equal(last[1], last[2], 'the last line has every list read');
    // 15 example rules and the 3 prebuilt rules the example PrebuiltRules set installs.
    assert.match(last[3], /(^|, )Rule 18(,|$)/);
    assert.match(last[3], /(^|, )Connector \d+(,|$)/);
    assert.doesNotMatch(run.out, /Reading live state/, 'progress never goes to stdout');
  });

  it('no progress line when stderr is not a terminal, nor under --quiet; --verbose prints a line per list instead', async () => {
    const piped = await cli(['plan', EXAMPLES, '--url', emu.url]);
    assert.doesNotMatch(piped.err, /Reading live state/);
    const quiet = await cli(['plan', EXAMPLES, '--url', emu.url, '--quiet'], {}, { outTty: true, errTty: true });
    assert.equal(quiet.err, '');
    const verbose = await cli(['plan', EXAMPLES, '--url', emu.url, '--verbose'], {}, { outTty: true, errTty: true });
    assert.doesNotMatch(verbose.err, /Reading live state/);
    assert.match(verbose.err, /^listed 18 Rule in space default \(\d+ ms\)$/m);
  });

  it('on a real terminal the line is rewritten in place (Io.progress) and cleared once reading is done', async () => {
    const shown: string[] = [];
    const err: string[] = [];
    const io: Io = { out: () => {}, err: (t) => err.push(t), progress: (l) => shown.push(l), env: { XDG_CACHE_HOME: TEST_CACHE_HOME }, outTty: true, errTty: true };
    assert.equal(await runCli(['plan', EXAMPLES, '--url', emu.url], io), 0);
    assert.ok(shown.length >= 2);
    assert.match(shown[0], /^Reading live state: /);
    assert.equal(shown.at(-1), '', 'cleared at the end');
    assert.ok(!err.some((l) => l.includes('Reading live state')));
  });

  it('schemas: --quiet prints nothing, --verbose names each file written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-schemas-'));
    const quiet = await cli(['schemas', '--out', join(dir, 'a'), '--quiet']);
    assert.deepEqual([quiet.code, quiet.out, quiet.err], [0, '', '']);
    assert.equal(readdirSync(join(dir, 'a')).length, knownKinds().length, 'one schema per kind');
    const verbose = await cli(['schemas', '--out', join(dir, 'b'), '--verbose']);
    assert.equal(verbose.err.split('\n').filter((l) => l.startsWith('wrote ')).length, knownKinds().length);
  });
});
