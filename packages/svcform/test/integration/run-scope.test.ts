import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/**
 * One run scope per command (src/kinds/run-scope.ts): every rule write of an apply shares one
 * connector listing per space, whatever wraps the context it is given (the engine traces each
 * write's requests with a context of its own). Before the run scope, the listing was cached per
 * context object and an apply of 4 rules listed connectors 6 times. A run whose plan listed the
 * connectors of a space already looks them up in that listing (run-lookup.ts, ListingSeed).
 */

const CONNECTORS = '/api/actions/connectors';
const SPACES = ['default', 'blue'];
const PER_SPACE = 20;

function rule(space: string, i: number): string {
  return [
    'apiVersion: svcform/v1',
    'kind: Rule',
    'metadata:',
    `  name: scope-${space}-${i}`,
    `  space: ${space}`,
    'spec:',
    '  type: query',
    `  name: Scope rule ${space} ${i}`,
    '  description: A rule whose action names a connector without its type.',
    '  severity: low',
    '  risk_score: 21',
    '  query: "event.category:process"',
    '  actions:',
    '    - id: pager',
    '      group: default',
    '      params: {message: "hit"}',
  ].join('\n');
}

describe('one run scope per command', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator({ spaces: ['blue'] });
    for (const space of SPACES) {
      const prefix = space === 'default' ? '' : `/s/${space}`;
      await call(emu, 'POST', `${prefix}/api/actions/connector/pager`, { name: 'Pager', connector_type_id: '.server-log' });
    }
    dir = mkdtempSync(join(tmpdir(), 'svcform-run-scope-'));
    writeFileSync(join(dir, 'rules.yaml'), SPACES.flatMap((s) => Array.from({ length: PER_SPACE }, (_, i) => rule(s, i))).join('\n---\n') + '\n');
  });
  after(async () => {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists connectors once per space during an apply of 40 rules with actions', async () => {
    const start = emu.log.all().length;
    // Without the apply lease, whose protocol reads the same route for its own ends.
    const run = await cli(['apply', dir, '--url', emu.url, '--no-lock']);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, /Apply: 40 done, 0 failed, 0 skipped\./);
    const listings = emu.log.all().slice(start).filter((r) => r.method === 'GET' && r.path.endsWith(CONNECTORS));
    assert.deepEqual(listings.map((r) => r.space).sort(), [...SPACES].sort());
  });
});
