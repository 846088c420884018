import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCampaign } from './campaign.js';

describe('fault campaign (npm run campaign runs more; this is the small one)', () => {
  it('converges with nothing duplicated, lost or misreported under ~10% injected faults', async () => {
    const results = await runCampaign({ runs: 1, seed: 7, copies: 3, rate: 0.1 });
    for (const r of results) {
      assert.ok(r.converged, r.notes.join('\n'));
      assert.equal(r.duplicated, 0, r.notes.join('\n'));
      assert.equal(r.lost, 0, r.notes.join('\n'));
      assert.equal(r.misreported, 0, r.notes.join('\n'));
    }
  });
});
