import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { colorSupported } from '../../src/report/color.js';

describe('colours are decided per stream (issue 12: item 5)', () => {
  const cases: Array<[string, Parameters<typeof colorSupported>[0], boolean]> = [
    ['a terminal', { env: {}, isTTY: true }, true],
    ['a file or a pipe', { env: {}, isTTY: false }, false],
    ['a terminal with TERM=dumb', { env: { TERM: 'dumb' }, isTTY: true }, false],
    ['--no-color on a terminal', { colorFlag: false, env: {}, isTTY: true }, false],
    ['NO_COLOR on a terminal', { env: { NO_COLOR: '1' }, isTTY: true }, false],
    ['an empty NO_COLOR on a terminal (no-color.org: empty means unset)', { env: { NO_COLOR: '' }, isTTY: true }, true],
    ['FORCE_COLOR into a file', { env: { FORCE_COLOR: '1' }, isTTY: false }, true],
    ['FORCE_COLOR=true into a pipe', { env: { FORCE_COLOR: 'true' }, isTTY: false }, true],
    ['FORCE_COLOR with TERM=dumb', { env: { FORCE_COLOR: '1', TERM: 'dumb' }, isTTY: true }, true],
    ['FORCE_COLOR=0 on a terminal', { env: { FORCE_COLOR: '0' }, isTTY: true }, false],
    ['FORCE_COLOR=false on a terminal', { env: { FORCE_COLOR: 'false' }, isTTY: true }, false],
    ['FORCE_COLOR and NO_COLOR (picocolors: NO_COLOR wins)', { env: { FORCE_COLOR: '1', NO_COLOR: '1' }, isTTY: true }, false],
    ['FORCE_COLOR and --no-color (the flag wins)', { colorFlag: false, env: { FORCE_COLOR: '1' }, isTTY: false }, false],
    ['CI alone into a file (no escape codes in a redirected file)', { env: { CI: 'true' }, isTTY: false }, false],
  ];
  for (const [what, inputs, expected] of cases) {
    it(`${what}: ${expected ? 'colours' : 'no colours'}`, () => assert.equal(colorSupported(inputs), expected));
  }
});
