import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isValidDateMath } from '../src/date-math.js';

/**
 * A rule's `from` as the server checks it: isValidDateMath (kbn-zod-helpers) asks @kbn/datemath's
 * parse (src/platform/packages/shared/kbn-datemath/index.ts `parse`, `parseDateMath`) for a valid
 * moment. Each case below is a form that parser reads or refuses.
 */
describe('date math as the server reads it', () => {
  it('takes now with operations, a missing count meaning 1', () => {
    for (const s of ['now', 'now-6m', 'now-1h/h', 'now/d', 'now-d', 'now+1M/M', 'now-500ms', 'now-2w-3d/d']) assert.ok(isValidDateMath(s), s);
  });

  it('takes an absolute date, alone or anchored with ||', () => {
    for (const s of ['2024-01-01T00:00:00Z', '2024-01-01', '2024-01-01T00:00:00Z||-1d', '2024-01-01||/d', '2024-01-01T00:00:00.000+02:00||-1d/d', '2024-W01-1', '2024-01-01||' /* nothing after the anchor: the date alone */]) assert.ok(isValidDateMath(s), s);
  });

  it('refuses what the parser cannot read', () => {
    const refused = [
      '', 'later', 'last-tuesday', ' now-5m', // text before now is read as a date
      'now-6x', 'now-5mo', // no such unit; letters after the unit belong to it
      'now-5', 'now-', 'now-15', // a count with no unit
      'now/2d', // rounding takes one whole unit
      'now*2d', 'now 5m',
      'now-3755555555555555.67s', // a fraction is no count: '.' is read as the unit
      '||-1d', 'someday||-1d', '2024-01-01||-1x',
    ];
    for (const s of refused) assert.equal(isValidDateMath(s), false, s);
  });
});
