import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulatorResetPerTest } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { applyFilter, parseFilter } from '../src/areas/lists/find.js';
import { documentsMatching } from '../src/documents.js';

/**
 * Issue 31: wildcards a client sends (a find filter, an index pattern) are matched as the backend's
 * wildcard automaton matches them, without backtracking (wire-facts §16 #14), so a pattern of many
 * stars over a long value answers at once instead of holding the emulator's event loop. With
 * JavaScript's RegExp, `*a*a*...*b` over 60 `a`s took longer than any test timeout.
 */

const STARS = `${'*a'.repeat(15)}*b`;
const LONG = 'a'.repeat(60);

describe('emulator: many-star wildcards from clients (issue 31)', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));

  it('a rules _find filter with 16 stars over a 60-character tag answers at once, and still matches what it should', async () => {
    const rule = { rule_id: 'long-tag', name: 'Long tag', description: 'd', severity: 'low', risk_score: 1, type: 'query', query: 'a:b', tags: [LONG, `${LONG}b`] };
    assert.equal((await call(emu, 'POST', '/api/detection_engine/rules', rule)).status, 200);
    const started = Date.now();
    const none = await call(emu, 'GET', `/api/detection_engine/rules/_find?filter=${encodeURIComponent(`alert.attributes.tags:${STARS}x`)}`);
    const some = await call(emu, 'GET', `/api/detection_engine/rules/_find?filter=${encodeURIComponent(`alert.attributes.tags:${STARS}`)}`);
    assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
    assert.equal(none.body.total, 0);
    assert.equal(some.body.total, 1);
  });

  it('a lists filter and an index pattern of many stars match in linear time', () => {
    const started = Date.now();
    const rows = [{ name: LONG, tie_breaker_id: '1' }, { name: `${LONG}b`, tie_breaker_id: '2' }];
    assert.deepEqual(applyFilter(rows, parseFilter(`name:${STARS}`)).map((r) => r.tie_breaker_id), ['2']);
    assert.deepEqual(documentsMatching(emu.store, [`${'*l'.repeat(15)}*x`]), []);
    assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
  });
});
